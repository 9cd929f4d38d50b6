import { describe, expect, test } from 'vitest';
import { join } from 'node:path';
import { listCheckIds, runCheck, type CheckOutcome } from '../../conformance/run-suite.js';
import type { Target } from '../../conformance/target.js';
import { PACKAGE_ROOT } from '../../model/loader.js';

/**
 * fast-check runs per property against an independent server: enough for each fault of its one-fault versions
 * to be met on every run, few enough for one spec's test to stay within about a minute and a half.
 */
export const INDEPENDENT_RUNS = 10;

/** The key the independent servers accept (as a Bearer token, an api_key header, or a Basic user name). */
export const INDEPENDENT_KEY = 'independent-key';

/** The suite's target for a server implementing `spec/wild/<file>` at `baseUrl`. */
export function independentTarget(file: string, baseUrl: string): Target {
  return { baseUrl, apiKey: INDEPENDENT_KEY, spec: join(PACKAGE_ROOT, 'spec', 'wild', file), runs: INDEPENDENT_RUNS };
}

/** Every check of the suite (or those of `ids`) run against `target`, one after the other, with its outcome. */
export async function outcomes(target: Target, ids?: readonly string[]): Promise<CheckOutcome[]> {
  const results: CheckOutcome[] = [];
  for (const id of ids ?? (await listCheckIds(target))) results.push(await runCheck(id, target));
  return results;
}

/** The failures among `results`, as `id` followed by the suite's report (an empty string when none failed). */
export function failureText(results: readonly CheckOutcome[]): string {
  return results.flatMap((result) => (result.ok ? [] : [`${result.id}\n${result.report}`])).join('\n\n');
}

/** A one-fault version of an independent server and the check of the suite that must reject it. */
export interface KilledFault<F extends string> {
  fault: F;
  killedBy: string;
}

/** A server of one spec, started correct (`fault` undefined) or with one fault, on a free port. */
export type StartServer<F extends string> = (fault: F | undefined) => Promise<{ baseUrl: string; close(): Promise<void> }>;

/**
 * Registers the tests of one independent server: the correct server passes every check of the suite (and each
 * check named below is among those it passes), and each one-fault version fails the check named for it.
 */
export function defineIndependentCase<F extends string>(file: string, start: StartServer<F>, faults: readonly KilledFault<F>[]): void {
  describe(`${file}: a server written from the spec alone`, () => {
    let passed: Set<string> | undefined;
    test('the correct server passes every check of the suite', async () => {
      const server = await start(undefined);
      try {
        const results = await outcomes(independentTarget(file, server.baseUrl));
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
          const [result] = await outcomes(independentTarget(file, server.baseUrl), [killedBy]);
          expect(result?.ok, `${killedBy} passed the server with fault ${fault}`).toBe(false);
        } finally {
          await server.close();
        }
      });
    }
  });
}
