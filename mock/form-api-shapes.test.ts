import { describe, expect, test } from 'vitest';
import { loadModel } from '../model/loader.js';
import { requestOf } from '../conformance/context.js';
import { startRun } from '../conformance/run-suite.js';
import { specMock } from '../test/spec-mock.js';

/**
 * The shapes of a form-bodied API in the style of public payment APIs, written here without any vendor's names: a
 * read that answers the record or its deleted form (D320), a decimal string (D321), a `unix-time` stamp, a map and a
 * list nobody wrote (D322), a verb below the item that acts on the record (D323), a state listed alphabetically but
 * described in its life's order (D324), pages after a record's id (D325), a required deepObject query (D326), and a
 * query of an object or an integer (D329).
 */
const SPEC = `openapi: 3.0.3
info: { title: Form API, version: '1' }
components:
  securitySchemes:
    key: { type: http, scheme: bearer }
  schemas:
    widget:
      type: object
      required: [id, object, created, labels, tags, rate, state]
      properties:
        id: { type: string }
        object: { type: string, enum: [widget] }
        name: { type: string }
        created: { type: integer, format: unix-time }
        labels: { type: object, additionalProperties: { type: string } }
        tags: { type: array, items: { type: string } }
        rate: { type: string, format: decimal }
        reason: { type: string, nullable: true }
        state: { type: string, description: 'One of \`pending\`, \`active\` or \`closed\`.', enum: [active, closed, pending] }
    deleted_widget:
      type: object
      required: [id, object, deleted]
      properties:
        id: { type: string }
        object: { type: string, enum: [widget] }
        deleted: { type: boolean, enum: [true] }
    error:
      type: object
      required: [error]
      properties:
        error: { type: object, required: [type], properties: { type: { type: string, enum: [api_error, invalid_request_error] }, message: { type: string }, code: { type: string } } }
security: [{ key: [] }]
paths:
  /widgets:
    get:
      operationId: listWidgets
      parameters:
        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 100 } }
        - { name: starting_after, in: query, description: 'A cursor: an object ID that defines your place in the list.', schema: { type: string } }
        - { name: created, in: query, style: deepObject, explode: true, schema: { anyOf: [{ type: object, properties: { gte: { type: integer }, lt: { type: integer } } }, { type: integer }] } }
      responses:
        '200':
          description: widgets
          content:
            application/json:
              schema:
                type: object
                required: [object, data, has_more, url]
                properties:
                  object: { type: string, enum: [list] }
                  data: { type: array, items: { $ref: '#/components/schemas/widget' } }
                  has_more: { type: boolean }
                  url: { type: string }
        default: { description: error, content: { application/json: { schema: { $ref: '#/components/schemas/error' } } } }
    post:
      operationId: createWidget
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema: { type: object, properties: { name: { type: string }, labels: { type: object, additionalProperties: { type: string } }, tags: { type: array, items: { type: string } } } }
            encoding: { labels: { style: deepObject, explode: true } }
      responses:
        '200': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/widget' } } } }
        default: { description: error, content: { application/json: { schema: { $ref: '#/components/schemas/error' } } } }
  /widgets/{widget}:
    parameters: [{ name: widget, in: path, required: true, schema: { type: string } }]
    get:
      operationId: readWidget
      responses:
        '200': { description: the widget, content: { application/json: { schema: { anyOf: [{ $ref: '#/components/schemas/widget' }, { $ref: '#/components/schemas/deleted_widget' }] } } } }
        default: { description: error, content: { application/json: { schema: { $ref: '#/components/schemas/error' } } } }
    post:
      operationId: updateWidget
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema: { type: object, properties: { name: { type: string } } }
      responses:
        '200': { description: updated, content: { application/json: { schema: { $ref: '#/components/schemas/widget' } } } }
        default: { description: error, content: { application/json: { schema: { $ref: '#/components/schemas/error' } } } }
    delete:
      operationId: deleteWidget
      responses:
        '200': { description: deleted, content: { application/json: { schema: { $ref: '#/components/schemas/deleted_widget' } } } }
        default: { description: error, content: { application/json: { schema: { $ref: '#/components/schemas/error' } } } }
  /widgets/{widget}/close:
    parameters: [{ name: widget, in: path, required: true, schema: { type: string } }]
    post:
      operationId: closeWidget
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema: { type: object, properties: { reason: { type: string } } }
      responses:
        '200': { description: closed, content: { application/json: { schema: { $ref: '#/components/schemas/widget' } } } }
        default: { description: error, content: { application/json: { schema: { $ref: '#/components/schemas/error' } } } }
  /secrets:
    get:
      operationId: listSecrets
      parameters:
        - { name: scope, in: query, required: true, style: deepObject, explode: true, schema: { type: object, required: [type], properties: { type: { type: string, enum: [account, user] }, user: { type: string } } } }
      responses:
        '200': { description: secrets, content: { application/json: { schema: { type: array, items: { type: object, properties: { name: { type: string } } } } } } }
        default: { description: error, content: { application/json: { schema: { $ref: '#/components/schemas/error' } } } }
`;

