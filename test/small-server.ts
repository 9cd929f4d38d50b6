import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The few lines every test that writes a correct (or one-fault) server of its own description repeats: a description
 * written to a temporary file, and a node:http server that reads each request whole and answers JSON. The server's
 * logic stays in each test, where the reading it shows is.
 */

/** A request as the server read it whole: method, URL (resolved against `http://test`), `Authorization`, body text. */
export interface ReadRequest {
  method: string;
  url: URL;
  authorization: string | undefined;
  text: string;
}

/** What a handler answers: a status and a JSON value, sent as `application/json`. */
export interface JsonAnswer {
  status: number;
  json: unknown;
}

/**
 * Starts a server on a free port of 127.0.0.1 that answers each request with what `handle` returns for it, once its
 * body has arrived. Returns its origin (`http://127.0.0.1:<port>`) and a function that closes it.
 */
export async function serveJson(handle: (request: ReadRequest) => JsonAnswer): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { status, json } = handle({ method: request.method ?? 'GET', url: new URL(request.url ?? '/', 'http://test'), authorization: request.headers.authorization, text: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(json));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((done) => server.close(() => done())) };
}

/** The JSON object a request's body holds, or `undefined` when it is not JSON or not an object. */
export function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Writes `document` as `openapi.json` in a new temporary folder named after `prefix`; returns its path and how to remove the folder. */
export function writeDescription(document: object, prefix: string): { file: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(document));
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
