import { describe, expect, test } from 'vitest';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import { specMock } from './spec-mock.js';

/**
 * An object query parameter of the default style (`form`, exploded) travels as its members' own pairs, under no name
 * of its own (spec/DECISIONS.md › D557): a required free-form map sent empty is no pair at all, which the mock called
 * missing; a required object with required members sent as `from=1&to=2` was called missing too. The suite sends
 * such an object's members, and its checks of both operations pass on our mock.
 */
const SPEC = `openapi: 3.0.3
info: { title: Search, version: '1' }
paths:
  /services/search:
    get:
      operationId: searchServices
      parameters:
        - name: queryMap
          in: query
          required: true
          description: Map of criteria, such as name or labels.x.
          schema: { type: object, additionalProperties: { type: string } }
      responses:
        '200':
          description: Found.
          content: { application/json: { schema: { type: array, items: { type: object, properties: { name: { type: string } } } } } }
  /stats:
    get:
      operationId: getStats
      parameters:
        - name: window
          in: query
          required: true
          schema: { type: object, required: [from, to], properties: { from: { type: integer, minimum: 0 }, to: { type: integer, minimum: 0 } } }
        - { name: unit, in: query, schema: { type: string, enum: [day, hour] } }
      responses:
        '200':
          description: The figures.
          content: { application/json: { schema: { type: object, properties: { count: { type: integer } } } } }
`;

const started = specMock('exploded-object', SPEC, ['k']);

const status = async (path: string): Promise<number> => (await fetch(`${started.mock.baseUrl}${path}`, { headers: { authorization: 'Bearer k' } })).status;

describe('an exploded form object in the query (D557)', () => {
  test('the mock takes a free-form map sent with no entry, or with some, as given', async () => {
    expect(await status('/services/search')).toBe(200);
    expect(await status('/services/search?name=orders&labels.domain=shop')).toBe(200);
  });

  test('the mock takes an object sent as its members, and refuses one whose required members are missing', async () => {
    expect(await status('/stats?from=1&to=2')).toBe(200);
    expect(await status('/stats?from=1&to=2&unit=day')).toBe(200);
    expect(await status('/stats?from=1')).toBe(400);
    expect(await status('/stats?from=x&to=2')).toBe(400);
    expect(await status('/stats?unit=day')).toBe(400);
  });

  test("the suite's checks of both operations pass on the mock", async () => {
    const target = { baseUrl: started.mock.baseUrl, apiKey: 'k', spec: started.spec, runs: 3 };
    const ids = (await listCheckIds(target)).filter((id) => id.startsWith('searchServices.') || id.startsWith('getStats.'));
    expect(ids).toEqual(expect.arrayContaining(['searchServices.documented', 'getStats.documented']));
    for (const id of ids) {
      const outcome = await runCheck(id, target);
      expect(outcome.ok ? '' : outcome.report, id).toBe('');
    }
  }, 60_000);
});
