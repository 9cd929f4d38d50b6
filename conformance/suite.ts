import { afterAll, describe, it } from 'vitest';
import { CHECKS, type CheckId } from './catalogue.js';
import { authCreatePet, authGetPet, authListPets } from './checks/auth.js';
import type { Check } from './checks/check.js';
import { concurrentCreates } from './checks/concurrency.js';
import { echo, int64RoundTrip, invalidBody, requiredFields } from './checks/create-pet.js';
import { found, notFound } from './checks/get-pet.js';
import { defaultLimit, invalidQuery, limit, statusFilter } from './checks/list-pets.js';
import { responseConformance } from './checks/responses.js';
import { statefulModel } from './checks/stateful.js';
import { TargetRefusing, type Exchange } from './client.js';
import { createContext, formatFailure } from './context.js';
import { loadContract, type Contract } from './contract.js';
import { failingExchange, recordCheck, recordSummary } from './report/results.js';
import { resolveTarget, type Target } from './target.js';

export type { CheckId } from './catalogue.js';
export { forgetTarget } from './checks/check.js';
export type { Target } from './target.js';

/**
 * Every check, in the order they run: refusals first (auth, invalid bodies), while the target holds few pets
 * and "nothing was created" can be seen; then the rules that need a populated target; state and concurrency last.
 */
const CHECK_LIST: readonly Check[] = [
  authListPets,
  authCreatePet,
  authGetPet,
  requiredFields,
  invalidBody,
  notFound,
  responseConformance,
  invalidQuery,
  statusFilter,
  defaultLimit,
  limit,
  echo,
  int64RoundTrip,
  found,
  statefulModel,
  concurrentCreates,
];

/** The ids of every check, in run order. */
export const CHECK_IDS: CheckId[] = CHECK_LIST.map((check) => check.id);

/** A check's result: passed (with advice on the seed's gaps, or the reason it was skipped), or its report. */
export type CheckOutcome = { id: CheckId; ok: true; advice: string[]; skipped?: string } | { id: CheckId; ok: false; report: string; exchange?: Exchange };

let contract: Promise<Contract> | undefined;

/**
 * Runs one check against a target. Never throws for a non-conforming target: the failure comes back as a
 * readable report (rule, problem, curl, response, counterexample, replay command) with the failing exchange.
 * Rejects when the spec cannot be loaded, and with `TargetRefusing` when the target kept refusing (429/503)
 * beyond the retry limits: that is no verdict.
 */
export async function runCheck(id: CheckId, target: Target): Promise<CheckOutcome> {
  const check = CHECK_LIST.find((candidate) => candidate.id === id);
  if (check === undefined) throw new Error(`unknown check ${id}; known: ${CHECK_IDS.join(', ')}`);
  const resolved = resolveTarget(target);
  if (resolved.readOnly && check.writes) return { id, ok: true, advice: [], skipped: 'read-only: this check must create pets' };
  contract ??= loadContract();
  const advice: string[] = [];
  try {
    await check.run(createContext(resolved, await contract, advice));
    return { id, ok: true, advice };
  } catch (failure) {
    if (failure instanceof TargetRefusing) throw failure;
    const exchange = failingExchange(failure);
    return { id, ok: false, report: formatFailure(id, CHECKS[id], failure, resolved), ...(exchange === undefined ? {} : { exchange }) };
  }
}

/** Options of {@link defineConformanceSuite}: checks to skip, each with its reason (printed as the test's name). */
export interface SuiteOptions {
  skip?: Partial<Record<CheckId, string>>;
}

/** A failed check as vitest shows it: the report alone, without a stack of the suite's own frames. */
class ConformanceFailure extends Error {
  constructor(report: string) {
    super(report);
    this.name = 'ConformanceFailure';
    this.stack = `${this.name}: ${report}`;
  }
}

/**
 * Registers the conformance suite for `target` with vitest (STYLE 5: a factory over its target): one test per
 * check, named by its id and seed rule; a check skipped by option or by `--read-only` says why. After the run it
 * prints the number of requests sent and their rate.
 */
export function defineConformanceSuite(target: Target, options: SuiteOptions = {}): void {
  describe(`conformance of ${target.baseUrl}`, () => {
    for (const check of CHECK_LIST) {
      const reason = options.skip?.[check.id] ?? (target.readOnly === true && check.writes ? 'read-only: this check must create pets' : undefined);
      if (reason !== undefined) {
        it.skip(`${check.id}: skipped (${reason})`, () => {});
        recordCheck({ id: check.id, rule: CHECKS[check.id], state: 'skipped', durationMs: 0, advice: [], skipped: reason });
        continue;
      }
      // With --concurrency, checks run side by side (vitest's maxConcurrency); send() caps the requests in flight.
      (resolveTarget(target).concurrency > 1 ? it.concurrent : it)(`${check.id}: ${CHECKS[check.id]}`, async () => {
        const started = performance.now();
        const outcome = await runCheck(check.id, target);
        const durationMs = Math.round(performance.now() - started);
        recordCheck(outcome.ok ? { id: check.id, rule: CHECKS[check.id], state: outcome.skipped === undefined ? 'passed' : 'skipped', durationMs, advice: outcome.advice, ...(outcome.skipped === undefined ? {} : { skipped: outcome.skipped }) } : { id: check.id, rule: CHECKS[check.id], state: 'failed', durationMs, advice: [], report: outcome.report, ...(outcome.exchange === undefined ? {} : { exchange: outcome.exchange }) });
        if (!outcome.ok) throw new ConformanceFailure(outcome.report);
        for (const note of outcome.advice) console.info(`advice (${check.id}): ${note}`);
      });
    }
    afterAll(() => {
      console.info(recordSummary(target.baseUrl));
    });
  });
}
