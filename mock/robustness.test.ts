import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpecValidator, type SpecValidator } from '../test/spec-validator.js';
import { createMock, DEFAULT_API_KEY, type Mock } from './index.js';
import { MAX_JSON_DEPTH } from './exact-body.js';
import type { MockRequest, MockResponse } from './index.js';

/**
 * The bad-input matrix: every odd request gets a documented answer or a 4xx `Error` (seed, Errors), never
 * a 5xx nor a crash, and the store holds the same pets afterwards. Body, query and path cases run here
 * in-process (no socket, so each case is fast and exact); HTTP-level cases (framing, header size, timeouts, HEAD, OPTIONS) over a real socket in
 * robustness-socket.test.ts. Every response is also checked against spec/openapi.yaml by test/spec-validator.ts.
 */

const AUTH = `Bearer ${DEFAULT_API_KEY}`;
const JSON_TYPE = 'application/json';

let spec: SpecValidator;
let mock: Mock;
let before: string;

beforeAll(async () => {
  spec = await loadSpecValidator();
  mock = await createMock();
  before = mock.store.all().join('\n');
});

/** Sends through the pipeline and checks the answer against the spec; returns it with its parsed body. */
function call(request: Omit<Partial<MockRequest>, 'body'> & { body?: Buffer | string | undefined }): MockResponse & { json: unknown } {
  const full: MockRequest = {
    method: request.method ?? 'GET',
    url: request.url ?? '/v1/pets',
    headers: request.headers ?? { authorization: AUTH },
    body: typeof request.body === 'string' ? Buffer.from(request.body) : request.body,
  };
  const response = mock.handle(full);
  expect(spec.check(full, response), `${full.method} ${full.url}`).toEqual([]);
  return { ...response, json: response.body === '' ? undefined : JSON.parse(response.body) };
}

/** POSTs to /v1/pets; `contentType` `null` sends no content-type header. */
function post(body: string | Buffer, contentType: string | null = JSON_TYPE): MockResponse & { json: unknown } {
  const headers: MockRequest['headers'] = { authorization: AUTH };
  if (contentType !== null) headers['content-type'] = contentType;
  return call({ method: 'POST', body, headers });
}

function expectError(response: MockResponse & { json: unknown }, status: number, code?: string): void {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe(JSON_TYPE);
  expect(response.json).toMatchObject({ status, ...(code === undefined ? {} : { code }) });
}

