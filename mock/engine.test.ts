import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadModel } from '../model/loader.js';
import { call } from '../test/in-process.js';
import { parseData } from './data.js';
import { createMock, type Mock } from './index.js';

/**
 * The engine on specs other than the seed's (README › Resources), with no TypeScript written for them:
 * mock/fixtures/shop.openapi.json (OpenAPI 3.1: two resources, uuid string ids, PUT/PATCH/DELETE, a wrapper
 * list, an apiKey header, a 200 create, problem+json errors, allOf, readOnly/writeOnly, nested int64) and
 * mock/fixtures/legacy.openapi.json (OpenAPI 3.0: `nullable`, boolean `exclusiveMinimum`, HTTP basic, a
 * relative server URL, an error schema of its own for `default`).
 */
const FIXTURES = join(import.meta.dirname, 'fixtures');
const shopModel = await loadModel(join(FIXTURES, 'shop.openapi.json'));
const legacyModel = await loadModel(join(FIXTURES, 'legacy.openapi.json'));

const KEY = { 'x-api-key': 'shop-key' };
const JSON_BODY = { ...KEY, 'content-type': 'application/json' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let shop: Mock;
beforeEach(async () => {
  shop = await createMock({ model: shopModel, apiKeys: ['shop-key'] });
});

const createOwner = (body: string) => call(shop.handle, { method: 'POST', url: '/v2/owners', headers: JSON_BODY, body });

describe('a 3.1 spec with two resources (shop)', () => {
  it('serves at the base path of the local server entry and starts empty, saying why', () => {
    expect(shop.api.basePath).toBe('/v2');
    expect(shop.stores.sharedData.get('owners')!.size).toBe(0);
    expect(shop.notes.some((note) => note.startsWith('starting empty'))).toBe(true);
    expect(shop.notes.some((note) => note.includes('GET /health (health) is not part of a resource'))).toBe(true);
  });

  it('create: 200 as documented, a uuid id, defaults and a date-time filled, writeOnly never returned, nested int64 exact', () => {
    const created = createOwner('{"name":"Ann","password":"s3cret","address":{"street":"Main","zone":9223372036854775807,"codes":[-9223372036854775808,1]}}');
    expect(created.status).toBe(200);
    expect(created.body).not.toContain('password');
    expect(created.body).not.toContain('s3cret');
    expect(created.body).toContain('"address":{"street":"Main","zone":9223372036854775807,"codes":[-9223372036854775808,1]}');
    expect(created.json.id).toMatch(UUID);
    expect(Date.parse(created.json.createdAt)).not.toBeNaN();
    expect(created.json.rank).toBe(3);
    expect(Object.keys(created.json).slice(0, 1)).toEqual(['id']);
    const read = call(shop.handle, { url: `/v2/owners/${created.json.id}`, headers: KEY });
    expect(read.status).toBe(200);
    expect(read.body).toBe(created.body);
  });

  it('judges unknown properties by the schema alone (kept out of the record), and refuses invalid bodies with 400 in the problem+json shape', () => {
    const unknown = createOwner('{"name":"Ann","x":1e19}');
    expect(unknown.status).toBe(200);
    expect(unknown.json.x).toBeUndefined();
    call(shop.handle, { method: 'DELETE', url: `/v2/owners/${unknown.json.id}`, headers: KEY });
    for (const body of ['{"name":""}', '{"name":5}', '{"name":"Ann","rank":"high"}', '{"name":"Ann","address":{"street":"a","zone":9223372036854775808}}']) {
      const refused = createOwner(body);
      expect(refused.status, body).toBe(400);
      expect(refused.headers['content-type']).toBe('application/problem+json');
      expect(refused.json).toMatchObject({ status: 400, title: 'Bad Request', type: 'about:blank' });
      expect(typeof refused.json.detail).toBe('string');
    }
    expect(call(shop.handle, { url: '/v2/owners', headers: KEY }).json.total).toBe(0);
  });

  it('apiKey in a header: 401 without it or with a wrong one, in the documented shape; toys need no key', () => {
    for (const headers of [{}, { 'x-api-key': 'wrong' }, { authorization: 'Bearer shop-key' }]) {
      const refused = call(shop.handle, { url: '/v2/owners', headers });
      expect(refused.status).toBe(401);
      expect(refused.json).toMatchObject({ status: 401, title: 'Unauthorized' });
    }
    expect(call(shop.handle, { url: '/v2/toys' }).status).toBe(200);
  });

  it('PUT replaces (id and readOnly values kept), PATCH merges (null removes), DELETE removes: 204, then 404 and gone from lists', () => {
    const { id, createdAt } = createOwner('{"name":"Ann","active":true,"tags":["a"]}').json;
    const replaced = call(shop.handle, { method: 'PUT', url: `/v2/owners/${id}`, headers: JSON_BODY, body: '{"name":"Bea"}' });
    expect(replaced.status).toBe(200);
    expect(replaced.json).toEqual({ id, createdAt, name: 'Bea', rank: 3 });
    const patched = call(shop.handle, { method: 'PATCH', url: `/v2/owners/${id}`, headers: { ...KEY, 'content-type': 'application/merge-patch+json' }, body: '{"active":false,"tags":["x","y"]}' });
    expect(patched.json).toEqual({ id, createdAt, name: 'Bea', active: false, rank: 3, tags: ['x', 'y'] });
    const removed = call(shop.handle, { method: 'PATCH', url: `/v2/owners/${id}`, headers: { ...KEY, 'content-type': 'application/merge-patch+json' }, body: '{"tags":null}' });
    expect(removed.json).toEqual({ id, createdAt, name: 'Bea', active: false, rank: 3 });
    const invalid = call(shop.handle, { method: 'PATCH', url: `/v2/owners/${id}`, headers: { ...KEY, 'content-type': 'application/merge-patch+json' }, body: '{"name":null}' });
    expect(invalid.status, 'removing a required property leaves an invalid record').toBe(400);
    expect(call(shop.handle, { url: `/v2/owners/${id}`, headers: KEY }).json.name).toBe('Bea');
    const deleted = call(shop.handle, { method: 'DELETE', url: `/v2/owners/${id}`, headers: KEY });
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBe('');
    const gone = call(shop.handle, { url: `/v2/owners/${id}`, headers: KEY });
    expect(gone.status).toBe(404);
    expect(gone.json).toMatchObject({ status: 404, title: 'Not Found' });
    expect(call(shop.handle, { url: '/v2/owners', headers: KEY }).json).toEqual({ items: [], total: 0 });
    expect(call(shop.handle, { method: 'DELETE', url: `/v2/owners/${id}`, headers: KEY }).status).toBe(404);
    expect(call(shop.handle, { method: 'PUT', url: '/v2/owners/not-a-uuid', headers: JSON_BODY, body: '{"name":"C"}' }).status).toBe(404);
  });

  it('wrapper list: the page in items, total counts every match; string, boolean and integer filters; limit bounds', () => {
    for (let i = 0; i < 30; i++) createOwner(JSON.stringify({ name: i % 3 === 0 ? 'Ann' : `O${i}`, active: i % 2 === 0, rank: i % 4 }));
    const all = call(shop.handle, { url: '/v2/owners', headers: KEY }).json;
    expect(all.items).toHaveLength(10);
    expect(all.total).toBe(30);
    const anns = call(shop.handle, { url: '/v2/owners?name=Ann&limit=50', headers: KEY }).json;
    expect(anns.total).toBe(10);
    expect(anns.items.every((o: { name: string }) => o.name === 'Ann')).toBe(true);
    const activeAnns = call(shop.handle, { url: '/v2/owners?name=Ann&active=true&limit=50', headers: KEY }).json;
    expect(activeAnns.items.map((o: { active: boolean }) => o.active)).toEqual(Array(5).fill(true));
    expect(activeAnns.total).toBe(5);
    const inactive = call(shop.handle, { url: '/v2/owners?active=false&limit=3', headers: KEY }).json;
    expect(inactive).toMatchObject({ total: 15 });
    expect(inactive.items.map((o: { active: boolean }) => o.active)).toEqual([false, false, false]);
    expect(call(shop.handle, { url: '/v2/owners?rank=2&limit=50', headers: KEY }).json.total).toBe(7);
    for (const query of ['limit=51', 'limit=0', 'active=yes', 'rank=1.5', 'limit=1&limit=2']) {
      const refused = call(shop.handle, { url: `/v2/owners?${query}`, headers: KEY });
      expect(refused.status, query).toBe(400);
      expect(refused.headers['content-type']).toBe('application/problem+json');
    }
  });

  it('an int64 resource without a limit parameter lists every record, newest first, with an enum filter', () => {
    for (let i = 0; i < 120; i++) call(shop.handle, { method: 'POST', url: '/v2/toys', headers: { 'content-type': 'application/json' }, body: `{"label":"t${i}","color":"${i % 2 ? 'red' : 'blue'}"}` });
    const toys = call(shop.handle, { url: '/v2/toys' }).json as { id: number; color: string }[];
    expect(toys).toHaveLength(120);
    expect(toys[0]!.id).toBe(120);
    expect(call(shop.handle, { url: '/v2/toys?color=red' }).json).toHaveLength(60);
    const nullable = call(shop.handle, { method: 'POST', url: '/v2/toys', headers: { 'content-type': 'application/json' }, body: '{"label":"n","nickname":null}' });
    expect(nullable.status).toBe(201);
    expect(nullable.json.nickname).toBeNull();
    expect(call(shop.handle, { method: 'POST', url: '/v2/toys', headers: { 'content-type': 'application/json' }, body: '{"id":5,"label":"n"}' }).status, 'readOnly id refused').toBe(400);
    expect(call(shop.handle, { url: '/v2/toys/9223372036854775808' }).status).toBe(404);
  });

  it('an operation no resource holds answers its example', () => {
    const health = call(shop.handle, { url: '/v2/health' });
    expect(health.status).toBe(200);
    expect(health.json).toEqual({ ok: true });
  });

  it('requests no operation matches: 404 and 405 in the shape an operation documents', () => {
    const missing = call(shop.handle, { url: '/v2/nothing', headers: KEY });
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ status: 404, title: 'Not Found' });
    const method = call(shop.handle, { method: 'DELETE', url: '/v2/toys', headers: KEY });
    expect(method.status).toBe(405);
    expect(method.headers['allow']).toBe('GET, HEAD, POST, OPTIONS');
  });

  it('starting data: an object with one collection per resource, validated against each record schema', async () => {
    const data = new Map([
      ['owners', [{ id: '3f7c1a52-5d1c-4b7e-9a4e-2f1f8c0d9e11', createdAt: '2024-01-01T00:00:00Z', name: 'Seeded' }]],
      ['toys', [{ id: 9223372036854775807n, label: 'big' }]],
    ]);
    const seeded = await createMock({ model: shopModel, apiKeys: ['shop-key'], data });
    expect(call(seeded.handle, { url: '/v2/owners', headers: KEY }).json.items.map((o: { name: string }) => o.name)).toEqual(['Seeded']);
    expect(call(seeded.handle, { url: '/v2/toys/9223372036854775807' }).body).toBe('{"id":9223372036854775807,"label":"big"}');
    const admin = call(seeded.handle, { method: 'PUT', url: '/__admin/data', headers: { 'content-type': 'application/json' }, body: '{"toys":[{"id":1,"label":"a"},{"id":1,"label":"b"}]}' });
    expect(admin.status).toBe(400);
    expect(admin.json.message).toMatch(/toys: entry 1 repeats the id 1/);
    const loaded = call(seeded.handle, { method: 'PUT', url: '/__admin/data', headers: { 'content-type': 'application/json' }, body: '{"toys":[{"id":7,"label":"a"}]}' });
    expect(loaded.json).toEqual({ toys: 1 });
    expect(call(seeded.handle, { method: 'POST', url: '/v2/toys', headers: { 'content-type': 'application/json' }, body: '{"label":"next"}' }).json.id).toBe(8);
    expect(call(seeded.handle, { url: '/__admin/owners' }).json.map((o: { name: string }) => o.name)).toEqual(['Seeded']);
  });
});

