import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderHtml, renderMarkdown, type RunReport } from '../../conformance/report/html.js';
import { coverage } from '../../conformance/report/operations.js';
import { readResults, type SummaryRecord } from '../../conformance/report/results.js';
import { SPEC_PATH } from '../../model/load.js';

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

  it('readResults keeps the last record of each check and survives a line cut short by a killed worker', () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-results-'));
    try {
      const file = join(dir, 'results.jsonl');
      const check = (state: string): string => JSON.stringify({ type: 'check', id: 'auth.listPets', rule: 'r', state, durationMs: 1, advice: [] });
      writeFileSync(file, `${check('skipped')}\n${check('passed')}\n${JSON.stringify(summary)}\n{"type":"check","id":"cut`);
      const results = readResults(file);
      expect(results.checks.map((record) => record.state)).toEqual(['passed']);
      expect(results.summary?.retries).toBe(3);
      expect(readResults(join(dir, 'absent.jsonl'))).toEqual({ checks: [], summary: undefined });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
