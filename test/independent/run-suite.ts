import { join } from 'node:path';
import { listCheckIds, runCheck, type CheckOutcome } from '../../conformance/suite.js';
import type { Target } from '../../conformance/target.js';
import { PACKAGE_ROOT } from '../../model/load.js';

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
