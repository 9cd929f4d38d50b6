import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { loadModel } from '../../model/loader.js';
import { compile, createAjv, type Schema, type Validator } from '../../model/schema.js';
import { exactJson, toView } from '../../model/json.js';
import { decodeForm } from '../body-encoding.js';
import { canonicalise } from './canonical.js';
import { valueOf } from './schema-values.js';
import { ordinaryBody, type PinsHolder } from './body.js';

/** A member a form write sends as an object or as `""` (to clear it), in the shape form APIs write. */
const orBlank = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'string', enum: [''] }] });

/**
 * A create taking a form, whose members are objects sent in bracket notation and marked nothing required (so its
 * bodies are drawn whole, D181), held to a record that names more nested members than the write (D61, D883),
 * holds its address as an object or `null`, and names optional members no write sends.
 */
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Widgets', version: '1' },
  paths: {
    '/widgets': {
      post: {
        operationId: 'createWidget',
        requestBody: {
          content: {
            'application/x-www-form-urlencoded': {
              encoding: Object.fromEntries(['metadata', 'settings', 'address', 'owner', 'labels'].map((name) => [name, { style: 'deepObject', explode: true }])),
              schema: {
                type: 'object',
                additionalProperties: false,
                properties: {
                  name: { type: 'string', maxLength: 40 },
                  metadata: orBlank({ type: 'object', additionalProperties: { type: 'string' } }),
                  settings: { type: 'object', properties: { mode: { type: 'string', enum: ['fast', 'slow'] }, limits: { type: 'object', properties: { daily: { type: 'integer' }, weekly: { type: 'integer' } } } } },
                  address: orBlank({ type: 'object', properties: { city: { type: 'string', maxLength: 40 }, line1: { type: 'string', maxLength: 40 } } }),
                  owner: { type: 'object', properties: { aliases: orBlank({ type: 'array', items: { type: 'string', maxLength: 20 } }), nickname: { type: 'string', maxLength: 20 } } },
                  labels: orBlank({ type: 'array', minItems: 1, items: { type: 'string', maxLength: 20 } }),
                },
              },
            },
          },
        },
        responses: { '201': { description: 'made', content: { 'application/json': { schema: { $ref: '#/components/schemas/Widget' } } } } },
      },
    },
    '/widgets/{id}': {
      get: {
        operationId: 'getWidget',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'the widget', content: { 'application/json': { schema: { $ref: '#/components/schemas/Widget' } } } } },
      },
    },
  },
  components: {
    schemas: {
      Widget: {
        type: 'object',
        required: ['id'],
        properties: {
          id: { type: 'string', readOnly: true },
          name: { type: 'string', maxLength: 40 },
          settings: { type: 'object', properties: { mode: { type: 'string', enum: ['fast', 'slow'] }, uses_default: { type: 'boolean' }, limits: { type: 'object', properties: { daily: { type: 'integer' }, weekly: { type: 'integer' } } } } },
          address: { anyOf: [{ type: 'object', required: ['city'], properties: { city: { type: 'string' }, line1: { type: 'string' }, verified: { type: 'boolean' } } }], nullable: true },
          owner: { type: 'object', properties: { id: { type: 'string' }, aliases: { type: 'array', items: { type: 'string' } }, nickname: { type: 'string' } } },
          labels: { type: 'array', items: { type: 'string', maxLength: 10 } },
        },
      },
    },
  },
};

describe('form bodies drawn within a record held to the write (D880-D883)', () => {
  test('every ordinary body of a form create that marks nothing required is whole, found at its first candidate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'form-bodies-'));
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(SPEC));
    const op = (await loadModel(join(dir, 'openapi.json'))).operations.find((candidate) => candidate.operationId === 'createWidget')!;
    // The form filter judges every candidate by the body's validator once it reads back: counting its calls counts
    // the candidates a draw spent.
    let judged = 0;
    const validate = op.body!.validate;
    op.body!.validate = Object.assign((value: unknown) => (judged++, validate(value)), { errors: validate.errors, issues: validate.issues, failure: validate.failure }) as Validator;
    const context: PinsHolder = { run: { pins: new Map() } };
    for (let seed = 1; seed <= 30; seed++) {
      const before = judged;
      const body = ordinaryBody(context, op, 'safe', seed);
      // Whole (D181): every member a write may send is there, but for an object drawn empty, which a form cannot
      // send (D328); a body only the fallback found would lack some of the others.
      expect(Object.keys(body), `seed ${seed}`).toEqual(expect.arrayContaining(['address', 'labels', 'name']));
      expect(Object.keys(body).length, `seed ${seed}`).toBeGreaterThanOrEqual(4);
      // No member only the record names was drawn into the write (D883).
      expect(exactJson(body)).not.toMatch(/uses_default|verified|"id"/);
      expect(judged - before, `seed ${seed}`).toBeLessThanOrEqual(3);
    }
  });

  test("a value of a write's member held to its record's, both with branches, meets both (D881)", () => {
    const ajv = createAjv();
    // The write's `anyOf: [object, ""]` held to the record's `anyOf: [object, null]`, and `[ids | ""]` to a list of objects.
    const schemas: Schema[] = [
      { allOf: [orBlank({ type: 'object', properties: { city: { type: 'string' } } }), { anyOf: [{ type: 'object', properties: { city: { type: 'string' } } }, { type: 'null' }] }] },
      { allOf: [orBlank({ type: 'object', additionalProperties: { type: 'string' } }), { type: 'object', additionalProperties: { type: 'string' } }] },
      { allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string', enum: ['minimum'] }] }, { type: 'integer' }] },
      { allOf: [orBlank({ type: 'array', items: { type: 'string' } }), { type: 'array', items: { type: 'object' } }] },
    ];
    for (const schema of schemas) {
      const validate = compile(ajv, schema);
      const values = fc.sample(valueOf(canonicalise(schema), { integers: 'safe', strings: 'ordinary' }), { numRuns: 200, seed: 42 });
      const refused = values.filter((value) => !validate(toView(value)));
      expect(refused, JSON.stringify(schema)).toEqual([]);
    }
  });

  test('listed values none of whose types the schema allows admit no value (D881)', () => {
    expect(canonicalise({ type: 'object', enum: [''] })).toEqual({ kind: 'never' });
    expect(canonicalise({ type: 'string', enum: ['', 'a'] })).toEqual({ kind: 'enum', values: ['', 'a'] });
  });

  test('numbered keys under a member that is a list or "" read as a list (D882)', () => {
    const schema: Schema = { type: 'object', properties: { owner: { type: 'object', properties: { aliases: orBlank({ type: 'array', items: { type: 'string' } }) } } } };
    expect(decodeForm(schema, [['owner[aliases][0]', 'a'], ['owner[aliases][1]', 'b']])).toEqual({ owner: { aliases: ['a', 'b'] } });
  });
});
