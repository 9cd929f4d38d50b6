import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type StartedRedisMock } from '../../mock/index.js';
import { PACKAGE_ROOT } from '../../model/loader.js';
import { startRedis, type TestRedis } from './redis-server.js';

/**
 * Writes in the shapes public APIs use (spec/DECISIONS.md D50-D54) on the Redis store, as mock/writes.test.ts shows
 * them in memory: client-chosen ids kept and refused when taken, `PUT` on the collection path, natural keys with a
 * `Location`, form bodies, sub-resources under their parent (the parent link kept beside the record).
 */
let redis: TestRedis;
let mock: StartedRedisMock;
beforeAll(async () => {
  redis = await startRedis();
  mock = await startMock({ spec: join(PACKAGE_ROOT, 'mock', 'fixtures', 'writes.openapi.yaml'), port: 0, data: new Map(), store: { url: redis.url, prefix: 'writes' } });
});
afterAll(async () => {
  await mock?.close();
  await redis?.dispose();
});

const send = async (method: string, path: string, body?: unknown, type = 'application/json') => {
  const response = await fetch(`${mock.baseUrl}${path}`, { method, headers: body === undefined ? {} : { 'content-type': type }, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, location: response.headers.get('location'), text, json: text === '' ? undefined : (JSON.parse(text) as unknown) };
};

describe('writes on the Redis store', () => {
  it('a writable id is kept, a taken one is 409, the server\'s counter steps over it; PUT /pet by the body\'s id', async () => {
    expect(await send('POST', '/pet', { id: 1, name: 'Rex' })).toMatchObject({ status: 200, json: { id: 1, name: 'Rex' } });
    expect((await send('POST', '/pet', { id: 1, name: 'Again' })).status).toBe(409);
    expect(await send('POST', '/pet', { name: 'Tom' })).toMatchObject({ status: 200, json: { id: 2, name: 'Tom' } });
    expect(await send('POST', '/pet', 'id=9223372036854775807&name=Big&age=4', 'application/x-www-form-urlencoded')).toMatchObject({ status: 200, text: '{"id":9223372036854775807,"name":"Big","age":4}' });
    expect(await send('PUT', '/pet', { id: 1, name: 'Rex II' })).toMatchObject({ status: 200, json: { id: 1, name: 'Rex II' } });
    expect((await send('PUT', '/pet', { id: 5, name: 'Nobody' })).status).toBe(404);
    expect((await send('GET', '/pet/1')).json).toEqual({ id: 1, name: 'Rex II' });
  });

  it('a natural key is the client\'s, with a Location; a repeat is the documented 400', async () => {
    expect(await send('POST', '/user', { username: 'ann' })).toMatchObject({ status: 201, text: '', location: '/api/user/ann' });
    expect((await send('GET', '/user/ann')).json).toEqual({ username: 'ann' });
    expect((await send('POST', '/user', { username: 'ann' })).status).toBe(400);
  });

  it('sub-resources: listed under their own parent only, never showing the link; 404 under a parent that does not exist', async () => {
    await send('POST', '/owners', { name: 'Ann' });
    await send('POST', '/owners', { name: 'Bob' });
    expect(await send('POST', '/owners/1/animals', { name: 'Rex' })).toMatchObject({ status: 201, location: null, text: '{"id":1,"name":"Rex"}' });
    await send('POST', '/owners/2/animals', { name: 'Tom' });
    expect((await send('GET', '/owners/1/animals')).text).toBe('[{"id":1,"name":"Rex"}]');
    expect((await send('GET', '/owners/2/animals/1')).status).toBe(404);
    expect((await send('POST', '/owners/3/animals', { name: 'Nobody' })).status).toBe(404);
    expect((await send('DELETE', '/owners/1/animals/1')).status).toBe(204);
    expect((await send('GET', '/owners/1/animals')).text).toBe('[]');
    // A singleton: one profile per owner, set by PUT and read in place.
    expect((await send('GET', '/owners/1/profile')).status).toBe(404);
    expect(await send('PUT', '/owners/1/profile', { bio: 'Ann' })).toMatchObject({ status: 200, json: { bio: 'Ann' } });
    expect(await send('PUT', '/owners/2/profile', { bio: 'Bob' })).toMatchObject({ status: 200, json: { bio: 'Bob' } });
    expect(await send('PATCH', '/owners/1/profile', { tags: ['x'] })).toMatchObject({ status: 200, json: { bio: 'Ann', tags: ['x'] } });
    expect((await send('GET', '/owners/2/profile')).json).toMatchObject({ bio: 'Bob' });
    expect((await send('DELETE', '/owners/2/profile')).status).toBe(204);
    expect((await send('GET', '/owners/2/profile')).status).toBe(404);
    expect((await send('GET', '/owners/1/profile')).json).toMatchObject({ bio: 'Ann' });
  });
});
