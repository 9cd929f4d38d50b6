import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../model/loader.js';
import type { ResponseModel } from '../model/model.js';
import { call } from '../test/in-process.js';
import { createMock, DEFAULT_API_KEY, loadApi, startMock, type Api, type StartedMock } from './index.js';
import type { JournalEntry } from './journal.js';
import { drain } from './shutdown.js';

/** The admin endpoints the console reads (README › Console, Admin API), over a socket: the stream needs one. */

let api: Api;
let mock: StartedMock;
const ADMIN = { authorization: 'Bearer console-admin' };
const KEY = { authorization: `Bearer ${DEFAULT_API_KEY}` };

beforeAll(async () => {
  api = await loadApi();
  mock = await startMock({ api, port: 0, adminToken: 'console-admin' });
});
afterAll(async () => {
  await mock?.close();
});

async function admin(path: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; json: any; text: string; headers: Headers }> {
  const response = await fetch(`${mock.origin}${path}`, { method: init.method ?? 'GET', headers: { ...ADMIN, ...init.headers }, ...(init.body === undefined ? {} : { body: init.body }) });
  const text = await response.text();
  return { status: response.status, text, json: text === '' ? undefined : JSON.parse(text), headers: response.headers };
}

describe('the page', () => {
  it('is served at /__admin/ without the token, with a strict CSP, and holds nothing of the state', async () => {
    const response = await fetch(`${mock.origin}/__admin/`);
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await response.text();
    expect(html).not.toMatch(/<script>|style=|onclick=/);
    expect(html).not.toContain('Bella');
    for (const asset of ['console.js', 'console.css']) expect((await fetch(`${mock.origin}/__admin/${asset}`)).status, asset).toBe(200);
  });

  it('a browser asking for /__admin is sent to /__admin/; a script still gets the endpoint list', async () => {
    const redirected = await fetch(`${mock.origin}/__admin`, { headers: { accept: 'text/html' }, redirect: 'manual' });
    expect(redirected.status).toBe(308);
    expect(redirected.headers.get('location')).toBe('/__admin/');
    expect((await admin('/__admin')).json.endpoints).toContain('GET /__admin/model');
  });

  it('every data endpoint refuses a wrong token with 401 ADMIN_UNAUTHORIZED and shows nothing', async () => {
    for (const path of ['/__admin/model', '/__admin/health', '/__admin/pets/page', '/__admin/requests', '/__admin/requests/stream', '/__admin/pets/1']) {
      const refused = await admin(path, { headers: { authorization: 'Bearer wrong' } });
      expect(refused.status, path).toBe(401);
      expect(refused.json).toMatchObject({ code: 'ADMIN_UNAUTHORIZED', status: 401 });
    }
  });
});

describe('model and health', () => {
  it('GET /__admin/model describes resources (filters, limit, record schema) and operations (parameters, statuses)', async () => {
    const { json } = await admin('/__admin/model');
    expect(json).toMatchObject({ title: api.title, version: api.version, basePath: '/v1' });
    expect(json.resources[0]).toMatchObject({ name: 'pets', idProperty: 'id', filters: [{ parameter: 'status', property: 'status', values: ['available', 'pending', 'sold'] }], limit: { parameter: 'limit', minimum: 1, maximum: 100, default: 20 } });
    const getPet = json.operations.find((op: { operationId: string }) => op.operationId === 'getPet');
    expect(getPet).toMatchObject({ method: 'GET', path: '/pets/{petId}', deprecated: true, parameters: [{ name: 'petId', in: 'path', required: true }] });
    expect(getPet.responses.map((r: { status: string }) => r.status)).toEqual(expect.arrayContaining(['200', '401', '404']));
    expect(getPet.undocumented).toEqual([]);
  });

  it('lists the names of a response’s named examples, for the Operations view’s Prefer: example=', async () => {
    const model = await loadApi();
    const response = model.operations[0]!.responses[0]! as ResponseModel & { examples?: { name: string | undefined; value: unknown }[] };
    response.examples = [{ name: 'three', value: [] }, { name: undefined, value: [] }];
    const described = call((await createMock({ api: model })).handle, { url: '/__admin/model' }).json;
    expect(described.operations[0].responses[0].examples).toEqual(['three']);
    expect(described.operations[1].responses[0].examples).toEqual([]);
  });

  it('GET /__admin/health gives the spec, the store, the last reload and the undocumented statuses', async () => {
    const { json } = await admin('/__admin/health');
    expect(json).toMatchObject({ title: api.title, version: '1.0.0', store: { status: 'ok', store: 'memory' }, lastReload: null, journal: { capacity: 100 } });
    expect(Array.isArray(json.undocumented)).toBe(true);
  });
});

