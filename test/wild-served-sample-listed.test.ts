import { describe, expect, test } from 'vitest';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * A collection no request can add to, whose one record the mock makes up with the id its read's example shows
 * (D154), and whose list asks more of a nested member than the read does (spec/DECISIONS.md › D942): areas whose
 * states' `code` is any text in the read but two letters in the list. The record is made from the list's item
 * sample where the read's schema admits it, so the list and the read show one record.
 */
const STATE_READ = { type: 'object', required: ['code', 'name'], properties: { code: { type: 'string', minLength: 1 }, name: { type: 'string' } } };
const STATE_LISTED = { type: 'object', required: ['code', 'name'], properties: { code: { type: 'string', minLength: 2, maxLength: 2, example: 'NY' }, name: { type: 'string' } } };
const area = (state: object) => ({ type: 'object', required: ['areaCode', 'states'], properties: { areaCode: { type: 'string' }, states: { type: 'array', minItems: 1, items: state } } });
const SPEC = `openapi: 3.0.3
info: { title: Areas, version: '1' }
paths:
  /areas:
    get:
      operationId: listAreas
      parameters:
        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 50 } }
        - { name: offset, in: query, schema: { type: integer, minimum: 0 } }
      responses:
        '200': { description: A page., content: { application/json: { schema: { type: object, required: [data], properties: { data: { type: array, items: ${JSON.stringify(area(STATE_LISTED))} } } } } } }
  /areas/{areaCode}:
    get:
      operationId: getArea
      parameters: [{ name: areaCode, in: path, required: true, example: '31080', schema: { type: string } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { type: object, required: [data], properties: { data: ${JSON.stringify(area(STATE_READ))} } } } } }
        '404': { description: None., content: { application/json: { schema: { type: object, properties: { message: { type: string } } } } } }
`;

const started = specMock('served-sample-listed', SPEC, ['k']);

describe("a made-up record whose list asks more than its read (D942)", () => {
  test('the list and the read show one record', async () => {
    const listed = (await (await fetch(`${started.mock.baseUrl}/areas`)).json()) as { data: unknown[] };
    const read = (await (await fetch(`${started.mock.baseUrl}/areas/31080`)).json()) as { data: unknown };
    expect(listed.data).toEqual([read.data]);
  });

  test("the suite's checks of the read and the list pass on our mock", async () => {
    await expectChecksPass(started, (id) => id.startsWith('getArea') || id.startsWith('listAreas') || id === 'responses.conformance', ['getArea.found', 'responses.conformance']);
  }, 120_000);
});
