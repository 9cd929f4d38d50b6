import { describe, expect, test } from 'vitest';
import { specMock } from './spec-mock.js';

/**
 * A request body documented under a media type with parameters (`application/json;version=2018-01-01`, as versioned
 * APIs write it) takes that type, with its parameters or without, and still refuses another type with 415.
 */
const SPEC = `
openapi: 3.0.3
info: { title: Versioned media types, version: '1' }
paths:
  /notes:
    post:
      operationId: createNote
      requestBody:
        required: true
        content:
          application/json;version=2018-01-01: { schema: { $ref: '#/components/schemas/Note' } }
      responses:
        '201': { description: Made., content: { application/json;version=2018-01-01: { schema: { $ref: '#/components/schemas/Note' } } } }
        '415': { description: Not JSON. }
  /notes/{noteId}:
    get:
      operationId: getNote
      parameters: [{ name: noteId, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: One., content: { application/json;version=2018-01-01: { schema: { $ref: '#/components/schemas/Note' } } } }
        '404': { description: None. }
components:
  schemas:
    Note:
      type: object
      required: [text]
      properties:
        id: { type: integer, readOnly: true }
        text: { type: string }
`;

const started = specMock('media-type-parameters', SPEC, ['k']);

async function post(contentType: string): Promise<number> {
  const response = await fetch(`${started.mock.baseUrl}/notes`, { method: 'POST', headers: { authorization: 'Bearer k', 'content-type': contentType }, body: JSON.stringify({ text: 'hello' }) });
  await response.arrayBuffer();
  return response.status;
}

describe('a body documented under a media type with parameters', () => {
  test('is taken with its parameters or without, and another type is 415', async () => {
    expect(await post('application/json;version=2018-01-01')).toBe(201);
    expect(await post('application/json; version=2018-01-01')).toBe(201);
    expect(await post('application/json')).toBe(201);
    expect(await post('application/xml')).toBe(415);
  });
});
