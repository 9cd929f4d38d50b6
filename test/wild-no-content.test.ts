import { request as httpRequest } from 'node:http';
import { describe, expect, test } from 'vitest';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import { specMock } from './spec-mock.js';

/**
 * A delete documented as `204` with a JSON schema (spec/DECISIONS.md › D623): the mock's 204 goes out with no body and
 * no `Content-Length`, as RFC 9110 says of a 204, so a client reading the message whole (undici) reads it.
 */
const SPEC = `openapi: 3.0.3
info: { title: Alerts, version: '1' }
paths:
  /alerts:
    post:
      operationId: createAlert
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Alert' } } } }
      responses:
        '201': { description: Made., content: { application/json: { schema: { $ref: '#/components/schemas/Alert' } } } }
  /alerts/{alert_id}:
    get:
      operationId: getAlert
      parameters: [{ name: alert_id, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: The alert., content: { application/json: { schema: { $ref: '#/components/schemas/Alert' } } } }
        '404': { description: None. }
    delete:
      operationId: deleteAlert
      parameters: [{ name: alert_id, in: path, required: true, schema: { type: integer } }]
      responses:
        '204': { description: Gone., content: { application/json: { schema: { type: object, properties: {} } } } }
        '404': { description: None. }
components:
  schemas:
    Alert:
      type: object
      required: [email_to]
      properties:
        id: { type: integer, readOnly: true }
        email_to: { type: string, maxLength: 40 }
`;

const started = specMock('no-content', SPEC, ['k']);

/** The status and raw headers of one request, read with node:http (which, unlike fetch, shows a 204's headers as sent). */
function raw(method: string, url: string, body?: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(url, { method, headers: { authorization: 'Bearer k', 'content-type': 'application/json' } }, (answer) => {
      let text = '';
      answer.setEncoding('utf8');
      answer.on('data', (chunk: string) => (text += chunk));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, headers: answer.headers, text }));
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

describe('a 204 documented with a body (D623)', () => {
  test('goes out with no Content-Length and no body', async () => {
    const made = await raw('POST', `${started.mock.baseUrl}/alerts`, JSON.stringify({ email_to: 'a@example.com' }));
    expect(made.status).toBe(201);
    const id = (JSON.parse(made.text) as { id: number }).id;
    const gone = await raw('DELETE', `${started.mock.baseUrl}/alerts/${id}`);
    expect([gone.status, gone.headers['content-length'], gone.text]).toEqual([204, undefined, '']);
    expect((await raw('GET', `${started.mock.baseUrl}/alerts/${id}`)).status).toBe(404);
  });

  test("the suite's delete check passes on our mock", async () => {
    const target = { baseUrl: started.mock.baseUrl, apiKey: 'k', spec: started.spec, runs: 3 };
    expect(await listCheckIds(target)).toContain('deleteAlert.gone');
    const outcome = await runCheck('deleteAlert.gone', target);
    expect(outcome.ok ? '' : outcome.report).toBe('');
  }, 60_000);
});
