import type { MockRequest, MockResponse } from '../mock/pipeline.js';

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

/** `Authorization: Bearer <key>`, lower-case as node gives headers. */
export function bearer(key: string, headers: MockRequest['headers'] = {}): MockRequest['headers'] {
  return { authorization: `Bearer ${key}`, ...headers };
}
