import { describe, expect, test } from 'vitest';
import { loadModel } from '../model/loader.js';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * An `enum` whose values its own `type` refuses (spec/DECISIONS.md › D628): `type: integer` with the codes written
 * as text, with labels (`"0 (Unknown)"`), or `type: string` with booleans. Such a schema admits no value, so every
 * answer our mock gave was refused by the suite; read as meant (each value in the type where it converts exactly,
 * else no enum), the mock answers within it and the suite's checks pass.
 */
const SPEC = `openapi: 3.0.3
info: { title: Machines, version: '1' }
paths:
  /machines:
    post:
      operationId: createMachine
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/NewMachine' } } } }
      responses:
        '201': { description: Made., content: { application/json: { schema: { $ref: '#/components/schemas/Machine' } } } }
        '400': { description: Refused., content: { application/json: { schema: { $ref: '#/components/schemas/MessageCode' } } } }
  /machines/{machineId}:
    get:
      operationId: getMachine
      parameters: [{ name: machineId, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/Machine' } } } }
        '404': { description: None., content: { application/json: { schema: { $ref: '#/components/schemas/MessageCode' } } } }
components:
  schemas:
    MessageCode: { type: integer, format: int32, enum: ['0 (Unknown)', '1 (ExceededQuota)', '2 (NameAlreadyExists)'] }
    NewMachine:
      type: object
      required: [name]
      properties:
        name: { type: string, maxLength: 20 }
        tier: { type: integer, enum: ['1', '2', '3'] }
        pinned: { type: string, enum: [true, false] }
    Machine:
      type: object
      required: [machineId, name, tier, pinned]
      properties:
        machineId: { type: integer, readOnly: true }
        name: { type: string, maxLength: 20 }
        tier: { type: integer, enum: ['1', '2', '3'] }
        pinned: { type: string, enum: [true, false] }
`;

const started = specMock('enum-of-another-type', SPEC, ['k']);

describe('an enum of another type than its schema (D628)', () => {
  test('is read in the type where each value converts, else left out', async () => {
    const model = await loadModel(started.spec);
    const resource = model.resources.find((one) => one.name === 'machines')!;
    expect([resource.properties['tier']!['enum'], resource.properties['pinned']!['enum']]).toEqual([[1, 2, 3], ['true', 'false']]);
    const refused = model.operations.find((op) => op.operationId === 'createMachine')!.responses.find((response) => response.status === '400')!;
    expect(refused.schema!['enum']).toBeUndefined();
    expect(refused.validate!(0)).toBe(true);
  });

  test("the suite's checks pass on our mock", async () => {
    await expectChecksPass(started, (id) => !id.startsWith('auth.'), ['createMachine.echo', 'createMachine.required-fields', 'createMachine.invalid-body', 'getMachine.found', 'getMachine.not-found']);
  }, 90_000);
});
