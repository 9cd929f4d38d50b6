import { describe, expect, test } from 'vitest';
import { documentMock, jsonCaller } from '../test/in-process.js';

// A create that answers the record under a member named like the resource, beside what else it started (Hetzner
// Cloud's `{certificate, action}`, `{server, action, next_actions, root_password}`), while the read answers
// `{certificate}` alone: the record is that member (D865), so the create answers what the client wrote.
const certificate = {
  type: 'object',
  properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' }, certificate: { type: 'string', nullable: true } },
};
const action = { type: 'object', properties: { id: { type: 'integer' }, command: { type: 'string' }, status: { type: 'string' } } };
const answer = (status: string, properties: object, required: string[]) => ({
  [status]: { description: 'ok', content: { 'application/json': { schema: { type: 'object', required, properties } } } },
});

const DOCUMENT = {
  paths: {
    '/certificates': {
      post: {
        operationId: 'createCertificate',
        requestBody: { content: { 'application/json': { schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, certificate: { type: 'string' } } } } } },
        responses: answer('201', { certificate, action }, ['certificate']),
      },
    },
    '/certificates/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      get: { operationId: 'getCertificate', responses: answer('200', { certificate }, ['certificate']) },
    },
  },
};

describe('a create answering the record beside another member', () => {
  test('answers what the client wrote under the member named like the resource, and the read agrees', async () => {
    const mock = await documentMock(DOCUMENT);
    const send = jsonCaller(mock);
    const created = send('POST', '/certificates', { name: 'my cert', certificate: 'PEM TEXT' });
    expect(created.status).toBe(201);
    expect(created.json.certificate).toMatchObject({ name: 'my cert', certificate: 'PEM TEXT' });
    const read = send('GET', `/certificates/${String(created.json.certificate.id)}`);
    expect([read.status, read.json.certificate]).toEqual([200, created.json.certificate]);
  });
});
