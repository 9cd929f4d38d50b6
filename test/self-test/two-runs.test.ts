import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSuite, type SuiteResult } from '../../conformance/run-suite.js';
import { startMock } from '../../mock/index.js';
import { loadModel, PACKAGE_ROOT } from '../../model/loader.js';
import type { ApiModel } from '../../model/model.js';

/**
 * A run's state lives in one object (conformance/run-state.ts): two runs in one process, one after the other or side
 * by side, against two targets, give what each gives alone: the same checks with the same verdicts, and figures
 * counting only their own requests. Each run meets a fresh mock, so that what it finds there is what it would find
 * alone. Two runs of one loaded model matter most: parents, pins and ids used to be kept per model object.
 */
const KEY = 'two-runs-key';
const WILD = join(PACKAGE_ROOT, 'test', 'wild', 'x-resource.yaml');
const seedModel = await loadModel();
const wildModel = await loadModel(WILD);

interface Plan {
  model: ApiModel;
  spec?: string;
  seed: number;
}
const SEED_A: Plan = { model: seedModel, seed: 11 };
const SEED_B: Plan = { model: seedModel, seed: 29 };
const WILD_C: Plan = { model: wildModel, spec: WILD, seed: 5 };

/** What a run gives, as compared here: each check's verdict, and the statuses each operation answered. */
interface Given {
  checks: string[];
  statuses: string[];
  requests: number;
}

/** Runs the suite of `plan` against a fresh mock of its spec. */
async function runOn(plan: Plan): Promise<Given> {
  const mock = await startMock({ ...(plan.spec === undefined ? {} : { spec: plan.spec }), port: 0, apiKeys: [KEY], pets: [] });
  try {
    return given(await runSuite(plan.model, { baseUrl: mock.baseUrl, apiKey: KEY, ...(plan.spec === undefined ? {} : { spec: plan.spec }), runs: 5, seed: plan.seed }));
  } finally {
    await mock.close();
  }
}

function given(result: SuiteResult): Given {
  return {
    checks: result.checks.map((check) => `${check.id} ${check.state}${check.state === 'failed' ? `\n${check.report ?? ''}` : ''}`),
    statuses: result.summary.statuses.flatMap(([operation, counts]) => counts.map(([status]) => `${operation} ${status}`)).sort(),
    requests: result.summary.requests,
  };
}

describe('two runs in one process', () => {
  it('one after the other, and side by side, give what each gives alone', async () => {
    const alone = { a: await runOn(SEED_A), b: await runOn(SEED_B), c: await runOn(WILD_C) };
    for (const run of Object.values(alone)) {
      expect(run.checks.filter((check) => !check.endsWith(' passed') && !check.endsWith(' skipped'))).toEqual([]);
      expect(run.requests).toBeGreaterThan(20);
    }
    // The wild spec's paths are not the seed's: a run's figures that counted the other's requests would show them.
    expect(alone.a.statuses.some((status) => status.includes('/animals'))).toBe(false);
    expect(alone.c.statuses.every((status) => status.includes('/animals'))).toBe(true);

    const sameModelInTurn = [await runOn(SEED_A), await runOn(SEED_B)];
    const sameModelTogether = await Promise.all([runOn(SEED_A), runOn(SEED_B)]);
    const otherSpecTogether = await Promise.all([runOn(SEED_A), runOn(WILD_C)]);
    for (const [a, other, otherAlone] of [
      [...sameModelInTurn, alone.b],
      [...sameModelTogether, alone.b],
      [...otherSpecTogether, alone.c],
    ] as const) {
      expect({ checks: a.checks, statuses: a.statuses }).toEqual({ checks: alone.a.checks, statuses: alone.a.statuses });
      expect({ checks: other.checks, statuses: other.statuses }).toEqual({ checks: otherAlone.checks, statuses: otherAlone.statuses });
    }
  }, 240_000);
});
