import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createMock, type Mock } from './index.js';

/**
 * What the mock of a large public description got wrong, each on a small spec written here (spec/DECISIONS.md ›
 * D250, D252, D253): a path key that carries a query, a create naming a record of a collection the mock holds, a
 * create answered with a member of listed values.
 */

const KEY = 'gaps-key';
const dir = mkdtempSync(join(tmpdir(), 'mock-gaps-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Json = Record<string, unknown>;
const ok = (schema: unknown, status = 'ok'): Json => ({ description: status, content: { 'application/json': { schema } } });
const error = ok({ $ref: '#/components/schemas/Error' }, 'refused');
const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const body = (schema: unknown): Json => ({ required: true, content: { 'application/json': { schema } } });

/** A mock of a spec made of `paths` and `schemas` (bearer security, the error `{message}`), without a socket. */
async function mockOf(name: string, paths: Json, schemas: Json): Promise<Mock> {
  const file = join(dir, `${name}.json`);
  const spec = {
    openapi: '3.1.0',
    info: { title: name, version: '1.0.0' },
    servers: [{ url: '/v1' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { Error: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } }, ...schemas },
    },
  };
  writeFileSync(file, JSON.stringify(spec));
  return createMock({ spec: file, apiKeys: [KEY] });
}

/** Sends one request through the mock's pipeline; the status and the parsed body. */
async function send(mock: Mock, method: string, url: string, json?: unknown): Promise<{ status: number; body: Json }> {
  const response = await mock.handle({ method, url, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', accept: 'application/json' }, body: json === undefined ? undefined : Buffer.from(JSON.stringify(json)) });
  return { status: response.status, body: (response.body === '' ? {} : JSON.parse(response.body)) as Json };
}

describe('a path key that carries a query (D250)', () => {
  const paths = {
    '/answers': { post: { operationId: 'createAnswer', requestBody: body(ref('NewAnswer')), responses: { '200': ok(ref('Answer')), '400': error } } },
    '/answers/{answer_id}': { get: { operationId: 'getAnswer', parameters: [{ name: 'answer_id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': ok(ref('Answer')), '404': error } } },
    '/answers?preview=true': { post: { operationId: 'preview_createAnswer', requestBody: body(ref('NewPreview')), responses: { '200': ok(ref('Answer')), '400': error } } },
    '/answers/{answer_id}?preview=true': { get: { operationId: 'preview_getAnswer', parameters: [{ name: 'answer_id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': ok(ref('Answer')) } } },
  };
  const schemas = {
    NewAnswer: { type: 'object', required: ['text'], properties: { text: { type: 'string' }, mode: { type: 'string' } } },
    NewPreview: { type: 'object', required: ['text'], properties: { text: { type: 'string' }, mode: { type: 'string', enum: ['fast', 'slow'] } } },
    Answer: { type: 'object', required: ['id', 'text'], properties: { id: { type: 'string', readOnly: true }, text: { type: 'string' }, mode: { type: 'string' } }, example: { id: 'ans-1', text: 'shown' } },
  };

  test("a request carrying the key's query is judged by that operation's schema; one without it by the plain one", async () => {
    const mock = await mockOf('fixed-query', paths, schemas);
    expect((await send(mock, 'POST', '/v1/answers', { text: 'a', mode: 'other' })).status).toBe(200);
    expect((await send(mock, 'POST', '/v1/answers?preview=true', { text: 'a', mode: 'other' })).status).toBe(400);
    expect((await send(mock, 'POST', '/v1/answers?preview=true', { text: 'a', mode: 'fast' })).status).toBe(200);
    // The key's query among others still routes there; another value of it does not.
    expect((await send(mock, 'POST', '/v1/answers?x=1&preview=true', { text: 'a', mode: 'other' })).status).toBe(400);
    expect((await send(mock, 'POST', '/v1/answers?preview=false', { text: 'a', mode: 'other' })).status).toBe(200);
  });

  test('a read whose key carries a query answers as that operation documents, with its path segment', async () => {
    const mock = await mockOf('fixed-query-read', paths, schemas);
    // The plain read holds records: an unknown id is its documented 404; the preview documents only 200.
    expect((await send(mock, 'GET', '/v1/answers/none')).status).toBe(404);
    expect((await send(mock, 'GET', '/v1/answers/none?preview=true')).status).toBe(200);
  });
});

describe('a create naming a record of a collection the mock holds (D252)', () => {
  const paths = {
    '/projects': {
      get: { operationId: 'listProjects', responses: { '200': ok({ type: 'array', items: ref('Project') }) } },
      post: { operationId: 'createProject', requestBody: body(ref('NewProject')), responses: { '201': ok(ref('Project')), '400': error } },
    },
    '/projects/{project_id}': { get: { operationId: 'getProject', parameters: [{ name: 'project_id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': ok(ref('Project')), '404': error } } },
    '/boards': {
      get: { operationId: 'listBoards', responses: { '200': ok({ type: 'array', items: ref('Board') }) } },
      post: { operationId: 'createBoard', requestBody: body(ref('NewBoard')), responses: { '201': ok(ref('Board')), '400': error, '404': error } },
    },
    '/notes': {
      get: { operationId: 'listNotes', responses: { '200': ok({ type: 'array', items: ref('Note') }) } },
      post: { operationId: 'createNote', requestBody: body(ref('NewNote')), responses: { '201': ok(ref('Note')), '400': error } },
    },
  };
  const schemas = {
    NewProject: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
    Project: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' } } },
    NewBoard: { type: 'object', required: ['title', 'project_id'], properties: { title: { type: 'string' }, project_id: { type: 'string' } } },
    Board: { type: 'object', required: ['id', 'title', 'project_id'], properties: { id: { type: 'string', readOnly: true }, title: { type: 'string' }, project_id: { type: 'string' } } },
    NewNote: { type: 'object', required: ['text', 'project_id'], properties: { text: { type: 'string' }, project_id: { type: 'string' } } },
    Note: { type: 'object', required: ['id', 'text', 'project_id'], properties: { id: { type: 'string', readOnly: true }, text: { type: 'string' }, project_id: { type: 'string' } } },
  };

  test('a create documenting 404 refuses a reference to no record with it, and takes one to a record it holds', async () => {
    const mock = await mockOf('held-reference', paths, schemas);
    const refused = await send(mock, 'POST', '/v1/boards', { title: 'b', project_id: 'no-such-project' });
    expect(refused.status).toBe(404);
    expect(String(refused.body['message'])).toContain('no-such-project');
    expect((await send(mock, 'GET', '/v1/boards')).body).toEqual([]);
    const project = await send(mock, 'POST', '/v1/projects', { name: 'p' });
    expect(project.status).toBe(201);
    const board = await send(mock, 'POST', '/v1/boards', { title: 'b', project_id: project.body['id'] });
    expect(board.status).toBe(201);
    expect(board.body['project_id']).toBe(project.body['id']);
  });

  test('a create that documents no 404 keeps taking such a body', async () => {
    const mock = await mockOf('held-reference-open', paths, schemas);
    expect((await send(mock, 'POST', '/v1/notes', { text: 'n', project_id: 'no-such-project' })).status).toBe(201);
  });
});

test('a member of listed values is never taken for the id of a record a create makes (D253)', async () => {
  const param = (name: string): Json => ({ name, in: 'path', required: true, schema: { type: 'string' } });
  const one = (name: string, schema: Json): Json => ({ type: 'object', required: [name], properties: { [name]: schema } });
  const mock = await mockOf('enum-id', {
    '/clusters': {
      get: { operationId: 'listClusters', responses: { '200': ok(one('clusters', { type: 'array', items: ref('Cluster') })) } },
      post: { operationId: 'createCluster', requestBody: body(one('name', { type: 'string' })), responses: { '201': ok(one('cluster', ref('Cluster'))) } },
    },
    '/clusters/{cluster_id}': { get: { operationId: 'getCluster', parameters: [param('cluster_id')], responses: { '200': ok(one('cluster', ref('Cluster'))), '404': error } } },
    '/clusters/{cluster_id}/users': {
      get: { operationId: 'listUsers', parameters: [param('cluster_id')], responses: { '200': ok(one('users', { type: 'array', items: ref('User') })) } },
      post: { operationId: 'addUser', parameters: [param('cluster_id')], requestBody: body(ref('User')), responses: { '201': ok(one('user', ref('User'))) } },
    },
    '/clusters/{cluster_id}/users/{username}': { get: { operationId: 'getUser', parameters: [param('cluster_id'), param('username')], responses: { '200': ok(one('user', ref('User'))), '404': error } } },
    // An action on a user answered with the user: its only read-only string besides a password is the user's role.
    '/clusters/{cluster_id}/users/{username}/reset': {
      post: { operationId: 'resetUser', parameters: [param('cluster_id'), param('username')], requestBody: body({ type: 'object', properties: { plugin: { type: 'string' } } }), responses: { '200': ok(one('user', ref('User'))), '404': error } },
    },
  }, {
    Cluster: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' } } },
    User: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, role: { type: 'string', enum: ['primary', 'normal'], readOnly: true }, password: { type: 'string', readOnly: true }, plugin: { type: 'string' } } },
  });
  // The action answers the user it acts on, so it is no collection of its own (D304); whatever holds it never
  // takes the role for a key.
  const reset = mock.api.operations.find((op) => op.operationId === 'resetUser')!;
  expect(reset.resource?.idProperty).not.toBe('role');
  const cluster = await send(mock, 'POST', '/v1/clusters', { name: 'c' });
  const id = String((cluster.body['cluster'] as Json)['id']);
  expect((await send(mock, 'POST', `/v1/clusters/${id}/users`, { name: 'u1' })).status).toBe(201);
  for (let i = 0; i < 3; i++) {
    const answer = await send(mock, 'POST', `/v1/clusters/${id}/users/u1/reset`, { plugin: 'p' });
    expect(answer.status).toBe(200);
    const role = (answer.body['user'] as Json | undefined)?.['role'];
    if (role !== undefined) expect(['primary', 'normal']).toContain(role);
  }
});
