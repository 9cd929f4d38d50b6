import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bearer, call } from '../test/in-process.js';
import { createMock } from './index.js';

/**
 * Records three levels down whose grandparent is numbered per its own parent (spec/DECISIONS.md › D240, D303): the
 * comments of a review of a pull request named by its number in the repository, not by its global id.
 */
const integer = { type: 'integer' };
const pull = { type: 'object', required: ['id', 'number', 'title'], properties: { id: integer, number: integer, title: { type: 'string' } } };
const review = { type: 'object', required: ['id', 'body'], properties: { id: integer, body: { type: 'string' } } };
const comment = { type: 'object', required: ['id', 'body', 'line'], properties: { id: integer, body: { type: 'string' }, line: integer } };
const repo = { type: 'object', required: ['id', 'name'], properties: { id: integer, name: { type: 'string' } } };
const json = (schema: object) => ({ 'application/json': { schema } });
const param = (name: string) => ({ name, in: 'path', required: true, schema: integer });
const writeBody = (member: string) => ({ required: true, content: json({ type: 'object', required: [member], properties: { [member]: { type: 'string' } } }) });
const made = (schema: object) => ({ '201': { description: 'made', content: json(schema) } });
const read = (schema: object) => ({ '200': { description: 'ok', content: json(schema) }, '404': { description: 'missing' } });
const spec = {
  openapi: '3.1.0',
  info: { title: 'Reviews', version: '1' },
  components: { securitySchemes: { key: { type: 'http', scheme: 'bearer' } } },
  security: [{ key: [] }],
  paths: {
    '/repos': { post: { operationId: 'createRepo', requestBody: writeBody('name'), responses: made(repo) } },
    '/repos/{repo_id}': { get: { operationId: 'getRepo', parameters: [param('repo_id')], responses: read(repo) } },
    '/repos/{repo_id}/pulls': { post: { operationId: 'createPull', parameters: [param('repo_id')], requestBody: writeBody('title'), responses: made(pull) } },
    '/repos/{repo_id}/pulls/{pull_number}': { get: { operationId: 'getPull', parameters: [param('repo_id'), param('pull_number')], responses: read(pull) } },
    '/repos/{repo_id}/pulls/{pull_number}/reviews': { post: { operationId: 'createReview', parameters: [param('repo_id'), param('pull_number')], requestBody: writeBody('body'), responses: made(review) } },
    '/repos/{repo_id}/pulls/{pull_number}/reviews/{review_id}': { get: { operationId: 'getReview', parameters: [param('repo_id'), param('pull_number'), param('review_id')], responses: read(review) } },
    '/repos/{repo_id}/pulls/{pull_number}/reviews/{review_id}/comments': {
      post: { operationId: 'createComment', parameters: [param('repo_id'), param('pull_number'), param('review_id')], requestBody: writeBody('body'), responses: { ...made(comment), '404': { description: 'missing' } } },
    },
  },
};
const dir = mkdtempSync(join(tmpdir(), 'harness-numbered-grandparent-'));
writeFileSync(join(dir, 'openapi.json'), JSON.stringify(spec));
const mock = await createMock({ spec: join(dir, 'openapi.json'), apiKeys: ['k'], data: new Map() });
rmSync(dir, { recursive: true, force: true });
const headers = bearer('k', { 'content-type': 'application/json' });
const post = (url: string, body: object) => call(mock.handle, { method: 'POST', url, headers, body: JSON.stringify(body) });

describe('a grandparent numbered per parent (D303)', () => {
  it("a review's comments are made under the pull's number, not its global id, and only there", () => {
    const first = post('/repos', { name: 'a' }).json.id as number;
    const second = post('/repos', { name: 'b' }).json.id as number;
    post(`/repos/${first}/pulls`, { title: 'one' });
    post(`/repos/${second}/pulls`, { title: 'two' });
    const later = post(`/repos/${second}/pulls`, { title: 'three' }).json as { id: number; number: number };
    expect(later.id).not.toBe(later.number);
    const reviewed = post(`/repos/${second}/pulls/${later.number}/reviews`, { body: 'fine' });
    expect(reviewed.status).toBe(201);
    const id = reviewed.json.id as number;
    expect(post(`/repos/${second}/pulls/${later.number}/reviews/${id}/comments`, { body: 'nit' }).status).toBe(201);
    expect(post(`/repos/${second}/pulls/1/reviews/${id}/comments`, { body: 'nit' }).status).toBe(404);
  });
});