const KEY = 'form-api-key-0123456789';
const started = specMock('form-api', SPEC, [KEY]);

/** A call to the mock with the key, a form body when `form` is given; the status and the parsed JSON answer. */
async function call(method: string, path: string, form?: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { authorization: `Bearer ${KEY}` };
  if (form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
  const response = await fetch(`${started.mock.baseUrl}${path}`, { method, headers, ...(form === undefined ? {} : { body: new URLSearchParams(form).toString() }) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('a form-bodied API: records, actions, pages and queries read from the description', () => {
  test('a create fills what nobody wrote: now in unix time, empty map and list, a decimal text, the first state the prose names (D321, D322, D324)', async () => {
    const before = Math.floor(Date.now() / 1000);
    const { status, body } = await call('POST', '/widgets', { name: 'first' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ object: 'widget', name: 'first', labels: {}, tags: [], state: 'pending' });
    expect(body['created']).toBeGreaterThanOrEqual(before);
    expect(body['created']).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(String(body['rate'])).toMatch(/^-?\d+(\.\d+)?$/);
  });

  test('the item path holds the records of the collection although its read also answers a deleted form (D320)', async () => {
    const model = await loadModel(started.spec);
    const widgets = model.resources.find((resource) => resource.collectionPath === '/widgets');
    expect(widgets?.itemPath).toBe('/widgets/{widget}');
    const { body: created } = await call('POST', '/widgets', { name: 'kept', 'labels[team]': 'blue' });
    expect((await call('GET', `/widgets/${String(created['id'])}`)).body).toEqual(created);
    const unknown = await call('GET', '/widgets/nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body['error']).toMatchObject({ type: expect.any(String), message: expect.any(String) });
    expect((await call('DELETE', `/widgets/${String(created['id'])}`)).body).toEqual({ id: created['id'], object: 'widget', deleted: true });
    expect((await call('GET', `/widgets/${String(created['id'])}`)).status).toBe(404);
  });

  test('a POST on a verb below the item acts on that record, not on a new one (D323)', async () => {
    const model = await loadModel(started.spec);
    const close = model.operations.find((op) => op.operationId === 'closeWidget')!;
    expect(close.resource).toBeUndefined();
    expect(close.acts?.collectionPath).toBe('/widgets');
    const { body: created } = await call('POST', '/widgets', { name: 'to close' });
    const closed = await call('POST', `/widgets/${String(created['id'])}/close`, { reason: 'done' });
    expect(closed.status).toBe(200);
    expect(closed.body).toEqual({ ...created, reason: 'done' });
    expect((await call('GET', `/widgets/${String(created['id'])}`)).body).toEqual({ ...created, reason: 'done' });
    expect((await call('POST', '/widgets/nope/close', { reason: 'done' })).status).toBe(404);
  });

  test('a page starts after the record whose id the cursor names; an id of no record is refused (D325)', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) ids.push(String((await call('POST', '/widgets', { name: `paged ${n}` })).body['id']));
    const first = await call('GET', '/widgets?limit=2');
    const data = first.body['data'] as { id: string }[];
    expect(data.map((one) => one.id)).toEqual([ids[4], ids[3]]);
    expect(first.body['has_more']).toBe(true);
    const next = await call('GET', `/widgets?limit=2&starting_after=${encodeURIComponent(data[1]!.id)}`);
    expect((next.body['data'] as { id: string }[]).map((one) => one.id)).toEqual([ids[2], ids[1]]);
    expect((await call('GET', '/widgets?limit=2&starting_after=no-such-widget')).status).toBe(400);
  });

  test('a query of several shapes is read as the scalar its text is, or as its bracketed object (D326, D329)', async () => {
    const { body: created } = await call('POST', '/widgets', { name: 'stamped' });
    const exact = await call('GET', `/widgets?limit=100&created=${String(created['created'])}`);
    expect(exact.status).toBe(200);
    expect((exact.body['data'] as { id: string }[]).map((one) => one.id)).toContain(created['id']);
    expect((await call('GET', '/widgets?created%5Bgte%5D=1')).status).toBe(200);
    expect((await call('GET', '/widgets?created=soon')).status).toBe(400);
  });

  test('a required deepObject query is given as name[member]=value, checked, and the suite sends it so (D326)', async () => {
    expect((await call('GET', '/secrets')).status).toBe(400);
    expect((await call('GET', '/secrets?scope%5Btype%5D=account')).status).toBe(200);
    expect((await call('GET', '/secrets?scope%5Btype%5D=nobody')).status).toBe(400);
    const model = await loadModel(started.spec);
    const op = model.operations.find((candidate) => candidate.operationId === 'listSecrets')!;
    const context = { run: await startRun({ baseUrl: started.mock.baseUrl, apiKey: KEY, spec: started.spec }, { model }) };
    const path = requestOf(context, op, { query: '' }).path;
    expect(path).toMatch(/^\/secrets\?scope%5Btype%5D=(account|user)/);
    expect((await call('GET', path)).status).toBe(200);
  });
});
