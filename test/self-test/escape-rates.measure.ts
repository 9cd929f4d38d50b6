import { describe, expect, test } from 'vitest';
import { createMock, startMock } from '../../mock/index.js';
import { listCheckIds, runCheck, type CheckId } from '../../conformance/run-suite.js';
import type { Target } from '../../conformance/target.js';

/** The ids of the seed spec's checks, in run order. */
const CHECK_IDS = await listCheckIds({ baseUrl: 'http://127.0.0.1', apiKey: '' });
import { createAltHandler, startAltServer } from './alt-server.js';
import { MUTANT_KEY, MUTANTS, type Handler } from './mutants.js';
import { serveHandler } from './serve-handler.js';
import { VARIANT_KEY, VARIANTS } from './variants.js';

/**
 * Opt-in measurement for whoever changes the suite's properties: how often each mutant escapes each check of its
 * `caughtBy`, whether the whole suite (every check, in run order, on one fresh server, as a user would run it)
 * rejects each mutant, and how often a correct server is rejected. Not part of `npm test` (a minute or more):
 * `npm run measure:escapes` (`SELF_TEST_RATES=10 npm run measure:escapes` for 10 fresh servers per pair, default 3;
 * `SELF_TEST_RUNS` sets fast-check runs, default 25; `SELF_TEST_ONLY=name,name` limits the mutants;
 * `SELF_TEST_DATA=demo` starts each mutant's mock with the demo pets; `SELF_TEST_BASE=<variant name>` injects the
 * faults into that variant's alternative implementation instead of the mock, where a few mutants that lean on
 * the mock's choices, such as small sequential ids, may be inert).
 * Servers stay open until the process ends, so that no base URL is reused.
 */
const REPEAT = Number(process.env['SELF_TEST_RATES'] ?? 3);
const RUNS = Number(process.env['SELF_TEST_RUNS'] ?? 25);
const ONLY = process.env['SELF_TEST_ONLY']?.split(',');
/** `SELF_TEST_DATA=demo` wraps a mock that starts with its demo pets instead of an empty one. */
const PETS = process.env['SELF_TEST_DATA'] === 'demo' ? {} : { pets: [] };
/** `SELF_TEST_BASE=<variant>` wraps that variant's alternative implementation instead of the mock. */
const BASE = VARIANTS.find((variant) => variant.name === process.env['SELF_TEST_BASE']);

async function innerServer(): Promise<Handler> {
  return BASE === undefined ? (await createMock({ ...PETS, apiKeys: [MUTANT_KEY] })).handle : createAltHandler({ ...BASE.options, apiKeys: [MUTANT_KEY] });
}
const mutants = MUTANTS.filter((mutant) => ONLY === undefined || ONLY.includes(mutant.name));

async function mutantTarget(name: string): Promise<Target> {
  const mutant = MUTANTS.find((candidate) => candidate.name === name)!;
  const server = await serveHandler(mutant.wrap(await innerServer()));
  return { baseUrl: server.baseUrl, apiKey: MUTANT_KEY, runs: RUNS };
}

/** Runs checks in order on one target; the ids that passed. */
async function passing(ids: readonly CheckId[], target: Target): Promise<CheckId[]> {
  const passed: CheckId[] = [];
  for (const id of ids) if ((await runCheck(id, target)).ok) passed.push(id);
  return passed;
}

describe(`escape rates over ${REPEAT} fresh servers per pair`, () => {
  test('each mutant against each check of its caughtBy', async () => {
    const lines: string[] = [];
    await Promise.all(
      mutants.map(async (mutant) => {
        const escapes = new Map<CheckId, number>();
        for (let i = 0; i < REPEAT; i++) {
          for (const id of await passing(mutant.caughtBy, await mutantTarget(mutant.name))) escapes.set(id, (escapes.get(id) ?? 0) + 1);
        }
        for (const [id, count] of escapes) lines.push(`${mutant.name} escaped ${id} ${count}/${REPEAT}`);
      }),
    );
    console.log(lines.sort().join('\n') || 'no mutant escaped a check of its caughtBy');
  }, 1_800_000);

  test('each mutant against the whole suite', async () => {
    const lines: string[] = [];
    await Promise.all(
      mutants.map(async (mutant) => {
        let escapes = 0;
        for (let i = 0; i < REPEAT; i++) if ((await passing(CHECK_IDS, await mutantTarget(mutant.name))).length === CHECK_IDS.length) escapes += 1;
        if (escapes > 0) lines.push(`${mutant.name} escaped the whole suite ${escapes}/${REPEAT}`);
      }),
    );
    console.log(lines.sort().join('\n') || 'the whole suite rejected every mutant every time');
  }, 1_800_000);

  test('correct servers against every check', async () => {
    const targets = [
      ...VARIANTS.map((variant) => ({ name: variant.name, start: () => startAltServer(variant.options), strict: false })),
      { name: 'mock', start: () => startMock({ port: 0, pets: [], apiKeys: [VARIANT_KEY] }), strict: false },
      { name: 'mock --strict', start: () => startMock({ port: 0, pets: [], apiKeys: [VARIANT_KEY] }), strict: true },
      { name: 'mock with demo pets', start: () => startMock({ port: 0, apiKeys: [VARIANT_KEY] }), strict: false },
    ];
    const lines: string[] = [];
    await Promise.all(
      targets.map(async ({ name, start, strict }) => {
        const rejections = new Map<CheckId, number>();
        for (let i = 0; i < REPEAT; i++) {
          const server = await start();
          const target = { baseUrl: server.baseUrl, apiKey: VARIANT_KEY, runs: RUNS, strict };
          const passed = await passing(CHECK_IDS, target);
          for (const id of CHECK_IDS.filter((candidate) => !passed.includes(candidate))) rejections.set(id, (rejections.get(id) ?? 0) + 1);
        }
        for (const [id, count] of rejections) lines.push(`${name} rejected by ${id} ${count}/${REPEAT}`);
      }),
    );
    console.log(lines.sort().join('\n') || 'no correct server was rejected');
    expect(lines).toBeDefined();
  }, 1_800_000);
});
