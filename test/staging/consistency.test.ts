import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type StartedMock } from '../../mock/index.js';
import { ClientState, send } from '../../conformance/client.js';
import type { Exchange } from '../../judge/verdict.js';
import { consistencySummary, settle } from '../../conformance/consistency.js';
import { Violation } from '../../conformance/contract.js';
import { resolveTarget } from '../../conformance/target.js';
import { ensureBuilt } from '../built-cli.js';
import { failingChecks, runConformance } from './run-cli.js';
import { frontDoor, type FrontDoor } from './servers.js';

/** Read replicas: a created record becomes readable 300 ms after its 201. */

let mock: StartedMock;
let lagging: FrontDoor;
let laggingBroken: FrontDoor;
beforeAll(async () => {
  ensureBuilt();
  mock = await startMock({ port: 0, apiKeys: ['k'], pets: [] });
  lagging = await frontDoor({ upstream: mock.origin, readLagMs: 300 });
  laggingBroken = await frontDoor({ upstream: mock.origin, readLagMs: 300, skipAuthWithKey: 'k' });
});
afterAll(async () => {
  await lagging.close();
  await laggingBroken.close();
  await mock.close();
});

const headers = { authorization: 'Bearer k', accept: 'application/json' };
/** The client and read-after-write figures of this file's requests, as a run of the suite holds them. */
const client = new ClientState();
const run = { consistency: { lags: [] as number[], invisible: 0 } };

async function create(target: ReturnType<typeof resolveTarget>): Promise<string> {
  const created = await send(client, target, { method: 'POST', path: '/pets', headers: { ...headers, 'content-type': 'application/json' }, body: '{"name":"Lagging","categoryId":1}' });
  expect(created.response.status).toBe(201);
  return /"id":(-?\d+)/.exec(created.response.text)![1]!;
}

describe('settle() on a target whose reads lag 300 ms behind writes', () => {
  it('window 0 (strict): one read, the record is not there', async () => {
    const target = resolveTarget({ baseUrl: lagging.baseUrl, apiKey: 'k' });
    const id = await create(target);
    const before = lagging.counts.requests;
    const read = await settle({ target, run }, () => send(client, target, { method: 'GET', path: `/pets/${id}`, headers }), (exchange) => exchange.response.status === 200);
    expect(read.response.status).toBe(404);
    expect(lagging.counts.requests - before).toBe(1);
  });

  it('a window of 1 s: re-reads until the record shows, and records the lag', async () => {
    const target = resolveTarget({ baseUrl: lagging.baseUrl, apiKey: 'k', consistencyWindowMs: 1000 });
    const lags: number[] = [];
    for (let i = 0; i < 3; i++) {
      const id = await create(target);
      const started = performance.now();
      const read = await settle({ target, run }, () => send(client, target, { method: 'GET', path: `/pets/${id}`, headers }), (exchange) => exchange.response.status === 200);
      expect(read.response.status).toBe(200);
      lags.push(performance.now() - started);
    }
    expect(Math.min(...lags)).toBeGreaterThanOrEqual(200);
    const summary = consistencySummary(run.consistency);
    expect(summary.settled).toBe(3);
    expect(summary.p50Ms).toBeGreaterThanOrEqual(200);
    expect(summary.maxMs).toBeLessThan(1000);
    expect(summary.p95Ms).toBeLessThanOrEqual(summary.maxMs);
  });

  it('a violation thrown by the read counts as "not yet" within the window, and is thrown after it', async () => {
    const target = resolveTarget({ baseUrl: lagging.baseUrl, apiKey: 'k', consistencyWindowMs: 1000 });
    const expect200 = async (id: string): Promise<Exchange> => {
      const exchange = await send(client, target, { method: 'GET', path: `/pets/${id}`, headers });
      if (exchange.response.status !== 200) throw new Violation(`expected status 200, got ${exchange.response.status}`, exchange);
      return exchange;
    };
    const id = await create(target);
    await expect(settle({ target, run }, () => expect200(id), () => true)).resolves.toMatchObject({ response: { status: 200 } });
    // A record that never shows: the violation comes out once the next pause (at most 250 ms) would pass the
    // window, so never before 1000 - 250 ms, however fast the reads are answered.
    const started = performance.now();
    await expect(settle({ target, run }, () => expect200('9000000000000000001'), () => true)).rejects.toThrow(/expected status 200, got 404/);
    expect(performance.now() - started).toBeGreaterThan(750);
  });
});

describe('the suite against read replicas 300 ms behind', () => {
  const READ_AFTER_WRITE = ['getPet.found', 'createPet.echo'];

  it('strict (no window): read-after-create fails, as it should', async () => {
    const failed = await failingChecks({ baseUrl: lagging.baseUrl, apiKey: 'k', runs: 5 }, READ_AFTER_WRITE);
    expect([...failed.keys()]).toContain('getPet.found');
  });

  it('--consistency-window 1000: the correct server passes, and the report gives the lag p50/p95/max', async () => {
    const run = await runConformance(['--base-url', lagging.baseUrl, '--consistency-window', '1000', '--concurrency', '4', '--api-key', 'k', '--runs', '5', '--check', ...READ_AFTER_WRITE]);
    expect(run.code, run.output).toBe(0);
    const lag = /read-after-write lag p50 (\d+) ms, p95 (\d+) ms, max (\d+) ms over (\d+) reads/.exec(run.output);
    expect(lag, run.output).not.toBeNull();
    expect(Number(lag![3])).toBeGreaterThanOrEqual(200);
    expect(Number(lag![3])).toBeLessThan(1000);
  });

  it('a consistency window does not excuse a broken server', async () => {
    const failed = await failingChecks({ baseUrl: laggingBroken.baseUrl, apiKey: 'k', runs: 5, consistencyWindowMs: 1000 }, ['auth.getPet', 'getPet.found']);
    expect([...failed.keys()]).toEqual(['auth.getPet']);
  });
});
