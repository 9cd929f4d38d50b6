import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { mediaKind } from '../model/media.js';
import { PACKAGE_ROOT } from '../model/loader.js';
import type { ApiModel, OperationModel } from '../model/model.js';
import { validSample } from '../model/samples.js';
import { answerProblem, documentedFor } from '../test/answer-check.js';
import { createMock, type Mock, type MockRequest } from './index.js';

/**
 * The property of spec/DECISIONS.md › D55–D58: for every operation of every spec the repository holds (the
 * corpus, the wild-style specs, this file's fixtures), every answer the mock gives with no state — each
 * documented status forced with `Prefer: code=`, each named example, each media type asked with `Accept`, a
 * request without credentials, a malformed body or one of another media type, an unknown path — has a documented
 * media type and a body its documented schema accepts (an undocumented error: the operation's first documented one).
 */
const FOLDERS = [join(PACKAGE_ROOT, 'spec', 'corpus'), join(PACKAGE_ROOT, 'test', 'wild'), join(PACKAGE_ROOT, 'spec', 'wild')];
const SPECS = [
  ...FOLDERS.filter((folder) => existsSync(folder)).flatMap((folder) =>
    readdirSync(folder)
      .filter((name) => /\.(ya?ml|json)$/.test(name))
      .map((name) => join(folder, name)),
  ),
  join(PACKAGE_ROOT, 'mock', 'fixtures', 'answers.yaml'),
];
const KEY = 'answers-key';

/** Credentials for the operation's first security scheme, as headers and a query suffix. */
function credentials(op: OperationModel): { headers: Record<string, string>; query: string } {
  const scheme = op.security[0];
  if (scheme === undefined) return { headers: {}, query: '' };
  if (scheme.kind === 'bearer') return { headers: { authorization: `Bearer ${KEY}` }, query: '' };
  if (scheme.kind === 'basic') return { headers: { authorization: `Basic ${Buffer.from(`user:${KEY}`).toString('base64')}` }, query: '' };
  if (scheme.in === 'query') return { headers: {}, query: `${encodeURIComponent(scheme.parameter)}=${KEY}` };
  if (scheme.in === 'cookie') return { headers: { cookie: `${scheme.parameter}=${KEY}` }, query: '' };
  return { headers: { [scheme.parameter.toLowerCase()]: KEY }, query: '' };
}

/** A URL of the operation with sampled path and required query parameters (valid where the samples are). */
function urlOf(api: ApiModel, op: OperationModel, extraQuery: string): string {
  let path = op.path;
  for (const parameter of op.pathParams) path = path.replace(`{${parameter.name}}`, encodeURIComponent(String(scalar(validSample(parameter.schema)))));
  const query = op.queryParams
    .filter((p) => p.required)
    .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(scalar(validSample(p.schema))))}`);
  if (extraQuery !== '') query.push(extraQuery);
  return `${api.basePath}${path}${query.length === 0 ? '' : `?${query.join('&')}`}`;
}

function scalar(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value !== null && typeof value === 'object' ? 'x' : value;
}

/** Every stateless request of the property for one operation: each status forced, each named example, each media type, no credentials. */
function requestsFor(api: ApiModel, op: OperationModel): MockRequest[] {
  const { headers, query } = credentials(op);
  const url = urlOf(api, op, query);
  const body = op.body === undefined || !op.body.mediaTypes.some((t) => mediaKind(t) === 'json') ? undefined : Buffer.from(JSON.stringify(validSample(op.body.schema)));
  const base = { method: op.method, url, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': op.body!.mediaTypes.find((t) => mediaKind(t) === 'json')! }) }, body };
  const requests: MockRequest[] = [base];
  for (const response of op.responses) {
    if (/^\d{3}$/.test(response.status)) requests.push({ ...base, headers: { ...base.headers, prefer: `code=${response.status}` } });
    for (const content of response.contents) {
      requests.push({ ...base, headers: { ...base.headers, accept: content.mediaType, ...(/^\d{3}$/.test(response.status) ? { prefer: `code=${response.status}` } : {}) } });
      for (const example of content.examples) {
        if (example.name !== undefined) requests.push({ ...base, headers: { ...base.headers, prefer: `example=${example.name}${/^\d{3}$/.test(response.status) ? `, code=${response.status}` : ''}` } });
      }
    }
  }
  if (op.security.length > 0) requests.push({ method: op.method, url: urlOf(api, op, ''), headers: {} });
  // Refusals of bad input: a malformed JSON body, a body in a media type the operation does not take.
  if (body !== undefined) requests.push({ ...base, body: Buffer.from('{"unterminated": ') }, { ...base, headers: { ...base.headers, 'content-type': 'application/x-unknown' } });
  return requests;
}

describe('every answer the mock gives with no state validates against its documented schema', () => {
  for (const spec of SPECS) {
    test(spec.slice(PACKAGE_ROOT.length + 1), async () => {
      const mock: Mock = await createMock({ spec, apiKeys: [KEY], data: new Map() });
      const problems: string[] = [];
      for (const op of mock.model.operations) {
        for (const request of requestsFor(mock.model, op)) {
          const response = mock.handle(request);
          const problem = answerProblem(op, response);
          if (problem !== undefined) problems.push(`${op.operationId} ${request.method} ${request.url} ${JSON.stringify(request.headers)}: ${problem}`);
        }
      }
      // The answers no operation gives: an unknown path (404) and a method the path does not serve (405).
      const first = mock.model.operations[0];
      if (first !== undefined) {
        const unknown = mock.handle({ method: 'GET', url: `${mock.model.basePath}/no-such-path-anywhere`, headers: credentials(first).headers });
        const anyDocumenting = mock.model.operations.find((op) => documentedFor(op, 404)?.contents.length);
        const problem = answerProblem(anyDocumenting, unknown);
        if (problem !== undefined) problems.push(`unknown path: ${problem}`);
      }
      expect(problems).toEqual([]);
    }, 60_000);
  }
});
