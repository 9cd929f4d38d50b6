import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type StartedMock } from '../../mock/index.js';
import { ClientState, send } from '../../conformance/client.js';
import { startRun } from '../../conformance/run-suite.js';
import { summary, summaryLine } from '../../conformance/report/results.js';
import { resolveTarget } from '../../conformance/target.js';
import { backoffMs, retryAfterMs, Throttle } from '../../conformance/transport/throttle.js';
import { ensureBuilt } from '../built-cli.js';
import { failingChecks, runConformance } from './run-cli.js';
import { frontDoor, type FrontDoor } from './servers.js';

/**
 * A gateway that allows 60 requests a second, then answers 429 with `Retry-After: 1` and an Error body; its first
 * second's quota is spent before the run starts, so it refuses on any machine, however slow.
 */

let mock: StartedMock;
let gateway: FrontDoor;
let brokenGateway: FrontDoor;
beforeAll(async () => {
  ensureBuilt();
  mock = await startMock({ port: 0, apiKeys: ['k'], pets: [] });
  gateway = await frontDoor({ upstream: mock.origin, rateLimit: { perSecond: 60, retryAfter: '1', spentAtStart: true } });
  brokenGateway = await frontDoor({ upstream: mock.origin, rateLimit: { perSecond: 60, retryAfter: '1', spentAtStart: true }, skipAuthWithKey: 'k' });
});
afterAll(async () => {
  await gateway.close();
  await brokenGateway.close();
  await mock.close();
});

