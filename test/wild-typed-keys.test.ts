import { describe, expect, test } from 'vitest';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * A record's key answered in the type each answer names (spec/DECISIONS.md › D892, D893): strategies read with a text
 * `strategyid`, whose create and replace answer nothing but the key as an integer (tradematic.com); layers keyed by
 * an integer, listed beside `ids` whose items are texts (superset's lists); boards read with a text `id`, whose create
 * answers `{id: number, result}`; transitions keyed by one of two patterns (webflow.com). The mock answers each in
 * the answer's own type and draws the key to its first pattern, and the suite takes the receipt's integer for the
 * record's digits.
 */
const SPEC = `openapi: 3.0.3
info: { title: Keys, version: '1' }
paths:
  /strategies:
    get:
      operationId: listStrategies
      responses:
        '200': { description: All., content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Strategy' } } } } }
    post:
      operationId: createStrategy
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/StrategyWrite' } } } }
      responses:
        '200': { description: Made., content: { application/json: { schema: { type: object, properties: { strategyid: { type: integer } } } } } }
  /strategies/{strategyid}:
    parameters: [{ name: strategyid, in: path, required: true, schema: { type: integer, format: int64 } }]
    get:
      operationId: getStrategy
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/Strategy' } } } }
        '404': { description: None. }
    put:
      operationId: replaceStrategy
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/StrategyWrite' } } } }
      responses:
        '200': { description: Replaced., content: { application/json: { schema: { type: object, properties: { strategyid: { type: integer } } } } } }
        '404': { description: None. }
  /layers:
    get:
      operationId: listLayers
      responses:
        '200': { description: All., content: { application/json: { schema: { type: object, properties: { count: { type: integer }, ids: { type: array, items: { type: string } }, result: { type: array, items: { $ref: '#/components/schemas/Layer' } } } } } } }
    post:
      operationId: createLayer
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/StrategyWrite' } } } }
      responses:
        '201': { description: Made., content: { application/json: { schema: { $ref: '#/components/schemas/Layer' } } } }
  /layers/{layerId}:
    get:
      operationId: getLayer
      parameters: [{ name: layerId, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/Layer' } } } }
        '404': { description: None. }
  /boards:
    post:
      operationId: createBoard
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/StrategyWrite' } } } }
      responses:
        '201': { description: Made., content: { application/json: { schema: { type: object, properties: { id: { type: number }, result: { $ref: '#/components/schemas/StrategyWrite' } } } } } }
  /boards/{boardId}:
    get:
      operationId: getBoard
      parameters: [{ name: boardId, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/Board' } } } }
        '404': { description: None. }
  /transitions:
    post:
      operationId: createTransition
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/StrategyWrite' } } } }
      responses:
        '200': { description: Made., content: { application/json: { schema: { $ref: '#/components/schemas/Transition' } } } }
  /transitions/{transitionId}:
    get:
      operationId: getTransition
      parameters: [{ name: transitionId, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/Transition' } } } }
        '404': { description: None. }
components:
  schemas:
    Transition:
      type: object
      required: [transitionId, name]
      properties:
        transitionId: { anyOf: [{ type: string, pattern: '^tr:[a-f0-9]{8}$' }, { type: string, pattern: '^tr:shared-[a-z]+$' }] }
        name: { type: string }
    StrategyWrite:
      type: object
      properties:
        name: { type: string, minLength: 1, maxLength: 20 }
    Strategy:
      type: object
      properties:
        strategyid: { type: string }
        name: { type: string }
    Layer:
      type: object
      required: [id, name]
      properties:
        id: { type: integer, readOnly: true }
        name: { type: string }
    Board:
      type: object
      properties:
        id: { type: string }
        name: { type: string }
`;

const started = specMock('typed-keys', SPEC, ['k']);

async function send(method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const init: RequestInit = body === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  const response = await fetch(`${started.mock.baseUrl}${path}`, init);
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe('keys answered in the type each answer names (D892, D893), drawn to the first of their patterns (D895)', () => {
  test('a create and a replace that answer only the key answer it as the integer they name', async () => {
    const made = await send('POST', '/strategies', { name: 'a' });
    expect(made.status).toBe(200);
    expect(typeof made.json['strategyid'], JSON.stringify(made.json)).toBe('number');
    const replaced = await send('PUT', `/strategies/${String(made.json['strategyid'])}`, { name: 'b' });
    expect(replaced.status).toBe(200);
    expect(replaced.json['strategyid']).toBe(made.json['strategyid']);
    const read = await send('GET', `/strategies/${String(made.json['strategyid'])}`);
    expect(read.json).toEqual({ strategyid: String(made.json['strategyid']), name: 'b' });
  });

  test("a list's ids are texts where its items are texts, the records' integer keys", async () => {
    const made = await send('POST', '/layers', { name: 'a' });
    const listed = await send('GET', '/layers');
    expect(listed.json['ids'], JSON.stringify(listed.json)).toContain(String(made.json['id']));
  });

  test("a create answering `{id: number, result}` answers each record's own key, not a sample's", async () => {
    const first = await send('POST', '/boards', { name: 'a' });
    const second = await send('POST', '/boards', { name: 'b' });
    expect(typeof first.json['id']).toBe('number');
    expect(second.json['id']).not.toBe(first.json['id']);
    expect((await send('GET', `/boards/${String(second.json['id'])}`)).json['name']).toBe('b');
  });

  test('a key that is one of several patterns is drawn to the first (D895)', async () => {
    const made = await send('POST', '/transitions', { name: 'a' });
    expect(made.json['transitionId'], JSON.stringify(made.json)).toMatch(/^tr:[a-f0-9]{8}$/);
    expect((await send('GET', `/transitions/${encodeURIComponent(String(made.json['transitionId']))}`)).json['name']).toBe('a');
  });

  test("the suite's checks of the strategies and layers pass on our mock", async () => {
    await expectChecksPass(started, (id) => !id.startsWith('auth.') && /Strateg|Layer|stateful/.test(id), ['createStrategy.echo', 'replaceStrategy.persisted', 'getLayer.found', 'stateful.model']);
  }, 90_000);
});
