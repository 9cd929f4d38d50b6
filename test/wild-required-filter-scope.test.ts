import { describe, expect, test } from 'vitest';
import { runCheck } from '../conformance/run-suite.js';
import { rewritingProxy } from './rewriting-proxy.js';
import { specMock } from './spec-mock.js';

/**
 * A list whose equality filters are required (`?account=…&mode=…`, spec/DECISIONS.md › D934): every list request of
 * the run names each with one value (D570), so a record the stateful model created with another value is not on the
 * page, and a short page is not incomplete for lacking it. Our mock applies the filters; the model expected every
 * created record of the filter the command named.
 */
const LINK = `{ type: object, required: [account, mode, title], properties: { id: { type: string, readOnly: true }, account: { type: string, minLength: 1, maxLength: 12 }, mode: { type: string, enum: [live, test] }, title: { type: string, minLength: 1, maxLength: 20 } } }`;
const SPEC = `openapi: 3.0.3
info: { title: Links, version: '1' }
paths:
  /links:
    get:
      operationId: listLinks
      parameters:
        - { name: account, in: query, required: true, schema: { type: string, example: acct-7 } }
        - { name: mode, in: query, required: true, schema: { type: string, enum: [live, test] } }
        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 50, default: 20 } }
      responses:
        '200': { description: All., content: { application/json: { schema: { type: array, items: ${LINK} } } } }
    post:
      operationId: createLink
      requestBody: { required: true, content: { application/json: { schema: ${LINK} } } }
      responses:
        '201': { description: Made., content: { application/json: { schema: ${LINK} } } }
  /links/{id}:
    get:
      operationId: getLink
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: One., content: { application/json: { schema: ${LINK} } } }
        '404': { description: None. }
`;

const started = specMock('required-filter-scope', SPEC, ['k']);
// One fault: the list is answered for another account than the one asked, so records the run made in scope are missing.
const wrongAccount = rewritingProxy(() => started.mock.baseUrl, (url, method) => {
  if (method === 'GET' && url.pathname.endsWith('/links') && url.searchParams.has('account')) url.searchParams.set('account', 'someone-else');
});

describe('a list whose equality filters are required (D934)', () => {
  test.each([1, 2, 3])('the stateful model passes on our mock (seed %i)', async (seed) => {
    const outcome = await runCheck('stateful.model', { baseUrl: started.mock.baseUrl, apiKey: 'k', spec: started.spec, runs: 10, seed });
    expect(outcome.ok ? '' : outcome.report).toBe('');
  }, 60_000);

  test('the model still holds short pages to the records made with the values asked: a list of another account fails', async () => {
    const outcome = await runCheck('stateful.model', { baseUrl: wrongAccount.baseUrl, apiKey: 'k', spec: started.spec, runs: 10, seed: 1 });
    expect(outcome.ok ? '' : outcome.report).toMatch(/fewer than limit \d+, so it is the whole list, yet it lacks/);
  }, 60_000);
});
