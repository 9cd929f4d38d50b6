import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { firstAbove, integerText, invalidLimits, limitRange } from '../../conformance/arbitraries/query-strings.js';
import { modelOf } from '../../conformance/contract.js';
import { runSuite } from '../../conformance/run-suite.js';
import { PACKAGE_ROOT } from '../../model/loader.js';
import { startMock, type StartedMock } from '../../mock/index.js';

/**
 * Integer bounds that reach 2^63 (test/huge-bounds/ledger-3.0.yaml, written for this test): page sizes, offsets and
 * filters in the query, body members (bounds, exclusive bounds, a multipleOf of 2^62, lengths and item counts of
 * 2^63-1) and an int64 path key. The suite builds and runs every check against our mock of it, and finds it
 * conforms: nothing throws, nothing hangs, no check is left out.
 */
const SPEC = join(PACKAGE_ROOT, 'test', 'huge-bounds', 'ledger-3.0.yaml');
const KEY = 'huge-bounds-key';
let mock: StartedMock;

beforeAll(async () => {
  mock = await startMock({ spec: SPEC, port: 0, apiKeys: [KEY] });
});
afterAll(async () => {
  await mock?.close();
});

describe('a description whose integer bounds reach 2^63', () => {
  test('every check runs against our mock of it and passes', async () => {
    const model = await modelOf(SPEC);
    const { checks } = await runSuite(model, { baseUrl: mock.baseUrl, apiKey: KEY, spec: SPEC, runs: 5, seed: 63 });
    expect(checks.length).toBe(16);
    expect(checks.filter((check) => check.state !== 'passed').map((check) => `${check.id}: ${check.report ?? check.skipped ?? check.state}`)).toEqual([]);
    const limit = checks.find((check) => check.id === 'listEntries.limit');
    expect(limit?.rule).toContain('(1..9223372036854775808)');
  }, 120_000);
});

describe('page sizes past 2^53', () => {
  const limit = { parameter: '_limit', minimum: 1, maximum: 2 ** 63, default: undefined };

  test('are asked up to 2^53-1, whose text is exact, and refused from the next double past the maximum', () => {
    expect(limitRange(limit)).toEqual([1, Number.MAX_SAFE_INTEGER]);
    expect(firstAbove(2 ** 63)).toBe(2n ** 63n + 2048n);
    expect(firstAbove(100)).toBe(101n);
    expect(integerText(2 ** 63)).toBe('9223372036854775808');
  });

  test('invalid texts are never within the bounds, compared as exact integers, and drawing them never throws', () => {
    const { fixed, random, isValid } = invalidLimits(limit);
    expect(fixed).toContain('9223372036854777856');
    expect(fixed).not.toContain('9223372036854775809');
    expect(isValid('9223372036854775808')).toBe(true);
    expect(isValid('9223372036854777856')).toBe(false);
    expect(isValid('0')).toBe(false);
    for (const text of fc.sample(random, { numRuns: 500, seed: 1 })) {
      expect(/^\+?\d+$/.test(text) && BigInt(text) >= 1n && BigInt(text) <= 2n ** 63n).toBe(false);
    }
  });
});
