import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, call } from '../test/in-process.js';
import { createMock, DEFAULT_API_KEY, loadApi, startMock, type Api, type Mock, type StartedMock } from './index.js';
import { answerDelay, parseLatency, parsePrefer } from './prefer.js';

/** Forcing responses the Prism way (README › Forcing responses): `Prefer: code=`, `Prefer: delay=` and `--latency`. */

let api: Api;
let mock: Mock;

beforeAll(async () => {
  api = await loadApi();
  mock = await createMock({ api });
});

const KEY = bearer(DEFAULT_API_KEY);
const body = JSON.stringify({ name: 'Rex', categoryId: 1 });

describe('Prefer: code=<status>', () => {
  it.each([
    ['listPets', 'GET', '/v1/pets', 401, 'UNAUTHORIZED'],
    ['createPet', 'POST', '/v1/pets', 400, 'INVALID_BODY'],
    ['createPet', 'POST', '/v1/pets', 401, 'UNAUTHORIZED'],
    ['getPet', 'GET', '/v1/pets/1', 404, 'PET_NOT_FOUND'],
    ['getPet', 'GET', '/v1/pets/1', 401, 'UNAUTHORIZED'],
  ])('%s with code=%i answers the documented %i Error', (_op, method, url, status, code) => {
    const before = mock.store.size;
    const response = call(mock.handle, { method, url, body: method === 'POST' ? body : undefined, headers: { ...KEY, prefer: `code=${status}`, 'content-type': 'application/json' } });
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.json).toMatchObject({ code, status });
    expect(mock.store.size, 'a forced error creates nothing').toBe(before);
    if (status === 401) expect(response.headers['www-authenticate']).toBe('Bearer');
  });

  it('an undocumented status is a clear 400 naming the documented ones', () => {
    const response = call(mock.handle, { url: '/v1/pets', headers: { ...KEY, prefer: 'code=404' } });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ code: 'PREFER_CODE_UNDOCUMENTED', status: 400 });
    expect(response.json.message).toContain('documented: 200, 400, 401');
    expect(call(mock.handle, { url: '/v1/pets/1', headers: { ...KEY, prefer: 'code=500' } }).json.code).toBe('PREFER_CODE_UNDOCUMENTED');
    expect(call(mock.handle, { url: '/v1/pets/1', headers: { ...KEY, prefer: 'code=201' } }).json.code).toBe('PREFER_CODE_UNDOCUMENTED');
  });

  it('a documented success status handles the request as usual', () => {
    const listed = call(mock.handle, { url: '/v1/pets?limit=2', headers: { ...KEY, prefer: 'code=200' } });
    expect(listed.status).toBe(200);
    expect(listed.json).toHaveLength(2);
    const created = call(mock.handle, { method: 'POST', body, headers: { ...KEY, prefer: 'code=201', 'content-type': 'application/json' } });
    expect(created.status).toBe(201);
  });

  it('an unreadable Prefer is a 400 INVALID_PREFER; unknown preferences (Prism dynamic=) are ignored; an unknown example is a 400', () => {
    for (const prefer of ['code=abc', 'code=99', 'delay=-1', 'delay=soon', 'delay=60001', 'example=']) {
      expect(call(mock.handle, { headers: { ...KEY, prefer } }).json, prefer).toMatchObject({ code: 'INVALID_PREFER', status: 400 });
    }
    expect(call(mock.handle, { headers: { ...KEY, prefer: 'dynamic=true' } }).status).toBe(200);
    expect(call(mock.handle, { headers: { ...KEY, prefer: 'example=cat, dynamic=true' } }).json).toMatchObject({ code: 'PREFER_EXAMPLE_UNKNOWN', status: 400 });
  });

  it('without a valid key the answer is still 401: forcing happens after authentication', () => {
    expect(call(mock.handle, { url: '/v1/pets/1', headers: { prefer: 'code=404' } }).status).toBe(401);
  });
});

describe('parsing', () => {
  it('reads code and delay separated by commas or semicolons, quoted or not', () => {
    expect(parsePrefer('code=404, delay=250')).toEqual({ ok: true, value: { code: 404, delay: 250 } });
    expect(parsePrefer('respond-async; delay="10"; code=401')).toEqual({ ok: true, value: { code: 401, delay: 10 } });
    expect(parsePrefer(['code=400', 'delay=0'])).toEqual({ ok: true, value: { code: 400, delay: 0 } });
  });

  it('--latency is MS or MIN-MAX', () => {
    expect(parseLatency('250')).toEqual({ min: 250, max: 250 });
    expect(parseLatency('100-300')).toEqual({ min: 100, max: 300 });
    for (const bad of ['', 'abc', '300-100', '-5', '1-70000']) expect(() => parseLatency(bad), bad).toThrow(/MS or MIN-MAX/);
  });

  it('Prefer: delay overrides the latency; the latency is drawn within its range', () => {
    expect(answerDelay('delay=5', { min: 100, max: 100 })).toBe(5);
    expect(answerDelay(undefined, { min: 100, max: 100 })).toBe(100);
    expect(answerDelay(undefined, undefined)).toBe(0);
    for (let i = 0; i < 50; i++) expect(answerDelay('code=200', { min: 10, max: 20 })).toSatisfy((ms: number) => ms >= 10 && ms <= 20);
  });
});

describe('delays over a real socket', () => {
  let plain: StartedMock;
  let slow: StartedMock;
  beforeAll(async () => {
    plain = await startMock({ api, port: 0 });
    slow = await startMock({ api, port: 0, latency: parseLatency('150-200') });
  });
  afterAll(async () => {
    await plain.close();
    await slow.close();
  });

  async function timed(url: string, headers: Record<string, string>): Promise<{ status: number; ms: number }> {
    const started = performance.now();
    const response = await fetch(url, { headers });
    await response.text();
    return { status: response.status, ms: performance.now() - started };
  }

  it('Prefer: delay=MS holds the answer back about MS', async () => {
    const answer = await timed(`${plain.baseUrl}/pets`, { authorization: `Bearer ${DEFAULT_API_KEY}`, prefer: 'delay=300' });
    expect(answer.status).toBe(200);
    expect(answer.ms).toBeGreaterThanOrEqual(290);
    expect(answer.ms).toBeLessThan(2000);
  });

  it('--latency MIN-MAX delays every answer, errors too; Prefer: delay=0 overrides it', async () => {
    const ok = await timed(`${slow.baseUrl}/pets`, { authorization: `Bearer ${DEFAULT_API_KEY}` });
    const refused = await timed(`${slow.baseUrl}/pets`, {});
    expect([ok.status, refused.status]).toEqual([200, 401]);
    for (const answer of [ok, refused]) expect(answer.ms).toBeGreaterThanOrEqual(145);
    const fast = await timed(`${slow.baseUrl}/pets`, { authorization: `Bearer ${DEFAULT_API_KEY}`, prefer: 'delay=0' });
    expect(fast.ms).toBeLessThan(140);
  });
});
