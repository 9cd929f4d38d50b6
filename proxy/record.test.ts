import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { readHar } from '../judge/har.js';
import { runFromHar } from '../conformance/from-har.js';
import { judgeTraffic } from '../judge/traffic.js';
import { readDataFile } from '../mock/data.js';
import { createMock } from '../mock/index.js';
import { PACKAGE_ROOT, loadModel } from '../model/loader.js';
import type { ApiModel } from '../model/model.js';
import { startUpstream, type Fault } from '../test/proxy-upstreams.js';
import { DATA_FILE, HAR_FILE } from './recorder.js';
import { startProxy, type StartedProxy } from './proxy.js';

/**
 * Recording (`--record DIR`) and the suite on recorded traffic (`--from-har`): what the proxy logged is what
 * `--from-har` finds in its recording (the same judge), correct traffic passes, the records seen become data the
 * mock starts from, and the sequence rules catch traffic that breaks them (and only such traffic).
 */

const KEY = 'upstream-key';
const BIG = '9007199254740993';
let model: ApiModel;
let dirs: string[] = [];
let closing: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  model = await loadModel();
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterAll(() => vi.restoreAllMocks());
afterEach(async () => {
  await Promise.all(closing.map((server) => server.close()));
  closing = [];
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-proxy-'));
  dirs.push(dir);
  return dir;
}

async function call(proxy: StartedProxy, method: string, path: string, body?: string): Promise<{ status: number; text: string }> {
  const response = await request(`${proxy.baseUrl}${path}`, { method: method as 'GET', headers: { authorization: `Bearer ${KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body }) });
  return { status: response.statusCode, text: await response.body.text() };
}

/** Traffic that touches every rule a fault can break: lists (filtered, limited, default), creates (int64 too), reads. */
async function traffic(proxy: StartedProxy): Promise<void> {
  await call(proxy, 'GET', '/pets');
  await call(proxy, 'GET', '/pets?limit=2');
  await call(proxy, 'GET', '/pets?status=sold');
  const created = await call(proxy, 'POST', '/pets', `{"name":"Rex","categoryId":${BIG},"status":"available"}`);
  const id = (JSON.parse(created.text) as { id?: number }).id ?? 1;
  await call(proxy, 'GET', `/pets/${id}`);
  await call(proxy, 'GET', '/pets/424242');
  await call(proxy, 'POST', '/pets', '{"categoryId":1}');
}

async function recordThrough(fault: Fault): Promise<{ dir: string; logged: string[] }> {
  const upstream = await startUpstream(model, fault);
  const dir = tempDir();
  const proxy = await startProxy({ model, upstream: upstream.baseUrl, port: 0, record: dir, mock: { admin: true, adminToken: 'admin' } });
  closing.push(upstream);
  await traffic(proxy);
  const journal = (await (await request(`${proxy.origin}/__admin/requests`, { headers: { authorization: 'Bearer admin' } })).body.json()) as { violations: { operationId: string; rule: string; pointer: string; side: string }[] }[];
  await proxy.close();
  const logged = journal.flatMap((entry) => entry.violations.filter((v) => v.side === 'response').map((v) => `${v.operationId} ${v.rule} ${v.pointer}`));
  return { dir, logged: logged.sort() };
}

describe('HAR round-trip', () => {
  it('correct traffic: the recording passes --from-har (exit 0) and its records become starting data', async () => {
    const { dir, logged } = await recordThrough('none');
    expect(logged).toEqual([]);
    expect(await runFromHar({ file: join(dir, HAR_FILE), model, specPath: join(PACKAGE_ROOT, 'spec', 'openapi.yaml'), strict: false, version: 'test' })).toBe(0);
    const har = readFileSync(join(dir, HAR_FILE), 'utf8');
    expect(har).not.toContain(KEY);
    const data = readDataFile(model, join(dir, DATA_FILE));
    const pets = data.get('pets')!;
    expect(readFileSync(join(dir, DATA_FILE), 'utf8')).toContain(`"categoryId":${BIG}`);
    const replay = await createMock({ model, data });
    const listed = replay.handle({ method: 'GET', url: '/v1/pets?limit=100', headers: { authorization: 'Bearer petstore-dev-key' } });
    expect(JSON.parse(listed.body)).toHaveLength(pets.length);
    expect(listed.body).toContain(BIG);
  });

  for (const fault of ['schema', 'status', 'filter', 'limit', 'echo', 'int64', 'storage'] as const) {
    it(`${fault}: --from-har finds the violations the proxy logged, and fails (exit 1)`, async () => {
      const { dir, logged } = await recordThrough(fault);
      expect(logged.length).toBeGreaterThan(0);
      const { exchanges } = readHar(join(dir, HAR_FILE), model);
      const found = judgeTraffic(model, exchanges).flatMap((j) => [...j.verdict.violations, ...j.sequence].filter((v) => v.side === 'response').map((v) => `${v.operationId} ${v.rule} ${v.pointer}`));
      expect(found.sort()).toEqual(logged);
      const junit = join(dir, 'junit.xml');
      const html = join(dir, 'report.html');
      expect(await runFromHar({ file: join(dir, HAR_FILE), model, specPath: join(PACKAGE_ROOT, 'spec', 'openapi.yaml'), strict: false, junit, html, version: 'test' })).toBe(1);
      expect(readFileSync(junit, 'utf8')).toMatch(/<failure /);
      expect(readFileSync(html, 'utf8')).toContain('har.');
    });
  }
});

/** A HAR entry of a made-up exchange at `second` seconds. */
function entry(second: number, method: string, path: string, status: number, response: unknown, body?: unknown): object {
  return {
    startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString(),
    time: 1,
    request: { method, url: `https://staging.example.com/gateway/v1${path}`, httpVersion: 'HTTP/1.1', headers: [{ name: 'Authorization', value: 'Bearer x' }, ...(body === undefined ? [] : [{ name: 'Content-Type', value: 'application/json' }])], queryString: [], cookies: [], headersSize: -1, bodySize: -1, ...(body === undefined ? {} : { postData: { mimeType: 'application/json', text: JSON.stringify(body) } }) },
    response: { status, statusText: '', httpVersion: 'HTTP/1.1', headers: [{ name: 'Content-Type', value: 'application/json' }], cookies: [], content: { size: -1, mimeType: 'application/json', text: response === undefined ? '' : JSON.stringify(response) }, redirectURL: '', headersSize: -1, bodySize: -1 },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  };
}

function harOf(entries: object[]): string {
  const dir = tempDir();
  const file = join(dir, 'traffic.har');
  writeFileSync(file, JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } }));
  return file;
}

