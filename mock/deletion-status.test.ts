import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bearer, call } from '../test/in-process.js';
import { createMock } from './index.js';

/**
 * Shapes of large public APIs the mock must tell apart: a delete whose documented success is a deletion status,
 * not the record (`{"id", "object": "agent.deleted", "deleted": true}`), and two collections whose last segment
 * is the same (`/chat/completions` and `/completions`), which must keep their records apart.
 */
const record = (object: string) => ({ type: 'object', required: ['id', 'object', 'label'], properties: { id: { type: 'string', readOnly: true }, object: { const: object }, label: { type: 'string' } } });
// The error object under one member, as large AI APIs write it.
const nestedError = { type: 'object', required: ['error'], properties: { error: { type: 'object', required: ['message', 'type'], properties: { message: { type: 'string' }, type: { type: 'string' }, param: { type: ['string', 'null'] }, code: { type: ['string', 'null'] } } } } };
const spec = {
  openapi: '3.1.0',
  info: { title: 'Shapes', version: '1' },
  servers: [{ url: '/v1' }],
  components: { securitySchemes: { key: { type: 'http', scheme: 'bearer' } } },
  security: [{ key: [] }],
  paths: {
    '/agents': {
      get: { operationId: 'listAgents', responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', required: ['data'], properties: { object: { const: 'list' }, data: { type: 'array', items: record('agent') } } } } } } } },
      post: { operationId: 'createAgent', requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['label'], properties: { label: { type: 'string' } } } } } }, responses: { '200': { description: 'ok', content: { 'application/json': { schema: record('agent') } } } } },
    },
    '/agents/{agent_id}': {
      get: { operationId: 'getAgent', parameters: [{ name: 'agent_id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'ok', content: { 'application/json': { schema: record('agent') } } }, '404': { description: 'missing', content: { 'application/json': { schema: nestedError } } } } },
      delete: {
        operationId: 'deleteAgent',
        parameters: [{ name: 'agent_id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', required: ['id', 'object', 'deleted'], properties: { id: { type: 'string' }, object: { const: 'agent.deleted' }, deleted: { type: 'boolean' } } } } } }, '404': { description: 'missing' } },
      },
    },
    '/chat/completions': { post: { operationId: 'createChatCompletion', requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['label'], properties: { label: { type: 'string' } } } } } }, responses: { '200': { description: 'ok', content: { 'application/json': { schema: record('chat.completion') } } } } } },
    '/completions': { post: { operationId: 'createCompletion', requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['label'], properties: { label: { type: 'string' } } } } } }, responses: { '200': { description: 'ok', content: { 'application/json': { schema: record('text_completion') } } } } } },
  },
};
const dir = mkdtempSync(join(tmpdir(), 'petstore-shapes-'));
writeFileSync(join(dir, 'openapi.json'), JSON.stringify(spec));
const mock = await createMock({ spec: join(dir, 'openapi.json'), apiKeys: ['k'], data: new Map() });
rmSync(dir, { recursive: true, force: true });
const headers = bearer('k', { 'content-type': 'application/json' });

describe('shapes of large public APIs', () => {
  it('an error object under one member (`{"error": {message, type}}`) carries the mock\'s message and code there', () => {
    const missing = call(mock.handle, { url: '/v1/agents/none', headers });
    expect(missing.status).toBe(404);
    expect(missing.json.error.message).toMatch(/no|not found/i);
    expect(missing.json.error.type).toMatch(/NOT_FOUND/);
  });

  it('a delete documented as a deletion status answers that status, naming the record, then the record is gone', () => {
    const created = call(mock.handle, { method: 'POST', url: '/v1/agents', headers, body: '{"label":"scout"}' });
    expect(created.status).toBe(200);
    const id = created.json.id as string;
    const deleted = call(mock.handle, { method: 'DELETE', url: `/v1/agents/${id}`, headers });
    expect(deleted.status).toBe(200);
    expect(deleted.json).toEqual({ id, object: 'agent.deleted', deleted: true });
    expect(call(mock.handle, { method: 'GET', url: `/v1/agents/${id}`, headers }).status).toBe(404);
  });

  it('two collections with the same last segment are two resources, with their own records', () => {
    expect(new Set(mock.model.resources.map((resource) => resource.name)).size).toBe(mock.model.resources.length);
    const chat = call(mock.handle, { method: 'POST', url: '/v1/chat/completions', headers, body: '{"label":"hi"}' });
    const text = call(mock.handle, { method: 'POST', url: '/v1/completions', headers, body: '{"label":"hi"}' });
    expect([chat.json.object, text.json.object]).toEqual(['chat.completion', 'text_completion']);
  });
});
