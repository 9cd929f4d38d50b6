import { describe, expect, test } from 'vitest';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import { specMock } from './spec-mock.js';

/**
 * A request body documented as a JSON string (a conversion service that takes a JSON text in a string) is sent as a
 * string, never as an object of its characters (spec/DECISIONS.md › D553): the mock refuses the latter as its schema
 * does, and the suite's check of the operation passes on it.
 */
const SPEC = `openapi: 3.0.3
info: { title: Scalar bodies, version: '1' }
paths:
  /convert:
    post:
      operationId: convert
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: string, default: '{"foo":"bar"}' }
      responses:
        '200': { description: Converted. }
`;

const started = specMock('scalar-body', SPEC, []);

describe('a JSON string request body (D553)', () => {
  test("the suite's check of the operation passes on the mock", async () => {
    const target = { baseUrl: started.mock.baseUrl, apiKey: '', spec: started.spec, runs: 5 };
    const ids = (await listCheckIds(target)).filter((id) => id.startsWith('convert.'));
    expect(ids).toContain('convert.documented');
    for (const id of ids) {
      const outcome = await runCheck(id, target);
      expect(outcome.ok ? '' : outcome.report, id).toBe('');
      expect(outcome.ok && outcome.skipped, id).toBeFalsy();
    }
  }, 60_000);
});
