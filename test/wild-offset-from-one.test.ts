import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCheck } from '../conformance/run-suite.js';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * An offset parameter whose `minimum` is 1 counts positions from 1 (spec/DECISIONS.md › D621): `offset=1` is the
 * first record, and its `default: 1` asks from the start. Our mock reads it so, and the suite walks its pages from
 * there; a server that reads the same parameter as the number of records to skip (so its default skips one)
 * fails the suite's pages check.
 */
const SPEC = `openapi: 3.0.3
info: { title: Creditors, version: '1' }
paths:
  /creditors:
    get:
      operationId: listCreditors
      parameters:
        - { name: name, in: query, schema: { type: string } }
        - { name: limit, in: query, schema: { type: integer, minimum: 1, default: 100 } }
        - { name: offset, in: query, description: The initial index from which to return the results., schema: { type: integer, minimum: 1, default: 1 } }
      responses:
        '200':
          description: A page.
          content:
            application/json:
              schema:
                type: object
                properties:
                  count: { type: integer }
                  next: { type: string, format: uri, nullable: true }
                  previous: { type: string, format: uri, nullable: true }
                  results: { type: array, items: { $ref: '#/components/schemas/Creditor' } }
    post:
      operationId: createCreditor
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Creditor' } } } }
      responses:
        '201': { description: Made., content: { application/json: { schema: { $ref: '#/components/schemas/Creditor' } } } }
  /creditors/{id}:
    get:
      operationId: getCreditor
      parameters: [{ name: id, in: path, required: true, schema: { type: string, format: uuid } }]
      responses:
        '200': { description: The creditor., content: { application/json: { schema: { $ref: '#/components/schemas/Creditor' } } } }
        '404': { description: None. }
components:
  schemas:
    Creditor:
      type: object
      required: [name]
      properties:
        id: { type: string, format: uuid, readOnly: true }
        name: { type: string, maxLength: 20 }
`;

const started = specMock('offset-from-one', SPEC, ['k']);

/** A server that reads `offset` as the number of records to skip, default 1: our mock behind a rewrite of the parameter. */
let skipping: Server;
let skippingUrl = '';
beforeAll(async () => {
  skipping = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    if (url.pathname === '/creditors' && request.method === 'GET') url.searchParams.set('offset', String(Number(url.searchParams.get('offset') ?? 1) + 1));
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers = Object.fromEntries(Object.entries(request.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'host' && entry[0] !== 'content-length'));
      const body = chunks.length === 0 ? undefined : Buffer.concat(chunks);
      void fetch(`${started.mock.baseUrl}${url.pathname}${url.search}`, { method: request.method ?? 'GET', headers, ...(body === undefined ? {} : { body }) }).then(async (answer) => {
        response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        response.end(Buffer.from(await answer.arrayBuffer()));
      });
    });
  });
  await new Promise<void>((resolve) => skipping.listen(0, '127.0.0.1', resolve));
  skippingUrl = `http://127.0.0.1:${(skipping.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => skipping.close(resolve));
});

describe('an offset whose minimum is 1 (D621)', () => {
  test('the mock answers offset 1 from the first record and links the pages in the same count', async () => {
    const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };
    for (const name of ['a', 'b', 'c']) expect((await fetch(`${started.mock.baseUrl}/creditors`, { method: 'POST', headers, body: JSON.stringify({ name }) })).status).toBe(201);
    const names = async (query: string): Promise<{ names: string[]; previous: unknown; next: unknown }> => {
      const body = (await (await fetch(`${started.mock.baseUrl}/creditors?${query}`, { headers })).json()) as { results: { name: string }[]; previous: unknown; next: unknown };
      return { names: body.results.map((record) => record.name).sort(), previous: body.previous, next: body.next };
    };
    expect((await names('')).names).toEqual(['a', 'b', 'c']);
    expect((await names('name=b')).names).toEqual(['b']);
    const first = await names('limit=2&offset=1');
    const second = await names('limit=2&offset=3');
    expect([...first.names, ...second.names].sort()).toEqual(['a', 'b', 'c']);
    expect(String(first.next)).toMatch(/offset=3/);
    expect(String(second.previous)).toMatch(/offset=1/);
    expect((await fetch(`${started.mock.baseUrl}/creditors?offset=0`, { headers })).status).toBe(400);
  });

  test("the suite's checks of the list pass on our mock", async () => {
    await expectChecksPass(started, (id) => id.startsWith('listCreditors.'), ['listCreditors.pages', 'listCreditors.name-filter']);
  }, 60_000);

  test('a server that reads the offset as a number of records to skip fails the pages check', async () => {
    const outcome = await runCheck('listCreditors.pages', { baseUrl: skippingUrl, apiKey: 'k', spec: started.spec, runs: 3 });
    expect(outcome.ok ? '' : outcome.report).toMatch(/listCreditors\.pages/);
  }, 60_000);
});
