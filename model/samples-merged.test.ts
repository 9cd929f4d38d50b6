import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test, vi } from 'vitest';
import type { Schema } from './schema.js';
import { generate } from './samples.js';

describe('the merged branches of a schema are made once (D885)', () => {
  test('making a value of the same union twice compiles no validator the second time', () => {
    // A record member held as an object or null (`anyOf: [{$ref}]`, `nullable`) inside a union member of its own:
    // each branch is merged with its siblings, and the merged schema judged by a validator of its own.
    const address: Schema = { type: 'object', required: ['city'], properties: { city: { type: 'string' }, line: { anyOf: [{ type: 'string', maxLength: 5 }, { type: 'null' }] } } };
    const schema: Schema = { type: 'object', required: ['address'], properties: { address: { anyOf: [{ anyOf: [address] }, { type: 'null' }], description: 'where' } } };
    const compiles = vi.spyOn(Ajv2020.prototype, 'compile');
    try {
      const first = generate(schema);
      const before = compiles.mock.calls.length;
      const second = generate(schema);
      expect(second).toEqual(first);
      expect(compiles.mock.calls.length).toBe(before);
    } finally {
      compiles.mockRestore();
    }
  });
});
