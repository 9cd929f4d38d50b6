import { describe, test } from 'vitest';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * Records keyed by an integer whose examples show a key past 2^53 (`id: 3408207428662661600`), read at a path whose
 * integer parameter states no `int64` format (spec/DECISIONS.md › D901): the mock counts new keys up from the
 * example's, and a read of one must find that record, not the one a double rounds its key to.
 */
const POINT = `{ type: object, required: [name, depth], properties: { id: { type: integer, format: int64 }, name: { type: string, minLength: 1, maxLength: 20 }, depth: { type: number } }, example: { id: 3408207428662661600, name: Reef, depth: 0.98 } }`;
const SPEC = `openapi: 3.0.3
info: { title: Points, version: '1' }
paths:
  /points:
    get:
      operationId: listPoints
      responses:
        '200': { description: All., content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Point' } } } } }
    post:
      operationId: createPoint
      requestBody: { required: true, content: { application/json: { schema: { type: object, required: [name, depth], properties: { name: { type: string, minLength: 1, maxLength: 20 }, depth: { type: number } } } } } }
      responses:
        '201': { description: Made., content: { application/json: { schema: { $ref: '#/components/schemas/Point' } } } }
  /points/{ID}:
    parameters: [{ name: ID, in: path, required: true, schema: { type: integer } }]
    get:
      operationId: getPoint
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/Point' } } } }
        '404': { description: None. }
components:
  schemas:
    Point: ${POINT}
`;

const started = specMock('large-path-ids', SPEC, ['k']);

describe('integer keys past 2^53 read at a path without int64 (D901)', () => {
  test("a created record is read back, not the example's", async () => {
    await expectChecksPass(started, (id) => id === 'getPoint.found' || id === 'stateful.model', ['getPoint.found', 'stateful.model']);
  }, 120_000);
});
