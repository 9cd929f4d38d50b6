import { describe, test } from 'vitest';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * A list (`GET`) whose description marks a request body required (spec/DECISIONS.md › D933): the checks that read
 * the list send the body the description gives, as they name a required query parameter (D220), so a server written
 * from the text, which refuses the list without it (our mock: 400), is not failed for it.
 */
const WATCH = `{ type: object, required: [topic], properties: { id: { type: integer, readOnly: true }, topic: { type: string, minLength: 1, maxLength: 20 } } }`;
const SPEC = `openapi: 3.0.0
info: { title: Watches, version: '1' }
components:
  securitySchemes: { key: { type: http, scheme: bearer } }
security: [{ key: [] }]
paths:
  /watches:
    get:
      operationId: listWatches
      requestBody:
        required: true
        content: { application/json: { schema: { type: object, required: [scope], properties: { scope: { type: string, enum: [mine, all] } } }, example: { scope: mine } } }
      responses:
        '200': { description: All., content: { application/json: { schema: { type: array, items: ${WATCH} } } } }
        '401': { description: No key. }
    post:
      operationId: createWatch
      requestBody: { required: true, content: { application/json: { schema: ${WATCH} } } }
      responses:
        '201': { description: Made., content: { application/json: { schema: ${WATCH} } } }
        '400': { description: Invalid. }
        '401': { description: No key. }
  /watches/{id}:
    get:
      operationId: getWatch
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: One., content: { application/json: { schema: ${WATCH} } } }
        '401': { description: No key. }
        '404': { description: None. }
`;

const started = specMock('required-get-body', SPEC, ['k']);

describe('a list whose description requires a request body (D933)', () => {
  test('the responses check and the stateful model pass on our mock, which refuses the list without it', async () => {
    await expectChecksPass(started, (id) => id === 'responses.conformance' || id === 'stateful.model', ['responses.conformance', 'stateful.model']);
  }, 60_000);
});
