import { connect } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../model/loader.js';
import type { ApiModel } from '../model/model.js';
import { startUpstream, type Fault, type Gaps, type TestUpstream } from '../test/proxy-upstreams.js';
import { ANSWERED_BY_HEADER, startProxy, VIOLATIONS_HEADER, type ProxyOptions, type StartedProxy } from './proxy.js';

/**
 * The validating proxy with real servers: node:http upstreams on free loopback ports (the mock, correct or with
 * one fault), the proxy in front, requests over sockets. Each fault must show as its violation (header, journal,
 * counts); the correct upstream must show none.
 */

const KEY = 'upstream-key';
const ADMIN = 'admin-token';
let model: ApiModel;
let running: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  model = await loadModel();
});

afterEach(async () => {
  await Promise.all(running.map((server) => server.close()));
  running = [];
});

async function setUp(fault: Fault, gaps: Gaps = {}, options: Partial<ProxyOptions> = {}): Promise<{ upstream: TestUpstream; proxy: StartedProxy }> {
  const upstream = await startUpstream(model, fault, gaps);
  const proxy = await startProxy({ model, upstream: upstream.baseUrl, port: 0, mock: { adminToken: ADMIN }, ...options });
  running.push(proxy, upstream);
  return { upstream, proxy };
}

interface Seen {
  status: number;
  headers: Record<string, string>;
  text: string;
  violations: string;
  answeredBy: string;
}

async function call(proxy: StartedProxy, method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Seen> {
  const response = await request(`${proxy.baseUrl}${path}`, {
    method: method as 'GET',
    headers: { authorization: `Bearer ${KEY}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.body.text();
  const flat = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]));
  return { status: response.statusCode, headers: flat, text, violations: flat[VIOLATIONS_HEADER] ?? '', answeredBy: flat[ANSWERED_BY_HEADER] ?? '' };
}

async function adminGet(proxy: StartedProxy, path: string): Promise<any> {
  const response = await request(`${proxy.origin}/__admin/${path}`, { headers: { authorization: `Bearer ${ADMIN}` } });
  return response.body.json();
}

const BIG = '9007199254740993';

describe('a correct upstream behind the proxy', () => {
  it('answers unchanged and shows no violation', async () => {
    const { upstream, proxy } = await setUp('none');
    const direct = await request(`${upstream.baseUrl}/pets?limit=3`, { headers: { authorization: `Bearer ${KEY}` } });
    const directText = await direct.body.text();
    const list = await call(proxy, 'GET', '/pets?limit=3');
    expect(list.status).toBe(200);
    expect(list.text).toBe(directText);
    expect(list.answeredBy).toBe('upstream');
    for (const path of ['/pets', '/pets?status=available', '/pets?status=sold&limit=1', '/pets/1', '/pets/999999']) {
      const seen = await call(proxy, 'GET', path);
      expect(seen.violations, path).toBe('');
    }
    const created = await call(proxy, 'POST', '/pets', `{"name":"Rex","categoryId":${BIG},"status":"pending"}`);
    expect(created.status).toBe(201);
    expect(created.text).toContain(BIG);
    expect(created.violations).toBe('');
    const unauthorized = await call(proxy, 'GET', '/pets', undefined, { authorization: '' });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.violations).toContain('request.credentials');
    expect(unauthorized.violations).not.toContain('auth.accepted');
    const counts = await adminGet(proxy, 'violations');
    expect(counts.total).toBe(1);
    expect(counts.byRule).toEqual({ 'request.credentials': 1 });
  });

  it('forwards a route the spec does not describe and reports it as route', async () => {
    const { upstream, proxy } = await setUp('none');
    const inside = await call(proxy, 'GET', '/store/orders');
    expect(inside.violations).toContain('route');
    const outside = await request(`${proxy.origin}/elsewhere`, { headers: { authorization: `Bearer ${KEY}` } });
    await outside.body.text();
    expect(outside.headers[VIOLATIONS_HEADER]).toContain('route');
    expect(upstream.received.map((r) => r.url)).toEqual(['/v1/store/orders', '/elsewhere']);
  });

  it('passes a gzip body through byte for byte and still judges it', async () => {
    const { proxy } = await setUp('gzip');
    const response = await request(`${proxy.baseUrl}/pets?limit=2`, { headers: { authorization: `Bearer ${KEY}`, 'accept-encoding': 'gzip' } });
    const bytes = Buffer.from(await response.body.arrayBuffer());
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(bytes).toString('utf8'))).toHaveLength(2);
    expect(response.headers[VIOLATIONS_HEADER]).toBeUndefined();
  });
});

/** One request per fault that shows it, and the rule the proxy must name. */
const FAULTS: { fault: Fault; method: string; path: string; body?: string; rule: string; pointer: string }[] = [
  { fault: 'schema', method: 'GET', path: '/pets?limit=5', rule: 'body.schema', pointer: '/body/0/name' },
  { fault: 'status', method: 'POST', path: '/pets', body: '{"name":"Rex","categoryId":1}', rule: 'status', pointer: '/status' },
  { fault: 'filter', method: 'GET', path: '/pets?status=sold', rule: 'list.filter', pointer: '/status' },
  { fault: 'limit', method: 'GET', path: '/pets?limit=2', rule: 'list.limit', pointer: '/2' },
  { fault: 'echo', method: 'POST', path: '/pets', body: '{"name":"Rex","categoryId":1}', rule: 'create.echo', pointer: '/body/name' },
  { fault: 'int64', method: 'POST', path: '/pets', body: `{"name":"Rex","categoryId":${BIG}}`, rule: 'create.echo', pointer: '/body/categoryId' },
];

describe('broken upstreams behind the proxy: each fault seen', () => {
  for (const { fault, method, path, body, rule, pointer } of FAULTS) {
    it(`${fault}: ${rule} in the header, the log's journal and the counts`, async () => {
      const { proxy } = await setUp(fault);
      const seen = await call(proxy, method, path, body);
      expect(seen.violations).toContain(rule);
      expect(seen.violations).toContain(pointer);
      const counts = await adminGet(proxy, 'violations');
      expect(counts.byRule[rule]).toBeGreaterThan(0);
      const [entry] = await adminGet(proxy, 'requests?limit=1');
      expect(entry.answeredBy).toBe('upstream');
      expect(entry.violations.map((v: { rule: string }) => v.rule)).toContain(rule);
      // The same requests on a correct upstream show nothing.
      const { proxy: clean } = await setUp('none');
      expect((await call(clean, method, path, body)).violations).toBe('');
    });
  }
});

