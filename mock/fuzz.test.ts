import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asCurl, sendRaw, type RawOutcome } from '../test/raw-http.js';
import { loadSpecValidator, type SpecValidator } from '../test/spec-validator.js';
import { DEFAULT_API_KEY, startMock, type StartedMock } from './index.js';
import { consolePage } from './console-page.js';

/**
 * Property-based fuzz: fast-check builds raw HTTP/1.1 requests (odd methods, paths around /v1/pets
 * with encodings and traversal, auth and content-type variants, JSON-ish and random bodies, broken framing)
 * and sends them over a real socket. Every answer must be a documented response of its operation or a 4xx
 * `Error` whose `status` is the HTTP status (seed, Errors), checked by test/spec-validator.ts; afterwards the
 * server still answers and the pets created before are intact. Bounded: 300 runs or 20 s, whichever first.
 * On failure fast-check prints the seed and the shrunk request; the message holds the raw bytes.
 */

const RUNS = 300;
const ADMIN_TOKEN = 'fuzz-admin-token-never-sent';
const TIME_LIMIT_MS = 20_000;

/** One generated request: what goes on the request line, the headers and the body, and how it is framed. */
interface RawRequest {
  method: string;
  target: string;
  headers: [string, string][];
  body: Buffer | undefined;
  framing: 'content-length' | 'chunked' | 'none' | 'wrong-length';
}

const methodArb = fc.constantFrom('GET', 'GET', 'POST', 'POST', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'PURGE', 'CONNECT', 'get', 'BREW', 'G\tET');

const petIdArb = fc.oneof(
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map(String),
  fc.integer({ min: 0, max: 20 }).map(String),
  fc.constantFrom('%31', '%2B1', '+1', '01', '-0', '1e0', '0x1', '1.0', '%00', '..%2F..', '%2e%2e', '%', '%zz', '%EF%BC%91', '%20', ''),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);

