import { describe, expect, test } from 'vitest';
import type { Target } from '../../../conformance/target.js';
import { absentReason, sharedCorpusFile } from '../../shared-corpus.js';
import { failureText, INDEPENDENT_CLOCK, INDEPENDENT_KEY, INDEPENDENT_RUNS, outcomes, type KilledFault, type StartServer } from '../independent-case.js';

/** Where Redocly's Museum description sits inside the shared corpus (read there, never copied into the tree). */
export const MUSEUM_CORPUS_FILE = 'museum/openapi.yaml';

/** The museum description's absolute path, or `undefined` when the shared corpus is absent (the tests then skip). */
export const MUSEUM_SPEC = sharedCorpusFile(MUSEUM_CORPUS_FILE);

/** Why the museum tests skip, when they do. */
export const MUSEUM_ABSENT = absentReason(MUSEUM_CORPUS_FILE);

/**
 * The clock of the museum tests, given to both the servers and the suite: opening hours and event windows are
 * computed from "today", and a verdict must not depend on the day the tests run.
 */
export const MUSEUM_CLOCK = INDEPENDENT_CLOCK;

/**
 * The suite's target for a museum server at `baseUrl` (`spec` is the corpus file; callers skip when it is absent),
 * on `now`, the clock the server was started with (default {@link MUSEUM_CLOCK}).
 */
export function museumTarget(spec: string, baseUrl: string, now: () => Date = MUSEUM_CLOCK): Target {
  return { baseUrl, apiKey: INDEPENDENT_KEY, spec, runs: INDEPENDENT_RUNS, now };
}

/** A one-fault version and its check; `strict`: the check rejects it only under `--strict` (a rule stated in prose). */
export type MuseumFaultCase<F extends string> = KilledFault<F>;

/**
 * Registers the tests of one server of the corpus's Museum description, as `defineIndependentCase` does for the
 * descriptions of spec/wild/: the correct server passes every check (among them each check named below, also under
 * `--strict` for a `strict` fault), and each one-fault version fails the check named for it. Without the corpus
 * file every test skips and says why.
 */
export function defineMuseumCase<F extends string>(start: StartServer<F>, faults: readonly MuseumFaultCase<F>[]): void {
  const spec = MUSEUM_SPEC;
  describe(`${MUSEUM_CORPUS_FILE}: a server written from the description alone`, () => {
    if (spec === undefined) {
      test.skip(MUSEUM_ABSENT, () => undefined);
      return;
    }
    test('the correct server passes every check of the suite', async () => {
      const server = await start(undefined);
      try {
        const results = await outcomes(museumTarget(spec, server.baseUrl));
        expect(failureText(results)).toBe('');
        const passed = new Set(results.filter((result) => result.ok && result.skipped === undefined).map((result) => result.id));
        expect([...new Set(faults.map((one) => one.killedBy))].filter((id) => !passed.has(id))).toEqual([]);
      } finally {
        await server.close();
      }
    });
    const strictIds = [...new Set(faults.filter((one) => one.strict === true).map((one) => one.killedBy))];
    if (strictIds.length > 0) {
      test(`the correct server passes ${strictIds.join(', ')} under --strict`, async () => {
        const server = await start(undefined);
        try {
          expect(failureText(await outcomes({ ...museumTarget(spec, server.baseUrl), strict: true }, strictIds))).toBe('');
        } finally {
          await server.close();
        }
      });
    }
    for (const { fault, killedBy, strict } of faults) {
      test(`fault "${fault}" is rejected by ${killedBy}${strict === true ? ' under --strict' : ''}`, async () => {
        const server = await start(fault);
        try {
          const [result] = await outcomes({ ...museumTarget(spec, server.baseUrl), ...(strict === true ? { strict } : {}) }, [killedBy]);
          expect(result?.ok, `${killedBy} passed the server with fault ${fault}`).toBe(false);
        } finally {
          await server.close();
        }
      });
    }
  });
}
