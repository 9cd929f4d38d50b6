import { describe, expect, test } from 'vitest';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import { specMock } from './spec-mock.js';

/**
 * A reference member the request may not send (`readOnly`) admits no value that names no record: the reference
 * check's draw has none to find. It ends not run, with advice, rather than drawing without end (which held a whole
 * run past its budget on a description from the wild).
 */
const SPEC = `
openapi: 3.0.3
info: { title: Owners and pets, version: '1' }
paths:
  /owners:
    get:
      operationId: listOwners
      responses:
        '200': { description: All., content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Owner' } } } } }
    post:
      operationId: createOwner
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Owner' } } } }
      responses:
        '201': { description: Made., content: { application/json: { schema: { $ref: '#/components/schemas/Owner' } } } }
  /owners/{owner_id}:
    get:
      operationId: getOwner
      parameters: [{ name: owner_id, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/Owner' } } } }
        '404': { description: None. }
  /pets:
    get:
      operationId: listPets
      responses:
        '200': { description: All., content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Pet' } } } } }
    post:
      operationId: createPet
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } } }
      responses:
        '201': { description: Made., content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } } }
        '404': { description: No such owner. }
  /pets/{pet_id}:
    get:
      operationId: getPet
      parameters: [{ name: pet_id, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } } }
        '404': { description: None. }
components:
  schemas:
    Owner:
      type: object
      properties:
        owner_id: { type: string, readOnly: true }
        name: { type: string }
    Pet:
      type: object
      properties:
        pet_id: { type: string, readOnly: true }
        owner_id: { type: string, readOnly: true }
        name: { type: string }
`;

const started = specMock('unsatisfiable-reference', SPEC, ['k']);

describe('a reference member no request may send', () => {
  test('the reference check ends not run, with advice, instead of drawing without end', async () => {
    const target = { baseUrl: started.mock.baseUrl, apiKey: 'k', spec: started.spec, runs: 5, seed: 1 };
    const ids = await listCheckIds(target);
    expect(ids).toContain('createPet.reference');
    const outcome = await runCheck('createPet.reference', target);
    expect(outcome.ok ? outcome.advice.join('\n') : outcome.report).toMatch(/no valid value of owner_id that names no record/);
  }, 20_000);
});
