import { describe, test } from 'vitest';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * A replace at the collection's path that names the record in its body, where the body wraps the record in an
 * envelope (spec/DECISIONS.md › D927), in the shape of a JSON:API care platform: `PUT /patient` takes `{data: {id,
 * type, attributes}, meta}`. The suite names the record inside `data`, where a server reads it (our mock among them),
 * and its checks of the replace pass on our mock.
 */
const RESOURCE = {
  type: 'object',
  required: ['type', 'attributes'],
  properties: {
    id: { type: 'string' },
    type: { type: 'string', enum: ['patient'] },
    attributes: { type: 'object', properties: { first_name: { type: 'string', maxLength: 20 }, last_name: { type: 'string', maxLength: 20 } } },
  },
};
const SPEC = `openapi: 3.0.3
info: { title: Care, version: '1' }
paths:
  /patient:
    post:
      operationId: createPatient
      requestBody: { required: true, content: { application/vnd.api+json: { schema: { $ref: '#/components/schemas/PatientRequest' } } } }
      responses:
        '201': { description: Made., content: { application/vnd.api+json: { schema: { $ref: '#/components/schemas/PatientAnswer' } } } }
    put:
      operationId: upsertPatient
      requestBody: { required: true, content: { application/vnd.api+json: { schema: { $ref: '#/components/schemas/PatientRequest' } } } }
      responses:
        '200': { description: Kept., content: { application/vnd.api+json: { schema: { $ref: '#/components/schemas/PatientAnswer' } } } }
        '400': { description: Refused. }
  /patient/{id}:
    get:
      operationId: fetchPatient
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: One., content: { application/vnd.api+json: { schema: { $ref: '#/components/schemas/PatientAnswer' } } } }
        '404': { description: None. }
components:
  schemas:
    Patient: ${JSON.stringify(RESOURCE)}
    PatientRequest:
      type: object
      required: [data]
      properties:
        data: { $ref: '#/components/schemas/Patient' }
        meta: { type: object, properties: { source: { type: string, maxLength: 20 } } }
    PatientAnswer:
      type: object
      required: [data]
      properties:
        data: { $ref: '#/components/schemas/Patient' }
`;

const started = specMock('key-in-envelope', SPEC, ['k']);

describe('a replace naming the record inside its envelope (D927)', () => {
  test("the suite's checks of the replace pass on our mock", async () => {
    await expectChecksPass(started, (id) => id.startsWith('upsertPatient.') || id.startsWith('fetchPatient.'), ['upsertPatient.persisted', 'fetchPatient.found']);
  }, 120_000);
});
