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
 * False alarms of the suite met on the large public descriptions (spec/DECISIONS.md › D251, D252, D254, D255), each
 * on a small spec written here against a server that answers correctly: the mock, or a few lines of node:http.
 */

const KEY = 'gaps-suite-key';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

type Json = Record<string, unknown>;
const ok = (schema: unknown, status = 'ok'): Json => ({ description: status, content: { 'application/json': { schema } } });
const error = ok({ $ref: '#/components/schemas/Error' }, 'refused');
const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const body = (schema: unknown): Json => ({ required: true, content: { 'application/json': { schema } } });

/** Writes a spec of `paths` and `schemas` (bearer security, the error `{message}`) to a temporary file. */
function specFile(paths: Json, schemas: Json): string {
  const dir = mkdtempSync(join(tmpdir(), 'suite-gaps-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'Gaps', version: '1.0.0' },
    servers: [{ url: '/v1' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { Error: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } }, ...schemas },
    },
  }));
  return file;
}

/** The mock of `spec` on a free port, closed after the test; the suite's target for it. */
async function mockTarget(spec: string, runs = 5): Promise<Target> {
  const mock = await startMock({ spec, port: 0, apiKeys: [KEY] });
  cleanups.push(() => mock.close());
  return { baseUrl: mock.baseUrl, apiKey: KEY, spec, runs };
}

/** Answer of a hand-written server: status, JSON body, and how long to wait before sending it. */
type Answer = { status: number; json?: unknown; delayMs?: number };

