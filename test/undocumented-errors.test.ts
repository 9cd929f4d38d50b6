import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import { refusalStatuses } from '../conformance/checks/create.js';
import { loadModel } from '../model/loader.js';

/**
 * A description that documents no error at all (spec/DECISIONS.md › D278): a server written from it answers an
 * absent record with a 404 and a refused body with the 400 or 422 its framework picks, and the suite holds neither
 * against it, as it holds neither against the mock, which decides the same for itself.
 */
const SPEC = `openapi: 3.0.3
info: { title: Things, version: '1' }
paths:
  /things:
    get:
      operationId: listThings
      responses:
        '200':
          description: Every thing.
          content:
            application/json:
              schema: { type: array, items: { $ref: '#/components/schemas/Thing' } }
    post:
      operationId: createThing
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: '#/components/schemas/NewThing' }
      responses:
        '201':
          description: The thing made.
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Thing' }
  /things/{thingId}:
    parameters:
      - { name: thingId, in: path, required: true, schema: { type: integer, format: int64, minimum: 1 } }
    get:
      operationId: getThing
      responses:
        '200':
          description: The thing.
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Thing' }
    delete:
      operationId: deleteThing
      responses:
        '204':
          description: Deleted.
components:
  schemas:
    NewThing:
      type: object
      required: [name]
      properties:
        name: { type: string, minLength: 1, maxLength: 40 }
    Thing:
      type: object
      required: [id, name]
      properties:
        id: { type: integer, format: int64 }
        name: { type: string }
`;

/** Writes a JSON answer. */
function send(response: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) response.writeHead(status).end();
  else response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** A body's text, whole. */
async function textOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The things server: records in memory, ids from 1; a body that is no object with a `name` of 1..40 characters is
 * refused with `refusal` (a framework's choice), an id that names no record is a 404, a malformed one a 400.
 */
function thingsServer(refusal: 400 | 422): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const things = new Map<number, { id: number; name: string }>();
  let next = 1;
  const server: Server = createServer((request, response) => {
    void (async () => {
      const path = new URL(request.url ?? '/', 'http://localhost').pathname.split('/').filter((part) => part !== '');
      if (path[0] !== 'things' || path.length > 2) return send(response, 404, { message: 'no such route' });
      if (path.length === 1 && request.method === 'GET') return send(response, 200, [...things.values()]);
      if (path.length === 1 && request.method === 'POST') {
        let body: unknown;
        try {
          body = JSON.parse(await textOf(request));
        } catch {
          return send(response, refusal, { message: 'the body is no JSON' });
        }
        const name = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>)['name'] : undefined;
        if (typeof name !== 'string' || name.length === 0 || [...name].length > 40) return send(response, refusal, { message: 'name is required, 1 to 40 characters' });
        const thing = { id: next++, name };
        things.set(thing.id, thing);
        return send(response, 201, thing);
      }
      if (path.length === 1) return send(response, 405, { message: 'method not allowed' });
      if (!/^[1-9]\d{0,18}$/.test(path[1]!) || BigInt(path[1]!) > 2n ** 63n - 1n) return send(response, 400, { message: 'thingId is a positive int64' });
      const thing = things.get(Number(path[1]));
      if (thing === undefined) return send(response, 404, { message: 'no such thing' });
      if (request.method === 'GET') return send(response, 200, thing);
      if (request.method === 'DELETE') {
        things.delete(thing.id);
        return send(response, 204);
      }
      return send(response, 405, { message: 'method not allowed' });
    })();
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ baseUrl: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

const KEY = 'undocumented-errors-key';
let dir: string;
let spec: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'undocumented-errors-'));
  spec = join(dir, 'spec.yaml');
  writeFileSync(spec, SPEC);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('errors a description leaves out (D278)', () => {
  test('a refusal where no client error is documented may be a 400 or a 422', async () => {
    const model = await loadModel(spec);
    expect(refusalStatuses(model.operations.find((op) => op.operationId === 'createThing')!)).toEqual([400, 422]);
  });

  for (const refusal of [400, 422] as const) {
    test(`a server answering 404 for an absent thing and ${refusal} for a refused body passes every check`, async () => {
      const server = await thingsServer(refusal);
      try {
        const target = { baseUrl: server.baseUrl, apiKey: KEY, spec, runs: 10 };
        const ids = await listCheckIds(target);
        expect(ids).toEqual(expect.arrayContaining(['getThing.not-found', 'createThing.required-fields', 'createThing.invalid-body', 'deleteThing.gone']));
        const failed: string[] = [];
        for (const id of ids) {
          const outcome = await runCheck(id, target);
          if (!outcome.ok) failed.push(outcome.report);
        }
        expect(failed.join('\n\n')).toBe('');
      } finally {
        await server.close();
      }
    }, 120_000);
  }
});
