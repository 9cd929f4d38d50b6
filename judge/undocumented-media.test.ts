import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { loadModel } from '../model/loader.js';
import { judgeResponseBody } from './exchange.js';

/**
 * spec/DECISIONS.md › D395: an error status the operation does not document may come in a media type the operation
 * documents for its own errors; any other media type that is not JSON still breaks the media-type rule (D59).
 */
it('takes an undocumented 401 in the text/plain the operation documents for its 400, and refuses one in text/html', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'undocumented-media-'));
  const text = { content: { 'text/plain': { schema: { type: 'string' } } } };
  const document = { openapi: '3.0.3', info: { title: 't', version: '1' }, paths: { '/upload': { post: { operationId: 'upload', responses: { 201: { description: 'made', ...text }, 400: { description: 'bad', ...text } } } } } };
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(document));
  const upload = (await loadModel(join(dir, 'openapi.json'))).operations[0]!;
  const answer = (type: string): string[] => judgeResponseBody(upload, { status: 401, headers: { 'content-type': type }, text: 'Unauthorized' }).violations.map((violation) => violation.rule);
  expect(answer('text/plain; charset=utf-8')).toEqual([]);
  expect(answer('text/html')).toEqual(['media-type']);
});
