import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, DEFAULT_API_KEY, loadApi, startMock, type Api, type StartedMock } from './index.js';
import { deprecationWarner, requestLogger } from './logger.js';

/** The request log (README › Request log): one pino line per request, JSON off a terminal, readable on one, no Authorization. */

/** A stream that keeps every line written to it. */
function sink(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines };
}

let api: Api;
beforeAll(async () => {
  api = await loadApi();
});

const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe('JSON lines', () => {
  const { stream, lines } = sink();
  let mock: StartedMock;
  beforeAll(async () => {
    mock = await startMock({ api, port: 0, logger: createLogger({ format: 'json', destination: stream }) });
  });
  afterAll(() => mock.close());

  it('logs one line per request with method, path, status and ms, and never the Authorization header', async () => {
    const secret = `Bearer ${DEFAULT_API_KEY}`;
    await (await fetch(`${mock.baseUrl}/pets?limit=2`, { headers: { authorization: secret } })).text();
    await (await fetch(`${mock.baseUrl}/pets`, { method: 'POST', headers: { authorization: secret, 'content-type': 'application/json' }, body: '{"name":"Logged","categoryId":1}' })).text();
    await (await fetch(`${mock.baseUrl}/pets`, { headers: { authorization: 'Bearer wrong-key-xyz' } })).text();
    await until(() => lines.length >= 3);
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.map(({ method, path, status }) => ({ method, path, status }))).toEqual([
      { method: 'GET', path: '/v1/pets?limit=2', status: 200 },
      { method: 'POST', path: '/v1/pets', status: 201 },
      { method: 'GET', path: '/v1/pets', status: 401 },
    ]);
    for (const entry of entries) {
      expect(entry['level']).toBe(30);
      expect(entry['ms']).toEqual(expect.any(Number));
    }
    const all = lines.join('\n');
    expect(all).not.toContain(DEFAULT_API_KEY);
    expect(all).not.toContain('wrong-key-xyz');
    expect(all.toLowerCase()).not.toContain('authorization');
  });

  it('warns when the deprecated getPet is called, once and not again right after', async () => {
    for (let i = 0; i < 3; i++) await (await fetch(`${mock.baseUrl}/pets/1`, { headers: { authorization: `Bearer ${DEFAULT_API_KEY}` } })).text();
    await until(() => lines.some((line) => line.includes('"status":200') && line.includes('/v1/pets/1')));
    const warnings = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry['level'] === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ operationId: 'getPet', sunset: '2030-12-05' });
    expect(warnings[0]!['msg']).toContain('deprecated; it is removed on Thu, 05 Dec 2030 00:00:00 GMT');
  });
});

describe('rate-limited deprecation warning', () => {
  it('warns again after the interval, with the number of calls in between', async () => {
    const { stream, lines } = sink();
    const warn = deprecationWarner(createLogger({ format: 'json', destination: stream }), 50);
    const getPet = api.operations.find((op) => op.operationId === 'getPet')!;
    for (let i = 0; i < 5; i++) warn(getPet);
    await new Promise((resolve) => setTimeout(resolve, 80));
    warn(getPet);
    await until(() => lines.length >= 2);
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[1]!).msg).toContain('(5 calls since the last warning)');
  });
});

describe('pretty lines', () => {
  it('are readable: time, level, method, path, status and ms on one line, no JSON', async () => {
    const { stream, lines } = sink();
    const mock = await startMock({ api, port: 0, logger: createLogger({ format: 'pretty', destination: stream }) });
    await (await fetch(`${mock.baseUrl}/pets`, { headers: { authorization: `Bearer ${DEFAULT_API_KEY}` } })).text();
    await mock.close();
    await until(() => lines.length >= 1);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/v1\/pets 200 [\d.]+ ms$/);
  });

  it('silent, or a level above info, installs no per-request hook at all', () => {
    expect(requestLogger(createLogger({ level: 'silent', format: 'json', destination: sink().stream }))).toBeUndefined();
    expect(requestLogger(createLogger({ level: 'warn', format: 'json', destination: sink().stream }))).toBeUndefined();
  });
});
