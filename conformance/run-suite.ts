import { GenerationGaveUp, NotRun } from './arbitraries/bounded.js';
import { suiteErrorOf, withinBudget, type SuiteError } from './isolation.js';
import { checksFor } from './catalogue.js';
import { prepareParents } from './checks/identity.js';
import { parentRecord } from './checks/parents.js';
import type { Check } from './checks/check.js';
import { honestly, prepareReferences, unresolvedReason } from './references.js';
import { NothingToJudge } from './checks/served-lists.js';
import { TargetRefusing } from './client.js';
import { createContext, formatFailure, PropertyFailure } from './context.js';
import { excuseRefusal, narrowToExample, refusalIn, unavailableIn } from './refusals.js';
import type { CheckContext } from './check-context.js';
import { modelOf } from './contract.js';
import { RunState } from './run-state.js';
import { failingExchange, summary, type CheckRecord, type SummaryRecord } from './report/results.js';
import { resolveTarget, type Target } from './target.js';
import { freshSeed } from './property.js';
import type { Exchange } from '../judge/verdict.js';
import { documentedStatuses } from '../judge/documented.js';
import type { ApiModel } from '../model/model.js';

/**
 * The conformance suite as a library: the checks the catalogue derives from a spec, run against one target in
 * this process, with the results in memory. The CLI (conformance/cli.ts) renders them; `npm test` calls the same
 * functions (test/self-test/); `defineConformanceSuite` (suite.ts) registers them with vitest for teams that
 * want the checks among their own tests.
 */

/** A check id as the catalogue derives it from the spec (`listPets.status-filter`, `deletePet.gone`, `auth.getPet`). */
export type CheckId = string;

/** The checks of the spec a target implements (`target.spec`, default `spec/openapi.yaml`), in catalogue order. */
export async function checksOf(target: Target): Promise<Check[]> {
  return checksFor(await modelOf(target.spec, target.overlays));
}

/**
 * Starts a run against `target`: the object that holds everything the run learns (conformance/run-state.ts), with
 * its model (`options.model`, else the spec `target.spec` names) and that model's checks (`options.catalogue`, the
 * checks {@link checksFor} made of `options.model` already, else made here). Pass it to
 * {@link runCheck} for several checks to share what the run learnt (ids, parents, references, figures), and
 * `close()` it at the end. Rejects when the spec cannot be loaded.
 */
export async function startRun(target: Target, options: { model?: ApiModel; catalogue?: readonly Check[]; keepExchanges?: number } = {}): Promise<RunState> {
  const model = options.model ?? (await modelOf(target.spec, target.overlays));
  // Building the catalogue reads every schema of the model: on a large description, seconds the caller may have spent already.
  const catalogue = options.model !== undefined && options.catalogue !== undefined ? options.catalogue : checksFor(model);
  return new RunState(model, catalogue, options.keepExchanges === undefined ? {} : { keepExchanges: options.keepExchanges });
}

/**
 * The ids of every check for the spec `target` implements, in run order (on the seed's spec, the sixteen the
 * self-test's mutants name). Rejects when the spec cannot be loaded.
 */
export async function listCheckIds(target: Target): Promise<string[]> {
  return (await checksOf(target)).map((check) => check.id);
}

/**
 * A check's result: passed (with advice on the spec's gaps, or the reason it was skipped; with `error`, not run
 * because of an error of the suite itself, D372), or its report.
 */
export type CheckOutcome = { id: CheckId; ok: true; advice: string[]; skipped?: string; error?: SuiteError } | { id: CheckId; ok: false; report: string; exchange?: Exchange };

/** Why a check is skipped in a read-only run. */
export const READ_ONLY_REASON = 'read-only: this check must write';

/**
 * Runs one check against a target, in `run` (one {@link startRun} made; default a run of its own, closed at the
 * end). Never throws for a non-conforming target: the failure comes back as a readable report (rule, problem,
 * curl, response, counterexample, replay command) with the failing exchange. Rejects when the spec cannot be loaded
 * or names no such check, and with `TargetRefusing` when the target kept refusing (429/503) beyond the retry
 * limits: that is no verdict.
 */