describe('--max-rps', () => {
  it('caps the total rate with several requests in flight', async () => {
    const target = resolveTarget({ baseUrl: mock.baseUrl, apiKey: 'k', concurrency: 8, maxRps: 20 });
    const client = new ClientState();
    const started = performance.now();
    await Promise.all(Array.from({ length: 11 }, () => send(client, target, { method: 'GET', path: '/pets?limit=1', headers: { authorization: 'Bearer k' } })));
    expect(performance.now() - started).toBeGreaterThanOrEqual(480);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('in-process checks behind a rate-limiting gateway', () => {
  it('passes a correct server: refusals are retried, counted in the summary, never reported as violations', async () => {
    const target = { baseUrl: gateway.baseUrl, apiKey: 'k', runs: 10, concurrency: 4 };
    const run = await startRun(target);
    const failed = await failingChecks(target, ['auth.listPets', 'createPet.echo', 'getPet.found'], run).finally(() => run.close());
    expect(failed).toEqual(new Map());
    expect(gateway.counts.refused, 'the gateway never refused: the test proves nothing').toBeGreaterThan(0);
    expect(run.client.retries).toBeGreaterThan(0);
    const line = /(\d+) retries after 429\/503, ([\d.]+) s waiting/.exec(summaryLine(summary(run, gateway.baseUrl)));
    expect(Number(line?.[1])).toBe(run.client.retries);
    expect(Number(line?.[2])).toBeGreaterThanOrEqual(1);
  });

  it('still rejects a broken server (no key check) behind the same gateway', async () => {
    const failed = await failingChecks({ baseUrl: brokenGateway.baseUrl, apiKey: 'k', runs: 10, concurrency: 4 }, ['auth.listPets', 'createPet.echo']);
    expect([...failed.keys()]).toEqual(['auth.listPets']);
  });
});

describe('Retry-After and backoff', () => {
  it('reads delta-seconds and HTTP dates, and backs off exponentially within 8 s without one', () => {
    expect(retryAfterMs('1')).toBe(1000);
    expect(retryAfterMs(' 120 ')).toBe(120_000);
    const now = Date.parse('Mon, 23 Nov 2026 10:00:00 GMT');
    expect(retryAfterMs('Mon, 23 Nov 2026 10:00:03 GMT', now)).toBe(3000);
    expect(retryAfterMs('Mon, 23 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
    expect([1, 2, 3, 4, 5, 6, 7].map(backoffMs)).toEqual([250, 500, 1000, 2000, 4000, 8000, 8000]);
  });

  it('send() waits as long as Retry-After says, then returns the answer, never the 429', async () => {
    const strict = await frontDoor({ upstream: mock.origin, rateLimit: { perSecond: 2, retryAfter: '1' } });
    try {
      const target = resolveTarget({ baseUrl: strict.baseUrl, apiKey: 'k', concurrency: 4 });
      const client = new ClientState();
      const started = performance.now();
      const answers = await Promise.all(Array.from({ length: 4 }, () => send(client, target, { method: 'GET', path: '/pets?limit=1', headers: { authorization: 'Bearer k' } })));
      expect(answers.map((answer) => answer.response.status)).toEqual([200, 200, 200, 200]);
      expect(strict.counts.refused).toBeGreaterThan(0);
      expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    } finally {
      await strict.close();
    }
  });
});

describe('the throttle', () => {
  it('after a refusal, spaces sends to half the rate of the last second, and recovers after calm', async () => {
    const throttle = new Throttle();
    for (let i = 0; i < 40; i++) {
      await throttle.acquire(8, undefined);
      throttle.release();
    }
    expect(throttle.adaptiveGapMs).toBe(0);
    throttle.refused(0);
    expect(throttle.adaptiveGapMs).toBeCloseTo(2000 / 40, 0);
    const started = performance.now();
    for (let i = 0; i < 5; i++) {
      await throttle.acquire(8, undefined);
      throttle.release();
    }
    expect(performance.now() - started).toBeGreaterThanOrEqual(4 * 50 - 5);
  });

  it('a pause holds every sender, and is counted once however many wait', async () => {
    const throttle = new Throttle();
    throttle.refused(300);
    throttle.refused(200);
    const started = performance.now();
    await Promise.all(Array.from({ length: 4 }, async () => {
      await throttle.acquire(4, undefined);
      throttle.release();
    }));
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(performance.now() - started).toBeLessThan(1500);
    expect(throttle.pausedMs).toBeCloseTo(300, -1);
  });

});

describe('the CLI behind a gateway that keeps refusing', () => {
  it('ends with exit 2 "the target kept refusing" when Retry-After exceeds the 60 s bound, and after 8 tries', async () => {
    const closed = await frontDoor({ upstream: mock.origin, rateLimit: { perSecond: 0, retryAfter: '120' } });
    const flapping = await frontDoor({ upstream: mock.origin, rateLimit: { perSecond: 0, retryAfter: '0', status: 503 } });
    try {
      const longWait = await runConformance(['--base-url', closed.baseUrl, '--api-key', 'k', '--runs', '5', '--check', 'auth.listPets']);
      expect(longWait.code, longWait.output).toBe(2);
      expect(longWait.stderr).toMatch(/the target kept refusing \(429 to GET \S+: it asks to wait 120 s, beyond the 60 s the suite waits for one request\): no verdict/);
      const exhausted = await runConformance(['--base-url', flapping.baseUrl, '--api-key', 'k', '--runs', '5', '--check', 'auth.listPets']);
      expect(exhausted.code, exhausted.output).toBe(2);
      expect(exhausted.stderr).toMatch(/the target kept refusing \(503 to GET \S+: 8 tries and [\d.]+ s of waiting, the most the suite makes\): no verdict/);
      expect(flapping.counts.refused).toBe(8);
    } finally {
      await closed.close();
      await flapping.close();
    }
  });

  it('a gateway that starts refusing in the middle of a run also ends it with exit 2, not a verdict', async () => {
    const tiring = await frontDoor({ upstream: mock.origin, rateLimit: { perSecond: 30, retryAfter: '300' } });
    try {
      const run = await runConformance(['--base-url', tiring.baseUrl, '--api-key', 'k', '--runs', '20', '--check', 'createPet.echo', 'getPet.found']);
      expect(run.code, run.output).toBe(2);
      expect(run.stderr).toContain('the target kept refusing');
      expect(run.output).not.toMatch(/✗ /);
    } finally {
      await tiring.close();
    }
  });
});
