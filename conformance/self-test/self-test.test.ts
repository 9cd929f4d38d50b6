import { afterAll, describe, expect, test } from 'vitest';
import { createMock, startMock } from '../../mock/index.js';
import { CHECKS, type CheckId } from '../catalogue.js';
import { CHECK_IDS, runCheck, type Target } from '../suite.js';
import { startAltServer } from './alt-server.js';
import { MUTANT_KEY, MUTANTS } from './mutants.js';
import { PROBES, sender } from './probes.js';
import { serveHandler } from './serve-handler.js';
import { VARIANT_KEY, VARIANTS } from './variants.js';

/**
 * The conformance suite's self-test (STYLE: "a test that cannot fail is a defect"):
 * (a) each mutant shows its fault on a direct request, and the real mock does not;
 * (b) every check id is named by some mutant;
 * (c) each mutant is rejected by every check of its `caughtBy`;
 * (d) each variant (a correct server that chose differently on the seed's gaps) and the real mock pass every check.
 * Servers run in-process on port 0 and stay open until the end, so that no port (and so no base URL the suite
 * remembers ids for) is reused by another server.
 */

/** fast-check runs per property: modest, so that the whole file stays well under 90 s on two cores. */
const RUNS = Number(process.env['SELF_TEST_RUNS'] ?? 25);

const api = (await createMock({ pets: [], apiKeys: [MUTANT_KEY] })).api;
const freshMock = async () => (await createMock({ api, pets: [], apiKeys: [MUTANT_KEY] })).handle;
const closers: (() => Promise<void>)[] = [];
afterAll(() => Promise.all(closers.map((close) => close())));

/**
 * Holes of the suite as it stands, found by this self-test (measure with escape-rates.test.ts): the check that
 * should reject the mutant, and why it does not always. A listed pair that escapes is printed as a
 * warning instead of failing the test; delete the entry once the property is fixed, and the pair is enforced.
 */
const KNOWN_ESCAPES: Record<string, Partial<Record<CheckId, string>>> = {
  // None at present: the escapes measured earlier (short stateful runs, sampled invalid bodies, credentials and
  // corner names, limits above 100, out-of-int64 petIds) were closed in the suite (commits 2857fdb, 5a2f923).
};

/**
 * False rejections of correct servers by the suite as it stands (a check failing a variant on a point the seed
 * leaves open, or by a flaw of the property): printed as a warning instead of failing; delete once fixed.
 */
const KNOWN_FALSE_REJECTIONS: Record<string, Partial<Record<CheckId, string>>> = {
  // None at present: absent ids are drawn without bias and skip known ids; invalid limits exclude valid ones.
};

/** A check whose outcome was not the one wanted: a line saying it passed, or the suite's failure report. */
interface Surprise {
  id: CheckId;
  text: string;
}

/** Runs the checks in order on one target; returns those whose outcome (`ok`) is not `wanted`. */
async function unexpected(ids: readonly CheckId[], target: Target, wanted: boolean): Promise<Surprise[]> {
  const surprises: Surprise[] = [];
  for (const id of ids) {
    const outcome = await runCheck(id, target);
    if (outcome.ok === wanted) continue;
    surprises.push({ id, text: outcome.ok ? `${id} passed it (advice: ${outcome.advice.join(' | ') || 'none'})` : outcome.report });
  }
  return surprises;
}

/** Splits surprises into those a table of known holes excuses (printed as warnings) and the rest (returned as text). */
function enforce(surprises: Surprise[], known: Partial<Record<CheckId, string>>, what: string): string[] {
  for (const { id, text } of surprises.filter(({ id }) => known[id] !== undefined)) console.warn(`${what}: ${known[id]}\n${text}`);
  return surprises.filter(({ id }) => known[id] === undefined).map(({ text }) => text);
}

describe('mutants', () => {
  test('every check id is named by at least one mutant', () => {
    const named = new Set(MUTANTS.flatMap((mutant) => mutant.caughtBy));
    expect(Object.keys(CHECKS).filter((id) => !named.has(id as CheckId))).toEqual([]);
    expect([...CHECK_IDS].sort()).toEqual(Object.keys(CHECKS).sort());
  });

  test('mutant names are unique and each has a probe', () => {
    const names = MUTANTS.map((mutant) => mutant.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.filter((name) => PROBES[name] === undefined)).toEqual([]);
  });

  test.each(MUTANTS.map((mutant) => [mutant.name, mutant] as const))('%s shows its fault on a direct request, the mock does not', async (name, mutant) => {
    const probe = PROBES[name]!;
    expect(await probe(sender(await freshMock()))).toBe(false);
    expect(await probe(sender(mutant.wrap(await freshMock())))).toBe(true);
  });

  test.concurrent.each(MUTANTS.map((mutant) => [mutant.name, mutant] as const))('%s is rejected by each check of its caughtBy', async (_name, mutant) => {
    const server = await serveHandler(mutant.wrap(await freshMock()));
    closers.push(server.close);
    const surprises = await unexpected(mutant.caughtBy, { baseUrl: server.baseUrl, apiKey: MUTANT_KEY, runs: RUNS }, false);
    const escapes = enforce(surprises, KNOWN_ESCAPES[mutant.name] ?? {}, `known escape of mutant ${mutant.name}`);
    expect(escapes, `mutant ${mutant.name} (${mutant.fault}) escaped`).toEqual([]);
  });
});

describe('correct servers pass every check', () => {
  test.concurrent.each(VARIANTS.map((variant) => [variant.name, variant] as const))('variant %s', async (_name, variant) => {
    const server = await startAltServer(variant.options);
    closers.push(server.close);
    const surprises = await unexpected(CHECK_IDS, { baseUrl: server.baseUrl, apiKey: VARIANT_KEY, runs: RUNS }, true);
    const failures = enforce(surprises, KNOWN_FALSE_REJECTIONS[variant.name] ?? {}, `known false rejection of variant ${variant.name}`);
    expect(failures, `variant ${variant.name} (${variant.gaps}) was rejected:\n${failures.join('\n\n')}`).toEqual([]);
  });

  test.concurrent.each([
    ['default profile, empty', false, 'empty'],
    ['strict profile, empty', true, 'empty'],
    ['default profile, demo pets', false, 'demo'],
  ] as const)('the real mock, %s', async (_title, strict, data) => {
    const mock = await startMock({ port: 0, apiKeys: [MUTANT_KEY], ...(data === 'empty' ? { pets: [] } : {}) });
    closers.push(mock.close);
    const name = strict ? 'mock --strict' : 'mock';
    const failures = enforce(await unexpected(CHECK_IDS, { baseUrl: mock.baseUrl, apiKey: MUTANT_KEY, runs: RUNS, strict }, true), KNOWN_FALSE_REJECTIONS[name] ?? {}, `known false rejection of the ${name}`);
    expect(failures, `the mock was rejected:\n${failures.join('\n\n')}`).toEqual([]);
  });
});
