import { describe, expect, test } from 'vitest';
import { loadModel } from '../model/loader.js';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * Wrapper lists whose records member is optional and may not be empty (`data: {minItems: 1}`, spec/DECISIONS.md ›
 * D827), of a resource and of a search no resource holds (whose examples the mock serves): an empty page leaves the member out, as `[]` would break
 * the answer's own schema, and the suite's checks of both lists pass on our mock.
 */
const SPEC = `openapi: 3.0.3
info: { title: Jobs, version: '1' }
paths:
  /jobs:
    get:
      operationId: listJobs
      parameters:
        - { name: state, in: query, schema: { type: string, enum: [queued, done] } }
        - { name: max_results, in: query, schema: { type: integer, minimum: 1, maximum: 50, default: 10 } }
      responses:
        '200': { description: A page., content: { application/json: { schema: { $ref: '#/components/schemas/JobPage' } } } }
    post:
      operationId: createJob
      requestBody: { required: true, content: { application/json: { schema: { type: object, required: [name], properties: { name: { type: string, minLength: 1, maxLength: 20 }, state: { type: string, enum: [queued, done] } } } } } }
      responses:
        '201': { description: Made., content: { application/json: { schema: { type: object, properties: { data: { $ref: '#/components/schemas/Job' } } } } } }
  /jobs/{id}:
    get:
      operationId: getJob
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { type: object, properties: { data: { $ref: '#/components/schemas/Job' } } } } } }
        '404': { description: None. }
  /hits:
    get:
      operationId: searchHits
      parameters:
        - { name: query, in: query, required: true, schema: { type: string } }
        - { name: kind, in: query, description: Only hits of this kind., schema: { type: string, enum: [page, file] } }
        - { name: max_results, in: query, schema: { type: integer, minimum: 1, maximum: 50, default: 10 } }
      responses:
        '200': { description: Found., content: { application/json: { schema: { type: object, properties: { data: { type: array, minItems: 1, items: { type: object, required: [title, kind], properties: { title: { type: string }, kind: { type: string, enum: [page] } } } } } } } } }
components:
  schemas:
    Job:
      type: object
      required: [id, name]
      properties:
        id: { type: string, readOnly: true }
        name: { type: string, minLength: 1, maxLength: 20 }
        state: { type: string, enum: [queued, done] }
    JobPage:
      type: object
      properties:
        data: { type: array, minItems: 1, items: { $ref: '#/components/schemas/Job' } }
        meta: { type: object, properties: { result_count: { type: integer } } }
`;

const started = specMock('empty-list-left-out', SPEC, ['k']);

describe('an optional records member that may not be empty (D827)', () => {
  test('an empty page of the resource and of the search leaves it out, within the schema', async () => {
    const model = await loadModel(started.spec);
    for (const [operationId, path] of [['listJobs', '/jobs?state=done'], ['searchHits', '/hits?query=none&kind=file']] as const) {
      const response = await fetch(`${started.mock.baseUrl}${path}`);
      expect(response.status, operationId).toBe(200);
      const body = (await response.json()) as Record<string, unknown>;
      expect(body['data'], operationId).toBeUndefined();
      const validate = model.operations.find((op) => op.operationId === operationId)!.responses.find((one) => one.status === '200')!.validate!;
      expect(validate(body), operationId).toBe(true);
    }
  });

  test("the suite's checks of both lists pass on our mock", async () => {
    await expectChecksPass(started, (id) => id.startsWith('listJobs.') || id.startsWith('searchHits.') || id === 'responses.conformance', ['listJobs.state-filter', 'searchHits.documented', 'responses.conformance']);
  }, 120_000);
});
