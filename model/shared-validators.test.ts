import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it, vi } from 'vitest';
import { compile, createAjv, ownerOf, type Schema } from './schema.js';
import { validatorOf, validSample } from './samples.js';

/** D420: a schema of a model is compiled once, and a sample of it is checked by the function the model compiled. */
describe('validators shared between a model and its samples', () => {
  it('compile a schema once for the model and the samples, with the same verdicts', () => {
    const ajv = createAjv();
    // Every instance's compilations, the samples' own instance included.
    const compiles = vi.spyOn(Ajv2020.prototype, 'compile');
    const schema: Schema = { type: 'object', properties: { name: { type: 'string', minLength: 2 } }, required: ['name'] };
    const model = compile(ajv, schema, 'body');
    expect(ownerOf(schema)).toBe(ajv);
    expect(model({ name: 'Ada' })).toBe(true);
    const sampled = validatorOf(schema)!;
    expect(sampled({ name: 'A' })).toBe(false);
    expect(sampled({ name: 'Ada' })).toBe(true);
    expect(validSample(schema)).toMatchObject({ name: expect.any(String) });
    expect(compiles).toHaveBeenCalledTimes(1);
    compiles.mockRestore();
  });

  it('compile a schema no model holds in the samples\' own instance', () => {
    const schema: Schema = { type: 'integer', minimum: 3 };
    expect(ownerOf(schema)).toBeUndefined();
    const validate = validatorOf(schema)!;
    expect(validate(2)).toBe(false);
    expect(validate(3)).toBe(true);
  });

  it('still let every value through, with its reason, where the schema cannot be compiled (D134)', () => {
    const ajv = createAjv();
    const schema: Schema = { type: 'object', properties: { a: { $ref: '#/nowhere' } } };
    const failures = { reasons: new Set<string>(), uses: 0 };
    const model = compile(ajv, schema, 'body', { failures, where: 'GET /x' });
    expect(model({ a: 1 })).toBe(true);
    expect(model.failure()).toMatch(/cannot be compiled/);
    expect(validatorOf(schema)!({ a: 1 })).toBe(true);
  });
});
