import { describe, expect, test } from 'vitest';
import { successStatuses } from '../conformance/checks/records.js';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import { loadModel } from '../model/loader.js';
import { specMock } from './spec-mock.js';

/**
 * An operation whose only documented answer is a redirect (an OAuth start answering `301` to the provider) succeeds
 * with that redirect (spec/DECISIONS.md › D554): the mock answers it, and the suite's check of the operation, which
 * calls it under a record made for it first, holds it to the 3xx, not to a 200 the description never lists.
 */
const SPEC = `openapi: 3.0.3
info: { title: Redirects, version: '1' }
paths:
  /providers:
    post:
      operationId: createProvider
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, required: [name], properties: { name: { type: string, minLength: 1, maxLength: 20 } } }
      responses:
        '201':
          description: Made.
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Provider' }
  /sessions/oauth2/{provider}:
    get:
      operationId: startSession
      parameters:
        - { name: provider, in: path, required: true, example: github, schema: { type: string } }
        - { name: success, in: query, schema: { type: string, format: uri } }
      responses:
        '301': { description: To the provider. }
components:
  schemas:
    Provider:
      type: object
      required: [name]
      properties:
        name: { type: string }
`;

const started = specMock('redirect-only', SPEC, []);

describe('an operation that documents only a redirect (D554)', () => {
  test('its success is the documented 3xx, not a 200 the description never lists', async () => {
    const model = await loadModel(started.spec);
    const op = model.operations.find((candidate) => candidate.operationId === 'startSession')!;
    expect(successStatuses(op)).toEqual([301]);
    const create = model.operations.find((candidate) => candidate.operationId === 'createProvider')!;
    expect(successStatuses(create)).toEqual([201]);
  });

  test("the suite's check of it passes on the mock", async () => {
    const target = { baseUrl: started.mock.baseUrl, apiKey: '', spec: started.spec, runs: 3 };
    const ids = (await listCheckIds(target)).filter((id) => id.startsWith('startSession.'));
    expect(ids).toContain('startSession.documented');
    for (const id of ids) {
      const outcome = await runCheck(id, target);
      expect(outcome.ok ? '' : outcome.report, id).toBe('');
    }
  }, 60_000);
});
