import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { loadModel } from '../model/loader.js';
import { documentedStatuses } from './documented.js';
import { judgeResponseBody } from './exchange.js';

/**
 * spec/DECISIONS.md › D397: an operation that lists only errors says nothing of its success, so any 2xx is one of
 * its answers (as the mock answers 200, D70); one that lists a success is held to it.
 */
it('counts every 2xx as documented where only errors are listed, and only the listed ones otherwise', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'documented-'));
  const bad = { description: 'bad' };
  const document = { openapi: '3.0.3', info: { title: 't', version: '1' }, paths: { '/pdf': { post: { operationId: 'onlyErrors', responses: { 400: bad, 404: bad } } }, '/made': { post: { operationId: 'listed', responses: { 201: { description: 'made' }, 400: bad } } } } };
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(document));
  const [onlyErrors, listed] = (await loadModel(join(dir, 'openapi.json'))).operations;
  const statuses = documentedStatuses(onlyErrors!);
  expect([200, 201, 204, 299, 400, 404].every((status) => statuses.includes(status))).toBe(true);
  expect(statuses.filter((status) => status >= 300)).toEqual([400, 404]);
  expect(documentedStatuses(listed!)).toEqual([201, 400]);
});

it('takes an empty 2xx from an operation that lists only errors, and holds a listed success to its media type', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'documented-'));
  const json = { content: { 'application/json': { schema: { type: 'object' } } } };
  const document = { openapi: '3.0.3', info: { title: 't', version: '1' }, paths: { '/pdf': { post: { operationId: 'onlyErrors', responses: { 400: { description: 'bad', ...json } } } }, '/made': { post: { operationId: 'listed', responses: { 200: { description: 'made', ...json } } } } } };
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(document));
  const [onlyErrors, listed] = (await loadModel(join(dir, 'openapi.json'))).operations;
  const empty = { status: 200, headers: {}, text: '' };
  expect(judgeResponseBody(onlyErrors!, empty).violations).toEqual([]);
  expect(judgeResponseBody(listed!, empty).violations.map((violation) => violation.rule)).toEqual(['media-type']);
});
