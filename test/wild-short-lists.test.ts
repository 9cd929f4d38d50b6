import { describe, expect, test } from 'vitest';
import { judgeResponseBody } from '../judge/exchange.js';
import { loadModel } from '../model/loader.js';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * Lists whose array of records asks at least one item (`minItems: 1`, spec/DECISIONS.md › D940): a shelf's books,
 * served data under a parent the examples make up (404 documented), and regions paged by a required offset (no 404
 * documented), whose walk asks the page past the end. A list holding nothing, or a page past its end, can only be
 * answered empty by a server that lists what it holds, so the suite passes our mock there; a record's own list
 * that may not be empty, answered empty, is still refused.
 */
const SPEC = `openapi: 3.0.3
info: { title: Shelves, version: '1' }
paths:
  /shelves:
    get:
      operationId: listShelves
      responses:
        '200':
          description: Shelves.
          content:
            application/json:
              schema: { type: array, items: { $ref: '#/components/schemas/Shelf' } }
              example: [{ id: S1, name: Left }]
  /shelves/{shelfId}:
    get:
      operationId: getShelf
      parameters: [{ name: shelfId, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/Shelf' } } } }
        '404': { description: None., content: { application/json: { schema: { $ref: '#/components/schemas/Problem' } } } }
  /shelves/{shelfId}/books:
    get:
      operationId: listBooks
      parameters: [{ name: shelfId, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: Books., content: { application/json: { schema: { type: array, minItems: 1, items: { $ref: '#/components/schemas/Book' } } } } }
        '404': { description: No such shelf., content: { application/json: { schema: { $ref: '#/components/schemas/Problem' } } } }
  /shelves/{shelfId}/books/{bookId}:
    get:
      operationId: getBook
      parameters:
        - { name: shelfId, in: path, required: true, schema: { type: string } }
        - { name: bookId, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/Book' } } } }
        '404': { description: None., content: { application/json: { schema: { $ref: '#/components/schemas/Problem' } } } }
  /regions:
    get:
      operationId: listRegions
      parameters:
        - { name: limit, in: query, required: true, schema: { type: integer, minimum: 1, maximum: 50 } }
        - { name: offset, in: query, required: true, schema: { type: integer, minimum: 0 } }
      responses:
        '200':
          description: A page.
          content:
            application/json:
              schema:
                type: object
                required: [data, meta]
                properties:
                  data: { type: array, minItems: 1, items: { $ref: '#/components/schemas/Region' } }
                  meta: { type: object, required: [count], properties: { count: { type: integer } } }
              example: { data: [{ code: '11580', name: Arcadia, counties: [Desoto] }], meta: { count: 1 } }
        '400': { description: Refused., content: { application/json: { schema: { $ref: '#/components/schemas/Problem' } } } }
  /regions/{code}:
    get:
      operationId: getRegion
      parameters: [{ name: code, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/Region' } } } }
        '400': { description: Refused., content: { application/json: { schema: { $ref: '#/components/schemas/Problem' } } } }
components:
  schemas:
    Shelf:
      type: object
      required: [id, name]
      properties: { id: { type: string }, name: { type: string } }
    Book:
      type: object
      required: [id, title]
      properties: { id: { type: string }, title: { type: string } }
    Region:
      type: object
      required: [code, name, counties]
      properties:
        code: { type: string }
        name: { type: string }
        counties: { type: array, minItems: 1, items: { type: string } }
    Problem:
      type: object
      properties: { message: { type: string } }
`;

const started = specMock('short-lists', SPEC, ['k']);

describe('lists whose records array asks at least one item (D940)', () => {
  test('an empty list of records is judged valid; a record whose own list is empty is not', async () => {
    const model = await loadModel(started.spec);
    const op = (id: string) => model.operations.find((one) => one.operationId === id)!;
    const judged = (id: string, body: unknown) => judgeResponseBody(op(id), { status: 200, headers: { 'content-type': 'application/json' }, text: JSON.stringify(body) }, 'GET').violations.map((violation) => violation.message);
    expect(judged('listBooks', [])).toEqual([]);
    expect(judged('listRegions', { data: [], meta: { count: 1 } })).toEqual([]);
    // The records still answer to their schema, and the wrapper to its own.
    expect(judged('listBooks', [{ id: 'B1' }]).join('; ')).toContain('title');
    expect(judged('listRegions', { data: [] }).join('; ')).toContain('meta');
    // A list inside a record, or inside a record of the list, is no list of records: its `minItems` holds.
    expect(judged('getRegion', { code: '1', name: 'A', counties: [] }).join('; ')).toContain('fewer than 1 items');
    expect(judged('listRegions', { data: [{ code: '1', name: 'A', counties: [] }], meta: { count: 1 } }).join('; ')).toContain('fewer than 1 items');
  });

  test("the suite's checks of both lists pass on our mock", async () => {
    await expectChecksPass(started, (id) => id.startsWith('listBooks') || id.startsWith('getBook') || id.startsWith('listRegions') || id === 'responses.conformance', ['getBook.found', 'listRegions.pages', 'responses.conformance']);
  }, 120_000);
});
