import { describe, expect, test } from 'vitest';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import { specMock } from './spec-mock.js';

/**
 * An API key in the query declared twice, as the security scheme's credential and as a required query parameter of
 * each operation (spec/DECISIONS.md › D590; a common way to write a key-in-the-query API): the suite sends the key
 * it was given in that pair, never a drawn value of the parameter beside it, whichever comes first. Against the
 * project's mock, which reads the first `key` pair, every check passes; a drawn `key` first was a 401 to every valid
 * request.
 */
const SPEC = `openapi: 3.0.3
info: { title: Key in the query, version: '1' }
components:
  securitySchemes:
    api_key: { type: apiKey, in: query, name: key }
    api_token: { type: apiKey, in: query, name: token }
security: [{ api_key: [] }, { api_token: [] }]
paths:
  /boards/{idBoard}:
    get:
      operationId: getBoard
      parameters:
        - { name: idBoard, in: path, required: true, schema: { type: string } }
        - { name: fields, in: query, schema: { type: string, default: all } }
        - { name: key, in: query, required: true, schema: { type: string } }
        - { name: token, in: query, required: true, schema: { type: string } }
      responses:
        '200': { description: the board }
        '400': { description: rejected }
  /search:
    get:
      operationId: search
      parameters:
        - { name: query, in: query, required: true, schema: { type: string, minLength: 1 } }
        - { name: key, in: query, required: true, schema: { type: string } }
        - { name: token, in: query, required: true, schema: { type: string } }
      responses:
        '200':
          description: found
          content:
            application/json:
              schema: { type: object, properties: { boards: { type: array, items: { type: object } } } }
        '400': { description: rejected }
`;

const KEY = 'credential-parameter-key';
const started = specMock('credential-parameter', SPEC, [KEY]);

describe('a credential declared as a query parameter too (D590)', () => {
  test('the mock reads the first key pair: a drawn value before the key is refused', async () => {
    const drawnFirst = await fetch(`${started.mock.baseUrl}/search?query=a&key=drawn&token=t&key=${KEY}`);
    expect(drawnFirst.status).toBe(401);
    const keyOnly = await fetch(`${started.mock.baseUrl}/search?query=a&token=t&key=${KEY}`);
    expect(keyOnly.status).toBe(200);
  });

  test('every check of the suite passes against the mock, the authentication checks included', async () => {
    const target = { baseUrl: started.mock.baseUrl, apiKey: KEY, spec: started.spec, runs: 5, seed: 1 };
    const ids = await listCheckIds(target);
    expect(ids).toEqual(expect.arrayContaining(['auth.getBoard', 'auth.search', 'getBoard.documented', 'search.documented']));
    const failed: string[] = [];
    for (const id of ids) {
      const outcome = await runCheck(id, target);
      if (!outcome.ok) failed.push(`${id}\n${outcome.report}`);
      else expect(outcome.skipped, id).toBeUndefined();
    }
    expect(failed.join('\n\n')).toBe('');
  });
});

/**
 * Two operations of one method on the same template under other parameter names, one open and one secured (D591):
 * OpenAPI calls such paths identical, and a server routes the URL to either. The mock routes it to the first.
 */
const TWINS = `openapi: 3.0.3
info: { title: Twin templates, version: '1' }
components:
  securitySchemes:
    bearer: { type: http, scheme: bearer }
paths:
  /boards/{idBoard}/cards/{filter}:
    get:
      operationId: listCardsByFilter
      parameters:
        - { name: idBoard, in: path, required: true, schema: { type: string } }
        - { name: filter, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the cards }
  /boards/{idBoard}/cards/{idCard}:
    get:
      operationId: getCard
      security: [{ bearer: [] }]
      parameters:
        - { name: idBoard, in: path, required: true, schema: { type: string } }
        - { name: idCard, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the card }
        '401': { description: no credentials }
`;
const twins = specMock('twin-templates', TWINS, [KEY]);

describe('an operation whose template has an open twin (D591)', () => {
  test('its authentication check is not run, naming the twin; a request without credentials reaches the open twin', async () => {
    const open = await fetch(`${twins.mock.baseUrl}/boards/b/cards/c`);
    expect(open.status).toBe(200);
    const target = { baseUrl: twins.mock.baseUrl, apiKey: KEY, spec: twins.spec, runs: 3, seed: 1 };
    const outcome = await runCheck('auth.getCard', target);
    expect(outcome.ok).toBe(true);
    expect(outcome.ok && outcome.skipped).toMatch(/twin, listCardsByFilter \(\/boards\/\{idBoard\}\/cards\/\{filter\}\)/);
  });
});
