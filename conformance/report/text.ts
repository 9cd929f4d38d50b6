import type { Colours } from './colours.js';
import { checkCounts, isFullyReached, isLimiting, statusCounts, type CheckReach, type OperationReach, type RunReach } from './reach.js';
import { summaryLine, type CheckRecord, type SummaryRecord } from './results.js';

/**
 * The console report of a run, one check at a time as it ends: `✓ id: rule (ms)`, `↓ id: skipped (reason)`, or the
 * failure's report (`✗ id`, rule, problem, curl, response, counterexample, replay command); advice on the spec's
 * gaps below its check. An error of the suite: `! id: not run, error of the suite (reason)`, with its stack when `verbose`.
 */
export function checkLines(record: CheckRecord, colour: Colours, verbose = false): string {
  const advice = record.advice.map((note) => `  ${colour.yellow('advice:')} ${note}\n`).join('');
  if (record.state === 'failed') return `${colour.red(record.report ?? `✗ ${record.id}`)}\n`;
  // An error of the suite (D372): not run, with its reason, and its stack when asked (`--verbose`).
  if (record.error !== undefined) return `${colour.red('!')} ${record.id}: not run, error of the suite (${record.error.message})\n${verbose && record.error.stack !== undefined ? `${colour.dim(record.error.stack.split('\n').map((line) => `    ${line}`).join('\n'))}\n` : ''}${advice}`;
  if (record.state === 'skipped') return `${colour.yellow('↓')} ${record.id}: skipped (${record.skipped ?? 'no reason given'})\n${advice}`;
  return `${colour.green('✓')} ${record.id}: ${record.rule} ${colour.dim(`(${record.durationMs} ms)`)}\n${advice}`;
}

/**
 * The closing lines of a run: its figures (requests, rate, retries, lag), then `N passed, N failed, N skipped` on a
 * line of its own, as test runners end.
 */
export function closingLines(checks: readonly CheckRecord[], figures: SummaryRecord): string {
  const count = (state: CheckRecord['state']): number => checks.filter((check) => check.state === state).length;
  const errors = checks.filter((check) => check.error !== undefined).length;
  const suite = errors === 0 ? '' : `, ${errors} not run for an error of the suite (no verdict)`;
  return `\n${summaryLine(figures)}\n${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped${suite}\n`;
}

/**
 * The closing per-operation section of the console report (see conformance/report/reach.ts): grouped by the
 * operations' first tag when the spec has several, one line per operation that was not reached in full
 * (`GET /pets/{petId} getPet  seen 200×12 404×30 · 4 passed, 1 not run · never seen: 409`) with a line below for
 * each gap and each reason checks were not run or not fully tested (checks sharing a reason on one line; a long
 * reason met more than once written once, under "Reasons", and cited as `[n]`); the operations reached in full
 * counted on one line, and so are operations lacking only some documented error statuses when a group has more
 * than eight of them, so the section stays short on a spec of hundreds of operations. Statuses a correct server
 * does not send to the suite (5xx, 429) are left to the HTML report.
 */
