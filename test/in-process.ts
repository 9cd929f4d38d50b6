import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach } from 'vitest';
import { createMock, type Mock, type StartingData } from '../mock/index.js';
import type { MockRequest, MockResponse } from '../mock/index.js';
import { loadModel, PACKAGE_ROOT } from '../model/loader.js';

/**
 * A mock (in-process) of the OpenAPI 3.0 `document` a test writes (its `paths`, `components`…): `openapi`, `info`
 * and `servers: [{url: '/api'}]` are added, and it is written to a temporary file and read as any description is.
 * `data`: the starting records (default none), or `'examples'` for the records the description's own examples show,
 * as `openapi-harness mock` starts.
 */
export async function documentMock(document: object, data: StartingData | 'examples' = new Map()): Promise<Mock> {
  const file = join(mkdtempSync(join(tmpdir(), 'document-mock-')), 'openapi.json');
  writeFileSync(file, JSON.stringify({ openapi: '3.0.3', info: { title: 'a description written by a test', version: '1' }, servers: [{ url: '/api' }], ...document }));
  return createMock({ model: await loadModel(file), ...(data === 'examples' ? {} : { data }) });
}

/** A request for `Mock.handle`, with defaults: `GET /v1/pets`, no headers, the body as text or bytes. */
export type CallInit = Omit<Partial<MockRequest>, 'body'> & { body?: string | Buffer | undefined };

/** Calls a mock in-process (no socket) and parses a JSON body: `json` is `undefined` for an empty body. */
export function call(handle: (request: MockRequest) => MockResponse, init: CallInit = {}): MockResponse & { json: any } {
  const request: MockRequest = {
    method: init.method ?? 'GET',
    url: init.url ?? '/v1/pets',
    headers: init.headers ?? {},
    body: typeof init.body === 'string' ? Buffer.from(init.body) : init.body,
  };
  const response = handle(request);
  return { ...response, json: response.body === '' ? undefined : JSON.parse(response.body) };
}

/**
 * An in-process caller of `mock` as a JSON client with the default development key: `(method, url, body?)`, the
 * URL below `prefix` (default the description's base path), `body` sent as JSON.
 */
export function jsonCaller(mock: Mock, prefix = mock.api.basePath): (method: string, url: string, body?: unknown) => MockResponse & { json: any } {
  return (method, url, body) =>
    call(mock.handle, { method, url: `${prefix}${url}`, headers: { 'content-type': 'application/json', authorization: 'Bearer openapi-harness-dev-key' }, body: body === undefined ? undefined : JSON.stringify(body) });
}

/** `Authorization: Bearer <key>`, lower-case as node gives headers. */
export function bearer(key: string, headers: MockRequest['headers'] = {}): MockRequest['headers'] {
  return { authorization: `Bearer ${key}`, ...headers };
}

/**
 * An empty mock of the spec `mock/fixtures/<fixture>`, made afresh before each test, and its in-process callers:
 * `send` (any request), `post` (a JSON body) and `get`, with paths below the fixture's base path `/api`.
 */
export async function fixtureMock(fixture: string): Promise<{
  send: (init: CallInit) => ReturnType<typeof call>;
  post: (url: string, body: unknown) => ReturnType<typeof call>;
  get: (url: string) => ReturnType<typeof call>;
}> {
  const model = await loadModel(join(PACKAGE_ROOT, 'mock', 'fixtures', fixture));
  let mock: Mock;
  beforeEach(async () => {
    mock = await createMock({ model, data: new Map() });
  });
  const send = (init: CallInit): ReturnType<typeof call> => call(mock.handle, init);
  return {
    send,
    post: (url, body) => send({ method: 'POST', url: `/api${url}`, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    get: (url) => send({ url: `/api${url}` }),
  };
}