describe('bad bodies (createPet), in-process', () => {
  it.each([
    ['malformed JSON', '{name: "Rex"}'],
    ['truncated JSON', '{"name":"Rex","categoryId":'],
    ['truncated string', '{"name":"Re'],
    ['trailing garbage', '{"name":"Rex","categoryId":1} x'],
    ['two documents', '{"name":"Rex","categoryId":1}{"name":"Rex","categoryId":1}'],
    ['single quotes', "{'name':'Rex','categoryId':1}"],
    ['NaN', '{"name":"Rex","categoryId":NaN}'],
    ['comment', '{"name":"Rex",/* c */"categoryId":1}'],
    ['duplicate keys with different values', '{"name":"Rex","categoryId":1,"name":"Max"}'],
    ['nested too deeply (arrays)', `${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`],
    ['nested too deeply (objects, 3,000 levels)', `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`],
    ['nested too deeply (100,000 open brackets)', '['.repeat(100_000)],
  ])('%s: 400 MALFORMED_JSON', (_name, body) => {
    expectError(post(body), 400, 'MALFORMED_JSON');
  });

  it.each([
    ['lone continuation byte', Buffer.from([0x7b, 0x80, 0x7d])],
    ['overlong slash', Buffer.from([0x22, 0xc0, 0xaf, 0x22])],
    ['encoded surrogate', Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('","categoryId":1}')])],
    ['0xff byte', Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff]), Buffer.from('","categoryId":1}')])],
  ])('invalid UTF-8 (%s): 400 MALFORMED_JSON', (_name, body) => {
    expectError(post(body), 400, 'MALFORMED_JSON');
  });

  it('empty body: 400 BODY_REQUIRED, with or without a content-type', () => {
    expectError(post(''), 400, 'BODY_REQUIRED');
    expectError(post('', null), 400, 'BODY_REQUIRED');
    expectError(call({ method: 'POST', headers: { authorization: AUTH } }), 400, 'BODY_REQUIRED');
  });

  it.each([
    ['missing', null],
    ['text/plain', 'text/plain'],
    ['form', 'application/x-www-form-urlencoded'],
    ['json lookalike', 'application/jsonx'],
    ['vendor json', 'application/vnd.api+json'],
    ['empty', ''],
  ])('content-type %s: 415 UNSUPPORTED_MEDIA_TYPE', (_name, type) => {
    expectError(post('{"name":"Rex","categoryId":1}', type), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it.each(['application/json; charset=utf-8', 'Application/JSON', 'application/json ; charset=UTF-8'])('content-type %j is accepted', (type) => {
    expect(post('{"name":"Rex","categoryId":1}', type).status).toBe(201);
  });

  it.each([
    ['null', 'null'],
    ['array', '[]'],
    ['string', '"Rex"'],
    ['number', '1'],
    ['missing name', '{"categoryId":1}'],
    ['missing categoryId', '{"name":"Rex"}'],
    ['categoryId 1e400', '{"name":"Rex","categoryId":1e400}'],
    ['categoryId 1.5', '{"name":"Rex","categoryId":1.5}'],
    ['categoryId above int64', '{"name":"Rex","categoryId":9223372036854775808}'],
    ['categoryId below int64', '{"name":"Rex","categoryId":-9223372036854775809}'],
    ['categoryId as string', '{"name":"Rex","categoryId":"1"}'],
    ['name as number', '{"name":1,"categoryId":1}'],
    ['unknown status', '{"name":"Rex","categoryId":1,"status":"lost"}'],
    ['required fields only under __proto__', '{"__proto__":{"name":"Rex","categoryId":1}}'],
    ['required fields only under constructor.prototype', '{"constructor":{"prototype":{"name":"Rex","categoryId":1}}}'],
  ])('%s: 400 INVALID_BODY', (_name, body) => {
    expectError(post(body), 400, 'INVALID_BODY');
  });

  it.each([
    ['-0', '-0', 0n],
    ['1.0', '1.0', 1n],
    ['1E2', '1E2', 100n],
    ['int64 max', '9223372036854775807', 9223372036854775807n],
    ['int64 min', '-9223372036854775808', -9223372036854775808n],
  ])('categoryId %s is the integer it denotes, kept exactly', (_name, literal, expected) => {
    const response = post(`{"name":"Rex","categoryId":${literal}}`);
    expect(response.status).toBe(201);
    expect(response.body).toContain(`"categoryId":${expected}`);
  });

  it('duplicate keys with the same value are one key', () => {
    expect(post('{"name":"Rex","categoryId":1,"name":"Rex"}').status).toBe(201);
  });

  it('__proto__ and constructor keys pollute no prototype and are not stored', () => {
    for (const body of [
      '{"name":"Rex","categoryId":1,"__proto__":{"polluted":true,"status":"sold"}}',
      '{"name":"Rex","categoryId":1,"constructor":{"prototype":{"polluted":true}}}',
      '{"name":"Rex","categoryId":1,"__proto__":null}',
    ]) {
      const response = post(body);
      expect(response.status).toBe(201);
      expect(response.json).not.toHaveProperty('status');
      expect(response.body).not.toContain('polluted');
    }
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(Object.prototype).not.toHaveProperty('status');
  });
});

describe('odd URLs, methods and keys, in-process', () => {
  it.each([
    ['limit=0', 400],
    ['limit=101', 400],
    ['limit=-1', 400],
    ['limit=1.0', 400],
    ['limit=1e1', 400],
    ['limit=', 400],
    ['limit=abc', 400],
    ['limit=99999999999999999999999', 400],
    ['limit=1&limit=2', 400],
    ['status=lost', 400],
    ['status=available&status=sold', 400],
    ['status=AVAILABLE', 400],
    ['limit=%31%30', 200],
    ['limit=+5', 400],
    ['limit=%2B5', 200],
    ['status=%61vailable', 200],
    ['unknown=1', 200],
    ['limit=5&&&&', 200],
    [`q=${'x'.repeat(100_000)}`, 200],
    [`${'a=1&'.repeat(10_000)}limit=2`, 200],
  ])('GET /pets?%s: %i', (query, status) => {
    const response = call({ url: `/v1/pets?${query}` });
    expect(response.status).toBe(status);
    if (status === 400) expectError(response, 400, 'INVALID_QUERY');
  });

  it.each([
    ['%31', 200],
    ['1', 200],
    ['+1', 200],
    ['01', 200],
    ['-0', 404],
    ['%2B1', 200],
    ['1%00', 404],
    ['%00', 404],
    ['1%2F2', 404],
    ['..%2F..%2Fetc%2Fpasswd', 404],
    ['%2e%2e', 404],
    ['1e0', 404],
    ['0x1', 404],
    ['1.0', 404],
    ['%20%31', 404],
    ['%', 404],
    ['%zz', 404],
    ['%E0%A4%A', 404],
    ['%EF%BC%91', 404],
    ['9223372036854775808', 404],
    ['-9223372036854775809', 404],
    ['9'.repeat(5000), 404],
  ])('GET /pets/%s: %i', (petId, status) => {
    const response = call({ url: `/v1/pets/${petId}` });
    expect(response.status).toBe(status);
    if (status === 404) expectError(response, 404, 'PET_NOT_FOUND');
  });

  it.each(['/v1/pets/', '/v1//pets', '/v1/pets/1/', '/v1/pets/1/x', '/v1/pets/../pets', '/v1/./pets', '/v2/pets', '/pets', '/', '', '*', '/v1/PETS', '/v1/store/orders'])(
    'unknown path %j: 404 ROUTE_NOT_FOUND',
    (url) => {
      expectError(call({ url }), 404, 'ROUTE_NOT_FOUND');
    },
  );

  it.each([
    ['PUT', '/v1/pets', 'GET, HEAD, POST, OPTIONS'],
    ['DELETE', '/v1/pets', 'GET, HEAD, POST, OPTIONS'],
    ['PATCH', '/v1/pets/1', 'GET, HEAD, OPTIONS'],
    ['POST', '/v1/pets/1', 'GET, HEAD, OPTIONS'],
    ['TRACE', '/v1/pets', 'GET, HEAD, POST, OPTIONS'],
    ['get', '/v1/pets', 'GET, HEAD, POST, OPTIONS'],
  ])('%s %s: 405 with Allow', (method, url, allow) => {
    const response = call({ method, url });
    expectError(response, 405, 'METHOD_NOT_ALLOWED');
    expect(response.headers['allow']).toBe(allow);
  });

  it('OPTIONS: 204 with Allow, no key needed', () => {
    const response = call({ method: 'OPTIONS', url: '/v1/pets', headers: {} });
    expect(response.status).toBe(204);
    expect(response.headers['allow']).toBe('GET, HEAD, POST, OPTIONS');
  });

  it('HEAD is GET without a body on the wire (the socket drops it; here the status and type are those of GET)', () => {
    const response = call({ method: 'HEAD', url: '/v1/pets/1' });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe(JSON_TYPE);
  });

  it.each([
    ['no header', undefined],
    ['empty', ''],
    ['no scheme', DEFAULT_API_KEY],
    ['Basic', `Basic ${Buffer.from(`u:${DEFAULT_API_KEY}`).toString('base64')}`],
    ['wrong key', 'Bearer wrong-key-0123456789'],
    ['key prefix', `Bearer ${DEFAULT_API_KEY.slice(0, -1)}`],
    ['key with suffix', `Bearer ${DEFAULT_API_KEY}x`],
    ['two keys', `Bearer ${DEFAULT_API_KEY} ${DEFAULT_API_KEY}`],
    ['Bearer only', 'Bearer'],
    ['Bearer and spaces', 'Bearer    '],
    ['control character', `Bearer ${DEFAULT_API_KEY}\u0000`],
  ])('authorization %s: 401, the given key never echoed', (_name, authorization) => {
    const headers = authorization === undefined ? {} : { authorization };
    for (const [method, url] of [['GET', '/v1/pets'], ['POST', '/v1/pets'], ['GET', '/v1/pets/1']] as const) {
      const response = call({ method, url, headers, body: '{"name":"Rex","categoryId":1}' });
      expectError(response, 401, 'UNAUTHORIZED');
      expect(response.body).not.toContain(DEFAULT_API_KEY.slice(0, 8));
      expect(response.body).not.toContain('wrong-key');
    }
  });

  it('no response echoes the valid key', () => {
    for (const response of [call({}), post('{bad'), call({ url: '/v1/pets/abc' }), call({ method: 'PUT' })]) {
      expect(response.body).not.toContain(DEFAULT_API_KEY);
      expect(JSON.stringify(response.headers)).not.toContain(DEFAULT_API_KEY);
    }
  });
});

describe('limits', () => {
  it('maxPets: 409 STORE_FULL once full, and nothing stored is lost', async () => {
    const small = await createMock({ pets: [], maxPets: 3 });
    const create = (name: string): MockResponse =>
      small.handle({ method: 'POST', url: '/v1/pets', headers: { authorization: AUTH, 'content-type': JSON_TYPE }, body: Buffer.from(`{"name":"${name}","categoryId":1}`) });
    expect(['a', 'b', 'c'].map((name) => create(name).status)).toEqual([201, 201, 201]);
    const full = create('d');
    expect(spec.check({ method: 'POST', url: '/v1/pets' }, full)).toEqual([]);
    expect(full.status).toBe(409);
    expect(JSON.parse(full.body)).toMatchObject({ code: 'STORE_FULL', status: 409 });
    const list = small.handle({ method: 'GET', url: '/v1/pets', headers: { authorization: AUTH } });
    expect((JSON.parse(list.body) as { name: string }[]).map((pet) => pet.name)).toEqual(['c', 'b', 'a']);
    expect(small.store.size).toBe(3);
  });
});

describe('the store after the in-process matrix', () => {
  it('holds every pet it held before, unchanged, in the same order', () => {
    const now = mock.store.all();
    expect(now.slice(0, before.split('\n').length).join('\n')).toBe(before);
    // The only additions are the 201s above; none came from a refused request.
    for (const json of now.slice(before.split('\n').length)) expect(json).toMatch(/"name":"Rex"/);
  });
});
