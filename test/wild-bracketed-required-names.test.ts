import { describe, test } from 'vitest';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * A list whose required page parameters are named with brackets (`page[number]`, `page[size]`, JSON:API's style)
 * (spec/DECISIONS.md › D908): a request that names one is not given it a second time as a required parameter left
 * out, so our mock, which refuses a page size given twice, answers the list.
 */
const EPISODE = `{ type: object, required: [title], properties: { id: { type: string, readOnly: true }, title: { type: string, minLength: 1, maxLength: 20 } } }`;
const SPEC = `openapi: 3.0.3
info: { title: Episodes, version: '1' }
paths:
  /episodes:
    get:
      operationId: listEpisodes
      parameters:
        - { name: 'page[number]', in: query, required: true, schema: { type: integer, minimum: 1 } }
        - { name: 'page[size]', in: query, required: true, schema: { type: integer, minimum: 1, maximum: 100 } }
      responses:
        '200': { description: All., content: { application/json: { schema: { type: array, items: ${EPISODE} } } } }
        '400': { description: Refused. }
    post:
      operationId: createEpisode
      requestBody: { required: true, content: { application/json: { schema: ${EPISODE} } } }
      responses:
        '201': { description: Made., content: { application/json: { schema: ${EPISODE} } } }
  /episodes/{id}:
    get:
      operationId: getEpisode
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: One., content: { application/json: { schema: ${EPISODE} } } }
        '404': { description: None. }
`;

const started = specMock('bracketed-required-names', SPEC, ['k']);

describe('required page parameters named with brackets (D908)', () => {
  test("the list's and the read's checks pass on our mock", async () => {
    await expectChecksPass(started, (id) => id.startsWith('listEpisodes.') || id.startsWith('getEpisode.'), ['listEpisodes.limit', 'listEpisodes.pages', 'getEpisode.found']);
  }, 120_000);
});
