import { describe, test } from 'vitest';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * A list whose page size lists the only sizes it takes (`per_page: { enum: [2, 10, 20, 50], default: 10 }`) beside a
 * page number (spec/DECISIONS.md › D903): the suite asks only those sizes, the largest to read the whole list, and
 * holds a size between two of them to be refused, so our mock, which refuses what the enum does not list, passes.
 */
const SET = `{ type: object, required: [title], properties: { id: { type: integer, readOnly: true }, title: { type: string, minLength: 1, maxLength: 20 } } }`;
const SPEC = `openapi: 3.0.3
info: { title: Sets, version: '1' }
paths:
  /sets:
    get:
      operationId: listSets
      parameters:
        - { name: page, in: query, schema: { type: integer, default: 1 } }
        - { name: per_page, in: query, schema: { type: integer, default: 10, enum: [2, 10, 20, 50] } }
      responses:
        '200': { description: All., content: { application/json: { schema: { type: array, items: ${SET} } } } }
        '400': { description: Refused. }
    post:
      operationId: createSet
      requestBody: { required: true, content: { application/json: { schema: ${SET} } } }
      responses:
        '200': { description: Made., content: { application/json: { schema: ${SET} } } }
        '400': { description: Refused. }
  /sets/{id}:
    get:
      operationId: getSet
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: One., content: { application/json: { schema: ${SET} } } }
        '404': { description: None. }
`;

const started = specMock('listed-page-sizes', SPEC, ['k']);

describe('a page size that lists the sizes it takes (D903)', () => {
  test("the list's and the create's checks pass on our mock", async () => {
    await expectChecksPass(started, (id) => id.startsWith('listSets.') || id === 'createSet.required-fields' || id === 'stateful.model', ['listSets.limit', 'listSets.pages', 'listSets.invalid-query', 'createSet.required-fields']);
  }, 120_000);
});
