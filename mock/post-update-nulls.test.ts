import { describe, expect, it } from 'vitest';
import { fixtureMock } from '../test/in-process.js';

/**
 * An update by `POST` (spec/DECISIONS.md D150) keeps the nulls it is sent (D204): its JSON body is no merge patch,
 * so a required member whose schema states no type is set to null rather than removed (which its record would
 * refuse), and a null inside an object sent is stored as sent. Served from mock/fixtures/post-update-nulls.openapi.yaml.
 */
const { post, get } = await fixtureMock('post-update-nulls.openapi.yaml');

describe('nulls in an update by POST', () => {
  it('a required member described only in prose is set to null, and read back so', () => {
    const id = post('/alerts', { name: 'spend', labels: { team: 'a' } }).json.id as string;
    expect(post(`/alerts/${id}`, { labels: null })).toMatchObject({ status: 200, json: { id, name: 'spend', labels: null } });
    expect(get(`/alerts/${id}`).json).toMatchObject({ labels: null });
  });

  it('a null inside an object sent is kept, not dropped', () => {
    const id = post('/alerts', { name: 'spend', labels: {}, channel: { kind: 'email', prefix: 'x' } }).json.id as string;
    const updated = post(`/alerts/${id}`, { channel: { kind: 'email', prefix: null } });
    expect(updated).toMatchObject({ status: 200, json: { channel: { kind: 'email', prefix: null } } });
    expect(get(`/alerts/${id}`).json).toEqual(updated.json);
  });
});
