import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY, startMock, type StartedMock } from '../mock/index.js';
import { prismVerdict, startPrismProxy, type PrismProxy, type PrismVerdict } from './prism-proxy.js';
import { loadSpecValidator, type SpecValidator } from './spec-validator.js';

/**
 * An independent oracle: the mock's answers go through `prism proxy spec/openapi.yaml <mock> --errors`,
 * and any violation Prism reports fails the test. A deliberately wrong server proves the oracle can fail.
 * Every answer that reached the mock is also checked with test/spec-validator.ts.
 */

const AUTH = { authorization: `Bearer ${DEFAULT_API_KEY}` };
const JSON_BODY = { ...AUTH, 'content-type': 'application/json' };

interface Probe {
  name: string;
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

interface Outcome {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  verdict: PrismVerdict;
}

async function send(baseUrl: string, probe: Probe): Promise<Outcome> {
  const response = await request(`${baseUrl}${probe.url}`, {
    method: probe.method,
    headers: probe.headers ?? AUTH,
    ...(probe.body === undefined ? {} : { body: probe.body }),
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });
  const body = await response.body.text();
  return { status: response.statusCode, headers: response.headers, body, verdict: prismVerdict(response.headers, body) };
}

describe('prism proxy --errors in front of the mock', () => {
  let mock: StartedMock;
  let prism: PrismProxy;
  let spec: SpecValidator;

  beforeAll(async () => {
    spec = await loadSpecValidator();
    mock = await startMock({ port: 0 });
    prism = await startPrismProxy(mock.baseUrl);
  });
  afterAll(async () => {
    await prism?.close();
    await mock?.close();
  });

  const battery: Probe[] = [
    { name: 'list, defaults', method: 'GET', url: '/pets' },
    ...[1, 2, 20, 99, 100].map((limit): Probe => ({ name: `list, limit ${limit}`, method: 'GET', url: `/pets?limit=${limit}` })),
    ...['available', 'pending', 'sold'].map((status): Probe => ({ name: `list, status ${status}`, method: 'GET', url: `/pets?status=${status}` })),
    { name: 'list, status and limit', method: 'GET', url: '/pets?status=available&limit=1' },
    { name: 'create, required fields', method: 'POST', url: '/pets', headers: JSON_BODY, body: '{"name":"Rex","categoryId":1}' },
    { name: 'create, with status', method: 'POST', url: '/pets', headers: JSON_BODY, body: '{"name":"Tom","categoryId":2,"status":"pending"}' },
    { name: 'create, int64 max categoryId', method: 'POST', url: '/pets', headers: JSON_BODY, body: '{"name":"Big","categoryId":9223372036854775807,"status":"sold"}' },
    { name: 'create, empty name, unicode', method: 'POST', url: '/pets', headers: JSON_BODY, body: '{"name":"","categoryId":-5}' },
    { name: 'create, unicode name', method: 'POST', url: '/pets', headers: JSON_BODY, body: '{"name":"Fl\\u00e9k \\ud83d\\udc08","categoryId":3}' },
    { name: 'list after creates', method: 'GET', url: '/pets?limit=100' },
    { name: 'get, found', method: 'GET', url: '/pets/1' },
    { name: 'get, absent', method: 'GET', url: '/pets/987654321' },
    { name: 'get, int64 max absent', method: 'GET', url: '/pets/9223372036854775807' },
    { name: 'get, negative absent', method: 'GET', url: '/pets/-1' },
    ...['GET /pets', 'POST /pets', 'GET /pets/1'].map((route): Probe => {
      const [method, url] = route.split(' ') as ['GET' | 'POST', string];
      return { name: `${route}, wrong key`, method, url, headers: { authorization: 'Bearer not-a-key', 'content-type': 'application/json' }, body: method === 'POST' ? '{"name":"Rex","categoryId":1}' : undefined };
    }) as Probe[],
    // Invalid requests: Prism refuses most of them itself (it validates requests first); none may show a violation.
    { name: 'list, limit 0', method: 'GET', url: '/pets?limit=0' },
    { name: 'list, limit 101', method: 'GET', url: '/pets?limit=101' },
    { name: 'list, unknown status', method: 'GET', url: '/pets?status=lost' },
    { name: 'create, missing categoryId', method: 'POST', url: '/pets', headers: JSON_BODY, body: '{"name":"Rex"}' },
    { name: 'create, missing name', method: 'POST', url: '/pets', headers: JSON_BODY, body: '{"categoryId":1}' },
    { name: 'create, bad status', method: 'POST', url: '/pets', headers: JSON_BODY, body: '{"name":"Rex","categoryId":1,"status":"lost"}' },
    { name: 'get, non-integer id', method: 'GET', url: '/pets/abc' },
    { name: 'list, no key', method: 'GET', url: '/pets', headers: {} },
    { name: 'get, no key', method: 'GET', url: '/pets/1', headers: {} },
  ];

  it('reports no violation for any answer of the mock', async () => {
    const failures: string[] = [];
    const forwarded: string[] = [];
    for (const probe of battery) {
      const outcome = await send(prism.baseUrl, probe);
      const where = `${probe.name}: ${probe.method} ${probe.url} → ${outcome.status}`;
      if (outcome.verdict.kind === 'violation') failures.push(`${where}: Prism: ${outcome.verdict.violations.join('; ')}`);
      if (outcome.verdict.kind === 'refused') continue;
      forwarded.push(probe.name);
      expect(outcome.status, where).toBeLessThan(500);
      const problems = spec.check({ method: probe.method, url: `/v1${probe.url}` }, outcome);
      if (problems.length > 0) failures.push(`${where}: spec-validator: ${problems.join('; ')}`);
    }
    expect(failures, prism.output().slice(-4_000)).toEqual([]);
    // The oracle judged the answers of every operation: 200, 201, 401 and 404 all came from the mock.
    expect(forwarded).toEqual(expect.arrayContaining(['list, defaults', 'create, required fields', 'get, found', 'get, absent', 'GET /pets, wrong key']));
  });
});

describe('the oracle itself', () => {
  let liar: Server;
  let prism: PrismProxy;

  beforeAll(async () => {
    // Answers 200 {"oops":1} to everything, except 418 under /v1/pets/2: both break spec/openapi.yaml.
    liar = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.statusCode = req.url?.startsWith('/v1/pets/2') === true ? 418 : 200;
      res.end('{"oops":1}');
    });
    await new Promise<void>((resolve) => liar.listen(0, '127.0.0.1', resolve));
    prism = await startPrismProxy(`http://127.0.0.1:${(liar.address() as AddressInfo).port}/v1`);
  });
  afterAll(async () => {
    await prism?.close();
    await new Promise((resolve) => liar?.close(resolve));
  });

  it.each([
    ['a body that is no Pets array', { name: 'list', method: 'GET', url: '/pets' }],
    ['a body that is no Pet', { name: 'get', method: 'GET', url: '/pets/1' }],
    ['a 200 where createPet documents 201 only', { name: 'create', method: 'POST', url: '/pets', headers: JSON_BODY, body: '{"name":"Rex","categoryId":1}' }],
    ['an undocumented status', { name: 'teapot', method: 'GET', url: '/pets/2' }],
  ] as [string, Probe][])('flags %s', async (_name, probe) => {
    const outcome = await send(prism.baseUrl, probe);
    expect(outcome.verdict.kind, JSON.stringify(outcome)).toBe('violation');
  });
});
