import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { canonicalise } from './canonical.js';
import { valueOf } from './schema-values.js';
import type { Schema } from '../../model/schema.js';

/** An object schema of `count` optional string members `m0`, `m1`… and one required `id`. */
function objectOf(count: number): Schema {
  const properties: Record<string, Schema> = { id: { type: 'string' } };
  for (let i = 0; i < count; i++) properties[`m${i}`] = { type: 'string', maxLength: 8 };
  return { type: 'object', required: ['id'], properties };
}

const sample = (schema: Schema, full = false): Record<string, unknown>[] =>
  fc.sample(valueOf(canonicalise(schema), { integers: 'safe', strings: 'ordinary', full }), { numRuns: 200, seed: 9 }) as Record<string, unknown>[];

describe('an object of dozens of optional members draws a bounded number of them (D803)', () => {
  test('each value of an object of 40 optional members holds at most 12 of them, its required one always, and every member is met across draws', () => {
    const values = sample(objectOf(40));
    expect(values.every((value) => typeof value['id'] === 'string')).toBe(true);
    expect(Math.max(...values.map((value) => Object.keys(value).length - 1))).toBeLessThanOrEqual(12);
    const met = new Set(values.flatMap((value) => Object.keys(value)));
    expect(met.size).toBe(41);
  });

  test('the fullest value still holds every member', () => {
    expect(sample(objectOf(40), true).every((value) => Object.keys(value).length === 41)).toBe(true);
  });

  test('an object of 12 optional members or fewer draws as a record of all of them', () => {
    const schema = objectOf(12);
    const direct = fc.sample(fc.record(Object.fromEntries(Object.keys((schema as { properties: object }).properties).map((name) => [name, valueOf(canonicalise((schema as { properties: Record<string, Schema> }).properties[name]!), { integers: 'safe', strings: 'ordinary' })])), { requiredKeys: ['id'] }), { numRuns: 200, seed: 9 });
    expect(sample(schema)).toEqual(direct);
    expect(Math.max(...sample(schema).map((value) => Object.keys(value).length))).toBeGreaterThan(12);
  });
});
