import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The floor of the benchmark: a bare `node:http` server with no spec, run as a child process.
 * - `GET` checks `Authorization: Bearer <key>` by string equality and answers fixed bytes: a `Pets` array of
 *   20 pets in the mock's layout (id, name, categoryId, status), so the body is the same size as the mock's page.
 * - `POST` reads the body, `JSON.parse`s it (inexact above 2^53, unlike the mock) and answers 201 with the
 *   pet and an id, as `JSON.stringify` writes it: "a bare server that parses and answers JSON".
 * Listens on 127.0.0.1, port 0, and sends `{ port }` to its parent over IPC.
 */
const AUTHORIZATION = `Bearer ${process.argv[2] ?? 'petstore-dev-key'}`;
const STATUSES = ['available', 'pending', 'sold'] as const;
const page = Array.from({ length: 20 }, (_, i) => `{"id":${1000 - i},"name":"pet-${1000 - i}","categoryId":${i % 50},"status":"${STATUSES[0]}"}`);
const LIST = Buffer.from(`[${page.join(',')}]`);
const UNAUTHORIZED = Buffer.from(JSON.stringify({ code: 'UNAUTHORIZED', message: 'Missing or invalid API key.', status: 401 }));
let nextId = 1;

const server = createServer((req, res) => {
  if (req.headers.authorization !== AUTHORIZATION) {
    res.writeHead(401, { 'content-type': 'application/json', 'content-length': UNAUTHORIZED.length }).end(UNAUTHORIZED);
    req.resume();
    return;
  }
  if (req.method !== 'POST') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': LIST.length }).end(LIST);
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const pet = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    const body = JSON.stringify({ id: nextId++, ...pet, status: pet['status'] ?? STATUSES[nextId % 3] });
    res.writeHead(201, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  });
});

server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('disconnect', () => process.exit(0));
