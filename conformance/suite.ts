import { afterAll, describe, it } from 'vitest';
import { colours } from './report/colours.js';
import { reachOf } from './report/reach.js';
import { summary, summaryLine, type CheckRecord } from './report/results.js';
import { reachLines } from './report/text.js';
import { READ_ONLY_REASON, runCheck, startRun, type CheckId } from './run-suite.js';
import { resolveTarget, type Target } from './target.js';

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
 * prints the number of requests sent and their rate, and the reach per operation (conformance/report/reach.ts).
 */
export function defineConformanceSuite(target: Target, options: SuiteOptions = {}): void {
  describe(`conformance of ${target.baseUrl}`, async () => {
    // The checks' outcomes, for the reach per operation printed after the run.
    const records: CheckRecord[] = [];
    // One run for every check of the suite: they share what it learns of the target (ids, parents, references).
    const run = await startRun(target);
    for (const check of run.checks) {
      const reason = options.skip?.[check.id] ?? check.skip ?? (target.readOnly === true && check.writes ? (check.readOnlySkip ?? READ_ONLY_REASON) : undefined);
      const base = { type: 'check' as const, id: check.id, rule: check.rule };
      if (reason !== undefined) {
        records.push({ ...base, state: 'skipped', durationMs: 0, advice: [], skipped: reason });
        it.skip(`${check.id}: skipped (${reason})`, () => {});
        continue;
      }
      // With --concurrency, checks run side by side (vitest's maxConcurrency); send() caps the requests in flight.
      (resolveTarget(target).concurrency > 1 ? it.concurrent : it)(`${check.id}: ${check.rule}`, async () => {
        const started = performance.now();
        const outcome = await runCheck(check.id, target, run);
        const durationMs = Math.round(performance.now() - started);
        if (!outcome.ok) {
          records.push({ ...base, state: 'failed', durationMs, advice: [], report: outcome.report });
          throw new ConformanceFailure(outcome.report);
        }
        records.push({ ...base, state: outcome.skipped === undefined ? 'passed' : 'skipped', durationMs, advice: outcome.advice, ...(outcome.skipped === undefined ? {} : { skipped: outcome.skipped }) });
        for (const note of outcome.advice) console.info(`advice (${check.id}): ${note}`);
      });
    }
    afterAll(async () => {
      const figures = summary(run, target.baseUrl);
      await run.close();
      console.info(summaryLine(figures));
      console.info(reachLines(reachOf(run.model, figures.statuses, records), colours(process.stdout)).trimEnd());
    });
  });
}
