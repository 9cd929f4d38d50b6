import { describe, expect, test } from 'vitest';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import { specMock } from './spec-mock.js';

/**
 * An operation that lists no 2xx, only errors documented in `text/html` (a servlet answering 404 when disabled and
 * 405 when active), is asked with an `Accept` its documented answers fit (spec/DECISIONS.md › D558): sent with
 * `Accept: application/json`, our mock rightly answered 406, and the suite failed its own request.
 */
const SPEC = `openapi: 3.0.3
info: { title: Servlets, version: '1' }
paths:
  /service/script.html:
    get:
      operationId: getServlet
      responses:
        '404':
          description: The servlet is disabled.
          content: { text/html: { schema: { type: string } } }
        '405':
          description: The servlet is active.
          content: { text/html: { schema: { type: string } } }
`;

const started = specMock('errors-only-accept', SPEC, ['k']);

describe('an operation documenting only errors in text/html (D558)', () => {
  test("the suite's checks of it pass on the mock", async () => {
    const target = { baseUrl: started.mock.baseUrl, apiKey: 'k', spec: started.spec, runs: 3 };
    const ids = (await listCheckIds(target)).filter((id) => id.startsWith('getServlet.'));
    expect(ids).toContain('getServlet.documented');
    for (const id of ids) {
      const outcome = await runCheck(id, target);
      expect(outcome.ok ? '' : outcome.report, id).toBe('');
    }
  }, 60_000);
});
