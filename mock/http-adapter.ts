import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ErrorCode } from './errors.js';
import type { MockResponse } from './messages.js';

/**
 * The HTTP/1.1 adapter every server of this package stands on, the mock's (mock/server.ts) and the validating
 * proxy's (proxy/proxy.ts): `node:http` with timeouts, a request body read up to a size limit, and the errors that
 * happen before any handler runs (a malformed request, headers too large, a request too slow, `CONNECT`) answered
 * in the caller's error shape instead of node's bare replies or a dropped socket.
 */

/** An answer the adapter sends itself: status, headers, body text. */
export interface AdapterAnswer {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: string;
}

/** How the adapter listens and what it answers before a handler runs. */
export interface AdapterOptions {
  /** Interface to listen on; default `127.0.0.1`. */
  host?: string | undefined;
  /** TCP port; `0` picks a free one. Default `4010`. */
  port?: number | undefined;
  /** Milliseconds a client has to send the request headers; beyond, a 408 and the socket closes. Default 10,000. */
  headersTimeout?: number | undefined;
  /** Milliseconds a client has to send the whole request (headers and body); beyond, a 408. Default 30,000. */
  requestTimeout?: number | undefined;
  /** Milliseconds an idle keep-alive connection stays open between requests. Default 5,000. */
  keepAliveTimeout?: number | undefined;
  /**
   * The answer to an error met before any handler: `MALFORMED_REQUEST`, `HEADERS_TOO_LARGE`, `REQUEST_TIMEOUT`,
   * `METHOD_NOT_ALLOWED` (CONNECT), in the shape the spec documents (README › Error bodies).
   */
  errorAnswer: (request: { method: string; url: string }, code: ErrorCode, detail?: string) => AdapterAnswer;
}

/** A listening server: its origin (`http://127.0.0.1:4010`) and the node server. */
export interface Listening {
  origin: string;
  server: Server;
}

/**
 * Creates and starts the server: `onRequest` gets every request node could parse; the adapter answers the rest.
 * Errors: rejects when the port is taken or the address cannot be bound.
 */
export async function listen(onRequest: (req: IncomingMessage, res: ServerResponse) => void, options: AdapterOptions): Promise<Listening> {
  const requestTimeout = options.requestTimeout ?? 30_000;
  const headersTimeout = requestTimeout > 0 ? Math.min(options.headersTimeout ?? 10_000, requestTimeout) : (options.headersTimeout ?? 10_000);
  // node checks both timeouts every `connectionsCheckingInterval` (30 s by default): check often enough to honour them.
  const connectionsCheckingInterval = Math.max(10, Math.min(1_000, Math.floor((headersTimeout || 2_000) / 2)));
  // requireHostHeader: false, so that an HTTP/1.1 request without `Host` gets the handler's answer, not node's bare 400.
  const server = createServer({ headersTimeout, requestTimeout, connectionsCheckingInterval, keepAliveTimeout: options.keepAliveTimeout ?? 5_000, requireHostHeader: false }, onRequest);

  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const code = error.code === 'HPE_HEADER_OVERFLOW' ? 'HEADERS_TOO_LARGE' : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'REQUEST_TIMEOUT' : 'MALFORMED_REQUEST';
    socket.end(rawAnswer(options.errorAnswer({ method: 'GET', url: '/' }, code)));
  });
  // An `Expect` other than 100-continue: answer the request as usual (RFC 9110 §10.1.1 allows it) rather than node's bare 417.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res));
  // CONNECT never reaches the request handler; without this node would drop the socket without an answer.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    socket.end(rawAnswer(options.errorAnswer({ method: 'CONNECT', url: req.url ?? '/' }, 'METHOD_NOT_ALLOWED', `CONNECT is not allowed on ${req.url ?? '/'}.`)));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4010, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  return { origin: `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`, server };
}

/** Whether a request announces a body (`Content-Length` or `Transfer-Encoding`): the common GET does not, and is answered at once. */
export function announcesBody(req: IncomingMessage): boolean {
  return req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
}

/**
 * Reads the body of a request that {@link announcesBody} and calls `onBody` with it, or `onTooLarge` once it passes
 * `maxBodyBytes` bytes (the connection is then closed after the answer). A request that breaks off mid-body destroys
 * the response.
 */
export function readBody(req: IncomingMessage, res: ServerResponse, maxBodyBytes: number, onBody: (body: Buffer) => void, onTooLarge: () => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let refused = false;
  req.on('data', (chunk: Buffer) => {
    if (refused) return;
    size += chunk.length;
    if (size > maxBodyBytes) {
      refused = true;
      res.setHeader('connection', 'close');
      onTooLarge();
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (!refused) onBody(Buffer.concat(chunks, size));
  });
  req.on('error', () => res.destroy());
}

/** Stops accepting, ends idle keep-alive connections, and resolves once every connection closed. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

/** An answer written straight to a socket that node's HTTP machinery has given up on. */
function rawAnswer(answer: AdapterAnswer): string {
  return `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\ncontent-type: ${answer.headers['content-type'] ?? 'application/json'}\r\ncontent-length: ${Buffer.byteLength(answer.body)}\r\nconnection: close\r\n\r\n${answer.body}`;
}

/**
 * Sends the head and `body` of a streamed answer (`response.stream` set), then hands the socket to its writer until
 * either side ends it; `res` is held in `streams` meanwhile, so a closing server can end it. The mock's own streams
 * (the console's live journal) are passed on this way by the mock and by the proxy alike.
 */
export function openStream(res: ServerResponse, response: MockResponse, streams: Set<ServerResponse>): void {
  const headers: string[] = [];
  for (const name of Object.keys(response.headers)) headers.push(name, response.headers[name]!);
  res.writeHead(response.status, headers);
  res.write(response.body);
  streams.add(res);
  res.on('close', () => streams.delete(res));
  response.stream!({
    write: (text) => {
      if (!res.writableEnded) res.write(text);
    },
    onClose: (listener) => res.on('close', listener),
  });
}