export async function runCheck(id: CheckId, target: Target, run?: RunState): Promise<CheckOutcome> {
  if (run !== undefined) return checkIn(run, id, target);
  const own = await startRun(target);
  try {
    return await checkIn(own, id, target);
  } finally {
    await own.close();
  }
}

/** {@link runCheck} in `run`. */
async function checkIn(run: RunState, id: CheckId, target: Target): Promise<CheckOutcome> {
  const checks = run.checks;
  const check = checks.find((candidate) => candidate.id === id);
  if (check === undefined) throw new Error(`unknown check ${id}; known: ${checks.map((c) => c.id).join(', ')}`);
  // A seed even when none was given (D275): every draw of the check comes from it, and a failure prints it.
  const given = resolveTarget(target);
  const resolved = given.seed === undefined ? { ...given, seed: freshSeed() } : given;
  if (check.skip !== undefined) return { id, ok: true, advice: [], skipped: check.skip };
  if (resolved.readOnly && check.writes) return { id, ok: true, advice: [], skipped: check.readOnlySkip ?? READ_ONLY_REASON };
  const advice: string[] = [];
  let context: CheckContext | undefined;
  const model = run.model;
  // A value judged by a schema that cannot be compiled was let through unjudged (D134): no verdict, the reason instead.
  const failures = model.schemaFailures;
  const unjudgedBefore = failures?.uses ?? 0;
  const unjudged = (): string | undefined => (failures !== undefined && failures.uses > unjudgedBefore ? `not run: ${failures.last ?? 'a schema it needs cannot be compiled'}` : undefined);
  try {
    const made = createContext(resolved, model, advice, run);
    context = made;
    const work = async (): Promise<void> => {
      await prepareReferences(made);
      await prepareParents(made, honestly(made, parentRecord(made)));
      await runLearning(check, made, advice);
    };
    // Over its budget the check ends as not run, and what it still sends is refused (D372).
    await withinBudget(work(), resolved.checkTimeoutMs, () => void (made.stopped = true));
    const notRun = unjudged();
    return notRun === undefined ? { id, ok: true, advice } : { id, ok: true, advice, skipped: notRun };
  } catch (failure) {
    if (failure instanceof TargetRefusing) throw failure;
    // An error of the suite itself (a check it could not build, a bug, a budget spent): no verdict on the target.
    const fault = suiteErrorOf(failure);
    if (fault !== undefined) return { id, ok: true, advice, skipped: `error of the suite: ${fault.message}`, error: fault };
    const notRun = unjudged();
    if (notRun !== undefined) return { id, ok: true, advice, skipped: notRun };
    // An answer the description allows for an operation it may not offer (D493): no verdict, the answer instead.
    const unavailable = unavailableIn(failure);
    if (unavailable !== undefined) return { id, ok: true, advice, skipped: `not run: ${unavailable.problem}` };
    // A write naming a record the suite could not find on the target (D95): no verdict, the reason instead.
    const unfilled = unfilledReference(failure) ?? (context === undefined ? undefined : unresolvedReason(context, failingExchange(failure)));
    if (unfilled !== undefined) return { id, ok: true, advice, skipped: unfilled };
    const refused = context === undefined ? undefined : setupRefusal(context.model, id, failingExchange(failure));
    if (refused !== undefined) return { id, ok: true, advice, skipped: refused };
    // The suite could not build an input for the spec: not the target's fault, so no verdict against it.
    const gaveUp = generationGaveUp(failure);
    if (gaveUp !== undefined) return { id, ok: true, advice: [...advice, `not fully tested: ${gaveUp.message}`] };
    const exchange = failingExchange(failure);
    return { id, ok: false, report: formatFailure(id, check.rule, failure, resolved), ...(exchange === undefined ? {} : { exchange }) };
  }
}

/**
 * Runs `check` in `context`. A documented refusal of a value it drew outside a property (its fixed cases) is judged
 * by {@link excuseRefusal} (D490): when the refusal taught the run a narrower draw, the check runs again with it (at
 * most twice); otherwise it ends there, passed, with the refusal in its advice (not fully tested). A refusal the
 * check's example trial condemns is a failure as before.
 */
