import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadModel } from '../model/loader.js';
import { toView } from '../model/json.js';
import { recordFromBody } from './record-bodies.js';

/**
 * A create whose write sends `company` as an object or `""`, where the record holds it as an object that requires a
 * member no write names, written as one branch of a nullable `anyOf` (`anyOf: [{$ref}]`, `nullable: true`).
 */
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Holders', version: '1' },
  paths: {
    '/holders': {
      post: {
        operationId: 'createHolder',
        requestBody: {
          content: {
            'application/x-www-form-urlencoded': {
              schema: { type: 'object', properties: { name: { type: 'string' }, company: { anyOf: [{ type: 'object', properties: { tax_id: { type: 'string' } } }, { type: 'string', enum: [''] }] } } },
            },
          },
        },
        responses: { '200': { description: 'made', content: { 'application/json': { schema: { $ref: '#/components/schemas/Holder' } } } } },
      },
    },
    '/holders/{id}': {
      get: {
        operationId: 'getHolder',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'the holder', content: { 'application/json': { schema: { $ref: '#/components/schemas/Holder' } } } } },
      },
    },
  },
  components: {
    schemas: {
      Holder: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, name: { type: 'string' }, company: { anyOf: [{ $ref: '#/components/schemas/Company' }], nullable: true } } },
      Company: { type: 'object', required: ['tax_id_provided'], properties: { tax_id_provided: { type: 'boolean' } } },
    },
  },
};

describe('an object a write sends, held by the record as a branch of several (D884)', () => {
  test('is completed with the members the branch requires, and the record is valid by its schema', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'record-branches-'));
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(SPEC));
    const model = await loadModel(join(dir, 'openapi.json'));
    const read = model.operations.find((op) => op.operationId === 'getHolder')!;
    const resource = read.resource!;
    const record = recordFromBody(resource, { name: 'x', company: { tax_id: 'z' } });
    expect(record['company']).toEqual({ tax_id: 'z', tax_id_provided: expect.any(Boolean) });
    const validate = read.responses.find((response) => response.status === '200')!.validate!;
    expect(validate(toView({ ...record, id: '1' }))).toBe(true);
  });
});
