import { describe, expect, test } from 'vitest';
import { loadModel } from '../model/loader.js';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * A schema that requires a member its own `additionalProperties: false` forbids (spec/DECISIONS.md › D823): no
 * object satisfies it, so every answer our mock gave was refused by the suite. Read as meant (that name not required,
 * the others still), the mock answers within it and the suite's checks pass.
 */
const SPEC = `openapi: 3.0.3
info: { title: Lockers, version: '1' }
paths:
  /lockers:
    post:
      operationId: createLocker
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/NewLocker' } } } }
      responses:
        '201': { description: Made., content: { application/json: { schema: { $ref: '#/components/schemas/Locker' } } } }
        '400': { description: Refused. }
  /lockers/{lockerId}:
    get:
      operationId: getLocker
      parameters: [{ name: lockerId, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/Locker' } } } }
        '404': { description: None. }
components:
  schemas:
    NewLocker:
      type: object
      additionalProperties: false
      required: [label]
      properties:
        label: { type: string, minLength: 1, maxLength: 20 }
    Locker:
      type: object
      additionalProperties: false
      required: [lockerId, label, lockStatus]
      properties:
        lockerId: { type: integer, readOnly: true }
        label: { type: string, minLength: 1, maxLength: 20 }
        open: { type: boolean, readOnly: true }
`;

const started = specMock('required-not-allowed', SPEC, ['k']);

describe('a required member its own schema forbids (D823)', () => {
  test('is read as not required; the members the schema names stay required', async () => {
    const model = await loadModel(started.spec);
    const created = model.operations.find((op) => op.operationId === 'createLocker')!.responses.find((response) => response.status === '201')!;
    expect(created.validate!({ lockerId: 1, label: 'a' })).toBe(true);
    expect(created.validate!({ lockerId: 1 })).toBe(false);
    expect(created.validate!({ lockerId: 1, label: 'a', lockStatus: 'x' })).toBe(false);
  });

  test("the suite's checks pass on our mock", async () => {
    await expectChecksPass(started, () => true, ['createLocker.echo', 'getLocker.found', 'getLocker.not-found', 'responses.conformance']);
  }, 90_000);
});
