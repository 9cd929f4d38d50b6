import type { Colours } from './colours.js';
import { summaryLine, type CheckRecord, type SummaryRecord } from './results.js';

/**
 * The console report of a run, one check at a time as it ends: `✓ id: rule (ms)`, `↓ id: skipped (reason)`, or the
 * failure's report (`✗ id`, rule, problem, curl, response, counterexample, replay command); advice on the spec's
 * gaps below its check.
 */
export function checkLines(record: CheckRecord, colour: Colours): string {
  const advice = record.advice.map((note) => `  ${colour.yellow('advice:')} ${note}\n`).join('');
  if (record.state === 'failed') return `${colour.red(record.report ?? `✗ ${record.id}`)}\n`;
  if (record.state === 'skipped') return `${colour.yellow('↓')} ${record.id}: skipped (${record.skipped ?? 'no reason given'})\n${advice}`;
  return `${colour.green('✓')} ${record.id}: ${record.rule} ${colour.dim(`(${record.durationMs} ms)`)}\n${advice}`;
}

/**
 * The closing lines of a run: its figures (requests, rate, retries, lag), then `N passed, N failed, N skipped` on a
 * line of its own, as test runners end.
 */
export function closingLines(checks: readonly CheckRecord[], figures: SummaryRecord): string {
  const count = (state: CheckRecord['state']): number => checks.filter((check) => check.state === state).length;
  return `\n${summaryLine(figures)}\n${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped\n`;
}
