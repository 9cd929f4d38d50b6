import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MockRequest, MockResponse } from '../../mock/index.js';

/** A request handler that may answer later: a mutant's wrapper, or an alternative implementation. */
export type AsyncHandler = (request: MockRequest) => MockResponse | Promise<MockResponse>;

/** A test server on loopback: `baseUrl` ends with the version segment (`http://127.0.0.1:<port>/v1`). */
export interface TestServer {
  origin: string;
  baseUrl: string;
  close(): Promise<void>;
}

/** Largest request body a test server reads, in bytes; beyond it the connection is answered 413 and closed. */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Serves an {@link AsyncHandler} on `127.0.0.1`, port 0 (a free port), for the self-test. Unlike
 * `mock/server.ts` it awaits the handler, so a mutant can interleave concurrent requests (seed, Endpoints §2
 * rule 2: the concurrency fault). The body is read whole before the handler runs. A handler that throws or
 * rejects is answered `500` with a plain-text body: that is how a crashing server looks on the wire.
 */
export async function serveHandler(handler: AsyncHandler, basePath = '/v1'): Promise<TestServer> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('error', () => res.destroy());
    req.on('end', () => {
      const request: MockRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers };
      if (size > MAX_BODY_BYTES) {
        res.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
        res.end('{"code":"PAYLOAD_TOO_LARGE","message":"The request body is too large.","status":413}');
        return;
      }
      if (size > 0) request.body = Buffer.concat(chunks, size);
      Promise.resolve()
        .then(() => handler(request))
        .then(
          (response) => {
            res.statusCode = response.status;
            for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
            res.setHeader('content-length', Buffer.byteLength(response.body));
            res.end(response.body);
          },
          (error: unknown) => {
            res.writeHead(500, { 'content-type': 'text/plain' });
            res.end(`Internal Server Error: ${String(error)}`);
          },
        );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    baseUrl: `${origin}${basePath}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
