import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Check } from '../../conformance/checks/check.js';
import type * as ListModule from '../../conformance/checks/list.js';
import type * as ReadModule from '../../conformance/checks/read.js';
import { renderJunit } from '../../conformance/report/junit.js';
import { checkLines } from '../../conformance/report/text.js';
import { listCheckIds, runSuite } from '../../conformance/run-suite.js';
import { exitCodeOf } from '../../conformance/shard.js';
import { colours } from '../../conformance/report/colours.js';
import { startMock } from '../../mock/index.js';
import { loadModel } from '../../model/loader.js';

/**
 * Each check in isolation (spec/DECISIONS.md › D372), on the seed's spec against our mock: three checks are broken
 * on purpose (their module replaced here): `listPets.limit` cannot be built (an arbitrary fast-check refuses, its
 * bounds crossed), `listPets.default-limit` throws a TypeError while it runs, and `getPet.found` never ends. Each is
 * reported as not run, an error of the suite with its reason; every other check runs and passes; the exit code is 2.
 */
vi.mock('../../conformance/checks/list.js', async (importOriginal) => {
  const original = await importOriginal<typeof ListModule>();
  return {
    ...original,
    limitCheck: (): Check => {
      // The arbitrary a page size past 2^53 once built: its minimum above its maximum.
      fc.integer({ min: 2 ** 31 + 1, max: 2 ** 31 });
      throw new Error('unreachable: fc.integer refuses crossed bounds');
    },
    defaultLimitCheck: (...args: Parameters<typeof original.defaultLimitCheck>): Check => ({
      ...original.defaultLimitCheck(...args),
      run: async () => {
        const absent = undefined as unknown as { records: unknown[] };
        await Promise.resolve();
        void absent.records.length;
      },
    }),
  };
});
vi.mock('../../conformance/checks/read.js', async (importOriginal) => {
  const original = await importOriginal<typeof ReadModule>();
  return {
    ...original,
    foundCheck: (...args: Parameters<typeof original.foundCheck>): Check => ({ ...original.foundCheck(...args), run: () => new Promise<void>(() => undefined) }),
  };
});

const KEY = 'isolation-key';
const model = await loadModel();
const mock = await startMock({ port: 0, apiKeys: [KEY] });
afterAll(async () => {
  await mock.close();
});

describe('a check that cannot be built, throws, or never ends', () => {
  it('is not run, an error of the suite with its reason; every other check runs and passes; exit 2', async () => {
    const target = { baseUrl: mock.baseUrl, apiKey: KEY, runs: 5, checkTimeoutMs: 3_000 };
    const { checks } = await runSuite(model, target);
    expect(checks.map((check) => check.id)).toEqual(await listCheckIds(target));
    const errors = Object.fromEntries(checks.filter((check) => check.error !== undefined).map((check) => [check.id, check.error!.message]));
    expect(Object.keys(errors).sort()).toEqual(['getPet.found', 'listPets.default-limit', 'listPets.limit']);
    expect(errors['listPets.limit']).toMatch(/could not build this check: Error: fc\.integer maximum value should be equal or greater than the minimum one/);
    expect(errors['listPets.default-limit']).toMatch(/^TypeError: /);
    expect(errors['getPet.found']).toMatch(/did not end within its budget of 3 s/);
    for (const check of checks.filter((one) => one.error !== undefined)) expect(check.state).toBe('skipped');
    expect(checks.filter((check) => check.error === undefined).map((check) => `${check.id} ${check.state}`)).toEqual(checks.filter((check) => check.error === undefined).map((check) => `${check.id} passed`));
    expect(exitCodeOf(checks)).toBe(2);

    const junit = renderJunit('isolation', checks);
    expect(junit).toContain('errors="3"');
    expect(junit.match(/<error message="[^"]*" type="SuiteError">/g)?.length).toBe(3);
    const plain = colours({ isTTY: false } as NodeJS.WriteStream);
    const typeError = checks.find((check) => check.id === 'listPets.default-limit')!;
    expect(checkLines(typeError, plain)).toMatch(/^! listPets\.default-limit: not run, error of the suite \(TypeError: /);
    expect(checkLines(typeError, plain, true)).toMatch(/\n {4}TypeError: [\s\S]*\n +at /);
  }, 120_000);

  it('leaves the exit code 1 to violations a check found', () => {
    const base = { type: 'check' as const, rule: 'r', durationMs: 0, advice: [] };
    expect(exitCodeOf([{ ...base, id: 'a', state: 'passed' }])).toBe(0);
    expect(exitCodeOf([{ ...base, id: 'a', state: 'skipped', skipped: 'read-only' }])).toBe(0);
    expect(exitCodeOf([{ ...base, id: 'a', state: 'failed', report: 'x' }, { ...base, id: 'b', state: 'skipped', error: { message: 'e' } }])).toBe(1);
  });
});
