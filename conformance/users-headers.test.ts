import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { listCheckIds, runCheck, startRun } from './run-suite.js';
import { parseHeaders, type Target } from './target.js';

// A description that leaves out the authentication its server wants (D496): the user's own header, sent with every
// request, is what lets the suite judge it at all.
const SPEC = `openapi: 3.0.3
info: { title: Notebooks, version: 1.0.0 }
servers: [{ url: http://localhost/api }]
paths:
  /notebooks:
    get:
      operationId: listNotebooks
      responses:
        '200':
          description: Every notebook.
          content:
            application/json:
              schema: { type: array, items: { $ref: '#/components/schemas/Notebook' } }
components:
  schemas:
    Notebook:
      type: object
      required: [name]
      properties: { name: { type: string } }
`;

/** A server answering its notebooks only to `Authorization: token secret`, a 403 the description does not document otherwise. */
async function start(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    if (request.headers.authorization !== 'token secret') return void response.writeHead(403, { 'content-type': 'application/json' }).end('{"message":"Forbidden"}');
    response.writeHead(200, { 'content-type': 'application/json' }).end('[{"name":"analysis.ipynb"}]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function failures(target: Target): Promise<string[]> {
  const run = await startRun(target);
  try {
    const failed: string[] = [];
    for (const id of await listCheckIds(target)) if (!(await runCheck(id, target, run)).ok) failed.push(id);
    return failed;
  } finally {
    await run.close();
  }
}

describe('the user\'s own headers (--header, D496)', () => {
  test('NAME:VALUE texts are read as headers; a text without a name is refused', () => {
    expect(parseHeaders(['Authorization: token secret', 'X-Tenant:acme'])).toEqual({ authorization: 'token secret', 'x-tenant': 'acme' });
    expect(() => parseHeaders(['token secret'])).toThrow(/NAME:VALUE/);
    expect(() => parseHeaders([': x'])).toThrow(/NAME:VALUE/);
  });

  test('sent with every request, they let the suite judge a server its description does not say how to reach; without them it fails', async () => {
    const spec = join(mkdtempSync(join(tmpdir(), 'users-headers-')), 'notebooks.yaml');
    writeFileSync(spec, SPEC);
    const server = await start();
    try {
      const target: Target = { baseUrl: server.baseUrl, apiKey: '', spec, runs: 5 };
      expect(await failures({ ...target, headers: { authorization: 'token secret' } })).toEqual([]);
      expect((await failures(target)).length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  }, 60_000);
});
