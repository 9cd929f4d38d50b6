import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bearer, call } from '../test/in-process.js';
import { createMock } from './index.js';

/**
 * A cursor-paged list no resource holds, answered from its example and declaring a `Link` header (spec/DECISIONS.md
 * › D305), and a create whose answer refuses a null its record admits (D306).
 */
const alert = { type: 'object', required: ['number', 'state'], properties: { number: { type: 'integer' }, state: { type: 'string', enum: ['open', 'dismissed'] } } };
const registry = { type: 'object', required: ['name', 'url'], properties: { name: { type: 'string' }, url: { type: 'string' }, username: { type: ['string', 'null'] } } };
const answered = { type: 'object', required: ['name', 'url', 'created_at'], properties: { name: { type: 'string' }, url: { type: 'string' }, username: { type: 'string' }, created_at: { type: 'string', format: 'date-time' } } };
const json = (schema: object, example?: unknown) => ({ 'application/json': { schema, ...(example === undefined ? {} : { example }) } });
const spec = {
  openapi: '3.1.0',
  info: { title: 'Alerts', version: '1' },
  components: { securitySchemes: { key: { type: 'http', scheme: 'bearer' } } },
  security: [{ key: [] }],
  paths: {
    '/things/{thing}/alerts': {
      get: {
        operationId: 'listAlerts',
        parameters: [
          { name: 'thing', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'state', in: 'query', schema: { type: 'string', enum: ['open', 'dismissed'] } },
          { name: 'per_page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 30 } },
          { name: 'after', in: 'query', description: 'A cursor, as given in the Link header.', schema: { type: 'string' } },
        ],
        responses: {
          '200': {
            description: 'ok',
            headers: { Link: { description: 'Pages.', schema: { type: 'string' } } },
            content: json({ type: 'array', items: alert }, [{ number: 1, state: 'open' }, { number: 2, state: 'dismissed' }, { number: 3, state: 'open' }]),
          },
        },
      },
    },
    '/registries': {
      post: {
        operationId: 'createRegistry',
        requestBody: { required: true, content: json({ type: 'object', required: ['name', 'url'], properties: { name: { type: 'string' }, url: { type: 'string' }, username: { type: ['string', 'null'] } } }) },
        responses: { '201': { description: 'made', content: json(answered) } },
      },
    },
    '/registries/{name}': {
      get: { operationId: 'getRegistry', parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'ok', content: json(registry) }, '404': { description: 'missing' } } },
    },
  },
};
const dir = mkdtempSync(join(tmpdir(), 'harness-served-cursor-'));
writeFileSync(join(dir, 'openapi.json'), JSON.stringify(spec));
const mock = await createMock({ spec: join(dir, 'openapi.json'), apiKeys: ['k'], data: new Map() });
rmSync(dir, { recursive: true, force: true });
const headers = bearer('k');

describe('a cursor-paged list answered from its example (D305)', () => {
  it('cuts the page to the size asked and links the next page, whose cursor reaches the rest', () => {
    const first = call(mock.handle, { url: '/things/a/alerts?per_page=2', headers });
    expect(first.status).toBe(200);
    expect(first.json.map((item: { number: number }) => item.number)).toEqual([1, 2]);
    const next = /<([^>]+)>; rel="next"/.exec(String(first.headers['link']))?.[1];
    expect(next).toBeDefined();
    const second = call(mock.handle, { url: next!, headers });
    expect(second.json.map((item: { number: number }) => item.number)).toEqual([3]);
    expect(second.headers['link']).toBeUndefined();
  });

  it('keeps only the records holding the filter value asked', () => {
    const open = call(mock.handle, { url: '/things/a/alerts?state=open&per_page=100', headers });
    expect(open.json.map((item: { number: number }) => item.number)).toEqual([1, 3]);
  });
});

describe('a null the answer refuses (D306)', () => {
  it('is left out of the create answer and kept by the record', () => {
    const made = call(mock.handle, { method: 'POST', url: '/registries', headers: bearer('k', { 'content-type': 'application/json' }), body: '{"name":"npm","url":"https://r.example/","username":null}' });
    expect(made.status).toBe(201);
    expect(made.json).not.toHaveProperty('username');
    expect(made.json).toMatchObject({ name: 'npm', url: 'https://r.example/' });
    expect(call(mock.handle, { url: '/registries/npm', headers }).json).toMatchObject({ name: 'npm', username: null });
  });
});