describe('a fault only a sequence shows', () => {
  it('storage: a create echoes int64 exactly, a later read loses digits: sequence.read-after-create', async () => {
    const { proxy } = await setUp('storage');
    const created = await call(proxy, 'POST', '/pets', `{"name":"Rex","categoryId":${BIG}}`);
    expect(created.violations).toBe('');
    const id = (JSON.parse(created.text) as { id: number }).id;
    const read = await call(proxy, 'GET', `/pets/${id}`);
    expect(read.violations).toContain('sequence.read-after-create');
    expect(read.violations).toContain('/body/categoryId');
    const { proxy: clean } = await setUp('none');
    const again = await call(clean, 'POST', '/pets', `{"name":"Rex","categoryId":${BIG}}`);
    expect((await call(clean, 'GET', `/pets/${(JSON.parse(again.text) as { id: number }).id}`)).violations).toBe('');
  });
});

describe('bad input to the proxy', () => {
  it('never crashes: malformed JSON, a bad percent-encoding, a body too large, a request node cannot parse', async () => {
    const { proxy } = await setUp('none', {}, { maxBodyBytes: 1024 });
    const malformed = await call(proxy, 'POST', '/pets', '{"name":');
    expect(malformed.status).toBe(400);
    expect(malformed.violations).toContain('request.body');
    const encoded = await call(proxy, 'GET', '/pets/%E0%A4%A');
    expect(encoded.status).toBeLessThan(500);
    const large = await call(proxy, 'POST', '/pets', `{"name":"${'x'.repeat(4096)}","categoryId":1}`);
    expect(large.status).toBe(413);
    expect(JSON.parse(large.text)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
    const raw = await new Promise<string>((resolve) => {
      const socket = connect(Number(new URL(proxy.origin).port), '127.0.0.1', () => socket.write('GARBAGE\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    expect(raw).toContain('"status":400');
    expect((await call(proxy, 'GET', '/pets?limit=1')).status).toBe(200);
  });
});

describe('fallback to the mock', () => {
  it('answers from the mock when the upstream lacks a route (404 page) or answers 501, and keeps the mock records on the mock side', async () => {
    const { upstream, proxy } = await setUp('none', { missing: ['listPets'], notImplemented: ['createPet'] }, { fallback: true });
    const list = await call(proxy, 'GET', '/pets?limit=2');
    expect(list.status).toBe(200);
    expect(list.answeredBy).toMatch(/^mock; fallback.*404/);
    const created = await call(proxy, 'POST', '/pets', '{"name":"Only on the mock","categoryId":3}');
    expect(created.status).toBe(201);
    expect(created.answeredBy).toMatch(/^mock; fallback.*501/);
    const id = (JSON.parse(created.text) as { id: number }).id;
    const read = await call(proxy, 'GET', `/pets/${id}`);
    expect(read.status).toBe(200);
    expect(read.answeredBy).toMatch(/^mock/);
    expect(JSON.parse(read.text).name).toBe('Only on the mock');
    // A documented 404 of a record is the upstream's answer, not a missing route.
    const absent = await call(proxy, 'GET', '/pets/987654321');
    expect(absent.status).toBe(404);
    expect(absent.answeredBy).toBe('upstream');
    expect(upstream.received.some((r) => r.url.startsWith('/v1/pets/987654321'))).toBe(true);
  });

  it('answers from the mock when the upstream cannot be reached, and 502 without --fallback', async () => {
    const gone = await startUpstream(model, 'none');
    const url = gone.baseUrl;
    await gone.close();
    const fallback = await startProxy({ model, upstream: url, port: 0, fallback: true });
    const plain = await startProxy({ model, upstream: url, port: 0 });
    running.push(fallback, plain);
    const served = await call(fallback, 'GET', '/pets?limit=1', undefined, { authorization: 'Bearer any-real-key' });
    expect(served.status).toBe(200);
    expect(served.answeredBy).toMatch(/^mock; fallback: upstream unreachable/);
    const failed = await call(plain, 'GET', '/pets?limit=1');
    expect(failed.status).toBe(502);
    expect(JSON.parse(failed.text)).toMatchObject({ code: 'UPSTREAM_UNREACHABLE', status: 502 });
  });

  it('--mock-operations serves the named operations from the mock only', async () => {
    const { upstream, proxy } = await setUp('none', {}, { mockOperations: ['getPet'] });
    const read = await call(proxy, 'GET', '/pets/1');
    expect(read.answeredBy).toBe('mock; mock-operations');
    expect(upstream.received.some((r) => r.url.startsWith('/v1/pets/1'))).toBe(false);
    expect((await call(proxy, 'GET', '/pets?limit=1')).answeredBy).toBe('upstream');
  });

  it('--errors refuses an invalid request with the spec\'s 400 instead of forwarding it', async () => {
    const { upstream, proxy } = await setUp('none', {}, { errors: true });
    const refused = await call(proxy, 'POST', '/pets', '{"categoryId":1}');
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text)).toMatchObject({ status: 400 });
    expect(refused.violations).toContain('request.body');
    expect(upstream.received.some((r) => r.method === 'POST')).toBe(false);
  });

  it('--no-violation-header leaves the header out but still counts', async () => {
    const { proxy } = await setUp('schema', {}, { violationHeader: false });
    const seen = await call(proxy, 'GET', '/pets?limit=5');
    expect(seen.violations).toBe('');
    expect((await adminGet(proxy, 'violations')).byRule['body.schema']).toBeGreaterThan(0);
  });
});
