import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRaw, type RawResponse } from '../test/raw-http.js';
import { loadSpecValidator, type SpecValidator } from '../test/spec-validator.js';
import { DEFAULT_API_KEY, startMock, type StartedMock } from './index.js';

/**
 * The bad-input matrix at the HTTP level, over a raw `node:net` socket (no client library to tidy the
 * bytes up): framing, header and URL size, timeouts, HEAD, OPTIONS, CONNECT. Each answer is a JSON `Error`
 * with `status` equal to the HTTP status (seed, Errors) or a documented response, checked by
 * test/spec-validator.ts, and the store holds the same pets afterwards. Body, query and path cases are in
 * robustness.test.ts.
 */

const AUTH = `Bearer ${DEFAULT_API_KEY}`;
const JSON_TYPE = 'application/json';

let spec: SpecValidator;

beforeAll(async () => {
  spec = await loadSpecValidator();
});

describe('HTTP-level abuse over a real socket', () => {
  let server: StartedMock;
  let port: number;
  let count: number;

  beforeAll(async () => {
    server = await startMock({ port: 0, maxBodyBytes: 1024 * 1024, headersTimeout: 500, requestTimeout: 1_000 });
    port = Number(new URL(server.origin).port);
    count = server.store.size;
  });
  afterAll(async () => {
    await server.close();
  });

  const get = (url = '/v1/pets', extra = ''): string => `GET ${url} HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\n${extra}Connection: close\r\n\r\n`;

  async function expectRawError(bytes: string | Buffer, status: number, code: string, method = 'GET', url = '/v1/pets'): Promise<RawResponse> {
    const outcome = await sendRaw(port, bytes, { timeoutMs: 5_000 });
    expect(outcome.kind, JSON.stringify(outcome)).toBe('response');
    if (outcome.kind !== 'response') throw new Error('no response');
    expect(outcome.response.status).toBe(status);
    expect(outcome.response.headers['content-type']).toBe(JSON_TYPE);
    expect(JSON.parse(outcome.response.body)).toMatchObject({ code, status });
    expect(spec.check({ method, url }, outcome.response)).toEqual([]);
    return outcome.response;
  }

  it('a body over maxBodyBytes: 413 PAYLOAD_TOO_LARGE', async () => {
    const body = Buffer.alloc(1024 * 1024 + 1, 0x20);
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    await expectRawError(Buffer.concat([Buffer.from(head), body]), 413, 'PAYLOAD_TOO_LARGE', 'POST');
  });

  it('a chunked body over maxBodyBytes: 413, and the limit is configurable', async () => {
    const small = await startMock({ port: 0, maxBodyBytes: 100 });
    try {
      const smallPort = Number(new URL(small.origin).port);
      const chunk = 'x'.repeat(80);
      const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
      const outcome = await sendRaw(smallPort, `${head}50\r\n${chunk}\r\n50\r\n${chunk}\r\n0\r\n\r\n`);
      expect(outcome.kind === 'response' && outcome.response.status).toBe(413);
      const fits = await sendRaw(smallPort, `${head}1d\r\n{"name":"Rex","categoryId":1}\r\n0\r\n\r\n`);
      expect(fits.kind === 'response' && fits.response.status).toBe(201);
    } finally {
      await small.close();
    }
  });

  it('invalid chunking: 400 MALFORMED_REQUEST', async () => {
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    await expectRawError(`${head}zz\r\n{}\r\n0\r\n\r\n`, 400, 'MALFORMED_REQUEST', 'POST');
  });

  it('content-length and transfer-encoding together (request smuggling): 400', async () => {
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n`;
    await expectRawError(`${head}0\r\n\r\n`, 400, 'MALFORMED_REQUEST', 'POST');
  });

  it.each([
    ['garbage request line', 'HELLO\r\n\r\n'],
    ['bad header name', `GET /v1/pets HTTP/1.1\r\nHo st: x\r\n\r\n`],
    ['bad content-length', `POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n`],
    ['binary noise', Buffer.from([0, 1, 2, 3, 255, 254, 13, 10, 13, 10])],
    ['a method node does not know', `BREW /v1/pets HTTP/1.1\r\nHost: x\r\n\r\n`],
  ])('%s: 400 MALFORMED_REQUEST', async (_name, bytes) => {
    const outcome = await sendRaw(port, bytes);
    expect(outcome.kind).toBe('response');
    if (outcome.kind === 'response') {
      expect(outcome.response.status).toBe(400);
      expect(JSON.parse(outcome.response.body)).toMatchObject({ code: 'MALFORMED_REQUEST', status: 400 });
    }
  });

  it('headers over the limit: 431 HEADERS_TOO_LARGE', async () => {
    await expectRawError(get('/v1/pets', `X-Big: ${'a'.repeat(32 * 1024)}\r\n`), 431, 'HEADERS_TOO_LARGE');
  });

  it('a very long URL: 431 HEADERS_TOO_LARGE', async () => {
    await expectRawError(get(`/v1/pets?q=${'a'.repeat(64 * 1024)}`), 431, 'HEADERS_TOO_LARGE');
  });

  it('a URL just under the limit is served', async () => {
    const outcome = await sendRaw(port, get(`/v1/pets?q=${'a'.repeat(8 * 1024)}&limit=1`));
    expect(outcome.kind === 'response' && outcome.response.status).toBe(200);
  });

  it('a truncated body: 408 REQUEST_TIMEOUT once requestTimeout passes', async () => {
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    const started = performance.now();
    await expectRawError(`${head}{"name":"Re`, 408, 'REQUEST_TIMEOUT', 'POST');
    expect(performance.now() - started).toBeLessThan(4_000);
  });

  it('headers never finished (slowloris): 408 REQUEST_TIMEOUT once headersTimeout passes', async () => {
    await expectRawError(`GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Slow: `, 408, 'REQUEST_TIMEOUT');
  });

  it('a truncated body then a closed socket: no answer is possible, the server stays up', async () => {
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    const outcome = await sendRaw(port, `${head}{"name":"Rex",`, { halfClose: true, timeoutMs: 3_000 });
    expect(outcome.kind).not.toBe('timeout');
  });

  it('HEAD: the headers of GET, no body', async () => {
    const outcome = await sendRaw(port, `HEAD /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nConnection: close\r\n\r\n`, { head: true });
    expect(outcome.kind).toBe('response');
    if (outcome.kind !== 'response') return;
    expect(outcome.response.status).toBe(200);
    expect(outcome.response.headers['content-type']).toBe(JSON_TYPE);
    expect(outcome.response.body).toBe('');
    await new Promise((resolve) => setTimeout(resolve, 50));
  });

  it('OPTIONS: 204 with Allow', async () => {
    const outcome = await sendRaw(port, `OPTIONS /v1/pets/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(outcome.kind === 'response' && outcome.response.status).toBe(204);
    expect(outcome.kind === 'response' && outcome.response.headers['allow']).toBe('GET, HEAD, OPTIONS');
  });

  it('a method node knows but the API does not serve: 405 with Allow', async () => {
    const response = await expectRawError(`PURGE /v1/pets HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, 405, 'METHOD_NOT_ALLOWED', 'PURGE');
    expect(response.headers['allow']).toBe('GET, HEAD, POST, OPTIONS');
  });

  it('CONNECT: 405 METHOD_NOT_ALLOWED (node would otherwise drop the socket)', async () => {
    await expectRawError(`CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: x\r\n\r\n`, 405, 'METHOD_NOT_ALLOWED', 'CONNECT', '127.0.0.1:80');
  });

  it('HTTP/1.1 without Host: the pipeline answers (node would send a bare 400)', async () => {
    const outcome = await sendRaw(port, `GET /v1/pets?limit=1 HTTP/1.1\r\nAuthorization: ${AUTH}\r\nConnection: close\r\n\r\n`);
    expect(outcome.kind === 'response' && outcome.response.status).toBe(200);
  });

  it('Expect: 100-continue: 100, then the answer', async () => {
    const body = '{"name":"Rex","categoryId":1}';
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer wrong\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    await expectRawError(`${head}${body}`, 401, 'UNAUTHORIZED', 'POST');
  });

  it('after all of it the server answers and holds the same pets', async () => {
    const outcome = await sendRaw(port, get('/v1/pets?limit=100'));
    expect(outcome.kind === 'response' && outcome.response.status).toBe(200);
    expect(server.store.size).toBe(count);
  });
});
