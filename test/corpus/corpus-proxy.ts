import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse, stringify } from 'lossless-json';

// A small HTTP proxy in front of a correct mock, through which a broken server's one fault is injected. It speaks
// plain HTTP to both sides, so the fault sees exactly what a client sends and what the mock answers, and never
// reaches into the mock's code. Bodies are handled as text and rewritten with lossless-json, so a rewrite never
// loses an int64 digit by itself.

/** A request as the proxy received it. `path` is below the base path (`/pets/7`); `query` without `?`. */
export interface ProxyRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** Request headers, lower-case names. */
  headers: Record<string, string>;
  /** The body as text (`''` when none). */
  body: string;
}

/** An answer: status, headers (lower-case names) and the body as text. */
export interface ProxyAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends a (possibly rewritten) request to the correct mock behind the proxy. */
export type Forward = (request: ProxyRequest) => Promise<ProxyAnswer>;

/** One fault: answers a request, usually by forwarding it and rewriting the request or the answer. */
export type Fault = (request: ProxyRequest, forward: Forward) => Promise<ProxyAnswer>;

/** A running proxy: `baseUrl` is its origin plus the mock's base path, as a client of the spec expects. */
export interface RunningProxy {
  baseUrl: string;
  close(): Promise<void>;
}

/** Headers that describe one hop, never copied across the proxy. */
const HOP_HEADERS = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date']);

/**
 * Serves `fault` on 127.0.0.1 (a free port) in front of the mock at `innerBaseUrl` (origin + base path). A request
 * outside the base path is forwarded as is. A fault that throws answers 502 in plain text, so a bug of the test
 * itself shows as a failure of every check, never as a pass.
 */
export async function startProxy(innerBaseUrl: string, fault: Fault): Promise<RunningProxy> {
  const inner = new URL(innerBaseUrl);
  const basePath = inner.pathname.replace(/\/+$/, '');
  const forward: Forward = async (request) => {
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !HOP_HEADERS.has(name)));
    const query = request.query.toString();
    const withBody = request.body !== '' && request.method !== 'GET' && request.method !== 'HEAD';
    const response = await fetch(`${inner.origin}${basePath}${request.path}${query === '' ? '' : `?${query}`}`, { method: request.method, headers, ...(withBody ? { body: request.body } : {}) });
    const answerHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!HOP_HEADERS.has(name)) answerHeaders[name] = value;
    });
    return { status: response.status, headers: answerHeaders, body: await response.text() };
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', () => res.destroy());
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://proxy');
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
      const inBase = url.pathname === basePath || url.pathname.startsWith(`${basePath}/`);
      const request: ProxyRequest = { method: req.method ?? 'GET', path: inBase ? url.pathname.slice(basePath.length) : url.pathname, query: url.searchParams, headers, body: Buffer.concat(chunks).toString('utf8') };
      const answer = inBase ? fault(request, forward) : forwardOutside(inner.origin, request);
      answer.then(
        (response) => {
          res.writeHead(response.status, { ...response.headers, 'content-length': Buffer.byteLength(response.body) });
          res.end(response.body);
        },
        (error: unknown) => {
          res.writeHead(502, { 'content-type': 'text/plain' });
          res.end(`the broken server's proxy failed: ${String(error)}`);
        },
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${basePath}`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

async function forwardOutside(origin: string, request: ProxyRequest): Promise<ProxyAnswer> {
  const query = request.query.toString();
  const response = await fetch(`${origin}${request.path}${query === '' ? '' : `?${query}`}`, { method: request.method, headers: { authorization: request.headers['authorization'] ?? '' } });
  return { status: response.status, headers: { 'content-type': response.headers.get('content-type') ?? 'text/plain' }, body: await response.text() };
}

/** A JSON value read exactly (numbers as `LosslessNumber`), or `undefined` when the text is not JSON. */
export function readJson(text: string): unknown {
  try {
    return parse(text);
  } catch {
    return undefined;
  }
}

/** A JSON object answer or body, or `undefined` when it is none. */
export function readObject(text: string): Record<string, unknown> | undefined {
  const value = readJson(text);
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** Writes a JSON value back to text, numbers exactly as read. */
export function writeJson(value: unknown): string {
  return stringify(value) ?? '';
}

/** The answer with its JSON body rewritten by `edit` (numbers exact); a body that is not JSON is kept. */
export function editAnswer(answer: ProxyAnswer, edit: (body: unknown) => unknown): ProxyAnswer {
  const body = readJson(answer.body);
  return body === undefined ? answer : { ...answer, body: writeJson(edit(body)) };
}

/** The request with its JSON object body rewritten by `edit`; a body that is no JSON object is kept. */
export function editBody(request: ProxyRequest, edit: (body: Record<string, unknown>) => void): ProxyRequest {
  const body = readObject(request.body);
  if (body === undefined) return request;
  edit(body);
  return { ...request, body: writeJson(body) };
}

/** Every record of a bare-array list answer, or the one record of a read, passed through `edit`. */
export function editRecords(answer: ProxyAnswer, edit: (record: Record<string, unknown>) => Record<string, unknown>): ProxyAnswer {
  if (answer.status >= 300) return answer;
  return editAnswer(answer, (body) => (Array.isArray(body) ? body.map((record) => edit(record as Record<string, unknown>)) : body !== null && typeof body === 'object' ? edit(body as Record<string, unknown>) : body));
}

/** An answer in the seed's `Error` shape (`{code, message, status}`, application/json). */
export function seedError(status: number, code: string, message: string): ProxyAnswer {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code, message, status }) };
}