describe('reloads', () => {
  it('GET /__admin/health names the last reload and what it changed, or why it was refused', async () => {
    const watched = await createMock({ api: await loadApi() });
    const health = () => call(watched.handle, { url: '/__admin/health' }).json;
    expect(health().lastReload).toBeNull();
    const report = watched.reload(await loadApi(join(PACKAGE_ROOT, 'spec', 'corpus', 'optional-field.yaml')));
    expect(report.changes.length).toBeGreaterThan(0);
    expect(health().lastReload).toMatchObject({ ok: true, changes: report.changes, dropped: 0 });
    watched.reloadRefused('spec/openapi.yaml: bad indentation');
    expect(health().lastReload).toMatchObject({ ok: false, message: 'spec/openapi.yaml: bad indentation' });
  });
});

describe('records', () => {
  it('pages as the mock lists them (newest first), filtered by the spec filter, with the total', async () => {
    const listed = (await (await fetch(`${mock.baseUrl}/pets?status=available&limit=100`, { headers: KEY })).json()) as unknown[];
    const { json } = await admin('/__admin/pets/page?status=available&offset=1&limit=2');
    expect(json.total).toBe(listed.length);
    expect(json.records).toEqual(listed.slice(1, 3));
    const refused = await admin('/__admin/pets/page?status=lost');
    expect(refused.status).toBe(400);
    expect(refused.json.code).toBe('INVALID_QUERY');
  });

  it('creates, edits and deletes one record; each seen through the API', async () => {
    const created = await admin('/__admin/pets', { method: 'POST', body: '{"name":"Console","categoryId":9223372036854775807}' });
    expect(created.status).toBe(201);
    expect(created.text).toContain('"categoryId":9223372036854775807');
    const id = /"id":(\d+)/.exec(created.text)![1]!;
    const edited = await admin(`/__admin/pets/${id}`, { method: 'PUT', body: '{"name":"Edited","categoryId":2,"status":"sold"}' });
    expect(edited.status).toBe(200);
    expect(await (await fetch(`${mock.baseUrl}/pets/${id}`, { headers: KEY })).json()).toEqual({ id: Number(id), name: 'Edited', categoryId: 2, status: 'sold' });
    expect((await admin(`/__admin/pets/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await fetch(`${mock.baseUrl}/pets/${id}`, { headers: KEY })).status).toBe(404);
    expect((await admin(`/__admin/pets/${id}`, { method: 'DELETE' })).json).toMatchObject({ code: 'PET_NOT_FOUND', status: 404 });
  });

  it('refuses an invalid record with the message createPet gives, and changes nothing', async () => {
    const viaApi = await (await fetch(`${mock.baseUrl}/pets`, { method: 'POST', headers: { ...KEY, 'content-type': 'application/json' }, body: '{"name":"X"}' })).json();
    const viaConsole = await admin('/__admin/pets', { method: 'POST', body: '{"name":"X"}' });
    expect(viaConsole.status).toBe(400);
    expect(viaConsole.json).toEqual(viaApi);
    const before = await admin('/__admin/pets/2');
    const bad = await admin('/__admin/pets/2', { method: 'PUT', body: '{"name":"Y","categoryId":"two"}' });
    expect(bad.json).toEqual({ code: 'INVALID_BODY', status: 400, message: 'The request body is invalid: body/categoryId must be integer.' });
    expect((await admin('/__admin/pets/2')).text).toBe(before.text);
    expect((await admin('/__admin/pets/2', { method: 'PUT', body: '[' })).json.code).toBe('MALFORMED_JSON');
  });

  it('fills a resource with N schema-valid records', async () => {
    const before = (await admin('/__admin/pets/page?limit=1')).json.total as number;
    const made = await admin('/__admin/pets/generate?count=200', { method: 'POST' });
    expect(made).toMatchObject({ status: 201, json: { created: 200 } });
    const all = (await admin('/__admin/pets')).json as Record<string, unknown>[];
    expect(all).toHaveLength(before + 200);
    for (const pet of all) expect(api.resources[0]!.validateRecord(pet), JSON.stringify(pet)).toBe(true);
    expect(new Set(all.slice(-200).map((pet) => pet['name'])).size, 'varied names').toBeGreaterThan(20);
    expect((await admin('/__admin/pets/generate?count=0', { method: 'POST' })).status).toBe(400);
    expect((await admin('/__admin/reset', { method: 'POST' })).status).toBe(200);
  });
});

describe('records on other specs', () => {
  it('an edit keeps the server’s readOnly values and is judged by the replace operation where there is one', async () => {
    const assigned = await createMock({ api: await loadApi(join(PACKAGE_ROOT, 'spec', 'corpus', 'server-assigned-field.yaml')) });
    const created = call(assigned.handle, { method: 'POST', url: '/__admin/pets', body: '{"name":"Kept","categoryId":1}' });
    expect(created.status).toBe(201);
    const { id, createdAt } = created.json as { id: number; createdAt: string };
    const edited = call(assigned.handle, { method: 'PUT', url: `/__admin/pets/${id}`, body: JSON.stringify({ ...created.json, name: 'Renamed', createdAt: '2000-01-01T00:00:00Z' }) });
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({ id, name: 'Renamed', createdAt });

    const replacing = await createMock({ api: await loadApi(join(PACKAGE_ROOT, 'spec', 'corpus', 'put-update.yaml')) });
    const viaApi = call(replacing.handle, { method: 'PUT', url: '/v1/pets/1', body: '{"name":"X"}', headers: { authorization: `Bearer ${DEFAULT_API_KEY}`, 'content-type': 'application/json' } });
    const viaConsole = call(replacing.handle, { method: 'PUT', url: '/__admin/pets/1', body: '{"id":1,"name":"X"}' });
    expect(viaApi.status).toBe(400);
    expect(viaConsole.json).toEqual(viaApi.json);
  });
});

describe('the journal', () => {
  it('entries carry the operation, duration, validation outcome with pointer, both bodies and a curl line without the key', async () => {
    await admin('/__admin/requests', { method: 'DELETE' });
    await fetch(`${mock.baseUrl}/pets`, { method: 'POST', headers: { ...KEY, 'content-type': 'application/json' }, body: '{"name":"J","categoryId":"x"}' });
    await fetch(`${mock.baseUrl}/pets?limit=1`, { headers: KEY });
    const entries = (await admin('/__admin/requests')).json as JournalEntry[];
    expect(entries.map((e) => e.operationId)).toEqual(['listPets', 'createPet']);
    const [listed, refused] = entries as [JournalEntry, JournalEntry];
    expect(listed.validation).toEqual({ outcome: 'valid' });
    expect(listed.response.body.startsWith('[')).toBe(true);
    expect(refused.validation).toMatchObject({ outcome: 'refused', code: 'INVALID_BODY', pointer: '/categoryId' });
    expect(refused.body).toBe('{"name":"J","categoryId":"x"}');
    expect(typeof refused.durationMs).toBe('number');
    expect(refused.curl).toContain(`-X POST '${mock.baseUrl}/pets'`);
    expect(refused.curl).toContain('$OPENAPI_HARNESS_API_KEY');
    expect(JSON.stringify(entries)).not.toContain(DEFAULT_API_KEY);
    expect((await admin('/__admin/requests?operation=createPet')).json).toHaveLength(1);
    expect((await admin('/__admin/requests?status=4xx')).json).toHaveLength(1);
    expect((await admin('/__admin/requests?status=200')).json).toHaveLength(1);
    expect((await admin('/__admin/requests?status=abc')).status).toBe(400);
  });

  it('streams new entries as Server-Sent Events within a second, and a change event after an admin edit', async () => {
    const abort = new AbortController();
    const response = await fetch(`${mock.origin}/__admin/requests/stream`, { headers: ADMIN, signal: abort.signal });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    const until = async (text: string): Promise<void> => {
      while (!seen.includes(text)) seen += decoder.decode((await reader.read()).value);
    };
    await until('retry:');
    const started = Date.now();
    await fetch(`${mock.baseUrl}/pets?limit=3&status=sold`, { headers: KEY });
    await until('event: requests');
    expect(Date.now() - started).toBeLessThan(1000);
    await until('\n\n');
    expect(seen).toContain('/v1/pets?limit=3&status=sold');
    await admin('/__admin/reset', { method: 'POST' });
    await until('event: change');
    abort.abort();
  });

  it('a shutdown’s drain ends open streams at once rather than after the grace period', async () => {
    const other = await startMock({ api, port: 0, adminToken: 'console-admin' });
    const response = await fetch(`${other.origin}/__admin/requests/stream`, { headers: ADMIN });
    expect(response.status).toBe(200);
    const started = Date.now();
    expect(await drain(other.server, 5_000)).toBe(true);
    expect(Date.now() - started).toBeLessThan(2000);
    await other.close();
  });

  it('a HEAD of the stream gets its head and ends', async () => {
    const response = await fetch(`${mock.origin}/__admin/requests/stream`, { method: 'HEAD', headers: ADMIN, signal: AbortSignal.timeout(2000) });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  it('closing the server ends open streams (no hang)', async () => {
    const other = await startMock({ api, port: 0, adminToken: 'console-admin' });
    const response = await fetch(`${other.origin}/__admin/requests/stream`, { headers: ADMIN });
    expect(response.status).toBe(200);
    const started = Date.now();
    await other.close();
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
