import { describe, test } from 'vitest';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * A record with an object member whose own members are `writeOnly` (a device's `recipient.deviceId`), replaced and
 * updated with a body that sends one (spec/DECISIONS.md › D900): the store never holds nor answers it, so the record
 * a write makes is judged without it, and our mock answers the write instead of refusing it with a 400.
 */
const RECIPIENT = `{ type: object, properties: { deviceId: { type: string, writeOnly: true, maxLength: 20 }, transport: { type: string, enum: [apns, fcm] } } }`;
const SPEC = `openapi: 3.0.3
info: { title: Devices, version: '1' }
paths:
  /devices:
    get:
      operationId: listDevices
      responses:
        '200': { description: All., content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Device' } } } } }
    post:
      operationId: createDevice
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Device' } } } }
      responses:
        '201': { description: Made., content: { application/json: { schema: { $ref: '#/components/schemas/Device' } } } }
  /devices/{deviceId}:
    parameters: [{ name: deviceId, in: path, required: true, schema: { type: string } }]
    get:
      operationId: getDevice
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/Device' } } } }
        '404': { description: None. }
    put:
      operationId: replaceDevice
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Device' } } } }
      responses:
        '200': { description: Replaced., content: { application/json: { schema: { $ref: '#/components/schemas/Device' } } } }
        '404': { description: None. }
    patch:
      operationId: updateDevice
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Device' } } } }
      responses:
        '200': { description: Updated., content: { application/json: { schema: { $ref: '#/components/schemas/Device' } } } }
        '404': { description: None. }
components:
  schemas:
    Device:
      type: object
      properties:
        id: { type: string, readOnly: true }
        name: { type: string, maxLength: 20 }
        recipient: ${RECIPIENT}
`;

const started = specMock('nested-write-only', SPEC, ['k']);

describe('a writeOnly member inside an object, sent by a replace or an update (D900)', () => {
  test('the writes are answered, and their checks pass on our mock', async () => {
    await expectChecksPass(started, (id) => id === 'replaceDevice.persisted' || id === 'updateDevice.persisted' || id === 'responses.conformance', ['replaceDevice.persisted', 'updateDevice.persisted', 'responses.conformance']);
  }, 120_000);
});
