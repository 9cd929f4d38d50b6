import { describe, expect, test } from 'vitest';
import type { Target } from '../../../conformance/target.js';
import { absentReason, sharedCorpusFile } from '../../shared-corpus.js';
import { failureText, INDEPENDENT_KEY, INDEPENDENT_RUNS, outcomes, type KilledFault, type StartServer } from '../independent-case.js';

// The Train Travel description is public test data kept in the shared corpus, not in spec/wild/: these helpers
// build the suite's target with its path, and the tests skip, saying why, when the corpus is absent.

/** The Train Travel description's place inside the shared corpus. */
export const TRAIN_TRAVEL_SPEC = 'train-travel/openapi.yaml';

/** The absolute path of the Train Travel description, or `undefined` when the shared corpus is absent. */
export const trainTravelSpec: string | undefined = sharedCorpusFile(TRAIN_TRAVEL_SPEC);

/** The suite's target for a Train Travel server at `baseUrl` (`spec` is the corpus path; call only when present). */
export function trainTravelTarget(spec: string, baseUrl: string): Target {
  return { baseUrl, apiKey: INDEPENDENT_KEY, spec, runs: INDEPENDENT_RUNS };
}

/**
 * Registers the tests of one Train Travel server, as `defineIndependentCase` does for spec/wild/ descriptions:
 * the correct server passes every check of the suite (each check named below among them), and each one-fault
 * version fails the check named for it. Every test skips with the reason when the shared corpus is absent.
 */
export function defineTrainTravelCase<F extends string>(title: string, start: StartServer<F>, faults: readonly KilledFault<F>[]): void {
  const spec = trainTravelSpec;
  describe(`${TRAIN_TRAVEL_SPEC}: ${title}`, () => {
    if (spec === undefined) {
      test.skip(absentReason(TRAIN_TRAVEL_SPEC), () => {});
      return;
    }
    test('the correct server passes every check of the suite', async () => {
      const server = await start(undefined);
      try {
        const results = await outcomes(trainTravelTarget(spec, server.baseUrl));
        expect(failureText(results)).toBe('');
        const passed = new Set(results.filter((result) => result.ok).map((result) => result.id));
        expect([...new Set(faults.map((one) => one.killedBy))].filter((id) => !passed.has(id))).toEqual([]);
      } finally {
        await server.close();
      }
    }, 90_000);
    for (const { fault, killedBy } of faults) {
      test(`fault "${fault}" is rejected by ${killedBy}`, async () => {
        const server = await start(fault);
        try {
          const [result] = await outcomes(trainTravelTarget(spec, server.baseUrl), [killedBy]);
          expect(result?.ok, `${killedBy} passed the server with fault ${fault}`).toBe(false);
        } finally {
          await server.close();
        }
      });
    }
  });
}
