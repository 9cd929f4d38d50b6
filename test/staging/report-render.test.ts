import { describe, expect, it } from 'vitest';
import { renderHtml, renderMarkdown, type RunReport } from '../../conformance/report/html.js';
import { coverage } from '../../conformance/report/coverage.js';
import { colours } from '../../conformance/report/colours.js';
import { checkLines, closingLines } from '../../conformance/report/text.js';
import type { SummaryRecord } from '../../conformance/report/results.js';
import { SPEC_PATH } from '../../model/loader.js';

/** The report renderers and the results channel, without a run: skipped checks, no verdict, odd input. */

const summary: SummaryRecord = {
  type: 'summary',
  baseUrl: 'https://gw.example/api/v1',
  requests: 12,
  retries: 3,
  waitedMs: 2000,
  elapsedMs: 5000,
  statuses: [],
  consistency: { settled: 4, p50Ms: 120, p95Ms: 300, maxMs: 310, invisible: 1 },
  refused: 'the target kept refusing (429 to GET https://gw.example/api/v1/pets: 8 tries and 23.8 s of waiting, the most the suite makes): no verdict',
};

describe('report rendering', () => {
  it('files statuses under the spec operation whose template matches, and keeps unknown routes apart', async () => {
    const { operations, unmatched } = await coverage(SPEC_PATH, [
      ['GET /pets', [[200, 5], [401, 2]]],
      ['GET /pets/42', [[404, 1], [500, 1]]],
      ['GET /pets/7', [[200, 3]]],
      ['DELETE /pets/7', [[405, 1]]],
    ]);
    const getPet = operations.find((operation) => operation.operationId === 'getPet')!;
    expect([...getPet.seen].sort()).toEqual([[200, 3], [404, 1], [500, 1]]);
    expect(operations.find((operation) => operation.operationId === 'listPets')!.seen.get(200)).toBe(5);
    expect([...unmatched.keys()]).toEqual(['DELETE /pets/7']);
    const html = renderHtml({ baseUrl: 'http://x/v1', finishedAt: 'now', checks: [], summary: undefined, operations, unmatched });
    expect(html).toContain('<span class="badge undocumented" title="not documented">500 ×1</span>');
    expect(html).toContain('<code>DELETE /pets/7</code>');
  });

  it('a run without a verdict says so, with its figures, skipped checks and their reasons, everything escaped', () => {
    const report: RunReport = {
      baseUrl: 'https://gw.example/api/v1',
      finishedAt: '2026-11-23T12:00:00Z',
      summary,
      operations: [],
      unmatched: new Map(),
      checks: [
        { type: 'check', id: 'createPet.echo', rule: 'echo <b>', state: 'skipped', durationMs: 0, advice: [], skipped: 'read-only: this check must write' },
        { type: 'check', id: 'auth.listPets', rule: 'auth', state: 'passed', durationMs: 1200, advice: ['a note | with a pipe'] },
      ],
    };
    const html = renderHtml(report);
    expect(html).toContain('No verdict: the target kept refusing');
    expect(html).toContain('12 requests in 5.0 s; 3 retries after 429/503, 2.0 s waiting; read-after-write lag p50 120 ms, p95 300 ms, max 310 ms (4 reads, 1 never visible)');
    expect(html).toContain('skipped: read-only: this check must write');
    expect(html).toContain('echo &lt;b&gt;');
    expect(html).not.toContain('echo <b>');
    const markdown = renderMarkdown(report);
    expect(markdown).toContain('**No verdict**: the target kept refusing');
    expect(markdown).toContain('| `createPet.echo` | ⏭️ skipped | 0.0 s | read-only: this check must write |');
    expect(markdown).toContain('read-after-write lag p50 120 ms / p95 300 ms / max 310 ms');
  });

  it('the console report: a line per check as it ends, the failure report as the suite wrote it, and the closing counts', () => {
    const plain = colours({ isTTY: false }, {});
    const passed = { type: 'check' as const, id: 'auth.listPets', rule: 'Authentication', state: 'passed' as const, durationMs: 12, advice: ['the spec documents no 400'] };
    const skipped = { type: 'check' as const, id: 'createPet.echo', rule: 'r', state: 'skipped' as const, durationMs: 0, advice: [], skipped: 'read-only: this check must write' };
    const failed = { type: 'check' as const, id: 'getPet.found', rule: 'r', state: 'failed' as const, durationMs: 3, advice: [], report: '✗ getPet.found\n  rule:      r' };
    expect(checkLines(passed, plain)).toBe('✓ auth.listPets: Authentication (12 ms)\n  advice: the spec documents no 400\n');
    expect(checkLines(skipped, plain)).toBe('↓ createPet.echo: skipped (read-only: this check must write)\n');
    expect(checkLines(failed, plain)).toBe('✗ getPet.found\n  rule:      r\n');
    expect(closingLines([passed, skipped, failed], summary)).toMatch(/^\nconformance: 12 requests in 5\.0 s .*\n1 passed, 1 failed, 1 skipped\n$/);
  });
});
