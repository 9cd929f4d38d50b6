import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listCheckIds, runCheck, startRun } from './run-suite.js';
import type { Target } from './target.js';

// A record whose key the description leaves unnamed, read by a path whose `id` is an int64, and documenting no 404
// (D540: an absent id may get the documented 2xx). Its records say nothing of an `id`: the model reads the key as
// text, while the path says it travels as an integer.
const SPEC = `openapi: 3.0.3
info: { title: Addresses, version: 1.0.0 }
paths:
  /addresses/{id}:
    get:
      operationId: getAddress
      parameters:
        - { name: id, in: path, required: true, schema: { type: integer, format: int64 } }
      responses:
        '200':
          description: The address, or an empty one.
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Address' }
        '400':
          description: Not an id.
          content:
            application/json:
              schema: { type: object, properties: { message: { type: string } } }
    put:
      operationId: replaceAddress
      parameters:
        - { name: id, in: path, required: true, schema: { type: integer, format: int64 } }
      requestBody:
        content:
          application/json:
            schema: { $ref: '#/components/schemas/Address' }
      responses:
        '200':
          description: The address.
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Address' }
components:
  schemas:
    Address:
      type: object
      properties:
        City: { type: string }
`;

/**
 * A correct server of it: any int64 segment is answered 200 (an absent one with an empty address, as its
 * description allows), anything else 400. `anySegment`: the fault of answering 200 to a segment that is no integer.
 */
function serve(anySegment: boolean): Server {
  return createServer((request, response) => {
    const segment = decodeURIComponent((request.url ?? '').split('?')[0]!.split('/').pop() ?? '');
    const integer = /^-?\d{1,19}$/.test(segment) && BigInt(segment) <= 9223372036854775807n && BigInt(segment) >= -9223372036854775808n;
    if (!integer && !anySegment) return void response.writeHead(400, { 'content-type': 'application/json' }).end('{"message":"not an id"}');
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' }).end(request.method === 'GET' ? '{}' : '{"City":"Bonn"}');
  });
}

describe('an id typed integer by its path, of a record whose key the description leaves unnamed', () => {
  let spec: string;
  const servers: Server[] = [];
  beforeAll(() => {
    spec = join(mkdtempSync(join(tmpdir(), 'integer-path-id-')), 'addresses.yaml');
    writeFileSync(spec, SPEC);
  });
  afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

  async function notFound(anySegment: boolean): Promise<boolean> {
    const server = serve(anySegment);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const target: Target = { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, apiKey: '', spec, runs: 10, seed: 7 };
    expect(await listCheckIds(target)).toContain('getAddress.not-found');
    const run = await startRun(target);
    try {
      return (await runCheck('getAddress.not-found', target, run)).ok;
    } finally {
      await run.close();
    }
  }

  test('is asked as an integer that names no record, and "0" is no malformed segment: a correct server passes', async () => {
    expect(await notFound(false)).toBe(true);
  }, 60_000);

  test('a server answering 200 to a segment that is no integer is still caught', async () => {
    expect(await notFound(true)).toBe(false);
  }, 60_000);
});