async function runLearning(check: Check, context: CheckContext, advice: string[]): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await check.run(context);
      return;
    } catch (failure) {
      const refusal = failure instanceof PropertyFailure ? undefined : refusalIn(failure);
      if (refusal === undefined) throw failure;
      const learnt = (await excuseRefusal(context, refusal)) || narrowToExample(context, refusal);
      const status = refusal.exchange!.response.status;
      if (!learnt || attempt >= 2) {
        advice.push(`not fully tested: ${refusal.op.operationId} refused a value the suite drew with its documented ${status} (${refusal.exchange!.response.text.slice(0, 160)}), the server's own rule (D490)`);
        return;
      }
    }
  }
}

/**
 * The reason of a {@link NotRun} (a parent or reference that could not be made, a value no schema branch admits)
 * or {@link NothingToJudge} (a served list holding nothing) behind a failure, if any.
 */
function unfilledReference(failure: unknown): string | undefined {
  for (let current: unknown = failure, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (current instanceof NotRun || current instanceof NothingToJudge) return current.reason;
  }
  return undefined;
}

/**
 * Why a failure is no verdict on the check's own operation (D162): its exchange is a create of another operation,
 * sent to make a record the check needs, that the target refused with a 4xx the create documents (a quota, a
 * state the suite cannot see). The checks of that create judge its refusals; this one is not run, with the answer.
 * `undefined` when the check's id names no operation (an API-wide check, whose creates are its subject), or the
 * failing exchange is no such refusal.
 */
function setupRefusal(model: ApiModel, id: CheckId, exchange: Exchange | undefined): string | undefined {
  if (exchange === undefined) return undefined;
  const status = exchange.response.status;
  if (status < 400 || status >= 500 || status === 401 || status === 403) return undefined;
  const subject = model.operations.find((op) => id === `auth.${op.operationId}` || id.startsWith(`${op.operationId}.`));
  const path = exchange.request.path.split('?')[0] ?? '';
  const create = model.operations.find((op) => op.role === 'create' && op.method === exchange.request.method && op.pattern.test(path));
  if (subject === undefined || create === undefined || create === subject || !documentedStatuses(create).includes(status)) return undefined;
  const text = exchange.response.text.length > 160 ? `${exchange.response.text.slice(0, 160)}…` : exchange.response.text;
  return `set-up: ${create.method} ${path}, which makes a ${create.resource?.name ?? 'record'} this check needs, was refused with ${status}${text === '' ? '' : `: ${text}`}`;
}

/** The {@link GenerationGaveUp} behind a failure (a property wraps it as its cause), if any. */
function generationGaveUp(failure: unknown): GenerationGaveUp | undefined {
  for (let current: unknown = failure, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (current instanceof GenerationGaveUp) return current;
  }
  return undefined;
}

/** What {@link runSuite} is asked for beyond the target. */
export interface RunOptions {
  /** Only these checks (ids from {@link listCheckIds}); default every check, in catalogue order. */
  checks?: readonly CheckId[];
  /** Checks to skip, each with its reason. */
  skip?: Partial<Record<CheckId, string>>;
  /** Called as each check ends (in the order they end: with `target.concurrency` > 1, not the catalogue's). */
  onCheck?: (record: CheckRecord) => void;
  /** Keep the first this many exchanges of the run in memory (`--har-all`); default none. */
  keepExchanges?: number;
  /**
   * The whole run's time budget in milliseconds (`--run-budget`, D390): no check starts once it is spent, and each
   * check that starts gets at most what is left as its properties' time budget (`target.timeBudgetMs` if smaller),
   * so a property stops early, passing on the runs it made. The checks not reached are recorded as skipped with
   * {@link RUN_BUDGET_REASON}. Default: none.
   */
  runBudgetMs?: number;
  /** The checks {@link checksFor} made of the model already (the CLI lists them before it runs); default: made anew. */
  catalogue?: readonly Check[];
}

