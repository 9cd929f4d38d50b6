import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** A server of a test in front of another: its base URL, set once `beforeAll` ran. */
export interface RewritingProxy {
  baseUrl: string;
}

/**
 * A one-fault server for a test: forwards every request to `upstream()` (read at each request, so a mock started in
 * an earlier `beforeAll` can be named) after `rewrite` changed its URL in place, and answers with the upstream's
 * status, content type and body. Registers the `beforeAll` that listens on a free port and the `afterAll` that closes.
 */
export function rewritingProxy(upstream: () => string, rewrite: (url: URL, method: string) => void): RewritingProxy {
  const proxy: RewritingProxy = { baseUrl: '' };
  let server: Server | undefined;
  beforeAll(async () => {
    server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://x');
      rewrite(url, request.method ?? 'GET');
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const headers = Object.fromEntries(Object.entries(request.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'host' && entry[0] !== 'content-length'));
        const body = chunks.length === 0 ? undefined : Buffer.concat(chunks);
        void fetch(`${upstream()}${url.pathname}${url.search}`, { method: request.method ?? 'GET', headers, ...(body === undefined ? {} : { body }) }).then(async (answer) => {
          const type = answer.headers.get('content-type');
          response.writeHead(answer.status, type === null ? {} : { 'content-type': type });
          response.end(Buffer.from(await answer.arrayBuffer()));
        });
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    proxy.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });
  return proxy;
}
