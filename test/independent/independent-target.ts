import { join } from 'node:path';
import { listCheckIds, runCheck, startRun, type CheckOutcome } from '../../conformance/run-suite.js';
import type { Target } from '../../conformance/target.js';
import { PACKAGE_ROOT } from '../../model/loader.js';
import { fixedClock, TEST_DAY } from '../fixed-clock.js';
import { sharedCorpusFile } from '../shared-corpus.js';

// What an independent server's test and the kill benchmark (bench/kills.ts) share: the target of a server, the
// outcomes of checks against it, and the shape of a fault list. Free of vitest, so a plain node script runs it.

/**
 * fast-check runs per property against an independent server: enough for each fault of its one-fault versions
 * to be met on every run, few enough for one spec's test to stay within about a minute and a half.
 */
export const INDEPENDENT_RUNS = 10;

/**
 * The clock of the independent servers that compute dates from "today" (a museum's hours, a gallery's or a ferry's
 * default window) and of the suite run against them: one fixed day, so that no verdict depends on the calendar.
 */
export const INDEPENDENT_CLOCK = fixedClock(TEST_DAY);

/** The key the independent servers accept (as a Bearer token, an api_key header, or a Basic user name). */
export const INDEPENDENT_KEY = 'independent-key';

/**
 * The description an independent server implements: a file name under `spec/wild/`, or a file of the shared corpus
 * of public descriptions (`{ corpus: 'swagger-petstore/openapi.yaml' }`, read through test/shared-corpus.ts).
 */
export type IndependentSpec = string | { corpus: string } | GeneratedSpec;

/**
 * A description made at test time from an installed package (a cut of GitHub's): its name, the function that
 * writes it and answers its path (`undefined` when the package is absent), and why its tests skip then.
 */
export interface GeneratedSpec {
  generated: string;
  file(): string | undefined;
  absent: string;
}

/** How a spec reads in a test's name: its file name, `corpus:<relative path>` or `generated:<name>`. */
export function specLabel(spec: IndependentSpec): string {
  return typeof spec === 'string' ? spec : 'corpus' in spec ? `corpus:${spec.corpus}` : `generated:${spec.generated}`;
}

/** The absolute path of a spec, or `undefined` when it is a corpus file or a package absent from this machine. */
export function specPath(spec: IndependentSpec): string | undefined {
  return typeof spec === 'string' ? join(PACKAGE_ROOT, 'spec', 'wild', spec) : 'corpus' in spec ? sharedCorpusFile(spec.corpus) : spec.file();
}

/**
 * The suite's target for a server implementing `spec` at `baseUrl`, on {@link INDEPENDENT_CLOCK}. Throws when the spec is a corpus file that is
 * absent (the callers skip before, saying why).
 */
export function independentTarget(spec: IndependentSpec, baseUrl: string): Target {
  const path = specPath(spec);
  if (path === undefined) throw new Error(`${specLabel(spec)} is absent from this machine`);
  return { baseUrl, apiKey: INDEPENDENT_KEY, spec: path, runs: INDEPENDENT_RUNS, now: INDEPENDENT_CLOCK };
}

/** Every check of the suite (or those of `ids`) run against `target`, one after the other in one run, with its outcome. */
export async function outcomes(target: Target, ids?: readonly string[]): Promise<CheckOutcome[]> {
  const results: CheckOutcome[] = [];
  const run = await startRun(target);
  try {
    for (const id of ids ?? (await listCheckIds(target))) results.push(await runCheck(id, target, run));
  } finally {
    await run.close();
  }
  return results;
}

/** The failures among `results`, as `id` followed by the suite's report (an empty string when none failed). */
export function failureText(results: readonly CheckOutcome[]): string {
  return results.flatMap((result) => (result.ok ? [] : [`${result.id}\n${result.report}`])).join('\n\n');
}

/**
 * A one-fault version of an independent server and the check of the suite that must reject it; `strict`: the check
 * rejects it only under `--strict` (the fault breaks a rule the description states in prose alone), so the kill and
 * the correct server's pass of that check are both judged with `strict: true` in the target.
 */
export interface KilledFault<F extends string> {
  fault: F;
  killedBy: string;
  strict?: boolean;
}

/** A running independent server: its base address (with the spec's server path) and how to stop it. */
export interface RunningIndependent {
  baseUrl: string;
  close(): Promise<void>;
}

/** A server of one spec, started correct (`fault` undefined) or with one fault, on a free port. */
export type StartServer<F extends string> = (fault: F | undefined) => Promise<RunningIndependent>;
