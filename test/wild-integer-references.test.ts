import { describe, expect, test } from 'vitest';
import { runCheck } from '../conformance/run-suite.js';
import { specMock } from './spec-mock.js';

/**
 * A create naming a record of another collection by an integer key, where the create documents 404
 * (spec/DECISIONS.md › D820, D821): the mock looks the number up in that collection's store, as it did a string
 * key, and the suite's `.reference` check sends as dangling only values that name no record the target holds.
 */
const SPEC = `openapi: 3.0.3
info: { title: Workshop, version: '1' }
security: [{ bearer: [] }]
paths:
  /widgets:
    get:
      operationId: listWidgets
      responses:
        '200': { description: All., content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Widget' } } } } }
    post:
      operationId: createWidget
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/WidgetWrite' } } } }
      responses:
        '201': { description: Made., content: { application/json: { schema: { $ref: '#/components/schemas/Widget' } } } }
        '400': { description: Refused., content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
  /widgets/{id}:
    get:
      operationId: getWidget
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/Widget' } } } }
        '404': { description: None., content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
  /gadgets:
    get:
      operationId: listGadgets
      responses:
        '200': { description: All., content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Gadget' } } } } }
    post:
      operationId: createGadget
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/GadgetWrite' } } } }
      responses:
        '201': { description: Made., content: { application/json: { schema: { $ref: '#/components/schemas/Gadget' } } } }
        '400': { description: Refused., content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
        '404': { description: The widget named is not found., content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
  /gadgets/{id}:
    get:
      operationId: getGadget
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/Gadget' } } } }
        '404': { description: None., content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
components:
  securitySchemes:
    bearer: { type: http, scheme: bearer }
  schemas:
    WidgetWrite:
      type: object
      required: [label]
      properties:
        label: { type: string, minLength: 1, maxLength: 20 }
    Widget:
      allOf:
        - $ref: '#/components/schemas/WidgetWrite'
        - type: object
          required: [id]
          properties:
            id: { type: integer, readOnly: true }
    GadgetWrite:
      type: object
      required: [widgetId, label]
      properties:
        widgetId: { type: integer, minimum: 1, maximum: 5 }
        label: { type: string, minLength: 1, maxLength: 20 }
    Gadget:
      allOf:
        - $ref: '#/components/schemas/GadgetWrite'
        - type: object
          required: [id]
          properties:
            id: { type: integer, readOnly: true }
    Error:
      type: object
      properties:
        code: { type: string }
        message: { type: string }
        status: { type: integer }
`;

const started = specMock('integer-references', SPEC, ['k']);

/** POSTs `value` as JSON to `path` of the mock with the test's key; the status and the parsed answer. */
async function post(path: string, value: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${started.mock.baseUrl}${path}`, { method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body: JSON.stringify(value) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('a create naming a record of another collection by an integer key (D820, D821)', () => {
  test('the mock refuses a number no widget has with the documented 404, and takes one a widget has', async () => {
    const widget = await post('/widgets', { label: 'first' });
    expect(widget.status).toBe(201);
    const absent = await post('/gadgets', { widgetId: 5, label: 'dangling' });
    expect(absent.status).toBe(404);
    expect(absent.body['code']).toBe('WIDGET_NOT_FOUND');
    const held = await post('/gadgets', { widgetId: widget.body['id'], label: 'held' });
    expect(held.status).toBe(201);
    expect(held.body['widgetId']).toBe(widget.body['id']);
  });

  test("the suite's `.reference` check passes on our mock while widgets 1 and 2 exist, and never sends their numbers as dangling", async () => {
    for (const label of ['second', 'third']) expect((await post('/widgets', { label })).status).toBe(201);
    const outcome = await runCheck('createGadget.reference', { baseUrl: started.mock.baseUrl, apiKey: 'k', spec: started.spec, runs: 10, seed: 3 });
    expect(outcome.ok ? '' : outcome.report).toBe('');
    const gadgets = (await (await fetch(`${started.mock.baseUrl}/gadgets`, { headers: { authorization: 'Bearer k' } })).json()) as { label: string }[];
    // Nothing but the held gadget above was made: every dangling value was refused.
    expect(gadgets.map((gadget) => gadget.label)).toEqual(['held']);
  }, 60_000);
});
