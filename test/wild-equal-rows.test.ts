import { describe, expect, test } from 'vitest';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import { rewritingProxy } from './rewriting-proxy.js';
import { specMock } from './spec-mock.js';

/**
 * A list the suite cannot fill whose records have no key and whose example holds two equal rows (statistics by
 * day, spec/DECISIONS.md › D624): the equal rows are two rows, on one page or on two, and the suite's page checks
 * pass on our mock, which serves the example. A server that ignores the offset still fails the pages check.
 */
const SPEC = `openapi: 3.0.3
info: { title: Stats, version: '1' }
paths:
  /stats:
    get:
      operationId: getStats
      parameters:
        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 500, default: 500 } }
        - { name: offset, in: query, schema: { type: integer, minimum: 0 } }
      responses:
        '200':
          description: Statistics by day.
          content:
            application/json:
              schema:
                type: array
                items:
                  type: object
                  properties:
                    date: { type: string }
                    clicks: { type: integer }
              example:
                - { date: '2025-10-15', clicks: 0 }
                - { date: '2025-10-15', clicks: 0 }
                - { date: '2025-10-16', clicks: 3 }
                - { date: '2025-10-17', clicks: 1 }
`;

const started = specMock('equal-rows', SPEC, ['k']);
const noOffset = rewritingProxy(() => started.mock.baseUrl, (url) => url.searchParams.delete('offset'));

describe('a served list holding equal rows (D624)', () => {
  test("the suite's page checks pass on our mock", async () => {
    const target = { baseUrl: started.mock.baseUrl, apiKey: 'k', spec: started.spec, runs: 5 };
    const ids = (await listCheckIds(target)).filter((id) => id.startsWith('getStats.'));
    expect(ids).toEqual(expect.arrayContaining(['getStats.pages', 'getStats.limit']));
    for (const id of ids) {
      const outcome = await runCheck(id, target);
      expect(outcome.ok ? '' : outcome.report, id).toBe('');
    }
  }, 60_000);

  test('a server that ignores the offset fails the pages check', async () => {
    const outcome = await runCheck('getStats.pages', { baseUrl: noOffset.baseUrl, apiKey: 'k', spec: started.spec, runs: 5 });
    expect(outcome.ok ? '' : outcome.report).toMatch(/getStats\.pages/);
  }, 60_000);
});
