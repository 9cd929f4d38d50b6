import { afterAll, describe, expect, it, vi } from 'vitest';
import { listCheckIds, RUN_BUDGET_REASON, runSuite } from '../../conformance/run-suite.js';
import { startMock } from '../../mock/index.js';
import { serve } from '../../mock/server.js';
import { loadModel } from '../../model/loader.js';

/**
 * The suite as a library (conformance/run-suite.ts › runSuite), as the CLI calls it: one model, one target, the results
 * in memory. Against the mock of the seed's spec every check passes; against a server that forgets the seed's
 * filter rule (Endpoints §1, rule 1) the run says which check failed, with its report and the failing exchange.
 */
const KEY = 'run-suite-key';
const model = await loadModel();
const mock = await startMock({ port: 0, apiKeys: [KEY] });
// One fault: `status` is ignored, so a filtered list holds animals of every status.
const broken = await serve((request) => mock.handle({ ...request, url: request.url.replace(/([?&])status=[^&]*/, '$1') }), { port: 0 });
afterAll(async () => {
  await broken.close();
  await mock.close();
});

describe('runSuite', () => {
  it('runs every check of the spec against the mock in this process, all passing, with the run figures', async () => {
    const target = { baseUrl: mock.baseUrl, apiKey: KEY, runs: 10 };
    const seen: string[] = [];
    const result = await runSuite(model, target, { onCheck: (record) => seen.push(record.id) });
    expect(result.checks.map((check) => check.id)).toEqual(await listCheckIds(target));
    expect(result.checks.filter((check) => check.state === 'failed').map((check) => check.report)).toEqual([]);
    expect(seen.sort()).toEqual(result.checks.map((check) => check.id).sort());
    expect(result.summary.requests).toBeGreaterThan(100);
    expect(result.summary.statuses.map(([operation]) => operation)).toContain('GET /pets');
    expect(result.exchanges).toEqual([]);
  });

  it('reports the check a broken server fails, with its report and exchange, and keeps the exchanges asked for', async () => {
    const result = await runSuite(model, { baseUrl: `${broken.origin}/v1`, apiKey: KEY, runs: 10 }, { checks: ['listPets.status-filter', 'auth.listPets'], keepExchanges: 5 });
    const failed = result.checks.filter((check) => check.state === 'failed');
    expect(failed.map((check) => check.id)).toEqual(['listPets.status-filter']);
    expect(failed[0]!.report).toMatch(/✗ listPets\.status-filter[\s\S]*replay: +npm run conformance/);
    expect(failed[0]!.exchange?.request.path).toMatch(/^\/pets\?/);
    expect(result.exchanges).toHaveLength(5);
  });

  it('stops starting checks once the run budget is spent, reporting the rest as not run (D390)', async () => {
    const target = { baseUrl: mock.baseUrl, apiKey: KEY, runs: 5 };
    const ids = (await listCheckIds(target)).slice(0, 5);
    // The run's clock advances one second per ended check, so a budget of 1.5 s lets exactly two start.
    let clock = 0;
    const now = vi.spyOn(performance, 'now').mockImplementation(() => clock);
    try {
      const result = await runSuite(model, target, { checks: ids, runBudgetMs: 1_500, onCheck: () => void (clock += 1_000) });
      expect(result.checks.map((check) => [check.id, check.state === 'skipped' ? check.skipped : 'ran'])).toEqual(ids.map((id, index) => [id, index < 2 ? 'ran' : RUN_BUDGET_REASON]));
      expect(result.checks.filter((check) => check.state === 'failed')).toEqual([]);
    } finally {
      now.mockRestore();
    }
    const none = await runSuite(model, target, { checks: ids, runBudgetMs: 0 });
    expect(none.checks.map((check) => check.skipped)).toEqual(ids.map(() => RUN_BUDGET_REASON));
  });

  it('refuses an unknown check id, naming the known ones', async () => {
    await expect(runSuite(model, { baseUrl: mock.baseUrl, apiKey: KEY }, { checks: ['nope'] })).rejects.toThrow(/unknown check nope; known: auth\.listPets/);
  });
});
