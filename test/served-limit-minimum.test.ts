import { describe, expect, test } from 'vitest';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import { specMock } from './spec-mock.js';

/**
 * A list the suite cannot fill (no create), served from its example's one record, whose page size has a minimum
 * above that count (`size`, 10..10000, as a search API writes it): the suite asks it only with sizes the
 * description allows (D110, D170), and the project's mock, which refuses a size below the minimum with 400, passes.
 */
const SPEC = `openapi: 3.0.3
info: { title: Served search, version: '1' }
paths:
  /search:
    get:
      operationId: search
      parameters:
        - { name: q, in: query, schema: { type: string } }
        - { name: size, in: query, schema: { type: integer, minimum: 10, maximum: 10000, default: 1000 } }
      responses:
        '200':
          description: the hits
          content:
            application/json:
              schema:
                type: object
                properties:
                  items: { type: array, items: { type: object, required: [identifier], properties: { identifier: { type: string } } } }
                  count: { type: integer }
              example: { items: [{ identifier: first-item }], count: 1 }
        default:
          description: an error
          content:
            application/json:
              schema: { type: object, properties: { message: { type: string } } }
`;

const started = specMock('served-limit-minimum', SPEC, ['served-limit-key']);

describe('the page size of a served list with a minimum above its records', () => {
  test('the mock refuses a size below the minimum, and the limit check passes asking none', async () => {
    expect((await fetch(`${started.mock.baseUrl}/search?size=2`)).status).toBe(400);
    const target = { baseUrl: started.mock.baseUrl, apiKey: 'served-limit-key', spec: started.spec, runs: 5, seed: 1 };
    expect(await listCheckIds(target)).toContain('search.limit');
    const outcome = await runCheck('search.limit', target);
    expect(outcome.ok ? undefined : outcome.report).toBeUndefined();
    expect(outcome.ok && outcome.skipped).toBeFalsy();
  });
});
