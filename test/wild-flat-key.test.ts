import { describe, expect, test } from 'vitest';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import { loadModel } from '../model/loader.js';
import { specMock } from './spec-mock.js';

/**
 * A path parameter names its record's id member compared without `_` and `-` (spec/DECISIONS.md › D559):
 * `{taxClassId}` names `class_id`, which the create's enveloped body may carry. Read otherwise, the record's body
 * was not read out of its envelope, the id was taken as one only the server makes, and our mock replaced the id a
 * client sent by its own, which the suite rightly failed.
 */
const SPEC = `openapi: 3.0.3
info: { title: Tax classes, version: '1' }
paths:
  /V1/taxClasses:
    post:
      operationId: saveTaxClass
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, required: [taxClass], properties: { taxClass: { $ref: '#/components/schemas/TaxClass' } } }
      responses:
        '200': { description: The new id., content: { application/json: { schema: { type: string } } } }
  /V1/taxClasses/{taxClassId}:
    get:
      operationId: getTaxClass
      parameters: [{ name: taxClassId, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: The class., content: { application/json: { schema: { $ref: '#/components/schemas/TaxClass' } } } }
        '404': { description: None. }
components:
  schemas:
    TaxClass:
      type: object
      required: [class_name, class_type]
      properties:
        class_id: { type: integer, description: Tax class ID. }
        class_name: { type: string, maxLength: 20 }
        class_type: { type: string, maxLength: 20 }
`;

const started = specMock('flat-key', SPEC, ['k']);

describe('a path parameter names its id member without `_` (D559)', () => {
  test('tax classes are keyed by class_id, which a create may send', async () => {
    const model = await loadModel(started.spec);
    const resource = model.resources.find((one) => one.name === 'taxClasses');
    expect({ id: resource?.idProperty, source: resource?.idSource }).toEqual({ id: 'class_id', source: 'either' });
  });

  test("the suite's checks of the create and read pass on the mock", async () => {
    const target = { baseUrl: started.mock.baseUrl, apiKey: 'k', spec: started.spec, runs: 3 };
    const ids = (await listCheckIds(target)).filter((id) => id.startsWith('saveTaxClass.') || id.startsWith('getTaxClass.'));
    expect(ids).toEqual(expect.arrayContaining(['saveTaxClass.echo', 'getTaxClass.found']));
    for (const id of ids) {
      const outcome = await runCheck(id, target);
      expect(outcome.ok ? '' : outcome.report, id).toBe('');
    }
  }, 60_000);
});
