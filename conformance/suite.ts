import { afterAll, describe, it } from 'vitest';
import { summary, summaryLine } from './report/results.js';
import { checksOf, READ_ONLY_REASON, runCheck, type CheckId } from './run-suite.js';
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
 * prints the number of requests sent and their rate.
 */
export function defineConformanceSuite(target: Target, options: SuiteOptions = {}): void {
  describe(`conformance of ${target.baseUrl}`, async () => {
    for (const check of await checksOf(target)) {
      const reason = options.skip?.[check.id] ?? check.skip ?? (target.readOnly === true && check.writes ? (check.readOnlySkip ?? READ_ONLY_REASON) : undefined);
      if (reason !== undefined) {
        it.skip(`${check.id}: skipped (${reason})`, () => {});
        continue;
      }
      // With --concurrency, checks run side by side (vitest's maxConcurrency); send() caps the requests in flight.
      (resolveTarget(target).concurrency > 1 ? it.concurrent : it)(`${check.id}: ${check.rule}`, async () => {
        const outcome = await runCheck(check.id, target);
        if (!outcome.ok) throw new ConformanceFailure(outcome.report);
        for (const note of outcome.advice) console.info(`advice (${check.id}): ${note}`);
      });
    }
    afterAll(() => {
      console.info(summaryLine(summary(target.baseUrl)));
    });
  });
}
