import { describe, expect, test } from 'vitest';
import { absentReason } from '../shared-corpus.js';
import { failureText, independentTarget, outcomes, specLabel, specPath, type IndependentSpec, type KilledFault, type StartServer } from './independent-target.js';

export { failureText, independentTarget, INDEPENDENT_CLOCK, INDEPENDENT_KEY, INDEPENDENT_RUNS, outcomes, specLabel, type IndependentSpec, type KilledFault, type StartServer } from './independent-target.js';

/**
 * Registers the tests of one independent server: the correct server passes every check of the suite (and each
 * check named below is among those it passes), and each one-fault version fails the check named for it. A spec of
 * the shared corpus that is absent skips the whole case, with the reason in its name.
 */
export function defineIndependentCase<F extends string>(spec: IndependentSpec, start: StartServer<F>, faults: readonly KilledFault<F>[]): void {
  const absent = specPath(spec) === undefined && typeof spec !== 'string' ? ('corpus' in spec ? absentReason(spec.corpus) : spec.absent) : undefined;
  describe.skipIf(absent !== undefined)(`${specLabel(spec)}: a server written from the spec alone${absent === undefined ? '' : ` (${absent})`}`, () => {
    let passed: Set<string> | undefined;
    test('the correct server passes every check of the suite', async () => {
      const server = await start(undefined);
      try {
        const results = await outcomes(independentTarget(spec, server.baseUrl));
        expect(failureText(results)).toBe('');
        passed = new Set(results.filter((result) => result.ok).map((result) => result.id));
        expect([...new Set(faults.map((one) => one.killedBy))].filter((id) => !passed!.has(id))).toEqual([]);
      } finally {
        await server.close();
      }
    });
    for (const { fault, killedBy } of faults) {
      test(`fault "${fault}" is rejected by ${killedBy}`, async () => {
        const server = await start(fault);
        try {
          const [result] = await outcomes(independentTarget(spec, server.baseUrl), [killedBy]);
          expect(result?.ok, `${killedBy} passed the server with fault ${fault}`).toBe(false);
        } finally {
          await server.close();
        }
      });
    }
  });
}
