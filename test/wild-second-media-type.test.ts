import { describe, expect, test } from 'vitest';
import { loadModel } from '../model/loader.js';
import { judgeResponseBody } from '../judge/exchange.js';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * A status documented in two JSON media types, each with its own schema (`application/hal+json` first, then
 * `application/json`; spec/DECISIONS.md › D620): an answer in the second is held to the second's schema, not
 * refused for not being the first. An answer that breaks the schema of the type it came in still fails.
 */
const SPEC = `openapi: 3.0.3
info: { title: Flags, version: '1' }
paths:
  /me:
    get:
      operationId: getMe
      responses:
        '200':
          description: Who asks.
          content:
            application/hal+json:
              schema: { $ref: '#/components/schemas/MeHal' }
            application/json:
              schema: { $ref: '#/components/schemas/Me' }
  /flags:
    get:
      operationId: listFlags
      responses:
        '200':
          description: The flags.
          content:
            application/hal+json: { schema: { type: array, items: { $ref: '#/components/schemas/FlagHal' } } }
            application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Flag' } } }
    post:
      operationId: createFlag
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Flag' } } } }
      responses:
        '200':
          description: Made.
          content:
            application/hal+json: { schema: { $ref: '#/components/schemas/FlagHal' } }
            application/json: { schema: { $ref: '#/components/schemas/Flag' } }
  /flags/{flagId}:
    get:
      operationId: getFlag
      parameters: [{ name: flagId, in: path, required: true, schema: { type: integer } }]
      responses:
        '200':
          description: The flag.
          content:
            application/hal+json: { schema: { $ref: '#/components/schemas/FlagHal' } }
            application/json: { schema: { $ref: '#/components/schemas/Flag' } }
        '404': { description: None. }
components:
  schemas:
    Me:
      type: object
      required: [email]
      properties: { email: { type: string } }
    MeHal:
      type: object
      required: [email, _links]
      properties: { email: { type: string }, _links: { type: object } }
    Flag:
      type: object
      required: [name]
      properties:
        flagId: { type: integer, readOnly: true }
        name: { type: string, maxLength: 20 }
    FlagHal:
      type: object
      required: [name, _links]
      properties:
        flagId: { type: integer, readOnly: true }
        name: { type: string, maxLength: 20 }
        _links: { type: object }
`;

const started = specMock('second-media-type', SPEC, ['k']);

describe('an answer in the second of two documented JSON media types (D620)', () => {
  test('is judged by the schema of the media type it came in', async () => {
    const model = await loadModel(started.spec);
    const getMe = model.operations.find((op) => op.operationId === 'getMe')!;
    const answer = (type: string, body: unknown): string[] => judgeResponseBody(getMe, { status: 200, headers: { 'content-type': type }, text: JSON.stringify(body) }).violations.map((v) => v.message);
    // The plain JSON answer needs no `_links`: it is valid as documented (a false alarm before).
    expect(answer('application/json', { email: 'a@example.com' })).toEqual([]);
    // It is still held to its own schema, and the HAL answer to the HAL one.
    expect(answer('application/json', { email: 1 }).join('\n')).toMatch(/must be string/);
    expect(answer('application/hal+json', { email: 'a@example.com' }).join('\n')).toMatch(/_links/);
    expect(answer('application/hal+json', { email: 'a@example.com', _links: {} })).toEqual([]);
    // A JSON media type the status does not document is refused, as before.
    expect(answer('application/problem+json', { email: 'a@example.com' }).join('\n')).toMatch(/expected Content-Type application\/hal\+json/);
  });

  test("the suite's checks pass on our mock, which answers application/json to a JSON request", async () => {
    await expectChecksPass(started, (id) => !id.startsWith('auth.'), ['getMe.documented', 'getFlag.found', 'createFlag.echo']);
  }, 60_000);
});
