import { checkCounts, statusCounts, type OperationReach, type RunReach } from './reach.js';
import type { CheckRecord } from './results.js';
import { PRODUCT } from '../../cli/product.js';

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
const seconds = (ms: number): string => (ms / 1000).toFixed(3);

/**
 * JUnit XML of a run, in the shape CI systems read (GitLab's test report, Jenkins' JUnit plugin, GitHub test-report
 * actions): one `testcase` per check (`name` = `id: rule`), a `failure` carrying the report, `skipped` with its
 * reason, the check's advice in its `system-out` (GitLab and Jenkins show it beside the test).
 *
 * Without `reach`, one `testsuite` named `suite` holding every check (classname `suite`). With `reach` (conformance/report/reach.ts), one `testsuite` per operation of the spec, named
 * `operationId (METHOD path)`, whose testcases carry the operationId as `classname` (the "suite"/"class" column of
 * those reports), with the operation's reach as `properties` (`statuses.seen`, `statuses.never-seen`,
 * `statuses.undocumented`, `reach`) and as readable `system-out`; then a testsuite `API-wide` for the checks of no
 * one operation. An operation with no check of its own still gets its (empty) testsuite, so what was never called
 * shows.
 */
export function renderJunit(suite: string, checks: readonly CheckRecord[], reach?: RunReach): string {
  const failures = checks.filter((check) => check.state === 'failed').length;
  const errors = checks.filter((check) => check.error !== undefined).length;
  const total = checks.reduce((sum, check) => sum + check.durationMs, 0);
  const head = `<?xml version="1.0" encoding="UTF-8" ?>\n<testsuites name="${PRODUCT}" tests="${checks.length}" failures="${failures}" errors="${errors}" time="${seconds(total)}">\n`;
  if (reach === undefined) return `${head}${testsuite(suite, suite, checks, [], '')}</testsuites>\n`;
  const byId = new Map(checks.map((check) => [check.id, check]));
  const suites = reach.operations.map((operation) => {
    const own = operation.checks.map((check) => byId.get(check.id)).filter((check) => check !== undefined);
    return testsuite(`${operation.operationId} (${operation.method} ${operation.path})`, operation.operationId, own, properties(operation), reachText(operation));
  });
  const apiWide = reach.apiWide.map((check) => byId.get(check.id)).filter((check) => check !== undefined);
  const unmatched = reach.unmatched.map(([key, counts]) => `${key} ${statusCounts(counts)}`).join('; ');
  if (apiWide.length > 0 || unmatched !== '') suites.push(testsuite('API-wide', 'API-wide', apiWide, unmatched === '' ? [] : [['requests.unmatched', unmatched]], unmatched === '' ? '' : `requests matching no operation: ${unmatched}\n`));
  return `${head}${suites.join('')}</testsuites>\n`;
}

/** One `testsuite` element: its cases, then properties and system-out (the order of the JUnit schema Jenkins validates). */
function testsuite(name: string, classname: string, checks: readonly CheckRecord[], props: readonly [string, string][], out: string): string {
  const failures = checks.filter((check) => check.state === 'failed').length;
  const errors = checks.filter((check) => check.error !== undefined).length;
  const skipped = checks.filter((check) => check.state === 'skipped' && check.error === undefined).length;
  const total = checks.reduce((sum, check) => sum + check.durationMs, 0);
  const properties = props.length === 0 ? '' : `    <properties>\n${props.map(([key, value]) => `      <property name="${escape(key)}" value="${escape(value)}"/>\n`).join('')}    </properties>\n`;
  const cases = checks.map((check) => `${testcase(classname, check)}\n`).join('');
  const systemOut = out === '' ? '' : `    <system-out>${escape(out)}</system-out>\n`;
  return `  <testsuite name="${escape(name)}" tests="${checks.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(total)}">\n${properties}${cases}${systemOut}  </testsuite>\n`;
}

function testcase(classname: string, check: CheckRecord): string {
  const head = `    <testcase classname="${escape(classname)}" name="${escape(`${check.id}: ${check.rule}`)}" time="${seconds(check.durationMs)}"`;
  const advice = check.advice.length === 0 ? '' : `\n      <system-out>${escape(check.advice.map((note) => `advice: ${note}`).join('\n'))}</system-out>`;
  if (check.state === 'failed') return `${head}>\n      <failure message="${escape((check.report ?? '').split('\n')[0] ?? '')}" type="Violation">${escape(check.report ?? '')}</failure>${advice}\n    </testcase>`;
  // An error of the suite itself (D372): JUnit's own element for a test that could not run to a verdict.
  if (check.error !== undefined) return `${head}>\n      <error message="${escape(check.error.message)}" type="SuiteError">${escape(check.error.stack ?? check.error.message)}</error>${advice}\n    </testcase>`;
  if (check.state === 'skipped') return `${head}>\n      <skipped message="${escape(check.skipped ?? '')}"/>${advice}\n    </testcase>`;
  return advice === '' ? `${head}/>` : `${head}>${advice}\n    </testcase>`;
}

/** The reach of an operation as JUnit properties (one line each). */
function properties(operation: OperationReach): [string, string][] {
  const props: [string, string][] = [['statuses.seen', operation.seen.length === 0 ? 'none: never called' : statusCounts(operation.seen)]];
  if (operation.unseen.length > 0) props.push(['statuses.never-seen', operation.unseen.map((status) => `${status.status}${status.reason === undefined ? '' : ` (${status.reason})`}`).join('; ')]);
  if (operation.undocumented.length > 0) props.push(['statuses.undocumented', statusCounts(operation.undocumented)]);
  props.push(['reach', operation.gaps.length === 0 ? checkCounts(operation.checks) : `${operation.gaps.join('; ')}; ${checkCounts(operation.checks)}`]);
  return props;
}

/** The reach of an operation as the readable text of its testsuite's `system-out`. */
function reachText(operation: OperationReach): string {
  const lines = [`${operation.method} ${operation.path} ${operation.operationId}: ${operation.seen.length === 0 ? 'never called' : `seen ${statusCounts(operation.seen)}`} · ${checkCounts(operation.checks)}`];
  for (const gap of operation.gaps) lines.push(`  ${gap}`);
  for (const status of operation.unseen) lines.push(`  never seen ${status.status}${status.reason === undefined ? '' : `: ${status.reason}`}`);
  if (operation.undocumented.length > 0) lines.push(`  seen, not documented: ${statusCounts(operation.undocumented)}`);
  for (const check of operation.checks) for (const reason of check.reasons) lines.push(`  ${check.id} ${check.state === 'skipped' ? 'not run' : 'not fully tested'}: ${reason}`);
  for (const note of operation.notes) lines.push(`  ${note}`);
  return `${lines.join('\n')}\n`;
}
