import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadModel } from '../../model/loader.js';
import type { Validator } from '../../model/schema.js';
import { GenerationGaveUp } from './bounded.js';
import { ordinaryBody, type PinsHolder } from './body.js';

/** A create whose body no draw can satisfy: `n` must match exactly one of two equal branches. */
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Counters', version: '1' },
  paths: {
    '/counters': {
      post: {
        operationId: 'createCounter',
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['n'], properties: { n: { $ref: '#/components/schemas/N' } } } } } },
        responses: { '201': { description: 'made', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' }, n: { $ref: '#/components/schemas/N' } } } } } } },
      },
    },
  },
  components: { schemas: { N: { oneOf: [{ type: 'integer', minimum: 1, maximum: 3 }, { type: 'integer', minimum: 1, maximum: 3 }] } } },
};

describe('an ordinary body a seed cannot draw is given up once per operation and seed (D741)', () => {
  test('asked again, the same seed gives up at once with the same error, without drawing; another seed draws anew', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ordinary-body-'));
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(SPEC));
    const op = (await loadModel(join(dir, 'openapi.json'))).operations.find((candidate) => candidate.operationId === 'createCounter')!;
    // Every draw is judged by the body's validator: counting its calls counts the work a draw does.
    let judged = 0;
    const validate = op.body!.validate;
    op.body!.validate = Object.assign((value: unknown) => (judged++, validate(value)), { errors: validate.errors }) as Validator;
    const context: PinsHolder = { run: { pins: new Map() } };
    const draw = (seed: number): unknown => {
      try {
        return ordinaryBody(context, op, 'safe', seed);
      } catch (error) {
        return error;
      }
    };
    const first = draw(7);
    expect(first).toBeInstanceOf(GenerationGaveUp);
    const spent = judged;
    expect(spent).toBeGreaterThan(0);
    expect(draw(7)).toBe(first);
    expect(judged).toBe(spent);
    const other = draw(8);
    expect(other).toBeInstanceOf(GenerationGaveUp);
    expect(other).not.toBe(first);
    expect(judged).toBeGreaterThan(spent);
  });
});
