import { describe, test } from 'vitest';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * A required query parameter whose default its own schema refuses (`fromDate: {format: date, default:
 * "2025-10-15T13:50:20.514Z"}`) on a list the suite cannot create records of (spec/DECISIONS.md › D906): the suite
 * names it with a value the schema takes, so our mock, which holds the parameter to its format, answers the list.
 */
const SPEC = `openapi: 3.0.3
info: { title: Documents, version: '1' }
paths:
  /documents/findByDate:
    get:
      operationId: findByDate
      parameters:
        - { name: fromDate, in: query, required: true, schema: { type: string, format: date, default: '2025-10-15T13:50:20.514Z' } }
        - { name: toDate, in: query, schema: { type: string, format: date } }
        - { name: offset, in: query, schema: { type: integer, minimum: 0 } }
        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 200, default: 10 } }
      responses:
        '200':
          description: Found.
          content:
            application/json:
              schema: { type: array, items: { type: object, required: [docID], properties: { docID: { type: string }, title: { type: string } } } }
              example: [{ docID: A001, title: One }, { docID: A002, title: Two }, { docID: A003, title: Three }]
        '400': { description: Refused. }
`;

const started = specMock('required-default-refused', SPEC, ['k']);

describe('a required parameter whose default breaks its own format (D906)', () => {
  test("the list's checks pass on our mock", async () => {
    await expectChecksPass(started, (id) => id.startsWith('findByDate.'), ['findByDate.limit']);
  }, 120_000);
});
