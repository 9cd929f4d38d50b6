import { describe, expect, test } from 'vitest';
import { loadModel } from '../model/loader.js';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * A required query parameter that is a list, with its example written as a list (`id: ["442583", "434750"]`,
 * spec/DECISIONS.md › D630): the example is kept as the list it is, so the suite names the parameter with it where a
 * check leaves it out (D220), and the checks that first read the list pass on our mock, which refuses a request
 * without it.
 */
const SPEC = `openapi: 3.0.3
info: { title: Tracks, version: '1' }
security: [{ basic: [] }]
paths:
  /v2/audio:
    get:
      operationId: getTrackList
      parameters:
        - name: id
          in: query
          required: true
          description: One or more audio IDs
          example: ['442583', '434750']
          schema: { type: array, minItems: 1, maxItems: 500, items: { type: string, pattern: '^[1-9][0-9]*$' } }
      responses:
        '200': { description: The tracks., content: { application/json: { schema: { type: object, properties: { data: { type: array, items: { $ref: '#/components/schemas/Track' } } } } } } }
        '400': { description: Bad request. }
        '401': { description: Unauthorized. }
  /v2/audio/{id}:
    get:
      operationId: getTrack
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/Track' } } } }
        '401': { description: Unauthorized. }
        '404': { description: None. }
components:
  securitySchemes:
    basic: { type: http, scheme: basic }
  schemas:
    Track:
      type: object
      required: [id, title]
      properties:
        id: { type: integer }
        title: { type: string }
`;

const started = specMock('array-example', SPEC, ['k']);

describe('a required list parameter whose example is a list (D630)', () => {
  test('keeps its example as the list', async () => {
    const list = (await loadModel(started.spec)).operations.find((op) => op.operationId === 'getTrackList')!;
    expect(list.queryParams.find((parameter) => parameter.name === 'id')!.example).toEqual(['442583', '434750']);
  });

  test("the suite's checks pass on our mock", async () => {
    await expectChecksPass(started, () => true, ['auth.getTrack', 'auth.getTrackList', 'getTrack.not-found']);
  }, 90_000);
});
