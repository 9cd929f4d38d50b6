import { describe, expect, test } from 'vitest';
import { loadModel } from '../model/loader.js';
import { requestOf } from '../conformance/context.js';
import { listCheckIds, runCheck, startRun } from '../conformance/run-suite.js';
import { specMock } from './spec-mock.js';

/**
 * Every request the suite sends names each required query parameter (spec/DECISIONS.md › D220): a search list that
 * needs `q` and `scope` is asked with them on its page-size checks, so a server that refuses a request without
 * them (here the project's mock, which answers 4xx to a missing required parameter) is not reported.
 */
const SPEC = `openapi: 3.0.3
info: { title: Required query, version: '1' }
paths:
  /search/things:
    get:
      operationId: searchThings
      parameters:
        - { name: q, in: query, required: true, example: widget, schema: { type: string, minLength: 1 } }
        - { name: scope, in: query, required: true, schema: { type: string, enum: [all, mine] } }
        - { name: tags, in: query, required: true, schema: { type: array, items: { type: integer, minimum: 1 }, example: [3, 4] } }
        - { name: per_page, in: query, schema: { type: integer, minimum: 1, maximum: 50, default: 10 } }
      responses:
        '200':
          description: the things found
          content:
            application/json:
              schema:
                type: array
                items: { type: object, required: [id, name], properties: { id: { type: integer }, name: { type: string } } }
        '422':
          description: invalid query
          content:
            application/json:
              schema: { type: object, required: [message], properties: { message: { type: string } } }
`;

const KEY = 'required-query-key-0123456789';
const started = specMock('required-query', SPEC, [KEY]);

describe('required query parameters (D220)', () => {
  test('a request names each one the query leaves out, from its example, enum or schema, and keeps those it names', async () => {
    const model = await loadModel(started.spec);
    const op = model.operations.find((candidate) => candidate.operationId === 'searchThings')!;
    // A run of its own: the request is built under that run's parents (none here).
    const context = { run: await startRun({ baseUrl: started.mock.baseUrl, apiKey: KEY, spec: started.spec }, { model }) };
    expect(requestOf(context, op, { query: 'per_page=5' }).path).toBe('/search/things?per_page=5&q=widget&scope=all&tags=3&tags=4');
    expect(requestOf(context, op, { query: 'q=other&scope=mine' }).path).toBe('/search/things?q=other&scope=mine&tags=3&tags=4');
    expect(requestOf(context, op, { query: 'q=a&scope=all&tags=1' }).path).toBe('/search/things?q=a&scope=all&tags=1');
  });

  test("the list's page-size checks pass on the mock, which refuses a request without them", async () => {
    const bare = await fetch(`${started.mock.baseUrl}/search/things?per_page=5`, { headers: { accept: 'application/json' } });
    expect(bare.status).toBeGreaterThanOrEqual(400);
    expect(bare.status).toBeLessThan(500);
    const target = { baseUrl: started.mock.baseUrl, apiKey: KEY, spec: started.spec, runs: 5 };
    const ids = (await listCheckIds(target)).filter((id) => /^searchThings\.(limit|default-limit)$/.test(id));
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) {
      const outcome = await runCheck(id, target);
      expect(outcome.ok ? '' : outcome.report, id).toBe('');
      expect(outcome.ok && outcome.skipped, id).toBeFalsy();
    }
  }, 60_000);
});