const rules = (model: ApiModel, file: string): string[] => judgeTraffic(model, readHar(file, model).exchanges).flatMap((j) => j.sequence.map((v) => v.rule));

describe('sequence rules on recorded traffic', () => {
  const pet = { id: 5, name: 'Rex', categoryId: 1 };
  const notFound = { code: 'PET_NOT_FOUND', message: 'no', status: 404 };

  it('read-after-create: a created record reads back as sent, and not as 404', () => {
    const good = harOf([entry(1, 'POST', '/pets', 201, pet, { name: 'Rex', categoryId: 1 }), entry(2, 'GET', '/pets/5', 200, pet), entry(3, 'GET', '/pets?limit=5', 200, [pet])]);
    expect(rules(model, good)).toEqual([]);
    const changed = harOf([entry(1, 'POST', '/pets', 201, pet, { name: 'Rex', categoryId: 1 }), entry(2, 'GET', '/pets/5', 200, { ...pet, name: 'Max' })]);
    expect(rules(model, changed)).toEqual(['sequence.read-after-create']);
    const lost = harOf([entry(1, 'POST', '/pets', 201, pet, { name: 'Rex', categoryId: 1 }), entry(2, 'GET', '/pets/5', 404, notFound)]);
    expect(rules(model, lost)).toEqual(['sequence.read-after-create']);
    const listedOtherwise = harOf([entry(1, 'POST', '/pets', 201, pet, { name: 'Rex', categoryId: 1 }), entry(2, 'GET', '/pets', 200, [{ ...pet, categoryId: 2 }])]);
    expect(rules(model, listedOtherwise)).toEqual(['sequence.read-after-create']);
  });

  it('delete then 404: a deleted record never reads back nor is listed', async () => {
    const withDelete = await loadModel(join(PACKAGE_ROOT, 'spec', 'corpus', 'delete.yaml'));
    const good = harOf([entry(1, 'POST', '/pets', 201, pet, { name: 'Rex', categoryId: 1 }), entry(2, 'DELETE', '/pets/5', 204, undefined), entry(3, 'GET', '/pets/5', 404, notFound), entry(4, 'GET', '/pets', 200, [])]);
    expect(rules(withDelete, good)).toEqual([]);
    const undead = harOf([entry(1, 'DELETE', '/pets/5', 204, undefined), entry(2, 'GET', '/pets/5', 200, pet), entry(3, 'GET', '/pets', 200, [pet])]);
    expect(rules(withDelete, undead)).toEqual(['sequence.delete-gone', 'sequence.delete-gone']);
  });

  it('pages of one list do not overlap (a spec with an offset parameter)', async () => {
    const document = (await SwaggerParser.dereference(join(PACKAGE_ROOT, 'spec', 'openapi.yaml'))) as { paths: Record<string, { get: { parameters: object[] } }> };
    document.paths['/pets']!.get.parameters.push({ name: 'offset', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } });
    const file = join(tempDir(), 'paged.json');
    writeFileSync(file, JSON.stringify(document));
    const paged = await loadModel(file);
    const a = { id: 1, name: 'A', categoryId: 1 };
    const b = { id: 2, name: 'B', categoryId: 1 };
    const c = { id: 3, name: 'C', categoryId: 1 };
    expect(rules(paged, harOf([entry(1, 'GET', '/pets?limit=2&offset=0', 200, [a, b]), entry(2, 'GET', '/pets?limit=2&offset=2', 200, [c])]))).toEqual([]);
    expect(rules(paged, harOf([entry(1, 'GET', '/pets?limit=2&offset=0', 200, [a, b]), entry(2, 'GET', '/pets?limit=2&offset=2', 200, [b, c])]))).toEqual(['sequence.pages-overlap']);
  });

  it('a body the recorder left out is not judged; a 304 to a conditional request is not a status violation', () => {
    const bare = entry(1, 'GET', '/pets/5', 200, undefined) as { response: { content: { text?: string } } };
    delete bare.response.content.text;
    const conditional = entry(2, 'GET', '/pets/5', 304, undefined) as { request: { headers: { name: string; value: string }[] } };
    conditional.request.headers.push({ name: 'If-None-Match', value: '"abc"' });
    const judged = judgeTraffic(model, readHar(harOf([bare, conditional]), model).exchanges);
    expect(judged.flatMap((j) => j.verdict.violations)).toEqual([]);
    const empty = entry(3, 'GET', '/pets/5', 200, undefined);
    expect(judgeTraffic(model, readHar(harOf([empty]), model).exchanges)[0]!.verdict.violations.map((v) => v.rule)).toEqual(['body.json']);
  });

  it('an exchange the spec does not describe is listed, not failed, unless --strict', async () => {
    const file = harOf([entry(1, 'GET', '/store/orders', 200, []), entry(2, 'GET', '/pets/5', 404, notFound)]);
    const spec = join(PACKAGE_ROOT, 'spec', 'openapi.yaml');
    expect(await runFromHar({ file, model, specPath: spec, strict: false, version: 'test' })).toBe(0);
    expect(await runFromHar({ file, model, specPath: spec, strict: true, version: 'test' })).toBe(1);
  });
});
