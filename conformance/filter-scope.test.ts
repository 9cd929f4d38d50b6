import { afterEach, describe, expect, test } from 'vitest';
import { startMock } from '../mock/index.js';
import { jsonObject, serveJson, writeDescription, type JsonAnswer } from '../test/small-server.js';
import { listCheckIds, runCheck } from './run-suite.js';
import type { Target } from './target.js';

/**
 * A filter of a list that also requires another filter (D570), on records that never change (D914): a value seen on
 * a record the list with the run's required value shows must be found again; a value seen only on a record the list
 * cannot show (the create does not send the required filter's member, the server leaves it empty) proves nothing.
 */

const KEY = 'filter-scope-key';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

type Json = Record<string, unknown>;
const ok = (schema: unknown, status = 'ok'): Json => ({ description: status, content: { 'application/json': { schema } } });
const error = ok({ $ref: '#/components/schemas/Error' }, 'refused');
const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const CHECK = 'listReversals.source-filter';

/**
 * Reversals of a source, listed by `account` (required) and optionally by `source`; no update or delete. The create
 * names `account` only when `createSendsAccount`; otherwise the server leaves it `null`.
 */
function specFile(createSendsAccount: boolean): string {
  const written: Json = { source: { type: 'string', pattern: '^[a-z]{4}$' } };
  if (createSendsAccount) written['account'] = { type: 'string', enum: ['acct'] };
  const { file, remove } = writeDescription({
    openapi: '3.0.3',
    info: { title: 'Reversals', version: '1.0.0' },
    security: [{ bearer: [] }],
    paths: {
      '/reversals': {
        get: {
          operationId: 'listReversals',
          parameters: [
            { name: 'account', in: 'query', required: true, schema: { type: 'string', enum: ['acct'] } },
            { name: 'source', in: 'query', schema: { type: 'string', pattern: '^[a-z]{4}$' } },
          ],
          responses: { '200': ok({ type: 'object', required: ['data'], properties: { data: { type: 'array', items: ref('Reversal') } } }), '400': error },
        },
        post: {
          operationId: 'createReversal',
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: Object.keys(written), properties: written, additionalProperties: false } } } },
          responses: { '201': ok(ref('Reversal')), '400': error },
        },
      },
      '/reversals/{reversal_id}': { get: { operationId: 'getReversal', parameters: [{ name: 'reversal_id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': ok(ref('Reversal')), '404': error } } },
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        Error: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
        Reversal: {
          type: 'object',
          required: ['id', 'source'],
          properties: { id: { type: 'string', readOnly: true }, source: { type: 'string', pattern: '^[a-z]{4}$' }, account: { type: 'string', enum: ['acct'], nullable: true } },
        },
      },
    },
  }, 'filter-scope');
  cleanups.push(remove);
  return file;
}

/** A correct server of {@link specFile} in a few lines, or one whose list answers nothing once `source` is asked. */
async function serve(ignoresSource = false): Promise<string> {
  const reversals: Json[] = [];
  const answer = (status: number, json: unknown): JsonAnswer => ({ status, json });
  const { origin, close } = await serveJson(({ method, url, authorization, text }) => {
    if (authorization !== `Bearer ${KEY}`) return answer(401, { message: 'unauthorized' });
    if (method === 'POST' && url.pathname === '/reversals') {
      const body = jsonObject(text);
      if (body === undefined) return answer(400, { message: 'not JSON' });
      const source = body['source'];
      if (typeof source !== 'string' || !/^[a-z]{4}$/.test(source) || Object.keys(body).some((key) => key !== 'source' && key !== 'account') || (body['account'] !== undefined && body['account'] !== 'acct')) return answer(400, { message: 'invalid reversal' });
      const reversal = { id: `r${reversals.length + 1}`, source, account: body['account'] ?? null };
      reversals.push(reversal);
      return answer(201, reversal);
    }
    if (method === 'GET' && url.pathname === '/reversals') {
      const accounts = url.searchParams.getAll('account');
      const sources = url.searchParams.getAll('source');
      if (accounts.length !== 1 || accounts[0] !== 'acct' || sources.length > 1 || (sources[0] !== undefined && !/^[a-z]{4}$/.test(sources[0]))) return answer(400, { message: 'invalid query' });
      if (ignoresSource && sources.length > 0) return answer(200, { data: [] });
      return answer(200, { data: reversals.filter((reversal) => reversal['account'] === accounts[0] && (sources[0] === undefined || reversal['source'] === sources[0])) });
    }
    const found = /^\/reversals\/([^/]+)$/.exec(url.pathname);
    const reversal = method === 'GET' && found !== null ? reversals.find((candidate) => candidate['id'] === decodeURIComponent(found[1]!)) : undefined;
    return reversal === undefined ? answer(404, { message: 'no such reversal' }) : answer(200, reversal);
  });
  cleanups.push(close);
  return origin;
}

/** The outcome of {@link CHECK} as a failure report, or `undefined` when it passed (a skip fails the test). */
async function failureOf(target: Target): Promise<string | undefined> {
  expect(await listCheckIds(target)).toContain(CHECK);
  const outcome = await runCheck(CHECK, target);
  expect(outcome.ok && outcome.skipped).toBeFalsy();
  return outcome.ok ? undefined : outcome.report;
}

describe('a filter beside a required one, on records that never change (D914)', () => {
  test('records the list cannot show (made without the required member) raise no alarm: our mock and a correct server pass', async () => {
    const spec = specFile(false);
    const mock = await startMock({ spec, port: 0, apiKeys: [KEY] });
    cleanups.push(() => mock.close());
    expect(await failureOf({ baseUrl: mock.baseUrl, apiKey: KEY, spec, runs: 5 })).toBeUndefined();
    expect(await failureOf({ baseUrl: await serve(), apiKey: KEY, spec, runs: 5 })).toBeUndefined();
  });

  test('records the list shows are still found again: a server that answers nothing for a held source fails', async () => {
    const spec = specFile(true);
    expect(await failureOf({ baseUrl: await serve(), apiKey: KEY, spec, runs: 5 })).toBeUndefined();
    expect(await failureOf({ baseUrl: await serve(true), apiKey: KEY, spec, runs: 5 })).toMatch(/returned no records, yet a record with source "[a-z]{4}" was seen before where this list shows it/);
  });
});
