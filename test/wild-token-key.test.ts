import { describe, expect, test } from 'vitest';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * A token operation that creates a record keyed by the token it answers (`POST /upload-tokens` answering `token`,
 * read at `/upload-tokens/{uploadToken}`; spec/DECISIONS.md › D629): the token is the record's key, so the record
 * is read back by the token the create answered, and the suite's checks of the resource pass on our mock. A login
 * whose token no read reaches still issues a fresh one (mock/identity.test.ts).
 */
const SPEC = `openapi: 3.0.3
info: { title: Uploads, version: '1' }
security: [{ bearer: [] }]
paths:
  /upload-tokens:
    get:
      operationId: listUploadTokens
      parameters:
        - { name: pageSize, in: query, schema: { type: integer, minimum: 1, maximum: 100, default: 25 } }
      responses:
        '200': { description: All., content: { application/json: { schema: { type: object, properties: { data: { type: array, items: { $ref: '#/components/schemas/UploadToken' } } } } } } }
    post:
      operationId: createUploadToken
      summary: Generate an upload token
      requestBody: { required: true, content: { application/json: { schema: { type: object, properties: { ttl: { type: integer, minimum: 0, maximum: 86400 } } } } } }
      responses:
        '200': { description: Made., content: { application/json: { schema: { $ref: '#/components/schemas/UploadToken' } } } }
  /upload-tokens/{uploadToken}:
    get:
      operationId: getUploadToken
      parameters: [{ name: uploadToken, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/UploadToken' } } } }
        '404': { description: None. }
    delete:
      operationId: deleteUploadToken
      parameters: [{ name: uploadToken, in: path, required: true, schema: { type: string } }]
      responses:
        '204': { description: Gone. }
        '404': { description: None. }
components:
  securitySchemes:
    bearer: { type: http, scheme: bearer }
  schemas:
    UploadToken:
      type: object
      properties:
        token: { type: string, readOnly: true }
        ttl: { type: integer, minimum: 0, maximum: 86400 }
`;

const started = specMock('token-key', SPEC, ['k']);

describe('a token that is the key of the record its operation creates (D629)', () => {
  test('is read back by the token the create answered', async () => {
    const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };
    const made = (await (await fetch(`${started.mock.baseUrl}/upload-tokens`, { method: 'POST', headers, body: JSON.stringify({ ttl: 60 }) })).json()) as { token: string };
    const read = await fetch(`${started.mock.baseUrl}/upload-tokens/${encodeURIComponent(made.token)}`, { headers });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { token: string }).token).toBe(made.token);
  });

  test("the suite's checks of the resource pass on our mock", async () => {
    await expectChecksPass(started, (id) => !id.startsWith('auth.'), ['getUploadToken.found', 'deleteUploadToken.gone', 'listUploadTokens.limit', 'stateful.model']);
  }, 90_000);
});
