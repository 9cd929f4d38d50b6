import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type StartedMock } from '../../mock/index.js';
import { send, type Exchange } from '../../conformance/client.js';
import { consistencySummary, settle } from '../../conformance/consistency.js';
import { Violation } from '../../conformance/contract.js';
import { resolveTarget } from '../../conformance/target.js';
import { frontDoor, type FrontDoor } from './servers.js';

/** Read replicas: a created record becomes readable 300 ms after its 201. */

let mock: StartedMock;
let lagging: FrontDoor;
beforeAll(async () => {
  mock = await startMock({ port: 0, apiKeys: ['k'], pets: [] });
  lagging = await frontDoor({ upstream: mock.origin, readLagMs: 300 });
});
afterAll(async () => {
  await lagging.close();
  await mock.close();
});

const headers = { authorization: 'Bearer k', accept: 'application/json' };

async function create(target: ReturnType<typeof resolveTarget>): Promise<string> {
  const created = await send(target, { method: 'POST', path: '/pets', headers: { ...headers, 'content-type': 'application/json' }, body: '{"name":"Lagging","categoryId":1}' });
  expect(created.response.status).toBe(201);
  return /"id":(-?\d+)/.exec(created.response.text)![1]!;
}

describe('settle() on a target whose reads lag 300 ms behind writes', () => {
  it('window 0 (strict): one read, the record is not there', async () => {
    const target = resolveTarget({ baseUrl: lagging.baseUrl, apiKey: 'k' });
    const id = await create(target);
    const before = lagging.counts.requests;
    const read = await settle(target, () => send(target, { method: 'GET', path: `/pets/${id}`, headers }), (exchange) => exchange.response.status === 200);
    expect(read.response.status).toBe(404);
    expect(lagging.counts.requests - before).toBe(1);
  });

  it('a window of 1 s: re-reads until the record shows, and records the lag', async () => {
    const target = resolveTarget({ baseUrl: lagging.baseUrl, apiKey: 'k', consistencyWindowMs: 1000 });
    const lags: number[] = [];
    for (let i = 0; i < 3; i++) {
      const id = await create(target);
      const started = performance.now();
      const read = await settle(target, () => send(target, { method: 'GET', path: `/pets/${id}`, headers }), (exchange) => exchange.response.status === 200);
      expect(read.response.status).toBe(200);
      lags.push(performance.now() - started);
    }
    expect(Math.min(...lags)).toBeGreaterThanOrEqual(200);
    const summary = consistencySummary();
    expect(summary.settled).toBe(3);
    expect(summary.p50Ms).toBeGreaterThanOrEqual(200);
    expect(summary.maxMs).toBeLessThan(1000);
    expect(summary.p95Ms).toBeLessThanOrEqual(summary.maxMs);
  });

  it('a violation thrown by the read counts as "not yet" within the window, and is thrown after it', async () => {
    const target = resolveTarget({ baseUrl: lagging.baseUrl, apiKey: 'k', consistencyWindowMs: 1000 });
    const expect200 = async (id: string): Promise<Exchange> => {
      const exchange = await send(target, { method: 'GET', path: `/pets/${id}`, headers });
      if (exchange.response.status !== 200) throw new Violation(`expected status 200, got ${exchange.response.status}`, exchange);
      return exchange;
    };
    const id = await create(target);
    await expect(settle(target, () => expect200(id), () => true)).resolves.toMatchObject({ response: { status: 200 } });
    // A record that never shows: the violation comes out once the window has passed.
    const started = performance.now();
    await expect(settle(target, () => expect200('9000000000000000001'), () => true)).rejects.toThrow(/expected status 200, got 404/);
    expect(performance.now() - started).toBeGreaterThanOrEqual(900);
  });
});