const queryArb = fc
  .array(
    fc.tuple(
      fc.constantFrom('limit', 'status', 'limit', 'x', '', '__proto__', 'constructor'),
      fc.oneof(fc.integer({ min: -5, max: 200 }).map(String), fc.constantFrom('available', 'pending', 'sold', 'lost', '', '1.0', '%31', '1e1', '%zz', '+5')),
    ),
    { maxLength: 4 },
  )
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`));

const pathArb = fc.oneof(
  fc.constant('/v1/pets'),
  petIdArb.map((id) => `/v1/pets/${id}`),
  fc.constantFrom('/v1/pets/', '/v1//pets', '/v1/pets/1/', '/v1/../v1/pets', '/v1/./pets', '/v1/%70ets', '/V1/pets', '/v2/pets', '/', '*', '/v1', '/v1/store/orders', '/v1/pets/1/x'),
  fc.constantFrom('/__admin', '/__admin/', '/__admin/pets', '/__admin/reset', '/__admin/requests', '/__admin/requests?limit=5', '/__admin/../v1/pets', '/%5F%5Fadmin/pets'),
);

const targetArb = fc.oneof({ weight: 5, arbitrary: fc.tuple(pathArb, queryArb).map(([path, query]) => `${path}${query}`) }, { weight: 1, arbitrary: fc.string({ maxLength: 30 }).filter((s) => !/[\s]/.test(s)) });

const authArb = fc.constantFrom<[string, string] | undefined>(
  ['Authorization', `Bearer ${DEFAULT_API_KEY}`],
  ['Authorization', `Bearer ${DEFAULT_API_KEY}`],
  ['Authorization', `bearer ${DEFAULT_API_KEY}`],
  ['Authorization', 'Bearer wrong'],
  ['Authorization', 'Bearer'],
  ['Authorization', `Basic ${Buffer.from(`u:${DEFAULT_API_KEY}`).toString('base64')}`],
  ['Authorization', ''],
  undefined,
);

const contentTypeArb = fc.constantFrom<[string, string] | undefined>(
  ['Content-Type', 'application/json'],
  ['Content-Type', 'application/json'],
  ['Content-Type', 'application/json; charset=utf-8'],
  ['Content-Type', 'text/plain'],
  ['Content-Type', 'application/x-www-form-urlencoded'],
  ['Content-Type', 'application/jsonx'],
  ['Content-Type', ''],
  undefined,
);

const extraHeaderArb = fc.array(
  fc.tuple(fc.constantFrom('X-Fuzz', 'X-Petstore-Key', 'Accept', 'Origin', 'Prefer', 'Cookie', 'Transfer-Encoding', 'Connection', 'Expect'), fc.string({ maxLength: 20 }).filter((s) => !/[\r\n]/.test(s))),
  { maxLength: 3 },
);

const newPetArb = fc
  .record({
    name: fc.string({ maxLength: 20 }),
    categoryId: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
    status: fc.option(fc.constantFrom('available', 'pending', 'sold', 'lost'), { nil: undefined }),
  })
  .map(({ name, categoryId, status }) => `{"name":${JSON.stringify(name)},"categoryId":${categoryId}${status === undefined ? '' : `,"status":"${status}"`}}`);

const bodyArb = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: newPetArb.map((text) => Buffer.from(text)) },
  { weight: 2, arbitrary: fc.json({ maxDepth: 3 }).map((text) => Buffer.from(text)) },
  { weight: 1, arbitrary: fc.constantFrom('{"name":"a","categoryId":1e400}', '{"__proto__":{"name":"a","categoryId":1}}', '{"name":"a","categoryId":1,"name":"b"}', '[[[[[[[[', '{"name":"a",').map((text) => Buffer.from(text)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)) },
);

const requestArb: fc.Arbitrary<RawRequest> = fc.record({
  method: methodArb,
  target: targetArb,
  headers: fc.tuple(authArb, contentTypeArb, extraHeaderArb).map(([auth, type, extra]) => [...(auth ? [auth] : []), ...(type ? [type] : []), ...extra]),
  body: bodyArb,
  framing: fc.constantFrom('content-length', 'content-length', 'content-length', 'chunked', 'none', 'wrong-length'),
});

/** The exact bytes of a generated request; always ends with `Connection: close` so one answer closes the socket. */
function toBytes(request: RawRequest): Buffer {
  const body = request.body ?? Buffer.alloc(0);
  const lines = [`${request.method} ${request.target} HTTP/1.1`, 'Host: 127.0.0.1', ...request.headers.map(([name, value]) => `${name}: ${value}`)];
  let payload = body;
  if (request.body !== undefined) {
    if (request.framing === 'content-length') lines.push(`Content-Length: ${body.length}`);
    if (request.framing === 'wrong-length') lines.push(`Content-Length: ${body.length + 7}`);
    if (request.framing === 'chunked') {
      lines.push('Transfer-Encoding: chunked');
      payload = Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
    }
  }
  lines.push('Connection: close');
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), payload]);
}

describe('fuzz: raw HTTP requests against the mock', () => {
  let mock: StartedMock;
  let port: number;
  let spec: SpecValidator;
  const created: { id: number; json: string }[] = [];
  const auth = { authorization: `Bearer ${DEFAULT_API_KEY}` };

  beforeAll(async () => {
    spec = await loadSpecValidator();
    // A short request timeout: a generated body shorter than its Content-Length is answered 408 quickly.
    // An admin token that is never sent: no generated request, API key or not, may reach the admin API.
    mock = await startMock({ port: 0, requestTimeout: 300, headersTimeout: 300, adminToken: ADMIN_TOKEN });
    port = Number(new URL(mock.origin).port);
    for (const name of ['Fuzz-A', 'Fuzz-B', 'Fuzz-C']) {
      const response = mock.handle({ method: 'POST', url: '/v1/pets', headers: { ...auth, 'content-type': 'application/json' }, body: Buffer.from(`{"name":"${name}","categoryId":7,"status":"pending"}`) });
      expect(response.status).toBe(201);
      created.push({ id: (JSON.parse(response.body) as { id: number }).id, json: response.body });
    }
  });
  afterAll(async () => {
    await mock?.close();
  });

  it(`answers ${RUNS} generated requests with a documented response or a 4xx Error`, async () => {
    const before = mock.store.all().slice();
    await fc.assert(
      fc.asyncProperty(requestArb, async (request) => {
        const bytes = toBytes(request);
        const outcome: RawOutcome = await sendRaw(port, bytes, { head: request.method === 'HEAD', timeoutMs: 3_000 });
        const curl = asCurl(mock.origin, request.method, request.target, Object.fromEntries(request.headers), request.body?.toString('latin1'));
        const shown = `${JSON.stringify(bytes.toString('latin1'))}\n  as curl (framing aside): ${curl}`;
        if (outcome.kind !== 'response') throw new Error(`no answer (${outcome.kind}) to ${shown}; got ${JSON.stringify(outcome.received)}`);
        const { response } = outcome;
        if (response.status >= 500) throw new Error(`${response.status} to ${shown}: ${response.body}`);
        // The console's shell (a static page and its assets, no state) is the only admin answer below 400 without the token.
        const shell = consolePage(request.method, request.target, new Map(request.headers.map(([name, value]) => [name.toLowerCase(), value])).get('accept')) !== undefined;
        if (request.target.startsWith('/__admin') && response.status < 400 && !shell) throw new Error(`the admin API answered ${response.status} without its token: ${shown}`);
        if (shell) return;
        const problems = spec.check({ method: request.method, url: request.target }, response);
        if (problems.length > 0) throw new Error(`${problems.join('; ')}\nrequest: ${shown}\nresponse: ${response.status} ${JSON.stringify(response.headers)} ${response.body}`);
        if (response.status >= 400 && request.method !== 'HEAD') {
          expect(response.headers['content-type']).toBe('application/json');
          expect(JSON.parse(response.body)).toMatchObject({ status: response.status });
        }
      }),
      { numRuns: RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false, verbose: 1 },
    );

    // The process is up and answers a valid request; every pet held before is still there, unchanged.
    const list = await sendRaw(port, `GET /v1/pets?limit=100 HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth.authorization}\r\nConnection: close\r\n\r\n`);
    expect(list.kind === 'response' && list.response.status).toBe(200);
    expect(mock.store.all().slice(0, before.length)).toEqual(before);
    for (const pet of created) {
      const got = await sendRaw(port, `GET /v1/pets/${pet.id} HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth.authorization}\r\nConnection: close\r\n\r\n`);
      expect(got.kind === 'response' && got.response.body).toBe(pet.json);
    }
  });
});
