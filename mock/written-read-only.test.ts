import { describe, expect, it } from 'vitest';
import { call, documentMock } from '../test/in-process.js';
import type { Mock } from './index.js';

/**
 * A member the record's schema marks `readOnly` but a write body names without that mark is the client's to write
 * (spec/DECISIONS.md › D71 "no request may send", D782). Some descriptions write their read schemas with every member
 * `readOnly` beside a create schema that takes some of them: the mock answered a sample (`"string"`) in place of the
 * text the client wrote. Members no write body names stay the server's.
 */
const json = (schema: object): object => ({ description: 'OK', content: { 'application/json': { schema } } });
const send = (mock: Mock, method: string, url: string, body?: object): ReturnType<typeof call> =>
  call(mock.handle, { method, url, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

describe('a member the read marks readOnly and a write body takes', () => {
  const read = { type: 'object', properties: { id: { type: 'integer', readOnly: true }, description: { type: 'string', readOnly: true }, status: { type: 'string', readOnly: true }, created: { type: 'string', format: 'date-time', readOnly: true } } };
  const create = { type: 'object', required: ['description'], properties: { description: { type: 'string' }, secret: { type: 'string' } } };
  const replace = { type: 'object', properties: { description: { type: 'string' }, status: { type: 'string', readOnly: true } } };
  const document = {
    paths: {
      '/devices': { get: { operationId: 'listDevices', responses: { 200: json({ type: 'array', items: read }) } }, post: { operationId: 'createDevice', requestBody: { content: { 'application/json': { schema: create } } }, responses: { 200: json(read) } } },
      '/devices/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        get: { operationId: 'getDevice', responses: { 200: json(read), 404: { description: 'none' } } },
        put: { operationId: 'putDevice', requestBody: { content: { 'application/json': { schema: replace } } }, responses: { 200: json(read), 404: { description: 'none' } } },
      },
    },
  };

  it('is kept as the client wrote it, on create, read, list and replace; members no body names stay the server\'s', async () => {
    const mock = await documentMock(document);
    const created = send(mock, 'POST', '/api/devices', { description: 'my phone' });
    expect(created.status).toBe(200);
    const id = (created.json as { id: number }).id;
    expect(created.json).toMatchObject({ description: 'my phone' });
    expect((created.json as { created?: string }).created).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(send(mock, 'GET', `/api/devices/${id}`).json).toMatchObject({ id, description: 'my phone' });
    expect((send(mock, 'GET', '/api/devices').json as object[])[0]).toMatchObject({ id, description: 'my phone' });
    const status = (created.json as { status: string }).status;
    // The replace body marks `status` readOnly as the read does: the server's still, kept by a replace.
    expect(send(mock, 'PUT', `/api/devices/${id}`, { description: 'my tablet' }).json).toMatchObject({ id, description: 'my tablet', status });
  });
});
