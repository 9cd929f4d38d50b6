import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bearer, call } from '../test/in-process.js';
import { createMock } from './index.js';

/**
 * The shape FastAPI services publish: a create answers only `{"schedule_id": …}`, the record is read at
 * `/schedules/{schedule_id}` and listed with `id`, and a delete answers `{"deleted": boolean}` (spec/DECISIONS.md ›
 * D226, D227). A client reads the key from the create's answer and the flag from the delete's.
 */
const schedule = { type: 'object', required: ['id', 'name', 'cron'], properties: { id: { type: 'string' }, name: { type: 'string' }, cron: { type: 'string' }, active: { type: 'boolean' } } };
const idParameter = [{ name: 'schedule_id', in: 'path', required: true, schema: { type: 'string' } }];
const spec = {
  openapi: '3.1.0',
  info: { title: 'Schedules', version: '1' },
  components: { securitySchemes: { key: { type: 'http', scheme: 'bearer' } } },
  security: [{ key: [] }],
  paths: {
    '/v1/schedules': {
      get: { operationId: 'listSchedules', responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', required: ['data'], properties: { data: { type: 'array', items: schedule } } } } } } } },
      post: {
        operationId: 'createSchedule',
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['name', 'cron'], properties: { name: { type: 'string' }, cron: { type: 'string' }, active: { anyOf: [{ type: 'boolean' }, { type: 'null' }] } } } } } },
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', required: ['schedule_id'], properties: { schedule_id: { type: 'string' } } } } } } },
      },
    },
    '/v1/schedules/{schedule_id}': {
      get: { operationId: 'getSchedule', parameters: idParameter, responses: { '200': { description: 'ok', content: { 'application/json': { schema: schedule } } }, '404': { description: 'missing' } } },
      delete: { operationId: 'deleteSchedule', parameters: idParameter, responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { deleted: { type: 'boolean' } } } } } } } },
    },
  },
};
const dir = mkdtempSync(join(tmpdir(), 'harness-key-member-'));
writeFileSync(join(dir, 'openapi.json'), JSON.stringify(spec));
const mock = await createMock({ spec: join(dir, 'openapi.json'), apiKeys: ['k'], data: new Map() });
rmSync(dir, { recursive: true, force: true });
const headers = bearer('k', { 'content-type': 'application/json' });

describe('a create that answers only the key, a delete that answers a flag', () => {
  it('the key member of the create\'s answer is the record\'s id, by which it is read and listed', () => {
    const created = call(mock.handle, { method: 'POST', url: '/v1/schedules', headers, body: '{"name":"nightly","cron":"0 3 * * *"}' });
    expect(created.status).toBe(200);
    const key = created.json.schedule_id as string;
    expect(key).not.toBe('string');
    const read = call(mock.handle, { url: `/v1/schedules/${key}`, headers });
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({ id: key, name: 'nightly', cron: '0 3 * * *' });
    expect(call(mock.handle, { url: '/v1/schedules', headers }).json.data.map((item: { id: string }) => item.id)).toContain(key);
  });

  it('a delete documented as `{"deleted": boolean}` answers `deleted: true`, then the record is gone', () => {
    const key = call(mock.handle, { method: 'POST', url: '/v1/schedules', headers, body: '{"name":"hourly","cron":"0 * * * *"}' }).json.schedule_id as string;
    const deleted = call(mock.handle, { method: 'DELETE', url: `/v1/schedules/${key}`, headers });
    expect(deleted.status).toBe(200);
    expect(deleted.json).toEqual({ deleted: true });
    expect(call(mock.handle, { url: `/v1/schedules/${key}`, headers }).status).toBe(404);
  });
});
