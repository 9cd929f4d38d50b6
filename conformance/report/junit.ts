import type { CheckRecord } from './results.js';

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/**
 * JUnit XML of checks run outside vitest (`--from-har`), in the shape CI systems read from an active run's
 * vitest junit reporter: one `testsuite` named `suite`, one `testcase` per check (`name` = `id: rule`), a
 * `failure` carrying the report, `skipped` with its reason.
 */
export function renderJunit(suite: string, checks: readonly CheckRecord[]): string {
  const failures = checks.filter((check) => check.state === 'failed').length;
  const skipped = checks.filter((check) => check.state === 'skipped').length;
  const seconds = (ms: number): string => (ms / 1000).toFixed(3);
  const total = checks.reduce((sum, check) => sum + check.durationMs, 0);
  const cases = checks.map((check) => {
    const head = `    <testcase classname="${escape(suite)}" name="${escape(`${check.id}: ${check.rule}`)}" time="${seconds(check.durationMs)}"`;
    if (check.state === 'failed') return `${head}>\n      <failure message="${escape((check.report ?? '').split('\n')[0] ?? '')}" type="Violation">${escape(check.report ?? '')}</failure>\n    </testcase>`;
    if (check.state === 'skipped') return `${head}>\n      <skipped message="${escape(check.skipped ?? '')}"/>\n    </testcase>`;
    return `${head}/>`;
  });
  return `<?xml version="1.0" encoding="UTF-8" ?>\n<testsuites name="petstore-conformance" tests="${checks.length}" failures="${failures}" errors="0" time="${seconds(total)}">\n  <testsuite name="${escape(suite)}" tests="${checks.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(total)}">\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}
