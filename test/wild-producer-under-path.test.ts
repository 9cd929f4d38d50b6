import { describe, expect, test } from 'vitest';
import { runCheck } from '../conformance/run-suite.js';
import { specMock } from './spec-mock.js';

/**
 * Two collections whose creates both answer a member of the same name (`roomId`), and an action under an item of one
 * of them (spec/DECISIONS.md › D822): the suite makes the record the action's path names with the create at the path
 * the parameter stands under, not with the other collection's create that happens to come first, so a server that
 * keeps each collection's records apart, as our mock does, answers the action's documented success.
 */
const ROOM = `{ type: object, required: [roomId, topic], properties: { roomId: { type: string, readOnly: true }, topic: { type: string, minLength: 1, maxLength: 20 } } }`;
const SPEC = `openapi: 3.0.3
info: { title: Rooms, version: '1' }
security: [{ bearer: [] }]
paths:
  /rooms/open:
    post:
      operationId: createOpenRoom
      requestBody: { required: true, content: { application/json: { schema: { type: object, required: [topic], properties: { topic: { type: string, minLength: 1, maxLength: 20 } } } } } }
      responses:
        '200': { description: Made., content: { application/json: { schema: ${ROOM} } } }
        '400': { description: Refused. }
  /rooms/private:
    post:
      operationId: createPrivateRoom
      requestBody: { required: true, content: { application/json: { schema: { type: object, required: [topic], properties: { topic: { type: string, minLength: 1, maxLength: 20 } } } } } }
      responses:
        '200': { description: Made., content: { application/json: { schema: ${ROOM} } } }
        '400': { description: Refused. }
  /rooms/private/{roomId}:
    put:
      operationId: updatePrivateRoom
      parameters: [{ name: roomId, in: path, required: true, schema: { type: string } }]
      requestBody: { required: true, content: { application/json: { schema: { type: object, required: [topic], properties: { topic: { type: string, minLength: 1, maxLength: 20 } } } } } }
      responses:
        '200': { description: Changed., content: { application/json: { schema: ${ROOM} } } }
        '400': { description: Refused. }
  /rooms/private/{roomId}/members:
    post:
      operationId: addPrivateRoomMembers
      parameters: [{ name: roomId, in: path, required: true, schema: { type: string } }]
      requestBody: { required: true, content: { application/json: { schema: { type: object, required: [members], properties: { members: { type: array, minItems: 1, maxItems: 3, items: { type: string, minLength: 1, maxLength: 10 } } } } } } }
      responses:
        '200': { description: Added., content: { application/json: { schema: ${ROOM} } } }
        '400': { description: Refused. }
components:
  securitySchemes:
    bearer: { type: http, scheme: bearer }
`;

const started = specMock('producer-under-path', SPEC, ['k']);

describe('an action under an item of one of two collections whose creates answer the same member (D822)', () => {
  test("the action's check makes its record with the create at the path its parameter stands under, and passes on our mock", async () => {
    const outcome = await runCheck('addPrivateRoomMembers.documented', { baseUrl: started.mock.baseUrl, apiKey: 'k', spec: started.spec, runs: 3 });
    expect(outcome.ok ? '' : outcome.report).toBe('');
  }, 60_000);
});
