import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { createMock, type Mock, type MockRequest, type MockResponse } from '../mock/index.js';
import type { ApiModel } from '../model/model.js';

/**
 * Upstreams for the proxy's tests: the mock (a conforming implementation) behind a node:http server, each with
 * at most one fault. `schema`: a listed record's name is a number; `status`: a create answers 200 instead of 201;
 * `filter`: the list ignores its status filter; `limit`: a page holds one record more than asked for; `echo`: a
 * create answers another name than sent; `int64`: bodies pass through JSON.parse and JSON.stringify (int64 digits
 * beyond 2^53 lost); `storage`: a create echoes exactly but reads and lists lose int64 digits (a store of doubles,
 * seen only by a sequence); `gzip`: no fault, answers gzip-compressed when the client accepts it.
 */
export type Fault = 'none' | 'schema' | 'status' | 'filter' | 'limit' | 'echo' | 'int64' | 'storage' | 'gzip';

/** A running upstream: its base URL (`http://127.0.0.1:PORT/v1`), the requests it received, and `close()`. */
export interface TestUpstream {
  baseUrl: string;
  received: { method: string; url: string; headers: IncomingMessage['headers'] }[];
  mock: Mock;
  close(): Promise<void>;
}

/** What else the upstream lacks: operations it answers with a web server's 404 page, or with 501. */
export interface Gaps {
  missing?: readonly string[];
  notImplemented?: readonly string[];
  /** Extra response headers on every answer. */
  headers?: Record<string, string>;
  /** Answer CORS preflights and add CORS headers for any origin (as a backend a browser page calls does). */
  cors?: boolean;
}

/** Starts an upstream with `fault` on a free loopback port; its records are the mock's demo pets. */
export async function startUpstream(model: ApiModel, fault: Fault, gaps: Gaps = {}): Promise<TestUpstream> {
  const mock = await createMock({ model, apiKeys: ['upstream-key'], corsOrigins: gaps.cors === true ? '*' : false });
  const received: TestUpstream['received'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers });
      const request: MockRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: chunks.length === 0 ? undefined : Buffer.concat(chunks) };
      const op = model.operations.find((candidate) => candidate.method === request.method && candidate.pattern.test(request.url.split('?')[0]!.slice(model.basePath.length)));
      if (op !== undefined && gaps.missing?.includes(op.operationId)) {
        res.writeHead(404, { 'content-type': 'text/html', ...gaps.headers });
        res.end(`<html><body>Cannot ${request.method} ${request.url}</body></html>`);
        return;
      }
      if (op !== undefined && gaps.notImplemented?.includes(op.operationId)) {
        res.writeHead(501, { 'content-type': 'application/json', ...gaps.headers });
        res.end('{"code":"NOT_IMPLEMENTED","message":"not yet","status":501}');
        return;
      }
      const answer = withFault(fault, request, (changed) => mock.handle(changed), op?.operationId);
      let body: Buffer = Buffer.from(answer.body);
      const headers: Record<string, string> = { ...answer.headers, ...gaps.headers };
      if (fault === 'gzip' && /gzip/.test(String(req.headers['accept-encoding'] ?? ''))) {
        body = gzipSync(body);
        headers['content-encoding'] = 'gzip';
      }
      res.writeHead(answer.status, headers);
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${model.basePath}`,
    received,
    mock,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The mock's answer with one fault put in (on the seed's operations). */
function withFault(fault: Fault, request: MockRequest, handle: (request: MockRequest) => MockResponse, operationId: string | undefined): MockResponse {
  if (fault === 'filter' && operationId === 'listPets') {
    const [path, query = ''] = request.url.split('?');
    const kept = new URLSearchParams(query);
    kept.delete('status');
    return handle({ ...request, url: `${path}?${kept.toString()}` });
  }
  if (fault === 'limit' && operationId === 'listPets') {
    const [path, query = ''] = request.url.split('?');
    const bumped = new URLSearchParams(query);
    if (bumped.has('limit')) bumped.set('limit', String(Number(bumped.get('limit')) + 1));
    return handle({ ...request, url: `${path}?${bumped.toString()}` });
  }
  const answer = handle(request);
  if (answer.status >= 300) return answer;
  if (fault === 'schema' && operationId === 'listPets') {
    const pets = JSON.parse(answer.body) as Record<string, unknown>[];
    if (pets[0] !== undefined) pets[0]['name'] = 42;
    return { ...answer, body: JSON.stringify(pets) };
  }
  if (fault === 'status' && operationId === 'createPet') return { ...answer, status: 200 };
  if (fault === 'echo' && operationId === 'createPet') {
    const pet = JSON.parse(answer.body) as Record<string, unknown>;
    return { ...answer, body: JSON.stringify({ ...pet, name: `${String(pet['name'])}!` }) };
  }
  if (fault === 'int64') return { ...answer, body: JSON.stringify(JSON.parse(answer.body)) };
  if (fault === 'storage' && (operationId === 'listPets' || operationId === 'getPet')) return { ...answer, body: JSON.stringify(JSON.parse(answer.body)) };
  return answer;
}
