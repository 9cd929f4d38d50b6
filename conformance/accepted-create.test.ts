import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCheck, startRun } from './run-suite.js';
import type { Target } from './target.js';

// A create that answers no body and no Location (D541): a 202 that accepts a report job promises no key, so the
// record cannot be judged and the check is not run; a 201 of a resource with a read still owes its key.
const spec = (status: '201' | '202'): string => `openapi: 3.0.3
info: { title: Reports, version: 1.0.0 }
servers: [{ url: http://localhost }]
paths:
  /reports:
    get:
      operationId: listReports
      responses:
        '200':
          description: The reports
          content:
            application/json:
              schema: { type: array, items: { $ref: '#/components/schemas/Report' } }
    post:
      operationId: createReport
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: '#/components/schemas/Report' }
      responses:
        '${status}': { description: Report requested }
${status === '201' ? `  /reports/{reportId}:
    get:
      operationId: getReport
      parameters: [{ name: reportId, in: path, required: true, schema: { type: string } }]
      responses:
        '200':
          description: The report
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Report' }
        '404': { description: No such report }
` : ''}components:
  schemas:
    Report:
      type: object
      properties:
        reportId: { type: string, readOnly: true }
        format: { type: string, enum: [csv, xlsx] }
`;

/** A server that answers every create with `status` and no body, and lists nothing. */
async function serve(status: number): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.method === 'POST') return void response.writeHead(status).end();
      if (request.url?.startsWith('/reports/')) return void response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"no such report"}');
      response.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function echoOutcome(status: '201' | '202'): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'accepted-create-'));
  writeFileSync(join(dir, 'reports.yaml'), spec(status));
  const server = await serve(Number(status));
  const target: Target = { baseUrl: server.baseUrl, apiKey: 'k', spec: join(dir, 'reports.yaml'), runs: 3, seed: 5 };
  const run = await startRun(target);
  try {
    const outcome = await runCheck('createReport.echo', target, run);
    return outcome.ok ? (outcome.skipped === undefined ? 'passed' : 'not run') : 'failed';
  } finally {
    await run.close();
    await server.close();
  }
}

describe('a create that answers no body and names no key (D541)', () => {
  test('a 202 of a resource with no read is not judged: the check is not run, not failed', async () => {
    expect(await echoOutcome('202')).toBe('not run');
  });

  test('a 201 of a resource with a read still fails: the client could never find what it made', async () => {
    expect(await echoOutcome('201')).toBe('failed');
  });
});