describe('a --data file of several resources', () => {
  it('is an object with one array per resource name; a bare array is the first resource; errors name the collection and entry', () => {
    const data = parseData(shopModel, '{"toys":[{"id":9223372036854775807,"label":"big"}],"owners":[]}', 'data.json');
    expect([...data.keys()]).toEqual(['toys', 'owners']);
    expect(parseData(shopModel, '[]', 'data.json').get('owners')).toEqual([]);
    expect(() => parseData(shopModel, '{"toys":[{"id":1}]}', 'data.json')).toThrow(/^data\.json › toys: entry 0 is not a Toy: must have the property "label"$/);
    expect(() => parseData(shopModel, '{"cats":[]}', 'data.json')).toThrow(/no resource is named "cats"; the spec's resources: owners, toys/);
    expect(() => parseData(shopModel, '{"toys":[{"id":1,"label":"a"},{"id":1.0,"label":"b"}]}', 'data.json')).toThrow(/entry 1 repeats the id 1/);
  });
});

describe('a 3.0 spec (legacy): nullable, HTTP basic, its own error schema', () => {
  const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });

  it('basic auth takes the key as the password (or as the user with no password); errors in the Err shape', async () => {
    const legacy = await createMock({ model: legacyModel, apiKeys: ['k1'] });
    expect(legacy.api.basePath).toBe('/api');
    expect(call(legacy.handle, { url: '/api/notes', headers: basic('anyone', 'k1') }).status).toBe(200);
    expect(call(legacy.handle, { url: '/api/notes', headers: basic('k1', '') }).status).toBe(200);
    const refused = call(legacy.handle, { url: '/api/notes', headers: basic('anyone', 'k2') });
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toBe('Basic realm="mock"');
    expect(refused.json).toEqual({ error: 'UNAUTHORIZED', message: expect.any(String) });
  });

  it('nullable: null accepted and kept; exclusiveMinimum: true rewritten', async () => {
    const legacy = await createMock({ model: legacyModel, apiKeys: ['k1'] });
    const headers = { ...basic('u', 'k1'), 'content-type': 'application/json' };
    const created = call(legacy.handle, { method: 'POST', url: '/api/notes', headers, body: '{"text":"a","due":null,"level":1}' });
    expect(created.status).toBe(201);
    expect(created.body).toBe('{"id":1,"text":"a","due":null,"level":1}');
    const refused = call(legacy.handle, { method: 'POST', url: '/api/notes', headers, body: '{"text":"a","level":0}' });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toBe('INVALID_BODY');
  });
});

