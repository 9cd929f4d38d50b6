import { describe, test } from 'vitest';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * A list whose page size may not go below 25 (spec/DECISIONS.md › D724): the suite's own short pages, which it asks
 * to find the ids a target holds (5 records) or to judge every answer (10), are asked within the documented bounds,
 * so a server refusing `page_size=5` with its documented 400, as our mock does, is not failed for it.
 */
const SPEC = `openapi: 3.0.3
info: { title: Transfers, version: '1' }
security: [{ bearer: [] }]
paths:
  /transfers:
    get:
      operationId: listTransfers
      parameters:
        - { name: page, in: query, schema: { type: integer, minimum: 1, default: 1 } }
        - { name: page_size, in: query, schema: { type: integer, minimum: 25, maximum: 500, default: 100 } }
      responses:
        '200': { description: A page., content: { application/json: { schema: { type: object, properties: { data: { type: array, items: { $ref: '#/components/schemas/Transfer' } }, page: { type: integer }, pages: { type: integer }, results: { type: integer } } } } } }
        '400': { description: Refused., content: { application/json: { schema: { $ref: '#/components/schemas/Errors' } } } }
        '401': { description: No key., content: { application/json: { schema: { $ref: '#/components/schemas/Errors' } } } }
    post:
      operationId: createTransfer
      requestBody: { required: true, content: { application/json: { schema: { type: object, required: [label], properties: { label: { type: string, maxLength: 40 } } } } } }
      responses:
        '200': { description: Made., content: { application/json: { schema: { $ref: '#/components/schemas/Transfer' } } } }
        '400': { description: Refused., content: { application/json: { schema: { $ref: '#/components/schemas/Errors' } } } }
        '401': { description: No key., content: { application/json: { schema: { $ref: '#/components/schemas/Errors' } } } }
  /transfers/{token}:
    get:
      operationId: getTransfer
      parameters: [{ name: token, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/Transfer' } } } }
        '401': { description: No key., content: { application/json: { schema: { $ref: '#/components/schemas/Errors' } } } }
        '404': { description: None., content: { application/json: { schema: { $ref: '#/components/schemas/Errors' } } } }
components:
  securitySchemes:
    bearer: { type: http, scheme: bearer }
  schemas:
    Transfer:
      type: object
      properties:
        token: { type: string, readOnly: true }
        label: { type: string, maxLength: 40 }
    Errors:
      type: object
      properties:
        errors: { type: array, items: { type: object, properties: { reason: { type: string } } } }
`;

const started = specMock('page-size-minimum', SPEC, ['k']);

describe('a page size whose minimum is above the pages the suite asks of its own choosing (D724)', () => {
  test("the suite's checks, those that find ids on a short page among them, pass on our mock", async () => {
    await expectChecksPass(started, () => true, ['auth.getTransfer', 'getTransfer.not-found', 'responses.conformance', 'listTransfers.limit']);
  }, 90_000);
});
