import { describe, expect, test } from 'vitest';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import { specMock } from './spec-mock.js';

/**
 * An API key scheme whose header name holds spaces (`name: Example API Key`), which no HTTP request can carry
 * (spec/DECISIONS.md › D905): the checks that must send it are not run, each with the reason, rather than failed as
 * a target that could not be reached.
 */
const SPEC = `openapi: 3.0.3
info: { title: Templates, version: '1' }
security: [{ spaced: [] }]
paths:
  /templates/{token}/compile:
    post:
      operationId: compile
      parameters: [{ name: token, in: path, required: true, schema: { type: string } }]
      requestBody: { required: true, content: { application/json: { schema: { type: object, properties: { text: { type: string, maxLength: 20 } } } } } }
      responses:
        '200': { description: Compiled., content: { application/json: { schema: { type: object, properties: { url: { type: string } } } } } }
        '401': { description: Refused. }
components:
  securitySchemes:
    spaced: { type: apiKey, in: header, name: Example API Key }
`;

const started = specMock('unsendable-header', SPEC, ['k']);

describe('a credential header no request can carry (D905)', () => {
  test('the checks that must send it are not run, with the reason', async () => {
    const target = { baseUrl: started.mock.baseUrl, apiKey: 'k', spec: started.spec, runs: 3 };
    const ids = await listCheckIds(target);
    expect(ids).toEqual(expect.arrayContaining(['auth.compile', 'compile.documented']));
    for (const id of ['auth.compile', 'compile.documented']) {
      const outcome = await runCheck(id, target);
      expect(outcome.ok ? (outcome.skipped ?? '') : outcome.report, id).toContain('no HTTP field name');
      // Not run for the description's own reason: no error of the suite.
      expect(outcome.ok ? outcome.error : 'failed', id).toBeUndefined();
    }
  }, 60_000);
});
