import { describe, test } from 'vitest';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * A list whose optional date-time `start` and `end` bound a range (a window, D90) and are named like two members of
 * its records (spec/DECISIONS.md › D907): they are the window only, never also equality filters, so the list the
 * suite reads with the widest window holds every record the run made, on our mock.
 */
const SPIN = `{ type: object, required: [artist], properties: { id: { type: integer, readOnly: true }, artist: { type: string, minLength: 1, maxLength: 20 }, start: { type: string, format: date-time }, end: { type: string, format: date-time } } }`;
const SPEC = `openapi: 3.0.3
info: { title: Spins, version: '1' }
paths:
  /spins:
    get:
      operationId: listSpins
      description: Spins, optionally within a datetime range.
      parameters:
        - { name: start, in: query, description: The datetime from which items are returned., schema: { type: string, format: date-time } }
        - { name: end, in: query, description: The ending datetime., schema: { type: string, format: date-time } }
        - { name: count, in: query, schema: { type: integer, minimum: 1, default: 20 } }
        - { name: page, in: query, schema: { type: integer, minimum: 1 } }
      responses:
        '200': { description: All., content: { application/json: { schema: { type: array, items: ${SPIN} } } } }
    post:
      operationId: createSpin
      requestBody: { required: true, content: { application/json: { schema: ${SPIN} } } }
      responses:
        '201': { description: Made., content: { application/json: { schema: ${SPIN} } } }
  /spins/{id}:
    get:
      operationId: getSpin
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: One., content: { application/json: { schema: ${SPIN} } } }
        '404': { description: None. }
`;

const started = specMock('window-not-filter', SPEC, ['k']);

describe('window parameters named like members (D907)', () => {
  test("the list's checks and the stateful model pass on our mock", async () => {
    await expectChecksPass(started, (id) => id.startsWith('listSpins.') || id === 'stateful.model', ['listSpins.pages']);
  }, 120_000);
});