describe('--isolate-by-key with an apiKey scheme', () => {
  it('tells callers apart by the key in the scheme\'s header', async () => {
    const isolated = await createMock({ model: shopModel, isolateByKey: true });
    const post = (key: string, name: string) => call(isolated.handle, { method: 'POST', url: '/v2/owners', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
    expect(post('worker-1', 'One').status).toBe(200);
    expect(post('worker-2', 'Two').status).toBe(200);
    const names = (key: string) => call(isolated.handle, { url: '/v2/owners', headers: { 'x-api-key': key } }).json.items.map((o: { name: string }) => o.name);
    expect(names('worker-1')).toEqual(['One']);
    expect(names('worker-2')).toEqual(['Two']);
    expect(call(isolated.handle, { url: '/v2/owners' }).status).toBe(401);
  });
});

describe('parameters declared as text for numbers (a loose spec)', () => {
  it('an integer id named by a string path parameter, and a string query filter on an integer property, compare by value', async () => {
    const record = { type: 'object', required: ['id', 'size'], properties: { id: { type: 'integer', readOnly: true }, size: { type: 'integer' } } };
    const ok = (schema: unknown) => ({ description: 'ok', content: { 'application/json': { schema } } });
    const spec = {
      openapi: '3.1.0',
      info: { title: 'Loose', version: '1' },
      paths: {
        '/boxes': {
          get: { operationId: 'listBoxes', parameters: [{ name: 'size', in: 'query', schema: { type: 'string' } }], responses: { '200': ok({ type: 'array', items: record }) } },
          post: { operationId: 'createBox', requestBody: { required: true, content: { 'application/json': { schema: record } } }, responses: { '201': ok(record) } },
        },
        '/boxes/{boxId}': { get: { operationId: 'getBox', parameters: [{ name: 'boxId', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': ok(record), '404': { description: 'none' } } } },
      },
    };
    const dir = mkdtempSync(join(tmpdir(), 'petstore-loose-'));
    const file = join(dir, 'loose.json');
    writeFileSync(file, JSON.stringify(spec));
    const loose = await createMock({ spec: file });
    rmSync(dir, { recursive: true, force: true });
    expect(loose.api.basePath).toBe('');
    for (const size of [1, 2, 2]) call(loose.handle, { method: 'POST', url: '/boxes', headers: { 'content-type': 'application/json' }, body: `{"size":${size}}` });
    expect(call(loose.handle, { url: '/boxes/2' }).json).toEqual({ id: 2, size: 2 });
    expect(call(loose.handle, { url: '/boxes/x' }).status).toBe(404);
    expect(call(loose.handle, { url: '/boxes?size=2' }).json.map((box: { id: number }) => box.id)).toEqual([3, 2]);
    expect(call(loose.handle, { url: '/boxes?size=7' }).json).toEqual([]);
  });
});

describe('the state file with several resources', () => {
  it('keeps every resource across a restart, after PUT, PATCH and DELETE as after POST', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-state-shop-'));
    const path = join(dir, 'state.json');
    const first = await createMock({ model: shopModel, apiKeys: ['shop-key'], stateFile: path });
    const post = (m: Mock, body: string) => call(m.handle, { method: 'POST', url: '/v2/owners', headers: JSON_BODY, body }).json as { id: string };
    const kept = post(first, '{"name":"Kept"}');
    const gone = post(first, '{"name":"Gone"}');
    call(first.handle, { method: 'POST', url: '/v2/toys', headers: { 'content-type': 'application/json' }, body: '{"label":"t"}' });
    first.flush();
    call(first.handle, { method: 'PATCH', url: `/v2/owners/${kept.id}`, headers: { ...KEY, 'content-type': 'application/merge-patch+json' }, body: '{"active":true}' });
    call(first.handle, { method: 'DELETE', url: `/v2/owners/${gone.id}`, headers: KEY });
    first.flush();
    const second = await createMock({ model: shopModel, apiKeys: ['shop-key'], stateFile: path });
    expect(call(second.handle, { url: '/v2/owners', headers: KEY }).json.items.map((o: { name: string; active?: boolean }) => [o.name, o.active])).toEqual([['Kept', true]]);
    expect(call(second.handle, { url: '/v2/toys' }).json.map((t: { label: string }) => t.label)).toEqual(['t']);
    await second.dispose();
    await first.dispose();
    rmSync(dir, { recursive: true, force: true });
  });
});
