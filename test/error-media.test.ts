import { describe, expect, test } from 'vitest';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import { specMock } from './spec-mock.js';

/**
 * The media type of an error answer (spec/DECISIONS.md › D550, D551). An error status documented only in bytes
 * (`image/png`, `application/octet-stream`, through its own status or `default`) is answered in that media type; an
 * operation that documents no error body answers its 401 as JSON, never in another operation's `text/plain`. Each
 * case is checked on the wire and through the suite's own `auth` check, which held the mock to the description.
 */
const SPEC = `openapi: 3.0.3
info: { title: Error media, version: '1' }
security: [{ key: [] }]
paths:
  /shots:
    get:
      operationId: getShot
      parameters:
        - { name: url, in: query, required: true, schema: { type: string, minLength: 1 } }
      responses:
        '200': { description: The picture. }
        '401':
          description: Unauthorized.
          content:
            image/png: { schema: { $ref: '#/components/schemas/Failure' } }
            image/jpeg: { schema: { $ref: '#/components/schemas/Failure' } }
  /archives/{name}:
    get:
      operationId: getArchive
      parameters:
        - { name: name, in: path, required: true, schema: { type: string } }
      responses:
        default:
          description: The archive.
          content:
            application/octet-stream: { schema: { type: string, format: binary } }
components:
  securitySchemes:
    key: { type: http, scheme: bearer }
  schemas:
    Failure:
      type: object
      required: [message]
      properties:
        message: { type: string }
`;

/** Errors documented only in one operation, as text; the other operation documents none. */
const TEXT_SPEC = `openapi: 3.0.3
info: { title: Text errors, version: '1' }
security: [{ key: [] }]
paths:
  /uploads:
    post:
      operationId: upload
      requestBody:
        required: true
        content:
          text/plain: { schema: { type: string } }
      responses:
        '201': { description: Stored. }
        '400':
          description: Refused.
          content:
            text/plain: { schema: { type: string } }
  /exports:
    get:
      operationId: exportAll
      responses:
        '200':
          description: The export.
          content:
            application/json: { schema: { type: object, properties: { items: { type: array, items: { type: string } } } } }
components:
  securitySchemes:
    key: { type: http, scheme: bearer }
`;

const KEY = 'error-media-key-0123456789';
const started = specMock('error-media', SPEC, [KEY]);
const text = specMock('error-media-text', TEXT_SPEC, [KEY]);

/** The mock's answer to an unauthenticated GET of `path`: its status, Content-Type and body text. */
async function unauthenticated(path: string, mock = started): Promise<{ status: number; type: string | null; text: string }> {
  const response = await fetch(`${mock.mock.baseUrl}${path}`, { headers: { accept: 'application/json' } });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

describe('the media type of an error answer', () => {
  test('a 401 documented only as images is answered as one, its object as JSON text (D550)', async () => {
    const answer = await unauthenticated('/shots?url=a');
    expect(answer.status).toBe(401);
    expect(answer.type).toBe('image/png');
    expect(JSON.parse(answer.text)).toMatchObject({ message: expect.stringContaining('Missing or invalid API key') });
  });

  test('a default documented only as bytes answers the 401 in bytes, its message as text (D550)', async () => {
    const answer = await unauthenticated('/archives/a.zip');
    expect(answer.status).toBe(401);
    expect(answer.type).toBe('application/octet-stream');
    expect(answer.text).toContain('Missing or invalid API key');
  });

  test("an operation that documents no error body answers JSON, not another operation's text/plain (D551)", async () => {
    const answer = await unauthenticated('/exports', text);
    expect(answer.status).toBe(401);
    expect(answer.type).toBe('application/json');
    expect(JSON.parse(answer.text)).toMatchObject({ status: 401 });
  });

  test("the suite's auth checks pass on the mock", async () => {
    for (const [mock, pattern] of [[started, /^auth\.(getShot|getArchive)$/], [text, /^auth\.exportAll$/]] as const) {
      const target = { baseUrl: mock.mock.baseUrl, apiKey: KEY, spec: mock.spec, runs: 3 };
      const ids = (await listCheckIds(target)).filter((id) => pattern.test(id));
      expect(ids.length, String(pattern)).toBeGreaterThan(0);
      for (const id of ids) {
        const outcome = await runCheck(id, target);
        expect(outcome.ok ? '' : outcome.report, id).toBe('');
        expect(outcome.ok && outcome.skipped, id).toBeFalsy();
      }
    }
  }, 60_000);
});
