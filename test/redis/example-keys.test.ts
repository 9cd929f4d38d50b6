import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type StartedRedisMock } from '../../mock/index.js';
import { startRedis, type TestRedis } from './redis-server.js';

/**
 * On the Redis store as in memory (mock/example-keys.test.ts): a record the description's examples made up yields
 * its key to a client's create, once; a record a client wrote never does; a reset makes the examples yield again
 * (spec/DECISIONS.md › D780). A client-chosen text `code`, with a filter index beside it.
 */
const json = (schema: object, example?: unknown): object => ({ description: 'OK', content: { 'application/json': { schema, ...(example === undefined ? {} : { example }) } } });
const category = { type: 'object', required: ['code', 'label'], properties: { code: { type: 'string' }, label: { type: 'string' }, kind: { type: 'string', enum: ['front', 'back'] } } };
const DESCRIPTION = {
  openapi: '3.0.3',
  info: { title: 'example keys on Redis', version: '1' },
  servers: [{ url: '/api' }],
  paths: {
    '/categories': {
      get: { operationId: 'listCategories', parameters: [{ name: 'kind', in: 'query', schema: { type: 'string', enum: ['front', 'back'] } }], responses: { 200: json({ type: 'array', items: category }, [{ code: 'front_views', label: 'from the examples', kind: 'front' }, { code: 'back_views', label: 'also from the examples', kind: 'back' }]) } },
      post: { operationId: 'createCategory', requestBody: { content: { 'application/json': { schema: category } } }, responses: { 201: json(category), 409: { description: 'exists' } } },
    },
    '/categories/{code}': {
      parameters: [{ name: 'code', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getCategory', responses: { 200: json(category), 404: { description: 'none' } } },
      put: { operationId: 'putCategory', requestBody: { content: { 'application/json': { schema: category } } }, responses: { 200: json(category), 404: { description: 'none' } } },
    },
  },
};

const ADMIN = 'example-keys-admin';
let redis: TestRedis;
let mock: StartedRedisMock;
beforeAll(async () => {
  redis = await startRedis();
  const file = join(mkdtempSync(join(tmpdir(), 'redis-example-keys-')), 'openapi.json');
  writeFileSync(file, JSON.stringify(DESCRIPTION));
  mock = await startMock({ spec: file, port: 0, adminToken: ADMIN, store: { url: redis.url, prefix: 'example-keys' } });
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

describe('records the examples made up, on the Redis store', () => {
  it('yield a key to a client\'s create once, never a key a client wrote, and again after a reset', async () => {
    expect((await send('GET', '/categories/front_views')).json).toEqual({ code: 'front_views', label: 'from the examples', kind: 'front' });
    expect(await send('POST', '/categories', { code: 'front_views', label: 'the client\'s', kind: 'back' })).toEqual({ status: 201, json: { code: 'front_views', label: 'the client\'s', kind: 'back' } });
    expect((await send('GET', '/categories/front_views')).json).toEqual({ code: 'front_views', label: 'the client\'s', kind: 'back' });
    // Held once, and out of the index of its old kind.
    expect(await send('GET', '/categories')).toMatchObject({ status: 200, json: [{ code: 'front_views', label: 'the client\'s' }, { code: 'back_views' }] });
    expect((await send('GET', '/categories?kind=front')).json).toEqual([]);
    expect((await send('POST', '/categories', { code: 'front_views', label: 'a second' })).status).toBe(409);
    // An example record a client replaced is the client's.
    expect((await send('PUT', '/categories/back_views', { code: 'back_views', label: 'replaced by a client' })).status).toBe(200);
    expect((await send('POST', '/categories', { code: 'back_views', label: 'a create' })).status).toBe(409);
    expect((await send('GET', '/categories/back_views')).json).toMatchObject({ label: 'replaced by a client' });
    // A reset loads the examples again, and they yield again.
    expect((await fetch(`${mock.origin}/__admin/reset`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}` } })).status).toBe(200);
    expect((await send('GET', '/categories/front_views')).json).toMatchObject({ label: 'from the examples' });
    expect((await send('POST', '/categories', { code: 'front_views', label: 'after the reset' })).status).toBe(201);
  });
});
