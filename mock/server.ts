import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { apiError, type ErrorCode } from './errors.js';
import { announcesBody, closeServer, listen, openStream, readBody } from './http-adapter.js';
import type { MockRequest, MockResponse } from './messages.js';
import { answerDelay, DEFAULT_EVENT_GAP_MS, type Latency } from './prefer.js';
import { DRAINING } from './shutdown.js';
import type { Maybe } from './store/record-store.js';

/** Socket-level settings of the mock's HTTP server. */
export interface ServerOptions {
  /** Interface to listen on; default `127.0.0.1`. */
  host?: string;
  /** TCP port; `0` picks a free one. Default `4010`. */
  port?: number;
  /** Largest request body accepted, in bytes; larger ones get a 413 `Error`. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Called after each response with its status and duration in milliseconds (for the request log). */
  onResponse?: (request: IncomingMessage, status: number, milliseconds: number) => void;
  /** Every answer waits a random time in `[min, max]` ms before it is written (`--latency`); `Prefer: delay=MS` overrides it per request. */
  latency?: Latency | undefined;
  /**
   * The errors the adapter answers itself (413, 408, 431, a malformed request, CONNECT) in the spec's documented
   * shape and media type (the mock's `adapterError`); default: the seed's `Error` as JSON.
   */
  errorAnswer?: ErrorAnswer | undefined;
  /** Adds to the 413 the adapter answers itself what the handler adds to its own answers (the CORS headers, so a page can read it). */
  decorate?: ((request: MockRequest, response: MockResponse) => MockResponse) | undefined;
  /** Milliseconds a client has to send the request headers; beyond, a 408 `Error` and the socket closes. Default 10,000. */
  headersTimeout?: number;
  /** Milliseconds a client has to send the whole request (headers and body); beyond, a 408 `Error`. Default 30,000. */
  requestTimeout?: number;
  /** Milliseconds an idle keep-alive connection stays open between requests. Default 5,000. */
  keepAliveTimeout?: number;
}

/** A listening mock: its origin (`http://127.0.0.1:4010`), the node server, and `close()`. */
export interface RunningServer {
  origin: string;
  server: Server;
  close(): Promise<void>;
}

/**
 * Serves a pipeline over HTTP/1.1 with `node:http` (the socket is a thin adapter; the pipeline is
 * testable without one). A body over `maxBodyBytes` and a malformed HTTP request still get a JSON `Error`.
 */
export async function serve(handle: (request: MockRequest) => Maybe<MockResponse>, options: ServerOptions = {}): Promise<RunningServer> {
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const errorAnswer = options.errorAnswer ?? ((_request: unknown, code: ErrorCode, detail?: string) => errorResponse(code, detail));
  const onResponse = options.onResponse;
  const latency = options.latency !== undefined && options.latency.max > 0 ? options.latency : undefined;

  const plain = onResponse === undefined && latency === undefined;
  /** How a request's answer is sent with a request log, `--latency` or `Prefer`: timed, maybe delayed. `undefined`: written at once. */
  const senderFor = (req: IncomingMessage, res: ServerResponse): ((response: MockResponse) => void) | undefined => {
    if (plain && req.headers.prefer === undefined) return undefined;
    const started = onResponse === undefined ? 0 : performance.now();
    const finish = (response: MockResponse): void => {
      if (response.stream !== undefined) openStream(res, response, streams);
      else if (response.chunks !== undefined) writeChunks(res, response, streams, () => answerDelay(req.headers.prefer, latency, DEFAULT_EVENT_GAP_MS));
      else write(res, response);
      if (onResponse !== undefined) onResponse(req, response.status, performance.now() - started);
    };
    if (latency === undefined && req.headers.prefer === undefined) return finish;
    return (response) => {
      const wait = answerDelay(req.headers.prefer, latency);
      if (wait > 0) setTimeout(finish, wait, response);
      else finish(response);
    };
  };
  /** Streamed answers still open: ended when the server closes, so that `close()` does not wait for watchers to leave. */
  const streams = new Set<ServerResponse>();
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const request = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers };
    // The common case (no request log, --latency or `Prefer`) makes no closure or timer per request.
    const send = senderFor(req, res);
    if (!announcesBody(req)) {
      deliver(res, send, answer(handle, request, errorAnswer), streams);
      req.resume();
      return;
    }
    readBody(
      req,
      res,
      maxBodyBytes,
      // Spelled out rather than `{ ...request, body }`: the spread cost about 9 us per POST (bench/RESULTS.md).
      (body) => deliver(res, send, answer(handle, { method: request.method, url: request.url, headers: request.headers, body }, errorAnswer), streams),
      () => {
        const tooLarge = errorAnswer(request, 'PAYLOAD_TOO_LARGE', `The request body is larger than ${maxBodyBytes} bytes.`);
        deliver(res, send, options.decorate === undefined ? tooLarge : options.decorate(request, tooLarge), streams);
      },
    );
  };
  const { origin, server } = await listen(onRequest, { ...options, errorAnswer });

  // A shutdown's drain (mock/shutdown.ts) ends the streams too: a watcher never holds the process for the grace period.
  server.on(DRAINING, () => {
    for (const res of streams) res.end();
  });

  return {
    origin,
    server,
    close: () => {
      // The streams first: a connection whose stream just ended is idle, and only then closed with the idle ones.
      for (const res of streams) res.end();
      return closeServer(server);
    },
  };
}

