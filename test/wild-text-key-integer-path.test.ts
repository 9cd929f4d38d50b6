import { describe, test } from 'vitest';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * A record whose key is a text member the client chooses (`uuid`, no format), read at an item path that types its
 * parameter as an integer (spec/DECISIONS.md › D902): the suite chooses keys written in digits, which both the body
 * and the path take, so that the record it made can be read back; our mock then passes.
 */
const SPEC = `openapi: 3.0.3
info: { title: Avatars, version: '1' }
paths:
  /avatars:
    post:
      operationId: createAvatar
      requestBody: { required: true, content: { application/json: { schema: { type: object, required: [uuid], properties: { uuid: { type: string }, anchor: { type: string, maxLength: 20 } } } } } }
      responses:
        '200': { description: Made., content: { application/json: { schema: { type: object, properties: { uuid: { type: string, readOnly: true } } } } } }
  /avatars/{itemId}:
    get:
      operationId: getAvatar
      parameters: [{ name: itemId, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/Avatar' } } } }
        '404': { description: None. }
components:
  schemas:
    Avatar:
      type: object
      properties:
        uuid: { type: string, readOnly: true }
        anchor: { type: string, maxLength: 20 }
        image: { type: array, readOnly: true, items: { type: string } }
`;

const started = specMock('text-key-integer-path', SPEC, ['k']);

describe('a text key the client chooses, named by an integer path parameter (D902)', () => {
  test('the created record is read back', async () => {
    await expectChecksPass(started, (id) => id.startsWith('getAvatar.') || id === 'createAvatar.client-id', ['getAvatar.not-found', 'getAvatar.found']);
  }, 120_000);
});
