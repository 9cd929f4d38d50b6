import { describe, expect, test } from 'vitest';
import { loadModel } from '../model/loader.js';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * Objects closed with `additionalProperties: false` and extended with `allOf` (spec/DECISIONS.md › D920, D921), and a
 * page count that starts at 1 (D922), in the shapes of a shipping API's lists: each, read as written, admits no answer
 * at all, so the suite failed our mock on every list. Read as their authors meant, the mock's pages are valid against
 * the model's own schemas, a member no part declares is still refused, and the suite's checks of the lists pass.
 */
const PAGED = { type: 'object', required: ['total', 'page', 'pages'], properties: { total: { type: 'integer', minimum: 0 }, page: { type: 'integer', minimum: 1 }, pages: { type: 'integer', minimum: 1 } } };
const LABEL = { type: 'object', additionalProperties: false, required: ['label_id', 'name'], properties: { label_id: { type: 'string', readOnly: true }, name: { type: 'string', minLength: 1, maxLength: 20 } } };
const SPEC = `openapi: 3.0.3
info: { title: Labels, version: '1' }
paths:
  /labels:
    get:
      operationId: listLabels
      parameters:
        - { name: page, in: query, schema: { type: integer, minimum: 1, default: 1 } }
        - { name: page_size, in: query, schema: { type: integer, minimum: 1, default: 25 } }
      responses:
        '200': { description: A page., content: { application/json: { schema: { $ref: '#/components/schemas/LabelPage' } } } }
    post:
      operationId: createLabel
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Label' } } } }
      responses:
        '200': { description: Made., content: { application/json: { schema: { $ref: '#/components/schemas/Label' } } } }
        '400': { description: Refused. }
  /labels/{label_id}:
    get:
      operationId: getLabel
      parameters: [{ name: label_id, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/Label' } } } }
        '404': { description: None. }
  /carriers:
    get:
      operationId: listCarriers
      responses:
        '200': { description: All., content: { application/json: { schema: { $ref: '#/components/schemas/CarrierAnswer' } } } }
components:
  schemas:
    Label: ${JSON.stringify(LABEL)}
    Paged: ${JSON.stringify(PAGED)}
    LabelPage:
      type: object
      additionalProperties: false
      allOf: [{ $ref: '#/components/schemas/Paged' }]
      required: [labels]
      properties:
        labels: { type: array, items: { $ref: '#/components/schemas/Label' } }
    CarrierList:
      type: object
      additionalProperties: false
      required: [carriers]
      properties:
        carriers: { type: array, items: { type: object, properties: { carrier_id: { type: string } } } }
    Answered:
      type: object
      additionalProperties: false
      required: [request_id]
      properties:
        request_id: { type: string, format: uuid }
    CarrierAnswer:
      allOf: [{ $ref: '#/components/schemas/CarrierList' }, { $ref: '#/components/schemas/Answered' }]
`;

const started = specMock('closed-parts', SPEC, ['k']);

describe('objects closed beside allOf parts, and a page count from 1 (D920-D922)', () => {
  test("the mock's pages, empty and not, are valid against the model's schemas; a member no part declares is refused", async () => {
    const model = await loadModel(started.spec);
    const validate = (operationId: string): ((value: unknown) => boolean) => model.operations.find((op) => op.operationId === operationId)!.responses.find((one) => one.status === '200')!.validate!;
    const empty = (await (await fetch(`${started.mock.baseUrl}/labels`)).json()) as Record<string, unknown>;
    expect(empty).toMatchObject({ labels: [], total: 0, page: 1, pages: 1 });
    expect(validate('listLabels')(empty), JSON.stringify(empty)).toBe(true);
    const made = await fetch(`${started.mock.baseUrl}/labels`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'first' }) });
    expect(made.status).toBe(200);
    const page = (await (await fetch(`${started.mock.baseUrl}/labels`)).json()) as Record<string, unknown>;
    expect(page).toMatchObject({ total: 1, page: 1, pages: 1 });
    expect(validate('listLabels')(page), JSON.stringify(page)).toBe(true);
    expect(validate('listLabels')({ ...page, other: 1 })).toBe(false);
    const carriers = (await (await fetch(`${started.mock.baseUrl}/carriers`)).json()) as Record<string, unknown>;
    expect(validate('listCarriers')(carriers), JSON.stringify(carriers)).toBe(true);
    expect(validate('listCarriers')({ ...carriers, other: 1 })).toBe(false);
  });

  test("the suite's checks of both lists pass on our mock", async () => {
    await expectChecksPass(started, (id) => id.startsWith('listLabels.') || id.startsWith('listCarriers.') || id.startsWith('createLabel.') || id === 'responses.conformance', ['listLabels.pages', 'createLabel.echo', 'listCarriers.documented', 'responses.conformance']);
  }, 120_000);
});
