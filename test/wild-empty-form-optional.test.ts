import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCheck } from '../conformance/run-suite.js';
import { startMock, type StartedMock } from '../mock/index.js';

// spec/DECISIONS.md › D912: a form body that requires every member it names, where the request body itself is optional
// (no `required: true`, OpenAPI's default). With every member left out the form is written as no text, which is no
// body: a request its description allows.
const SPEC = `openapi: 3.0.3
info: { title: Spots, version: 1.0.0 }
paths:
  /spots:
    post:
      operationId: createSpot
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [name, notes]
              properties: { name: { type: string }, notes: { type: string } }
      responses:
        '201':
          description: Made.
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Spot' }
        '400':
          description: Refused.
          content:
            application/json:
              schema: { type: object, properties: { message: { type: string } } }
  /spots/{id}:
    get:
      operationId: getSpot
      parameters:
        - { name: id, in: path, required: true, schema: { type: integer } }
      responses:
        '200':
          description: The spot.
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Spot' }
        '404':
          description: No such spot.
          content:
            application/json:
              schema: { type: object, properties: { message: { type: string } } }
components:
  schemas:
    Spot:
      type: object
      properties: { id: { type: integer }, name: { type: string }, notes: { type: string } }
`;

describe('a form body whose every member is required, the body itself optional', () => {
  let spec: string;
  let mock: StartedMock;
  let lax: Server;
  beforeAll(async () => {
    spec = join(mkdtempSync(join(tmpdir(), 'empty-form-')), 'spots.yaml');
    writeFileSync(spec, SPEC);
    mock = await startMock({ spec, port: 0, apiKeys: ['k'] });
    // Creates from any form, whatever it lacks: the fault `.required-fields` exists for.
    lax = createServer((request, response) => {
      request.resume();
      response.writeHead(201, { 'content-type': 'application/json' }).end('{"id":1}');
    });
    await new Promise<void>((resolve) => lax.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await mock?.close();
    await new Promise((resolve) => lax.close(resolve));
  });

  test('is not sent empty as a case of missing members: a server that takes no body as no body passes', async () => {
    const outcome = await runCheck('createSpot.required-fields', { baseUrl: mock.baseUrl, apiKey: 'k', spec, seed: 1, runs: 3 });
    expect(outcome.ok ? 'passed' : outcome.report).toBe('passed');
  });

  test('still has each member left out alone: a server that creates without `name` fails', async () => {
    const outcome = await runCheck('createSpot.required-fields', { baseUrl: `http://127.0.0.1:${(lax.address() as AddressInfo).port}`, apiKey: 'k', spec, seed: 1, runs: 3 });
    expect(outcome.ok).toBe(false);
    expect(outcome.ok ? '' : outcome.report).toMatch(/expected status 400, got 201/);
  });
});