/** Why a check is skipped when the run's time budget ({@link RunOptions.runBudgetMs}) was spent before it started. */
export const RUN_BUDGET_REASON = "the run's time budget (--run-budget) was spent before it started";

/**
 * The outcome of a run: every check's record in catalogue order, the run's figures (requests, retries, statuses
 * per operation, read-after-write lag; `summary.refused` when the target kept refusing and the run has no
 * verdict), and the exchanges kept with {@link RunOptions.keepExchanges}.
 */
export interface SuiteResult {
  checks: CheckRecord[];
  summary: SummaryRecord;
  exchanges: Exchange[];
}

/**
 * Runs the suite of `model` against `target` in this process, as one run of its own (a run beside it, or after it,
 * shares nothing with it): every check (or `options.checks`), up to `target.concurrency` at once, each a {@link runCheck}. A target that keeps refusing (429/503) ends the run at
 * once: the checks not run are left out and `summary.refused` says why. Rejects only when a check id is unknown.
 */
export async function runSuite(model: ApiModel, target: Target, options: RunOptions = {}): Promise<SuiteResult> {
  const run = await startRun(target, { model, keepExchanges: options.keepExchanges ?? 0, ...(options.catalogue === undefined ? {} : { catalogue: options.catalogue }) });
  try {
    return await suiteIn(run, target, options);
  } finally {
    await run.close();
  }
}

/** {@link runSuite} in `run`. */
async function suiteIn(run: RunState, target: Target, options: RunOptions): Promise<SuiteResult> {
  const all = run.checks;
  const unknown = (options.checks ?? []).filter((id) => !all.some((check) => check.id === id));
  if (unknown.length > 0) throw new Error(`unknown check ${unknown.join(', ')}; known: ${all.map((check) => check.id).join(', ')}`);
  const selected = options.checks === undefined || options.checks.length === 0 ? all : all.filter((check) => options.checks!.includes(check.id));
  const resolved = resolveTarget(target);
  const records: (CheckRecord | undefined)[] = selected.map(() => undefined);
  const deadline = options.runBudgetMs === undefined ? Infinity : performance.now() + options.runBudgetMs;
  let next = 0;
  let refused = false;
  const worker = async (): Promise<void> => {
    while (!refused && next < selected.length) {
      const index = next++;
      const check = selected[index]!;
      const started = performance.now();
      const reason = options.skip?.[check.id] ?? (started >= deadline ? RUN_BUDGET_REASON : undefined);
      let record: CheckRecord;
      try {
        record = reason === undefined ? toRecord(check, await checkIn(run, check.id, withinRunBudget(target, deadline - started)), Math.round(performance.now() - started)) : { type: 'check', id: check.id, rule: check.rule, state: 'skipped', durationMs: 0, advice: [], skipped: reason };
      } catch (error) {
        if (!(error instanceof TargetRefusing)) throw error;
        refused = true;
        return;
      }
      records[index] = record;
      options.onCheck?.(record);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(resolved.concurrency, selected.length)) }, worker));
  return { checks: records.filter((record) => record !== undefined), summary: summary(run, target.baseUrl), exchanges: [...run.client.kept] };
}

/** `target` with its properties' time budget cut to `left` milliseconds of the run's budget, where that is smaller. */
function withinRunBudget(target: Target, left: number): Target {
  if (left === Infinity || (target.timeBudgetMs !== undefined && target.timeBudgetMs <= left)) return target;
  return { ...target, timeBudgetMs: Math.max(1, Math.round(left)) };
}

/** A check's outcome as the reports read it. */
function toRecord(check: Check, outcome: CheckOutcome, durationMs: number): CheckRecord {
  const base = { type: 'check' as const, id: check.id, rule: check.rule, durationMs };
  if (!outcome.ok) return { ...base, state: 'failed', advice: [], report: outcome.report, ...(outcome.exchange === undefined ? {} : { exchange: outcome.exchange }) };
  return { ...base, state: outcome.skipped === undefined ? 'passed' : 'skipped', advice: outcome.advice, ...(outcome.skipped === undefined ? {} : { skipped: outcome.skipped }), ...(outcome.error === undefined ? {} : { error: outcome.error }) };
}
