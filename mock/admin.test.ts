import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer, call } from '../test/in-process.js';
import { createMock, DEFAULT_API_KEY, loadApi, type Api, type Mock } from './index.js';
import { Journal } from './journal.js';

/** The admin API outside the contract (README › Admin API): reset, replace, the request journal, its token and its switch. */

let api: Api;
let mock: Mock;
const KEY = bearer(DEFAULT_API_KEY);
const JSON_BODY = { 'content-type': 'application/json' };

beforeAll(async () => {
  api = await loadApi();
});
beforeEach(async () => {
  mock = await createMock({ api });
});

const create = (m: Mock, name: string) => call(m.handle, { method: 'POST', body: JSON.stringify({ name, categoryId: 1 }), headers: { ...KEY, ...JSON_BODY } });
const names = (m: Mock) => call(m.handle, { url: '/v1/pets?limit=100', headers: KEY }).json.map((pet: { name: string }) => pet.name);

describe('data', () => {
  it('PUT /__admin/pets refuses more pets than --max-pets with 409 STORE_FULL and keeps the data', async () => {
    const small = await createMock({ api, maxPets: 2 });
    const before = names(small);
    const body = '[{"id":1,"name":"A","categoryId":1},{"id":2,"name":"B","categoryId":1},{"id":3,"name":"C","categoryId":1}]';
    const response = call(small.handle, { method: 'PUT', url: '/__admin/pets', body, headers: JSON_BODY });
    expect(response.json).toMatchObject({ code: 'STORE_FULL', status: 409 });
    expect(names(small)).toEqual(before);
  });

  it('POST /__admin/reset restores the starting data', () => {
    const starting = names(mock);
    create(mock, 'Extra');
    expect(names(mock)).toContain('Extra');
    const reset = call(mock.handle, { method: 'POST', url: '/__admin/reset' });
    expect(reset.status).toBe(200);
    expect(reset.json).toEqual({ pets: 8 });
    expect(names(mock)).toEqual(starting);
    expect(create(mock, 'After').json.id, 'ids continue above the starting ones').toBe(9);
  });

  it('PUT /__admin/pets replaces the data with the given pets, int64 ids exact; GET returns them oldest first', () => {
    const pets = '[{"id":9223372036854775806,"name":"Big","categoryId":9007199254740993,"status":"sold"},{"id":2,"name":"Small","categoryId":1}]';
    const replaced = call(mock.handle, { method: 'PUT', url: '/__admin/pets', body: pets, headers: JSON_BODY });
    expect(replaced.status).toBe(200);
    expect(replaced.json).toEqual({ pets: 2 });
    expect(names(mock)).toEqual(['Small', 'Big']);
    const all = call(mock.handle, { url: '/__admin/pets' });
    expect(all.body).toBe('[{"id":9223372036854775806,"name":"Big","categoryId":9007199254740993,"status":"sold"},{"id":2,"name":"Small","categoryId":1}]');
    expect(call(mock.handle, { url: '/v1/pets/9223372036854775806', headers: KEY }).body).toContain('"categoryId":9007199254740993');
  });

  it('PUT /__admin/pets refuses an invalid array with 400 INVALID_PETS naming the entry, and keeps the data', () => {
    const before = names(mock);
    for (const [body, message] of [
      ['[{"id":1,"name":"A","categoryId":1},{"id":2,"name":"B"}]', /entry 1 is not a Pet: .*categoryId/],
      ['[{"id":1,"name":"A","categoryId":1},{"id":1,"name":"B","categoryId":1}]', /entry 1 repeats the id 1/],
      ['[{"id":1,"name":"A","categoryId":1,"status":"lost"}]', /entry 0 .*status must be one of: available, pending, sold/],
      ['{"id":1}', /expected a JSON array/],
      ['[{', /not valid JSON/],
      ['', /not valid JSON/],
    ] as const) {
      const response = call(mock.handle, { method: 'PUT', url: '/__admin/pets', body, headers: JSON_BODY });
      expect(response.status, body).toBe(400);
      expect(response.json).toMatchObject({ code: 'INVALID_PETS', status: 400 });
      expect(response.json.message).toMatch(message);
    }
    expect(names(mock)).toEqual(before);
  });

  it('unknown admin paths are 404 ADMIN_NOT_FOUND, wrong methods 405 with Allow, and GET /__admin lists the endpoints', () => {
    expect(call(mock.handle, { url: '/__admin/nothing' }).json).toMatchObject({ code: 'ADMIN_NOT_FOUND', status: 404 });
    const wrong = call(mock.handle, { method: 'GET', url: '/__admin/reset' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers['allow']).toBe('POST');
    expect(call(mock.handle, { url: '/__admin' }).json.endpoints).toContain('POST /__admin/reset');
    expect(call(mock.handle, { url: '/__administrator' }).json.code, 'only /__admin and below').toBe('ROUTE_NOT_FOUND');
  });
});

describe('request journal', () => {
  it('GET /__admin/requests returns the recent requests newest first, with status and body, never the Authorization header', () => {
    call(mock.handle, { url: '/v1/pets?limit=1', headers: KEY });
    create(mock, 'Journaled');
    call(mock.handle, { url: '/v1/pets/404', headers: { ...KEY, prefer: 'code=404' } });
    const journal = call(mock.handle, { url: '/__admin/requests' });
    expect(journal.status).toBe(200);
    expect(journal.json.map((entry: { method: string; url: string; status: number }) => `${entry.method} ${entry.url} ${entry.status}`)).toEqual([
      'GET /v1/pets/404 404',
      'POST /v1/pets 201',
      'GET /v1/pets?limit=1 200',
    ]);
    expect(journal.json[1].body).toBe('{"name":"Journaled","categoryId":1}');
    expect(journal.json[0].headers).toEqual({ prefer: 'code=404' });
    expect(journal.body).not.toContain(DEFAULT_API_KEY);
    expect(Date.parse(journal.json[0].time)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('?limit=N returns the newest N; admin calls are not journaled; DELETE clears it', () => {
    for (let i = 0; i < 5; i++) call(mock.handle, { url: `/v1/pets?limit=${i + 1}`, headers: KEY });
    expect(call(mock.handle, { url: '/__admin/requests?limit=2' }).json.map((entry: { url: string }) => entry.url)).toEqual(['/v1/pets?limit=5', '/v1/pets?limit=4']);
    expect(call(mock.handle, { url: '/__admin/requests?limit=x' }).json.code).toBe('INVALID_QUERY');
    expect(call(mock.handle, { method: 'DELETE', url: '/__admin/requests' }).status).toBe(204);
    expect(call(mock.handle, { url: '/__admin/requests' }).json).toEqual([]);
  });

  it('is bounded: a journal of N keeps the newest N and cuts bodies at 4 KiB', () => {
    const journal = new Journal(3);
    for (let i = 0; i < 10; i++) journal.record({ method: 'GET', url: `/v1/pets?limit=${i + 1}`, headers: {} }, { status: 200, headers: {}, body: '' });
    expect(journal.size).toBe(3);
    expect(journal.entries().map((entry) => entry.url)).toEqual(['/v1/pets?limit=10', '/v1/pets?limit=9', '/v1/pets?limit=8']);
    journal.record({ method: 'POST', url: '/v1/pets', headers: {}, body: Buffer.alloc(1024 * 1024, 'a') }, { status: 413, headers: {}, body: '' });
    const [big] = journal.entries(1);
    expect(big!.body).toHaveLength(4096);
    expect(big!.bodyTruncated).toBe(true);
    expect(new Journal(0).entries()).toEqual([]);
  });
});

describe('guarding', () => {
  it('with an admin token, an API key alone (or nothing, or a wrong token) is a 401 ADMIN_UNAUTHORIZED; the token works', async () => {
    const guarded = await createMock({ api, adminToken: 'admin-secret' });
    for (const headers of [{}, KEY, bearer('wrong'), { authorization: 'admin-secret' }]) {
      for (const [method, url] of [['POST', '/__admin/reset'], ['GET', '/__admin/requests'], ['PUT', '/__admin/pets'], ['GET', '/__admin/nowhere']] as const) {
        const response = call(guarded.handle, { method, url, headers, body: '[]' });
        expect(response.status, `${method} ${url} ${JSON.stringify(headers)}`).toBe(401);
        expect(response.json.code).toBe('ADMIN_UNAUTHORIZED');
      }
    }
    expect(guarded.store.size, 'the refused PUT replaced nothing').toBe(8);
    expect(call(guarded.handle, { method: 'POST', url: '/__admin/reset', headers: bearer('admin-secret') }).status).toBe(200);
    expect(call(guarded.handle, { headers: bearer('admin-secret') }).status, 'the admin token is no API key').toBe(401);
  });

  it('an admin token equal to an API key is refused at start', async () => {
    await expect(createMock({ api, adminToken: DEFAULT_API_KEY })).rejects.toThrow(/admin token must differ/);
  });

  it('turned off, every /__admin path is a 404 ADMIN_DISABLED and the data stays', async () => {
    const off = await createMock({ api, admin: false });
    for (const [method, url] of [['POST', '/__admin/reset'], ['PUT', '/__admin/pets'], ['GET', '/__admin/requests'], ['GET', '/__admin']] as const) {
      expect(call(off.handle, { method, url, body: '[]' }).json, url).toMatchObject({ code: 'ADMIN_DISABLED', status: 404 });
    }
    expect(off.store.size).toBe(8);
  });
});
