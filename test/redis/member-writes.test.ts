import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type StartedRedisMock } from '../../mock/index.js';
import { writeBoardsSpec } from '../boards-spec.js';
import { startRedis, type TestRedis } from './redis-server.js';

/**
 * Keys unique under their parent (spec/DECISIONS.md › D290), member writes (D291, D294) and deletes that take
 * what lived under the record along (D292) on the Redis store, as mock/member-writes.test.ts shows them in memory:
 * every step there answers through promises here.
 */
let redis: TestRedis;
let mock: StartedRedisMock;
beforeAll(async () => {
  redis = await startRedis();
  const written = writeBoardsSpec();
  try {
    mock = await startMock({ spec: written.file, port: 0, data: new Map(), store: { url: redis.url, prefix: 'boards' } });
  } finally {
    written.remove();
  }
});
afterAll(async () => {
  await mock?.close();
  await redis?.dispose();
});

const send = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> => {
  const response = await fetch(`${mock.baseUrl}${path}`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, json: text === '' ? undefined : (JSON.parse(text) as unknown) };
};
const names = (answer: { json: unknown }): string[] => (answer.json as { name: string }[]).map((tag) => tag.name).sort();

describe('keys under their parent and member writes on the Redis store', () => {
  it('one tag name in two boards; a card\'s tags added (copied from its board), set, removed, cleared', async () => {
    const a = ((await send('POST', '/boards', { title: 'A' })).json as { id: number }).id;
    const b = ((await send('POST', '/boards', { title: 'B' })).json as { id: number }).id;
    expect(await send('POST', `/boards/${a}/tags`, { name: 'urgent', color: 'red' })).toMatchObject({ status: 201, json: { name: 'urgent', color: 'red' } });
    expect(await send('POST', `/boards/${b}/tags`, { name: 'urgent', color: 'blue' })).toMatchObject({ status: 201, json: { name: 'urgent', color: 'blue' } });
    expect((await send('POST', `/boards/${a}/tags`, { name: 'urgent' })).status).toBe(409);
    const card = ((await send('POST', `/boards/${a}/cards`, { text: 'Ship' })).json as { id: number }).id;
    const added = await send('POST', `/boards/${a}/cards/${card}/tags`, { tags: ['urgent', 'docs'] });
    expect(added.status).toBe(200);
    expect(added.json).toContainEqual({ name: 'urgent', color: 'red' });
    expect(names(await send('GET', `/boards/${a}/cards/${card}/tags`))).toEqual(['docs', 'urgent']);
    expect(names(await send('PUT', `/boards/${a}/cards/${card}/tags`, { tags: ['docs', 'later'] }))).toEqual(['docs', 'later']);
    expect(names(await send('DELETE', `/boards/${a}/cards/${card}/tags/later`))).toEqual(['docs']);
    expect((await send('DELETE', `/boards/${a}/cards/${card}/tags`)).status).toBe(204);
    expect((await send('GET', `/boards/${a}/cards/${card}/tags`)).json).toEqual([]);
  });

  it('a space deleted takes its tags along: made again under its slug, it starts empty', async () => {
    expect((await send('POST', '/spaces', { slug: 'team' })).status).toBe(201);
    expect((await send('POST', '/spaces/team/tags', { name: 'urgent' })).status).toBe(201);
    expect((await send('DELETE', '/spaces/team')).status).toBe(204);
    expect((await send('POST', '/spaces', { slug: 'team' })).status).toBe(201);
    expect((await send('GET', '/spaces/team/tags')).json).toEqual([]);
    expect((await send('POST', '/spaces/team/tags', { name: 'urgent' })).status).toBe(201);
  });
});
