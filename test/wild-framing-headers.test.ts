import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCheck } from '../conformance/run-suite.js';
import { startMock, type StartedMock } from '../mock/index.js';
import { loadModel } from '../model/loader.js';

// spec/DECISIONS.md › D911: a description that lists HTTP's own framing headers as required parameters of an upload
// (`Content-Length`, `Host`), as resumable-upload and storage APIs do. An HTTP client writes them from the body it
// sends; a suite that filled them from the parameter's schema sent a length the body did not have.
const SPEC = `openapi: 3.0.3
info: { title: Uploads, version: 1.0.0 }
paths:
  /uploads:
    put:
      operationId: putChunk
      parameters:
        - { name: Content-Length, in: header, required: true, schema: { type: integer, example: 1048576 } }
        - { name: Host, in: header, required: true, schema: { type: string, example: uploads.example.com } }
        - { name: X-Upload-Id, in: header, required: true, schema: { type: string, example: abc } }
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, properties: { chunk: { type: string } } }
      responses:
        '200':
          description: Stored.
          content:
            application/json:
              schema: { type: object, properties: { stored: { type: boolean } } }
`;

describe('HTTP framing headers a description lists as parameters', () => {
  let spec: string;
  let mock: StartedMock;
  beforeAll(async () => {
    spec = join(mkdtempSync(join(tmpdir(), 'framing-headers-')), 'uploads.yaml');
    writeFileSync(spec, SPEC);
    mock = await startMock({ spec, port: 0, apiKeys: ['k'] });
  });
  afterAll(() => mock?.close());

  test('are no parameters of the model: the client writes them; the others stay', async () => {
    const op = (await loadModel(spec)).operations.find((candidate) => candidate.operationId === 'putChunk')!;
    expect(op.headerParams.map((parameter) => parameter.name)).toEqual(['x-upload-id']);
  });

  test('are never filled by the suite, whose requests reach the server and pass', async () => {
    const outcome = await runCheck('putChunk.documented', { baseUrl: mock.baseUrl, apiKey: 'k', spec, seed: 1, runs: 3 });
    expect(outcome.ok ? 'passed' : outcome.report).toBe('passed');
  });
});
