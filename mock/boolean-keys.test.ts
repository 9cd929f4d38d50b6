import { describe, expect, test } from 'vitest';
import { documentMock, jsonCaller } from '../test/in-process.js';

// An envelope's `ok: boolean` beside the record, under an item path `{webhook}` whose name happens to end in "ok":
// a member that can only be true or false never names a record (D862), so the mock never writes a key into it.
const envelope = (record: object) => ({
  type: 'object',
  properties: { ok: { type: 'boolean' }, message: { type: 'string' }, data: { type: 'object', properties: { webhook: record } } },
});
const webhook = { type: 'object', properties: { id: { type: 'string' }, url: { type: 'string' } } };
const answer = (schema: object) => ({ '200': { description: 'ok', content: { 'application/json': { schema } } } });

const DOCUMENT = {
  paths: {
    '/webhooks': {
      get: { operationId: 'listWebhooks', responses: answer({ type: 'object', properties: { ok: { type: 'boolean' }, data: { type: 'object', properties: { webhooks: { type: 'array', items: webhook } } } } }) },
      post: {
        operationId: 'createWebhook',
        requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { url: { type: 'string' } } } } } },
        responses: answer(envelope(webhook)),
      },
    },
    '/webhooks/{webhook}': {
      parameters: [{ name: 'webhook', in: 'path', required: true, schema: { type: 'string' } }],
      delete: { operationId: 'deleteWebhook', responses: answer({ type: 'object', properties: { ok: { type: 'boolean' }, message: { type: 'string' } } }) },
    },
  },
};

describe('a member that can only be true or false', () => {
  test('is never read as the key of a record, so an answer keeps it a boolean', async () => {
    const mock = await documentMock(DOCUMENT);
    expect(mock.api.resources.map((resource) => resource.idProperty)).not.toContain('ok');
    const send = jsonCaller(mock);
    const created = send('POST', '/webhooks', { url: 'https://example.com/hook' });
    expect(created.status).toBeLessThan(300);
    expect(typeof created.json.ok).toBe('boolean');
  });
});
