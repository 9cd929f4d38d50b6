import { describe, expect, it } from 'vitest';
import { fixtureMock } from '../test/in-process.js';

/**
 * Shapes public specs use that the resource conventions did not hold (spec/DECISIONS.md D70-D72), served from
 * mock/fixtures/wild-shapes.openapi.yaml: writes documenting no 2xx, a form `POST` on an item path, server-set
 * `readOnly` members, a read-only item path, and sub-resources under a parent known only by its read's example.
 */
const { send, post, get } = await fixtureMock('wild-shapes.openapi.yaml');
const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };

describe('writes whose spec documents no success (D70)', () => {
  it('a create documenting only a 405 answers 200 with the record as JSON; a form POST on the item updates it', () => {
    const created = post('/books', { title: 'Emma', status: 'available' });
    expect(created).toMatchObject({ status: 200, headers: { 'content-type': 'application/json' }, json: { title: 'Emma', status: 'available' } });
    const id = String((created.json as { id: number }).id);
    const changed = send({ method: 'POST', url: `/api/books/${id}`, headers: FORM_TYPE, body: 'title=Persuasion&status=sold' });
    expect(changed.status).toBe(200);
    expect(get(`/books/${id}`).json).toEqual({ id: Number(id), title: 'Persuasion', status: 'sold' });
    // A value the record's schema refuses is not stored, even though the form's own schema allows any string.
    expect(send({ method: 'POST', url: `/api/books/${id}`, headers: FORM_TYPE, body: 'status=lost' }).status).toBe(400);
    expect(send({ method: 'POST', url: '/api/books/999', headers: FORM_TYPE, body: 'title=x' }).status).toBe(404);
    expect((get(`/books/${id}`).json as { status: string }).status).toBe('sold');
  });
});

describe('read-only item paths and parents known by their examples (D71, D72)', () => {
  it('an item path with only a read answers its example for any key', () => {
    expect(get('/members/anyone')).toMatchObject({ status: 200, json: { username: 'from-the-example' } });
  });

  it('issues live under the repository the example names, with their server-set state; elsewhere a 404', () => {
    const created = post('/repos/ada/compiler/issues', { title: 'Parser crash' });
    expect(created).toMatchObject({ status: 201, json: { title: 'Parser crash', state: 'open' } });
    const id = (created.json as { id: number }).id;
    expect(get(`/repos/ada/compiler/issues/${id}`).json).toMatchObject({ id, title: 'Parser crash' });
    expect((get('/repos/ada/compiler/issues').json as { id: number }[]).map((issue) => issue.id)).toEqual([id]);
    expect(post('/repos/nobody/nothing/issues', { title: 'lost' }).status).toBe(404);
    expect(get('/repos/nobody/nothing/issues').status).toBe(404);
    // Another repository's path (named by the example's values, but in the wrong places) does not see it.
    expect(get(`/repos/compiler/ada/issues/${id}`).status).toBe(404);
  });
});
