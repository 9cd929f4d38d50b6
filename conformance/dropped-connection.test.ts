import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { ClientState, send } from './client.js';
import { resolveTarget } from './target.js';

/**
 * A kept-alive connection closed by the server just as the suite reuses it (D860). The server here closes the first
 * connection it accepts, unread, when its first request arrives: what a server's idle timer does when its close and
 * the client's next request cross. Every later connection is answered, so a request sent again on one is processed
 * once.
 */
interface Server {
  baseUrl: string;
  /** Requests processed (answered), by method. */
  processed: Map<string, number>;
  close(): Promise<void>;
}

const started: Server[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

async function start(handle: (request: IncomingMessage, response: ServerResponse) => void): Promise<Server> {
  let first: Socket | undefined;
  const processed = new Map<string, number>();
  const server = createServer((request, response) => {
    first ??= request.socket;
    request.resume();
    request.on('end', () => {
      if (request.socket === first) return void request.socket.destroy();
      processed.set(request.method ?? '', (processed.get(request.method ?? '') ?? 0) + 1);
      handle(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const running: Server = {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    processed,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
  started.push(running);
  return running;
}

const answer = (status: number) => (_request: IncomingMessage, response: ServerResponse) =>
  void response.writeHead(status, { 'content-type': 'application/json' }).end('{"id":1}');

/** A client that has just had an answer: its next write goes on a pooled connection, not one of its own. */
function busyClient(): ClientState {
  const client = new ClientState();
  client.lastAnswerAt = Date.now();
  return client;
}

describe('a request whose kept-alive connection the server closed before answering', () => {
  test('a write sent on a pooled connection is sent once more on a connection of its own, and processed once', async () => {
    const server = await start(answer(201));
    const client = busyClient();
    const target = resolveTarget({ baseUrl: server.baseUrl, apiKey: '' });
    const created = await send(client, target, { method: 'POST', path: '/things', headers: { 'content-type': 'application/json' }, body: '{"name":"a"}' });
    await client.close();
    expect(created.response.status).toBe(201);
    expect(server.processed.get('POST')).toBe(1);
    expect(client.retries).toBe(1);
  });

  test('a read is sent once more as before', async () => {
    const server = await start(answer(200));
    const client = busyClient();
    const target = resolveTarget({ baseUrl: server.baseUrl, apiKey: '' });
    const read = await send(client, target, { method: 'GET', path: '/things', headers: {} });
    await client.close();
    expect(read.response.status).toBe(200);
    expect(client.retries).toBe(1);
  });

  test('a write on a connection of its own is not sent again', async () => {
    const server = await start(answer(201));
    // No answer yet: the write goes on a connection of its own, and a drop there may follow its processing.
    const client = new ClientState();
    const target = resolveTarget({ baseUrl: server.baseUrl, apiKey: '' });
    await expect(send(client, target, { method: 'POST', path: '/things', headers: {}, body: '{}' })).rejects.toThrow(/cannot reach POST/);
    await client.close();
    expect(client.retries).toBe(0);
  });

  test('a server that drops a write on every connection is still reported, the write sent at most twice', async () => {
    const server = await start((request, response) => {
      if (request.method === 'POST') return void request.socket.destroy();
      answer(200)(request, response);
    });
    const client = busyClient();
    const target = resolveTarget({ baseUrl: server.baseUrl, apiKey: '' });
    await expect(send(client, target, { method: 'POST', path: '/things', headers: {}, body: '{}' })).rejects.toThrow(/cannot reach POST/);
    await client.close();
    expect(client.retries).toBe(1);
  });
});
