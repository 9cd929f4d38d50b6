import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, call } from '../test/in-process.js';
import { createMock, loadApi, type Api, type Mock } from './index.js';
import { MAX_ISOLATED_KEYS } from './isolation.js';

/** `--isolate-by-key` (README › Isolation): parallel test workers sharing one mock, each with its own key, see only their own pets. */

let api: Api;
beforeAll(async () => {
  api = await loadApi();
});

const JSON_BODY = { 'content-type': 'application/json' };
const create = (m: Mock, key: string, name: string) => call(m.handle, { method: 'POST', body: JSON.stringify({ name, categoryId: 1 }), headers: bearer(key, JSON_BODY) });
const names = (m: Mock, key: string) => call(m.handle, { url: '/v1/pets?limit=100', headers: bearer(key) }).json.map((pet: { name: string }) => pet.name);

describe('any bearer key (no --api-key given)', () => {
  it('gives each key its own pets, starting from the starting data', async () => {
    const mock = await createMock({ api, isolateByKey: true, pets: [] });
    const a = create(mock, 'worker-a', 'Alpha');
    const b = create(mock, 'worker-b', 'Beta');
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(names(mock, 'worker-a')).toEqual(['Alpha']);
    expect(names(mock, 'worker-b')).toEqual(['Beta']);
    expect(names(mock, 'worker-c')).toEqual([]);
    expect(a.json.id, 'ids are per key').toBe(b.json.id);
    expect(call(mock.handle, { url: `/v1/pets/${a.json.id}`, headers: bearer('worker-b') }).json.name).toBe('Beta');
  });

  it('starts every new key with the demo set by default, and still refuses a missing or malformed key with 401', async () => {
    const mock = await createMock({ api, isolateByKey: true });
    expect(names(mock, 'fresh')).toHaveLength(8);
    expect(call(mock.handle, {}).status).toBe(401);
    expect(call(mock.handle, { headers: { authorization: 'Basic abc' } }).status).toBe(401);
    expect(call(mock.handle, { headers: { authorization: 'Bearer ' } }).status).toBe(401);
  });

  it(`holds data for at most ${MAX_ISOLATED_KEYS} keys, then answers 429 TOO_MANY_KEYS until a reset`, async () => {
    const mock = await createMock({ api, isolateByKey: true, pets: [] });
    for (let i = 0; i < MAX_ISOLATED_KEYS; i++) expect(call(mock.handle, { url: '/v1/pets?limit=1', headers: bearer(`k${i}`) }).status).toBe(200);
    expect(call(mock.handle, { headers: bearer('one-too-many') }).json).toMatchObject({ code: 'TOO_MANY_KEYS', status: 429 });
    expect(call(mock.handle, { headers: bearer('k0') }).status, 'known keys keep working').toBe(200);
    call(mock.handle, { method: 'POST', url: '/__admin/reset' });
    expect(call(mock.handle, { headers: bearer('one-too-many') }).status).toBe(200);
  });
});

describe('explicit keys (--api-key a b)', () => {
  it('isolates the given keys and refuses any other with 401', async () => {
    const mock = await createMock({ api, isolateByKey: true, apiKeys: ['a', 'b'], pets: [] });
    create(mock, 'a', 'OnlyA');
    expect(names(mock, 'a')).toEqual(['OnlyA']);
    expect(names(mock, 'b')).toEqual([]);
    expect(create(mock, 'c', 'Intruder').status).toBe(401);
  });
});

describe('admin API with isolation', () => {
  it('X-Petstore-Key picks the key whose data to read, replace or reset; a bare reset resets every key', async () => {
    const mock = await createMock({ api, isolateByKey: true, pets: [] });
    create(mock, 'a', 'A1');
    create(mock, 'b', 'B1');
    const put = call(mock.handle, { method: 'PUT', url: '/__admin/pets', body: '[{"id":7,"name":"Seeded","categoryId":1}]', headers: { 'x-petstore-key': 'a' } });
    expect(put.json).toEqual({ pets: 1 });
    expect(names(mock, 'a')).toEqual(['Seeded']);
    expect(names(mock, 'b')).toEqual(['B1']);
    expect(call(mock.handle, { url: '/__admin/pets', headers: { 'x-petstore-key': 'b' } }).json).toEqual([{ id: 1, name: 'B1', categoryId: 1 }]);
    expect(call(mock.handle, { url: '/__admin/pets' }).json.code, 'which key must be said').toBe('ADMIN_KEY_REQUIRED');

    call(mock.handle, { method: 'POST', url: '/__admin/reset', headers: { 'x-petstore-key': 'a' } });
    expect(names(mock, 'a')).toEqual([]);
    expect(names(mock, 'b')).toEqual(['B1']);
    call(mock.handle, { method: 'POST', url: '/__admin/reset' });
    expect(names(mock, 'b')).toEqual([]);
  });

  it('a key the mock refuses cannot be named either', async () => {
    const mock = await createMock({ api, isolateByKey: true, apiKeys: ['a'] });
    expect(call(mock.handle, { url: '/__admin/pets', headers: { 'x-petstore-key': 'z' } }).json.code).toBe('ADMIN_KEY_REQUIRED');
  });
});
