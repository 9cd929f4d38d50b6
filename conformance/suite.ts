import { afterAll, describe, it } from 'vitest';
import type { ApiModel } from '../model/model.js';
import { GenerationGaveUp } from './arbitraries/bounded.js';
import { checksFor } from './catalogue.js';
import { prepareParents } from './checks/identity.js';
import { parentRecord } from './checks/population.js';
import type { Check } from './checks/check.js';
import { TargetRefusing } from './client.js';
import type { Exchange } from '../judge/verdict.js';
import { createContext, formatFailure } from './context.js';
import { modelOf } from './contract.js';
import { failingExchange, recordCheck, recordSummary } from './report/results.js';
import { resolveTarget, type Target } from './target.js';

export { checksFor } from './catalogue.js';
export { forgetTarget } from './checks/check.js';
export type { Target } from './target.js';

/** A check id as the catalogue derives it from the spec (`listPets.status-filter`, `deletePet.gone`, `auth.getPet`). */
export type CheckId = string;

const catalogues = new WeakMap<ApiModel, Check[]>();

/** The checks of the spec a target implements (`target.spec`, default `spec/openapi.yaml`), built once per model. */
async function checksOf(target: Target): Promise<Check[]> {
  const model = await modelOf(target.spec);
  let checks = catalogues.get(model);
  if (checks === undefined) catalogues.set(model, (checks = checksFor(model)));
  return checks;
}

/**
 * The ids of every check for the spec `target` implements, in run order (on the seed's spec, the sixteen the
 * self-test's mutants name). Rejects when the spec cannot be loaded.
 */
export async function listCheckIds(target: Target): Promise<string[]> {
  return (await checksOf(target)).map((check) => check.id);
}

/** A check's result: passed (with advice on the spec's gaps, or the reason it was skipped), or its report. */
export type CheckOutcome = { id: CheckId; ok: true; advice: string[]; skipped?: string } | { id: CheckId; ok: false; report: string; exchange?: Exchange };

/** Why a check is skipped in a read-only run. */
const READ_ONLY_REASON = 'read-only: this check must write';

/**
 * Runs one check against a target. Never throws for a non-conforming target: the failure comes back as a
 * readable report (rule, problem, curl, response, counterexample, replay command) with the failing exchange.
 * Rejects when the spec cannot be loaded or names no such check, and with `TargetRefusing` when the target kept
 * refusing (429/503) beyond the retry limits: that is no verdict.
 */
export async function runCheck(id: CheckId, target: Target): Promise<CheckOutcome> {
  const checks = await checksOf(target);
  const check = checks.find((candidate) => candidate.id === id);
  if (check === undefined) throw new Error(`unknown check ${id}; known: ${checks.map((c) => c.id).join(', ')}`);
  const resolved = resolveTarget(target);
  if (check.skip !== undefined) return { id, ok: true, advice: [], skipped: check.skip };
  if (resolved.readOnly && check.writes) return { id, ok: true, advice: [], skipped: check.readOnlySkip ?? READ_ONLY_REASON };
  const advice: string[] = [];
  try {
    const context = createContext(resolved, await modelOf(target.spec), advice);
    await prepareParents(context, parentRecord(context));
    await check.run(context);
    return { id, ok: true, advice };
  } catch (failure) {
    if (failure instanceof TargetRefusing) throw failure;
    // The suite could not build an input for the spec: not the target's fault, so no verdict against it.
    const gaveUp = generationGaveUp(failure);
    if (gaveUp !== undefined) return { id, ok: true, advice: [...advice, `not fully tested: ${gaveUp.message}`] };
    const exchange = failingExchange(failure);
    return { id, ok: false, report: formatFailure(id, check.rule, failure, resolved), ...(exchange === undefined ? {} : { exchange }) };
  }
}

/** The {@link GenerationGaveUp} behind a failure (a property wraps it as its cause), if any. */
function generationGaveUp(failure: unknown): GenerationGaveUp | undefined {
  for (let current: unknown = failure, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (current instanceof GenerationGaveUp) return current;
  }
  return undefined;
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
 * Registers the conformance suite for `target` with vitest, a factory over its target (the same checks for the mock, staging or any implementation): one test per
 * check, named by its id and seed rule; a check skipped by option or by `--read-only` says why. After the run it
 * prints the number of requests sent and their rate.
 */
export function defineConformanceSuite(target: Target, options: SuiteOptions = {}): void {
  describe(`conformance of ${target.baseUrl}`, async () => {
    for (const check of await checksOf(target)) {
      const reason = options.skip?.[check.id] ?? check.skip ?? (target.readOnly === true && check.writes ? (check.readOnlySkip ?? READ_ONLY_REASON) : undefined);
      if (reason !== undefined) {
        it.skip(`${check.id}: skipped (${reason})`, () => {});
        recordCheck({ id: check.id, rule: check.rule, state: 'skipped', durationMs: 0, advice: [], skipped: reason });
        continue;
      }
      // With --concurrency, checks run side by side (vitest's maxConcurrency); send() caps the requests in flight.
      (resolveTarget(target).concurrency > 1 ? it.concurrent : it)(`${check.id}: ${check.rule}`, async () => {
        const started = performance.now();
        const outcome = await runCheck(check.id, target);
        const durationMs = Math.round(performance.now() - started);
        recordCheck(outcome.ok ? { id: check.id, rule: check.rule, state: outcome.skipped === undefined ? 'passed' : 'skipped', durationMs, advice: outcome.advice, ...(outcome.skipped === undefined ? {} : { skipped: outcome.skipped }) } : { id: check.id, rule: check.rule, state: 'failed', durationMs, advice: [], report: outcome.report, ...(outcome.exchange === undefined ? {} : { exchange: outcome.exchange }) });
        if (!outcome.ok) throw new ConformanceFailure(outcome.report);
        for (const note of outcome.advice) console.info(`advice (${check.id}): ${note}`);
      });
    }
    afterAll(() => {
      console.info(recordSummary(target.baseUrl));
    });
  });
}
