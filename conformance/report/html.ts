import type { OperationCoverage } from './coverage.js';
import { checkCounts, isFullyReached, statusCounts, type CheckReach, type OperationReach, type RunReach } from './reach.js';
import type { CheckRecord, SummaryRecord } from './results.js';
import { COMMANDS } from '../../cli/product.js';

/** What a report is made of: the run's checks, its figures and the spec's operations with the statuses seen. */
export interface RunReport {
  baseUrl: string;
  /** ISO date of the end of the run. */
  finishedAt: string;
  checks: readonly CheckRecord[];
  summary: SummaryRecord | undefined;
  operations: readonly OperationCoverage[];
  unmatched: ReadonlyMap<string, ReadonlyMap<number, number>>;
  /** What the run reached per operation (conformance/report/reach.ts); when given, the operations table shows it. */
  reach?: RunReach;
}

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1d1d1f;background:#fff}
h1{font-size:1.5rem;margin-bottom:.25rem}h2{margin-top:2rem;font-size:1.15rem;border-bottom:1px solid #ddd;padding-bottom:.25rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{border:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f4f4f6}code,pre{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}
pre{background:#f6f8fa;border:1px solid #e1e4e8;padding:.6rem;overflow:auto;white-space:pre-wrap;word-break:break-all}
.passed{color:#137333}.failed{color:#b3261e;font-weight:600}.skipped{color:#7a6300}
.badge{display:inline-block;border-radius:.6rem;padding:0 .5rem;font-size:12px;margin:0 .15rem .15rem 0;background:#eef}
.badge.undocumented{background:#fde2e1}.badge.unseen{background:#eee;color:#777}
.verdict{font-size:1.1rem;padding:.5rem .75rem;border-radius:.3rem;display:inline-block}
.verdict.ok{background:#e6f4ea}.verdict.ko{background:#fce8e6}.muted{color:#666}
.limited{color:#7a6300}tr.tag th{background:#e8eaf6}ul.reasons{margin:0;padding-left:1.1rem}
`;

/**
 * One self-contained HTML page of a run (inline CSS, no script, no external asset): the verdict and figures,
 * per operation the statuses the spec documents and those seen, every check with its state, and each failure
 * with its rule, request, response, curl line and replay command (the failure report), in full.
 */
export function renderHtml(report: RunReport): string {
  const failed = report.checks.filter((check) => check.state === 'failed');
  const passed = report.checks.filter((check) => check.state === 'passed');
  const skipped = report.checks.filter((check) => check.state === 'skipped');
  const errors = report.checks.filter((check) => check.error !== undefined);
  const summary = report.summary;
  const limited = report.reach === undefined ? 0 : [...report.reach.operations.flatMap((operation) => operation.checks), ...report.reach.apiWide].filter((check) => check.state === 'limited').length;
  const lag = summary?.consistency;
  const figures = summary === undefined
    ? '<p class="muted">No figures: the run ended before its summary.</p>'
    : `<p>${summary.requests} requests in ${(summary.elapsedMs / 1000).toFixed(1)} s; ${summary.retries} retries after 429/503, ${(summary.waitedMs / 1000).toFixed(1)} s waiting` +
      (lag !== undefined && lag.settled > 0 ? `; read-after-write lag p50 ${lag.p50Ms} ms, p95 ${lag.p95Ms} ms, max ${lag.maxMs} ms (${lag.settled} reads, ${lag.invisible} never visible)` : '') +
      '.</p>';

  const operationRows = report.operations.map((operation) => {
    const documented = operation.documented.map((status) => {
      const count = operation.seen.get(Number(status));
      return `<span class="badge${count === undefined ? ' unseen' : ''}" title="${count === undefined ? 'documented, not seen' : `documented, seen ${count} times`}">${escape(status)}${count === undefined ? '' : ` ×${count}`}</span>`;
    });
    const undocumented = [...operation.seen]
      .filter(([status]) => !operation.documented.includes(String(status)))
      .map(([status, count]) => `<span class="badge undocumented" title="not documented">${status} ×${count}</span>`);
    return `<tr><td><code>${escape(operation.operationId)}</code>${operation.deprecated ? ' <span class="muted">(deprecated)</span>' : ''}</td><td><code>${escape(operation.method)} ${escape(operation.path)}</code></td><td>${documented.join('')}</td><td>${undocumented.join('') || '<span class="muted">none</span>'}</td></tr>`;
  });
  const unmatchedRows = [...report.unmatched].map(
    ([key, counts]) => `<tr><td colspan="2"><code>${escape(key)}</code></td><td class="muted">no operation</td><td>${[...counts].map(([status, count]) => `<span class="badge">${status} ×${count}</span>`).join('')}</td></tr>`,
  );

  const checkRows = report.checks.map(
    (check) =>
      `<tr id="check-${escape(check.id)}"><td><code>${escape(check.id)}</code></td><td class="${check.error === undefined ? check.state : 'failed'}">${check.error === undefined ? check.state : 'error of the suite'}${check.state === 'failed' ? ` (<a href="#failure-${escape(check.id)}">report</a>)` : ''}</td><td>${(check.durationMs / 1000).toFixed(1)} s</td><td>${escape(check.rule)}${check.skipped === undefined ? '' : `<br><span class="skipped">skipped: ${escape(check.skipped)}</span>`}${check.error?.stack === undefined ? '' : `<details><summary>stack</summary><pre>${escape(check.error.stack)}</pre></details>`}${check.advice.map((note) => `<br><span class="muted">advice: ${escape(note)}</span>`).join('')}</td></tr>`,
  );
  const failures = failed.map((check) => `<section id="failure-${escape(check.id)}"><h3 class="failed">✗ ${escape(check.id)}</h3><pre>${escape(check.report ?? '')}</pre></section>`);

  const verdict = summary?.refused !== undefined
    ? `<span class="verdict ko">No verdict: ${escape(summary.refused)}</span>`
    : failed.length === 0 && errors.length > 0
      ? `<span class="verdict ko">No verdict: ${errors.length} of ${report.checks.length} checks not run for an error of the suite</span>`
    : failed.length === 0
      ? `<span class="verdict ok">Conforms: ${passed.length} checks passed${limited === 0 ? '' : ` (${limited} not fully tested)`}${skipped.length === 0 ? '' : `, ${skipped.length} skipped`}</span>`
      : `<span class="verdict ko">Does not conform: ${failed.length} of ${report.checks.length} checks failed</span>`;

  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Conformance of ${escape(report.baseUrl)}</title><style>${CSS}</style></head>
<body>
<h1>Conformance of <code>${escape(report.baseUrl)}</code></h1>
<p class="muted">${escape(COMMANDS.test)}, ${escape(report.finishedAt)}</p>
${verdict}
${figures}
<h2>Operations</h2>
${report.reach === undefined ? `<table id="operations"><thead><tr><th>Operation</th><th>Request</th><th>Documented statuses (seen ×count)</th><th>Seen, not documented</th></tr></thead>
<tbody>${[...operationRows, ...unmatchedRows].join('\n')}</tbody></table>` : reachTable(report.reach)}
<h2>Checks</h2>
<table id="checks"><thead><tr><th>Check</th><th>Result</th><th>Time</th><th>Rule</th></tr></thead>
<tbody>${checkRows.join('\n')}</tbody></table>
<h2>Failures</h2>
${failures.length === 0 ? '<p class="passed">None.</p>' : failures.join('\n')}
</body></html>
`;
}

/**
 * The per-operation reach as one table (grouped by first tag when the spec has several): the statuses seen (the
 * documented ones with their counts, the undocumented in red), the documented statuses never seen with the reason
 * the run can give (grey when a correct server is not expected to send them), the operation's gaps, and each of its
 * checks with its state and reason; then the API-wide checks and the requests that matched no operation.
 */
function reachTable(reach: RunReach): string {
  const full = reach.operations.filter(isFullyReached).length;
  const tags = new Set(reach.operations.map((operation) => operation.tag));
  const rows: string[] = [];
  for (const tag of tags) {
    const operations = reach.operations.filter((operation) => operation.tag === tag);
    if (tags.size > 1) rows.push(`<tr class="tag"><th colspan="5">${escape(tag ?? '(no tag)')}: ${operations.filter(isFullyReached).length} of ${operations.length} reached in full</th></tr>`);
    rows.push(...operations.map(reachRow));
  }
  if (reach.apiWide.length > 0) rows.push(`<tr class="tag"><th colspan="5">API-wide checks: ${escape(checkCounts(reach.apiWide))}</th></tr><tr><td colspan="4" class="muted">checks of every operation together</td><td>${checkList(reach.apiWide)}</td></tr>`);
  for (const [key, counts] of reach.unmatched) rows.push(`<tr><td colspan="2"><code>${escape(key)}</code></td><td>${counts.map(([status, count]) => `<span class="badge undocumented">${status} ×${count}</span>`).join('')}</td><td colspan="2" class="muted">matches no operation of the spec</td></tr>`);
  return `<p>${full} of ${reach.operations.length} operations reached in full: every check passed, every documented status seen (but those a correct server does not send to the suite).</p>
<table id="operations"><thead><tr><th>Operation</th><th>Request</th><th>Statuses seen (×count)</th><th>Documented, never seen</th><th>Checks</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>`;
}

function reachRow(operation: OperationReach): string {
  const seen = operation.seen.map(([status, count]) => {
    const undocumented = operation.undocumented.some(([other]) => other === status);
    return `<span class="badge${undocumented ? ' undocumented' : ''}" title="${undocumented ? 'not documented' : 'documented'}">${status} ×${count}</span>`;
  });
  const gaps = operation.gaps.map((gap) => `<br><span class="skipped">${escape(gap)}</span>`).join('');
  const unseen = operation.unseen.map(
    (status) => `<li${status.expected ? ' class="muted"' : ''}><span class="badge unseen">${escape(status.status)}</span>${status.reason === undefined ? '' : ` ${escape(status.reason)}`}</li>`,
  );
  const notes = operation.notes.map((note) => `<br><span class="muted">${escape(note)}</span>`).join('');
  return `<tr id="operation-${escape(operation.operationId)}"><td><code>${escape(operation.operationId)}</code>${operation.deprecated ? ' <span class="muted">(deprecated)</span>' : ''}</td><td><code>${escape(operation.method)} ${escape(operation.path)}</code></td><td>${seen.join('') || '<span class="skipped">never called</span>'}${gaps}</td><td>${unseen.length === 0 ? '<span class="muted">none</span>' : `<ul class="reasons">${unseen.join('')}</ul>`}</td><td>${checkList(operation.checks)}${notes}</td></tr>`;
}

function checkList(checks: readonly CheckReach[]): string {
  if (checks.length === 0) return '<span class="muted">no check of its own</span>';
  const label = { passed: 'passed', failed: 'failed', skipped: 'not run', limited: 'not fully tested' } as const;
  const items = checks.map((check) => `<li><a href="#check-${escape(check.id)}"><code>${escape(check.id)}</code></a> <span class="${check.state}">${label[check.state]}</span>${check.reasons.map((reason) => `<br><span class="muted">${escape(reason)}</span>`).join('')}</li>`);
  return `<ul class="reasons">${items.join('')}</ul>`;
}

/**
 * A short markdown summary of a run (for `GITHUB_STEP_SUMMARY`): the verdict, the figures, a table of checks, and
 * with a reach the operations not reached in full (statuses seen, checks, what was not reached).
 */
export function renderMarkdown(report: RunReport): string {
  const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
  const failed = report.checks.filter((check) => check.state === 'failed').length;
  const errors = report.checks.filter((check) => check.error !== undefined).length;
  const summary = report.summary;
  const icon = { passed: '✅ passed', failed: '❌ failed', skipped: '⏭️ skipped' } as const;
  const lines = [
    `### Conformance of \`${report.baseUrl}\``,
    '',
    summary?.refused !== undefined ? `**No verdict**: ${summary.refused}` : failed === 0 && errors > 0 ? `**No verdict**: ${errors} of ${report.checks.length} checks not run for an error of the suite` : failed === 0 ? `**Conforms**: ${report.checks.length} checks` : `**Does not conform**: ${failed} of ${report.checks.length} checks failed`,
    '',
  ];
  if (summary !== undefined) {
    const lag = summary.consistency;
    lines.push(
      `${summary.requests} requests in ${(summary.elapsedMs / 1000).toFixed(1)} s, ${summary.retries} retries, ${(summary.waitedMs / 1000).toFixed(1)} s waiting` +
        (lag.settled > 0 ? `, read-after-write lag p50 ${lag.p50Ms} ms / p95 ${lag.p95Ms} ms / max ${lag.maxMs} ms` : ''),
      '',
    );
  }
  lines.push('| Check | Result | Time | Note |', '|---|---|---|---|');
  for (const check of report.checks) {
    const note = check.state === 'failed' ? (check.report?.split('\n').find((line) => line.trim().startsWith('problem:'))?.trim() ?? '') : (check.skipped ?? '');
    lines.push(`| \`${check.id}\` | ${check.error === undefined ? icon[check.state] : '⚠️ error of the suite'} | ${(check.durationMs / 1000).toFixed(1)} s | ${cell(note)} |`);
  }
  const partial = report.reach?.operations.filter((operation) => !isFullyReached(operation)) ?? [];
  if (report.reach !== undefined) {
    lines.push('', `**Reach**: ${report.reach.operations.length - partial.length} of ${report.reach.operations.length} operations reached in full (every check passed, every documented status seen)`);
  }
  if (partial.length > 0) {
    lines.push('', '| Operation | Seen | Checks | Not reached |', '|---|---|---|---|');
    for (const operation of partial) {
      const unseen = operation.unseen.filter((status) => !status.expected).map((status) => status.status);
      const missing = [...operation.gaps, ...(unseen.length === 0 ? [] : [`never seen: ${unseen.join(', ')}`])].join('; ');
      lines.push(`| \`${operation.method} ${operation.path}\` ${cell(operation.operationId)} | ${operation.seen.length === 0 ? 'never called' : statusCounts(operation.seen)} | ${checkCounts(operation.checks)} | ${cell(missing)} |`);
    }
  }
  return `${lines.join('\n')}\n\n`;
}