export function reachLines(reach: RunReach, colour: Colours): string {
  const footnotes = footnotesOf(reach);
  const cite = (reason: string): string => {
    const n = footnotes.get(reason);
    return n === undefined ? reason : `[${n}]`;
  };
  const tags = new Set(reach.operations.map((operation) => operation.tag));
  const grouped = tags.size > 1;
  const full = reach.operations.filter(isFullyReached).length;
  const lines = [`\n${colour.bold('Reach per operation')}: ${full} of ${reach.operations.length} reached in full (every check passed, every documented status seen)`];
  for (const tag of tags) {
    const operations = reach.operations.filter((operation) => operation.tag === tag);
    const partial = operations.filter((operation) => !isFullyReached(operation));
    if (grouped) lines.push(`${colour.bold(tag ?? '(no tag)')}: ${operations.length - partial.length} of ${operations.length} in full`);
    const quiet = partial.filter(onlyErrorsUnseen);
    for (const operation of partial) if (quiet.length <= QUIET_LINES || !quiet.includes(operation)) lines.push(...operationLines(operation, colour, cite));
    if (quiet.length > QUIET_LINES) {
      const tally = new Map<string, number>();
      for (const operation of quiet) for (const status of operation.unseen) if (!status.expected) tally.set(status.status, (tally.get(status.status) ?? 0) + 1);
      lines.push(`  ${quiet.length} more operations reached, every check passed, some documented errors never seen (${[...tally].map(([status, count]) => `${status} on ${count}`).join(', ')}): the HTML and JUnit reports list them`);
    }
  }
  const api = reach.apiWide;
  if (api.length > 0) {
    lines.push(`API-wide checks: ${checkCounts(api)}`);
    lines.push(...reasonLines(api, '', colour, cite));
  }
  if (reach.unmatched.length > 0) {
    const shown = reach.unmatched.slice(0, 5).map(([key, counts]) => `${key} ${statusCounts(counts)}`);
    lines.push(`Requests matching no operation: ${shown.join('; ')}${reach.unmatched.length > 5 ? `; and ${reach.unmatched.length - 5} more` : ''}`);
  }
  if (footnotes.size > 0) {
    lines.push('Reasons:');
    for (const [reason, n] of footnotes) lines.push(`  [${n}] ${reason}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Beyond this many, operations whose only gap is documented error statuses never seen are counted, not listed. */
const QUIET_LINES = 8;

/**
 * Whether the only thing an operation lacks is some documented error statuses with no reason (its success seen, every
 * check passed in full): on a large spec the most common case, counted on one line when there are many.
 */
function onlyErrorsUnseen(operation: OperationReach): boolean {
  return (
    operation.gaps.length === 0 &&
    operation.undocumented.length === 0 &&
    operation.checks.every((check) => check.state === 'passed') &&
    !operation.notes.some(isLimiting) &&
    operation.unseen.every((status) => status.expected || (!status.status.startsWith('2') && status.reason === undefined))
  );
}

/** Long reasons (over 60 characters) met on more than one line of the section, numbered from 1 in order of meeting. */
function footnotesOf(reach: RunReach): Map<string, number> {
  const uses = new Map<string, number>();
  const groups = [...reach.operations.filter((operation) => !isFullyReached(operation)).map((operation) => operation.checks), reach.apiWide];
  for (const checks of groups) for (const reason of new Set(checks.flatMap((check) => check.reasons))) uses.set(reason, (uses.get(reason) ?? 0) + 1);
  const footnotes = new Map<string, number>();
  for (const [reason, count] of uses) if (count > 1 && reason.length > 60) footnotes.set(reason, footnotes.size + 1);
  return footnotes;
}

/** One operation not reached in full: its line, then a line per gap, per unseen status's reason, per reason checks were limited. */
function operationLines(operation: OperationReach, colour: Colours, cite: (reason: string) => string): string[] {
  const unseen = operation.unseen.filter((status) => !status.expected).map((status) => status.status);
  const head = [
    `  ${operation.method} ${operation.path} ${colour.bold(operation.operationId)} `,
    operation.seen.length === 0 ? colour.yellow('never called') : `seen ${statusCounts(operation.seen)}`,
    checkCounts(operation.checks),
    ...(unseen.length === 0 ? [] : [colour.yellow(`never seen: ${unseen.join(', ')}`)]),
    ...(operation.undocumented.length === 0 ? [] : [colour.red(`undocumented: ${statusCounts(operation.undocumented)}`)]),
  ];
  const lines = [`${head[0]} ${head.slice(1).join(' · ')}`];
  // "never called" is on the operation's line already; a status's reason said by a gap is not repeated.
  if (operation.seen.length > 0) for (const gap of operation.gaps) lines.push(`      ${colour.yellow('!')} ${gap}`);
  for (const status of operation.unseen) {
    if (!status.expected && status.reason !== undefined && !operation.gaps.includes(status.reason)) lines.push(`      ${colour.yellow('!')} ${status.status} never seen: ${status.reason}`);
  }
  lines.push(...reasonLines(operation.checks, `${operation.operationId}.`, colour, cite));
  for (const note of operation.notes.filter(isLimiting)) lines.push(`      ${colour.yellow('~')} ${note}`);
  return lines;
}

/** A line per distinct reason among `checks` (not run, or not fully tested), naming the checks it holds for (ids without `prefix`). */
function reasonLines(checks: readonly CheckReach[], prefix: string, colour: Colours, cite: (reason: string) => string): string[] {
  const lines: string[] = [];
  for (const state of ['skipped', 'limited'] as const) {
    const byReason = new Map<string, string[]>();
    for (const check of checks.filter((candidate) => candidate.state === state)) {
      const name = check.id.startsWith(prefix) ? check.id.slice(prefix.length) : check.id;
      for (const reason of check.reasons) byReason.set(reason, [...(byReason.get(reason) ?? []), name]);
    }
    const mark = state === 'skipped' ? colour.yellow('↓') : colour.yellow('~');
    const label = state === 'skipped' ? 'not run' : 'not fully tested';
    for (const [reason, names] of byReason) lines.push(`      ${mark} ${names.join(', ')} ${label}: ${cite(reason)}`);
  }
  return lines;
}