/** Writes an answer at once (or once a store over the network answered), or hands it to the request's sender (request log, latency). */
function deliver(res: ServerResponse, send: ((response: MockResponse) => void) | undefined, response: Maybe<MockResponse>, streams: Set<ServerResponse>): void {
  if (response instanceof Promise) {
    void response.then((answered) => deliver(res, send, answered, streams));
    return;
  }
  if (response.stream !== undefined && send === undefined) openStream(res, response, streams);
  else if (response.chunks !== undefined && send === undefined) writeChunks(res, response, streams, () => DEFAULT_EVENT_GAP_MS);
  else if (send === undefined) write(res, response);
  else send(response);
}

/**
 * Writes a documented stream's events one by one (D85): the head at once, then each piece after `gap()`
 * milliseconds, then the end. A client that leaves stops it: no timer outlives the socket.
 */
function writeChunks(res: ServerResponse, response: MockResponse, streams: Set<ServerResponse>, gap: () => number): void {
  const headers: string[] = [];
  for (const name of Object.keys(response.headers)) headers.push(name, response.headers[name]!);
  res.writeHead(response.status, headers);
  // The head goes out now, before the first event: a client sees the stream open.
  res.flushHeaders();
  streams.add(res);
  const chunks = response.chunks!;
  let next = 0;
  let timer: NodeJS.Timeout | undefined;
  const step = (): void => {
    timer = undefined;
    if (res.writableEnded || res.destroyed) return;
    res.write(chunks[next++]!);
    if (next < chunks.length) timer = setTimeout(step, gap());
    else res.end();
  };
  res.on('close', () => {
    streams.delete(res);
    if (timer !== undefined) clearTimeout(timer);
  });
  if (chunks.length === 0) res.end();
  else step();
}

/** Flat `[name, value, ..., 'content-length', '']` arrays of shared (frozen) header objects, built once each. */
const flatHeaders = new WeakMap<Record<string, string>, string[]>();

/**
 * Writes an answer with one `writeHead(status, [name, value, ...])`: node's fast path, several µs less per request
 * than a `setHeader` per header (bench/RESULTS.md). The array of a frozen header object is built once and its last
 * slot set to this answer's `content-length`; `writeHead` reads it at once and keeps no reference.
 */
function write(res: ServerResponse, response: MockResponse): void {
  // A 204 or 304 has no content, and a server must not send a Content-Length with a 204 (RFC 9110 § 8.6, § 15.3.5):
  // node drops the body of such an answer but would send the length it was given, which clients read as a broken
  // message. A handler that filled a body for a documented 204 (a description giving its 204 a schema) loses it here.
  if (response.status === 204 || response.status === 304) {
    const headers: string[] = [];
    for (const name of Object.keys(response.headers)) headers.push(name, response.headers[name]!);
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  let headers = flatHeaders.get(response.headers);
  if (headers === undefined) {
    headers = [];
    for (const name of Object.keys(response.headers)) headers.push(name, response.headers[name]!);
    headers.push('content-length', '');
    if (Object.isFrozen(response.headers)) flatHeaders.set(response.headers, headers);
  }
  if (response.bytes !== undefined) {
    headers[headers.length - 1] = String(response.bytes.length);
    res.writeHead(response.status, headers);
    res.end(response.bytes);
    return;
  }
  const bytes = encoded(response.body);
  headers[headers.length - 1] = lastLength;
  res.writeHead(response.status, headers);
  res.end(bytes);
}

let lastBody = '';
let lastBytes = Buffer.alloc(0);
let lastLength = '0';

/**
 * The UTF-8 bytes of a body and their `Content-Length`, remembered for the last body: a page answered again is the
 * same string (the stores cache pages), so it is encoded once, not on every request.
 */
function encoded(body: string): Buffer {
  if (body !== lastBody) {
    lastBody = body;
    lastBytes = Buffer.from(body, 'utf8');
    lastLength = String(lastBytes.length);
  }
  return lastBytes;
}

/** Runs the pipeline; should it ever throw or reject (a bug), answers a 500 `INTERNAL_ERROR` instead of crashing the process. */
function answer(handle: (request: MockRequest) => Maybe<MockResponse>, request: MockRequest, errorAnswer: ErrorAnswer): Maybe<MockResponse> {
  // In the routed operation's documented error shape (errorAnswer), as every other error of the mock; the seed's should that fail too.
  const internal = (): MockResponse => {
    try {
      return errorAnswer(request, 'INTERNAL_ERROR');
    } catch {
      return errorResponse('INTERNAL_ERROR');
    }
  };
  try {
    const response = handle(request);
    return response instanceof Promise ? response.catch(internal) : response;
  } catch {
    return internal();
  }
}

/** Writes an error the adapter answers itself (a row of the error table, its detail) as a whole answer. */
export type ErrorAnswer = (request: Pick<MockRequest, 'method' | 'url'>, code: ErrorCode, detail?: string) => MockResponse;

function errorResponse(code: Parameters<typeof apiError>[0], detail?: string): MockResponse {
  const error = apiError(code, detail);
  return { status: error.status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(error) };
}
