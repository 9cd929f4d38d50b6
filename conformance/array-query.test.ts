import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCheck, startRun } from './run-suite.js';
import type { Target } from './target.js';

// A required query parameter that is an array of uuids, as one pair per item (form, explode) or joined by commas
// (explode: false): the suite's valid request must send uuids in the parameter's own style, and a server that
// checks them answers its 204 (its refusal of anything else is a 400 the description does not document).
const spec = (explode: boolean): string => `openapi: 3.0.3
info: { title: Products, version: 1.0.0 }
servers: [{ url: http://localhost }]
paths:
  /products:
    delete:
      operationId: deleteProducts
      parameters:
        - name: uuid
          in: query
          required: true
          explode: ${explode}
          description: List of product UUIDs to be deleted
          schema: { type: array, items: { type: string, format: uuid } }
      responses:
        '204': { description: Deleted }
        '404': { description: No such products }
`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The values of `uuid` in a request, split as the style says. */
function uuids(request: IncomingMessage, explode: boolean): string[] {
  const params = new URL(request.url ?? '/', 'http://localhost').searchParams.getAll('uuid');
  return explode ? params : params.flatMap((value) => value.split(','));
}

async function serve(explode: boolean): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const values = uuids(request, explode);
    if (values.length === 0 || !values.every((value) => UUID.test(value))) return void response.writeHead(400).end();
    response.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('a required array query parameter is sent as items of its schema, in its style', () => {
  for (const explode of [true, false]) {
    test(`explode: ${explode}: a server that checks the uuids passes deleteProducts.documented`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'array-query-'));
      writeFileSync(join(dir, 'products.yaml'), spec(explode));
      const server = await serve(explode);
      const target: Target = { baseUrl: server.baseUrl, apiKey: 'k', spec: join(dir, 'products.yaml'), runs: 5, seed: 11 };
      const run = await startRun(target);
      try {
        const outcome = await runCheck('deleteProducts.documented', target, run);
        expect(outcome.ok ? 'passed' : outcome.report).toBe('passed');
      } finally {
        await run.close();
        await server.close();
      }
    });
  }
});