/** A server on a free port answering each request with `handle`; counts the requests it has not answered yet. */
async function serve(handle: (method: string, path: string, body: Json | undefined) => Answer): Promise<{ baseUrl: string; inFlight: () => number }> {
  let open = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    open += 1;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://test').pathname;
      const text = Buffer.concat(chunks).toString('utf8');
      const answer: Answer = request.headers.authorization !== `Bearer ${KEY}` ? { status: 401, json: { message: 'unauthorized' } } : handle(request.method ?? 'GET', path, text === '' ? undefined : (JSON.parse(text) as Json));
      setTimeout(() => {
        response.writeHead(answer.status, answer.json === undefined ? {} : { 'content-type': 'application/json' });
        response.end(answer.json === undefined ? undefined : JSON.stringify(answer.json), () => (open -= 1));
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  cleanups.push(() => new Promise<void>((done) => server.close(() => done())));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, inFlight: () => open };
}

/** The outcome of `id` as a failure report, or `undefined` when it passed (skips fail the test: each must run). */
async function failureOf(id: string, target: Target): Promise<string | undefined> {
  expect(await listCheckIds(target)).toContain(id);
  const outcome = await runCheck(id, target);
  expect(outcome.ok && outcome.skipped, id).toBeFalsy();
  return outcome.ok ? undefined : outcome.report;
}

describe('a filter value the create cannot send (D255)', () => {
  // The list's filter names a purpose only the server gives (`results`): the suite can make no such record.
  const spec = (): string => specFile({
    '/files': {
      get: {
        operationId: 'listFiles',
        parameters: [
          { name: 'purpose', in: 'query', schema: { type: 'string', enum: ['upload', 'batch', 'results'] } },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 10, default: 4 } },
        ],
        responses: { '200': ok({ type: 'object', required: ['data'], properties: { data: { type: 'array', items: ref('File') } } }), '400': error },
      },
      post: { operationId: 'createFile', requestBody: body(ref('NewFile')), responses: { '201': ok(ref('File')), '400': error } },
    },
    '/files/{file_id}': { get: { operationId: 'getFile', parameters: [{ name: 'file_id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': ok(ref('File')), '404': error } } },
  }, {
    NewFile: { type: 'object', required: ['name', 'purpose'], properties: { name: { type: 'string', maxLength: 20 }, purpose: { type: 'string', enum: ['upload', 'batch'] } }, additionalProperties: false },
    File: { type: 'object', required: ['id', 'name', 'purpose'], properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' }, purpose: { type: 'string', enum: ['upload', 'batch', 'results'] } } },
  });

  test('its pages are not expected to hold records the suite never made', async () => {
    const target = await mockTarget(spec());
    for (const id of ['listFiles.purpose-filter', 'listFiles.limit', 'listFiles.default-limit']) expect(await failureOf(id, target), id).toBeUndefined();
  });
});

describe('an operation no resource holds, asked for a record that does not exist (D251)', () => {
  const spec = (): string => specFile({
    '/reports/{report_id}': { get: { operationId: 'getReport', parameters: [{ name: 'report_id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': ok(ref('Report')) } } },
  }, { Report: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } });
  const report = (status: number) => (): Answer => ({ status, json: status === 200 ? { id: 'r1' } : { message: 'no such report' } });

  test("HTTP's 404 is taken although the operation does not list it, with advice", async () => {
    const server = await serve(report(404));
    const target = { baseUrl: server.baseUrl, apiKey: KEY, spec: spec(), runs: 3 };
    expect(await failureOf('getReport.documented', target)).toBeUndefined();
    const outcome = await runCheck('getReport.documented', target);
    expect(outcome.ok && outcome.advice.join('\n')).toMatch(/404, which it does not document/);
  });

  test('another undocumented status still fails it, and so does the 404 under --strict', async () => {
    const conflict = await serve(report(409));
    expect(await failureOf('getReport.documented', { baseUrl: conflict.baseUrl, apiKey: KEY, spec: spec(), runs: 3 })).toMatch(/got 409/);
    const absent = await serve(report(404));
    expect(await failureOf('getReport.documented', { baseUrl: absent.baseUrl, apiKey: KEY, spec: spec(), runs: 3, strict: true })).toMatch(/got 404/);
  });
});

describe('references pinned to held records (D252)', () => {
  const spec = (): string => specFile({
    '/projects': {
      get: { operationId: 'listProjects', responses: { '200': ok({ type: 'array', items: ref('Project') }) } },
      post: { operationId: 'createProject', requestBody: body(ref('NewProject')), responses: { '201': ok(ref('Project')), '400': error } },
    },
    '/projects/{project_id}': { get: { operationId: 'getProject', parameters: [{ name: 'project_id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': ok(ref('Project')), '404': error } } },
    '/boards': {
      get: { operationId: 'listBoards', responses: { '200': ok({ type: 'array', items: ref('Board') }) } },
      post: { operationId: 'createBoard', requestBody: body(ref('NewBoard')), responses: { '201': ok(ref('Board')), '400': error, '404': error } },
    },
    '/boards/{board_id}': { get: { operationId: 'getBoard', parameters: [{ name: 'board_id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': ok(ref('Board')), '404': error } } },
  }, {
    NewProject: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 20 } }, additionalProperties: false },
    Project: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' } } },
    NewBoard: { type: 'object', required: ['title', 'project_id'], properties: { title: { type: 'string', maxLength: 20 }, project_id: { type: 'string' } }, additionalProperties: false },
    Board: { type: 'object', required: ['id', 'title', 'project_id'], properties: { id: { type: 'string', readOnly: true }, title: { type: 'string' }, project_id: { type: 'string' } } },
  });

  test('the mock refuses a board of no project with 404, and the echo of boards keeps the project it names', async () => {
    const target = await mockTarget(spec());
    for (const id of ['createBoard.reference', 'createBoard.echo', 'createBoard.required-fields']) expect(await failureOf(id, target), id).toBeUndefined();
  });
});

describe('parallel creates (D254)', () => {
  const spec = (): string => specFile({
    '/items': {
      get: { operationId: 'listItems', responses: { '200': ok({ type: 'array', items: ref('Item') }) } },
      post: { operationId: 'createItem', requestBody: body(ref('NewItem')), responses: { '201': ok(ref('Item')), '400': error } },
    },
  }, {
    NewItem: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 20 } }, additionalProperties: false },
    Item: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' } } },
  });

  test('no request of the check is still in flight when it has failed', async () => {
    let creates = 0;
    // The first create fails at once; the others answer later: the check fails, but only once they are answered.
    const server = await serve((method, _path, sent) => {
      if (method === 'GET') return { status: 200, json: [] };
      creates += 1;
      return creates === 1 ? { status: 500, json: { message: 'down' } } : { status: 201, json: { id: creates, name: sent?.['name'] }, delayMs: 300 };
    });
    const target = { baseUrl: server.baseUrl, apiKey: KEY, spec: spec(), runs: 2 };
    const report = await failureOf('concurrency.create', target);
    expect(report).toMatch(/500/);
    expect(creates).toBeGreaterThan(1);
    expect(server.inFlight()).toBe(0);
  });
});
