import { describe, expect, test } from 'vitest';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import { rewritingProxy } from './rewriting-proxy.js';
import { specMock } from './spec-mock.js';

/**
 * A list whose page size is required and has no default (spec/DECISIONS.md › D622): every request names a size, so
 * the suite asks the largest page where it would have left the size out, holds the page to the size it sent, and
 * has no check of a default size. A server that answers one record whatever size is asked still fails.
 */
const SPEC = `openapi: 3.0.3
info: { title: Templates, version: '1' }
paths:
  /templates:
    get:
      operationId: listTemplates
      parameters:
        - { name: generations, in: query, schema: { type: string, enum: [legacy, dynamic], default: legacy } }
        - { name: page_size, in: query, required: true, schema: { type: number, minimum: 1, maximum: 200 } }
      responses:
        '200':
          description: A page.
          content:
            application/json:
              schema: { type: object, properties: { result: { type: array, items: { $ref: '#/components/schemas/Template' } } } }
    post:
      operationId: createTemplate
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Template' } } } }
      responses:
        '201': { description: Made., content: { application/json: { schema: { $ref: '#/components/schemas/Template' } } } }
  /templates/{template_id}:
    get:
      operationId: getTemplate
      parameters: [{ name: template_id, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: The template., content: { application/json: { schema: { $ref: '#/components/schemas/Template' } } } }
        '404': { description: None. }
components:
  schemas:
    Template:
      type: object
      required: [name, generation]
      properties:
        id: { type: string, readOnly: true }
        name: { type: string, maxLength: 20 }
        generation: { type: string, enum: [legacy, dynamic] }
`;

const started = specMock('required-size', SPEC, ['k']);
const oneRecord = rewritingProxy(() => started.mock.baseUrl, (url, method) => {
  if (method === 'GET' && url.pathname === '/templates') url.searchParams.set('page_size', '1');
});

describe('a required page size (D622)', () => {
  test("the suite's checks of the list pass on our mock, and none asks for the default size", async () => {
    const target = { baseUrl: started.mock.baseUrl, apiKey: 'k', spec: started.spec, runs: 3 };
    const ids = (await listCheckIds(target)).filter((id) => id.startsWith('listTemplates.') || id === 'stateful.model');
    expect(ids).toEqual(expect.arrayContaining(['listTemplates.generations-filter', 'listTemplates.limit', 'stateful.model']));
    for (const id of ids) {
      const outcome = await runCheck(id, target);
      expect(outcome.ok ? '' : outcome.report, id).toBe('');
    }
    expect(ids).not.toContain('listTemplates.default-limit');
  }, 90_000);

  test('a server that answers one record whatever size is asked fails the filter check', async () => {
    const outcome = await runCheck('listTemplates.generations-filter', { baseUrl: oneRecord.baseUrl, apiKey: 'k', spec: started.spec, runs: 3 });
    expect(outcome.ok ? '' : outcome.report).toMatch(/fewer than limit 200/);
  }, 60_000);
});
