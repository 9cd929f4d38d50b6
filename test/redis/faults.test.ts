import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type StartedRedisMock } from '../../mock/index.js';
import { startRedis, type TestRedis } from './redis-server.js';

/**
 * A mock on Redis while Redis stalls or goes away (README › Several replicas › Faults): requests wait at most
 * the store timeout, then get a 503 in the operation's `Error` shape with `Retry-After`; `/__health` says so;
 * the mock reconnects by itself and serves again; no record it acknowledged with a 201 is lost.
 */
const KEY = 'fault-key';
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const TIMEOUT_MS = 500;

let redis: TestRedis | undefined;
let mock: StartedRedisMock | undefined;

afterEach(async () => {
  redis?.resume();
  await mock?.close();
  await redis?.dispose();
  mock = undefined;
  redis = undefined;
});

async function start(persistent: boolean): Promise<{ redis: TestRedis; mock: StartedRedisMock }> {
  redis = await startRedis({ persistent });
  mock = await startMock({ port: 0, apiKeys: [KEY], data: new Map(), store: { url: redis.url, prefix: 'faults', timeoutMs: TIMEOUT_MS } });
  return { redis, mock };
}

async function create(base: string, name: string): Promise<{ status: number; id?: string; retryAfter: string | null; body: string }> {
  const response = await fetch(`${base}/pets`, { method: 'POST', headers: auth, body: JSON.stringify({ name, categoryId: 1 }) });
  const body = await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body, ...(response.status === 201 ? { id: /"id":(\d+)/.exec(body)![1]! } : {}) };
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const health = async (origin: string) => {
  const response = await fetch(`${origin}/__health`);
  return { status: response.status, body: (await response.json()) as { status: string; store: string; state?: string } };
};

describe('faults of the shared store', () => {
  it('Prefer: code=503 answers the documented 503 with Retry-After (a front-end can try its retry path on any store)', async () => {
    const memory = await startMock({ port: 0, apiKeys: [KEY] });
    try {
      const forced = await fetch(`${memory.baseUrl}/pets`, { headers: { ...auth, prefer: 'code=503' } });
      expect(forced.status).toBe(503);
      expect(forced.headers.get('retry-after')).toBe('1');
      expect(await forced.json()).toMatchObject({ code: 'STORE_UNAVAILABLE', status: 503 });
      expect(await (await fetch(`${memory.origin}/__health`)).json()).toEqual({ status: 'ok', store: 'memory' });
    } finally {
      await memory.close();
    }
  });

  it('Redis paused: a 503 with Retry-After after the timeout, health says stalled, then recovery with every acknowledged pet', async () => {
    const { redis, mock } = await start(false);
    const acknowledged: string[] = [];
    for (let i = 0; i < 5; i++) acknowledged.push((await create(mock.baseUrl, `before-${i}`)).id!);
    expect(await health(mock.origin)).toEqual({ status: 200, body: expect.objectContaining({ status: 'ok', store: 'redis', state: 'ready' }) });

    redis.pause();
    const began = performance.now();
    const refused = await create(mock.baseUrl, 'while-paused');
    const waited = performance.now() - began;
    expect(refused.status).toBe(503);
    expect(waited).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(waited).toBeLessThan(TIMEOUT_MS + 1_000);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'STORE_UNAVAILABLE', status: 503 });
    const list = await fetch(`${mock.baseUrl}/pets`, { headers: auth });
    expect(list.status).toBe(503);
    expect(list.headers.get('content-type')).toBe('application/json');
    const stalled = await health(mock.origin);
    expect(stalled.status).toBe(503);
    expect(stalled.body).toMatchObject({ status: 'unavailable', store: 'redis', state: 'stalled' });

    redis.resume();
    await until(async () => (await fetch(`${mock.baseUrl}/pets`, { headers: auth })).status === 200, 5_000);
    for (const id of acknowledged) expect((await fetch(`${mock.baseUrl}/pets/${id}`, { headers: auth })).status).toBe(200);
    expect((await health(mock.origin)).status).toBe(200);
  });

  it('Redis stopped mid-run: 503s while it is gone, reconnection by itself, no acknowledged pet lost', async () => {
    const { redis, mock } = await start(true);
    const acknowledged: string[] = [];
    const statuses = new Set<number>();
    let running = true;
    const writer = (async () => {
      for (let i = 0; running; i++) {
        const result = await create(mock.baseUrl, `pet-${i}`);
        statuses.add(result.status);
        if (result.id !== undefined) acknowledged.push(result.id);
        if (result.status === 503) expect(result.retryAfter).not.toBeNull();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    await until(async () => acknowledged.length >= 20, 5_000);
    await redis.stop();
    await until(async () => statuses.has(503), 5_000);
    expect((await health(mock.origin)).body).toMatchObject({ status: 'unavailable', store: 'redis' });
    await redis.restart();
    const before = acknowledged.length;
    await until(async () => acknowledged.length > before + 10, 10_000);
    running = false;
    await writer;
    expect([...statuses].sort()).toEqual([201, 503]);
    for (const id of acknowledged) expect((await fetch(`${mock.baseUrl}/pets/${id}`, { headers: auth })).status).toBe(200);
    const all = (await (await fetch(`${mock.baseUrl}/pets?limit=100`, { headers: auth })).json()) as unknown[];
    // A create cut off by the stop may have been applied without its 201: never fewer records than acknowledged.
    expect(all.length).toBeGreaterThanOrEqual(Math.min(100, acknowledged.length));
    expect((await health(mock.origin)).body).toMatchObject({ status: 'ok', state: 'ready' });
  });
});
