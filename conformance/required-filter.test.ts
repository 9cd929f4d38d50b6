import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { startMock } from '../mock/index.js';
import { listCheckIds, runCheck } from './run-suite.js';
import type { Target } from './target.js';

/**
 * A list that requires a filter naming a record member (spec/DECISIONS.md › D570): every list request names it with
 * one value, so the records the suite makes for its pages carry that value. Shown on our mock and on a few lines of
 * node:http, correct and with one fault.
 */

const KEY = 'required-filter-key';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

type Json = Record<string, unknown>;
const ok = (schema: unknown, status = 'ok'): Json => ({ description: status, content: { 'application/json': { schema } } });
const error = ok({ $ref: '#/components/schemas/Error' }, 'refused');
const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/** Items of a group: the list requires `group` (a member of every item) and pages by `limit` (1-5, default 2). */
function specFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'required-filter-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'Grouped items', version: '1.0.0' },
    servers: [{ url: '/v1' }],
    security: [{ bearer: [] }],
    paths: {
      '/items': {
        get: {
          operationId: 'listItems',
          parameters: [
            { name: 'group', in: 'query', required: true, schema: { type: 'string', maxLength: 40 } },
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 5, default: 2 } },
          ],
          responses: { '200': ok({ type: 'object', required: ['data'], properties: { data: { type: 'array', items: ref('Item') } } }), '400': error },
        },
        post: { operationId: 'createItem', requestBody: { required: true, content: { 'application/json': { schema: ref('NewItem') } } }, responses: { '201': ok(ref('Item')), '400': error } },
      },
      '/items/{item_id}': { get: { operationId: 'getItem', parameters: [{ name: 'item_id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': ok(ref('Item')), '404': error } } },
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        Error: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
        NewItem: { type: 'object', required: ['name', 'group'], properties: { name: { type: 'string', maxLength: 20 }, group: { type: 'string', maxLength: 40 } }, additionalProperties: false },
        Item: { type: 'object', required: ['id', 'name', 'group'], properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' }, group: { type: 'string' } } },
      },
    },
  }));
  return file;
}

/**
 * A correct server of {@link specFile} in a few lines, or one with a fault: `cap` answers at most that many items
 * of a group, whatever the page size asks.
 */
async function serve(cap = Number.POSITIVE_INFINITY): Promise<string> {
  const items: Json[] = [];
  const send = (response: ServerResponse, status: number, json: unknown): void => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(json));
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.headers.authorization !== `Bearer ${KEY}`) return send(response, 401, { message: 'unauthorized' });
      const url = new URL(request.url ?? '/', 'http://test');
      if (request.method === 'POST' && url.pathname === '/v1/items') {
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          return send(response, 400, { message: 'not JSON' });
        }
        const { name, group } = (body ?? {}) as Json;
        const keys = body !== null && typeof body === 'object' ? Object.keys(body) : [];
        if (typeof name !== 'string' || typeof group !== 'string' || name.length > 20 || group.length > 40 || keys.some((key) => key !== 'name' && key !== 'group')) return send(response, 400, { message: 'invalid item' });
        const item = { id: `i${items.length + 1}`, name, group };
        items.push(item);
        return send(response, 201, item);
      }
      if (request.method === 'GET' && url.pathname === '/v1/items') {
        const groups = url.searchParams.getAll('group');
        const limits = url.searchParams.getAll('limit');
        const limit = limits.length === 0 ? 2 : Number(limits[0]);
        if (groups.length !== 1 || limits.length > 1 || !/^\d+$/.test(limits[0] ?? '2') || limit < 1 || limit > 5) return send(response, 400, { message: 'invalid query' });
        return send(response, 200, { data: items.filter((item) => item['group'] === groups[0]).slice(0, Math.min(limit, cap)) });
      }
      const found = /^\/v1\/items\/([^/]+)$/.exec(url.pathname);
      const item = request.method === 'GET' && found !== null ? items.find((candidate) => candidate['id'] === decodeURIComponent(found[1]!)) : undefined;
      return item === undefined ? send(response, 404, { message: 'no such item' }) : send(response, 200, item);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  cleanups.push(() => new Promise<void>((done) => server.close(() => done())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

/** The outcome of `id` as a failure report, or `undefined` when it passed (a skip fails the test: each must run). */
async function failureOf(id: string, target: Target): Promise<string | undefined> {
  expect(await listCheckIds(target)).toContain(id);
  const outcome = await runCheck(id, target);
  expect(outcome.ok && outcome.skipped, id).toBeFalsy();
  return outcome.ok ? undefined : outcome.report;
}

const CHECKS = ['listItems.limit', 'listItems.default-limit'];

describe('a list that requires a filter naming a record member (D570)', () => {
  test('our mock passes its page-size checks: the records made carry the value the list is asked with', async () => {
    const spec = specFile();
    const mock = await startMock({ spec, port: 0, apiKeys: [KEY] });
    cleanups.push(() => mock.close());
    for (const id of CHECKS) expect(await failureOf(id, { baseUrl: mock.baseUrl, apiKey: KEY, spec, runs: 5 }), id).toBeUndefined();
  });

  test('a correct server of a few lines passes them too', async () => {
    const spec = specFile();
    const baseUrl = await serve();
    for (const id of CHECKS) expect(await failureOf(id, { baseUrl, apiKey: KEY, spec, runs: 5 }), id).toBeUndefined();
  });

  test('a server that answers at most one item of a group fails them: the page is incomplete', async () => {
    const spec = specFile();
    const baseUrl = await serve(1);
    for (const id of CHECKS) expect(await failureOf(id, { baseUrl, apiKey: KEY, spec, runs: 5 }), id).toMatch(/fewer than limit \d, yet the target holds at least \d+ /);
  });
});
