import { describe, expect, test } from 'vitest';
import { loadModel } from '../model/loader.js';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * A list answer that carries its problems beside its records (`{errors: [...], locations: [...]}`,
 * spec/DECISIONS.md › D625): the records are `locations`, whatever order the members come in, so the record's
 * schema, its key and who chooses it are read from them. Our mock and the suite then agree on a create whose
 * envelope may carry the id: the suite's checks of the resource pass on the mock.
 */
const SPEC = `openapi: 3.0.3
info: { title: Shops, version: '1' }
paths:
  /v2/locations:
    get:
      operationId: listLocations
      responses:
        '200':
          description: All.
          content:
            application/json:
              schema:
                type: object
                properties:
                  errors: { type: array, items: { $ref: '#/components/schemas/Problem' } }
                  locations: { type: array, items: { $ref: '#/components/schemas/Location' } }
    post:
      operationId: createLocation
      requestBody: { required: true, content: { application/json: { schema: { type: object, properties: { location: { $ref: '#/components/schemas/Location' } } } } } }
      responses:
        '200': { description: Made., content: { application/json: { schema: { $ref: '#/components/schemas/LocationAnswer' } } } }
  /v2/locations/{location_id}:
    get:
      operationId: getLocation
      parameters: [{ name: location_id, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/LocationAnswer' } } } }
        '404': { description: None. }
    put:
      operationId: updateLocation
      parameters: [{ name: location_id, in: path, required: true, schema: { type: string } }]
      requestBody: { required: true, content: { application/json: { schema: { type: object, properties: { location: { $ref: '#/components/schemas/Location' } } } } } }
      responses:
        '200': { description: Changed., content: { application/json: { schema: { $ref: '#/components/schemas/LocationAnswer' } } } }
        '404': { description: None. }
components:
  schemas:
    Problem:
      type: object
      properties: { category: { type: string }, code: { type: string }, detail: { type: string } }
    LocationAnswer:
      type: object
      properties:
        errors: { type: array, items: { $ref: '#/components/schemas/Problem' } }
        location: { $ref: '#/components/schemas/Location' }
    Location:
      type: object
      properties:
        id: { type: string, maxLength: 32 }
        name: { type: string, maxLength: 20 }
        phone_number: { type: string, maxLength: 17 }
`;

const started = specMock('errors-array', SPEC, ['k']);

describe("a list answer's errors beside its records (D625)", () => {
  test('the records are the other array, and the envelope of the create may carry the id', async () => {
    const model = await loadModel(started.spec);
    const resource = model.resources.find((one) => one.name === 'locations')!;
    expect([resource.listShape, resource.idProperty, resource.idSource]).toEqual([expect.objectContaining({ itemsPath: ['locations'] }), 'id', 'either']);
  });

  test("the suite's checks of the resource pass on our mock", async () => {
    await expectChecksPass(started, (id) => !id.startsWith('auth.'), ['createLocation.echo', 'getLocation.found', 'updateLocation.persisted', 'updateLocation.invalid-body']);
  }, 90_000);
});
