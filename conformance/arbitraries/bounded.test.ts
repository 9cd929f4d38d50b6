import fc from 'fast-check';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, test } from 'vitest';
import { toView } from '../../model/json.js';
import { compile, createAjv, type Schema } from '../../model/schema.js';
import { boundedFilter, GenerationGaveUp, NotRun, orElse } from './bounded.js';
import { patternString } from './pattern.js';
import { validValues } from './schema-values.js';

const ajv = createAjv();
const draw = (schema: Schema, runs = 20): unknown[] => fc.sample(validValues(schema, compile(ajv, schema), { integers: 'safe', strings: 'ordinary' }), { numRuns: runs, seed: 5 });

describe('generation is bounded and never a failure of the target', () => {
  test('patterns fast-check cannot read (\\b, lookarounds) are generated loosened and kept only when they match', () => {
    for (const pattern of ['^\\b[a-z]+\\b$', '^(?=[a-z])[a-z0-9]{3,8}$', '^[a-zA-Z0-9_\\-\\:]+$']) {
      const regex = new RegExp(pattern);
      const values = fc.sample(patternString(pattern, () => true), { numRuns: 20, seed: 3 });
      expect(values.every((value) => regex.test(value)), pattern).toBe(true);
    }
  });

  test('a oneOf whose second branch extends the first (every value of it matches both) still gives valid values', () => {
    const action: Schema = { type: 'object', required: ['type'], properties: { type: { type: 'string', enum: ['reboot', 'snapshot'] }, name: { type: 'string' } } };
    const schema: Schema = { oneOf: [action, { allOf: [action, { required: ['name'] }] }] };
    const validate = compile(ajv, schema);
    const values = draw(schema);
    expect(values.length).toBe(20);
    expect(values.every((value) => validate(toView(value)))).toBe(true);
  });

  test('a schema no value satisfies gives up within the bounds, with GenerationGaveUp, instead of drawing for ever', () => {
    // How many tries a give-up takes, on any clock, is bounded-clock.test.ts's: a count, never a time.
    const same: Schema = { type: 'integer', minimum: 1, maximum: 3 };
    expect(() => draw({ oneOf: [same, same] })).toThrow(GenerationGaveUp);
  });
});

describe('a preferred shape of value with a plainer one behind it (D327)', () => {
  test('orElse draws the first while it can, the second once the first gave up, and never hides a check that cannot run', () => {
    const never = boundedFilter(fc.string(), () => false, 'an impossible string');
    expect(fc.sample(orElse(never, fc.constant('plain')), { numRuns: 3, seed: 1 })).toEqual(['plain', 'plain', 'plain']);
    expect(fc.sample(orElse(fc.constant('whole'), fc.constant('plain')), { numRuns: 3, seed: 1 })).toEqual(['whole', 'whole', 'whole']);
    const refused = fc.constant(0).map((): number => {
      throw new NotRun('a body', 'its parent could not be made');
    });
    expect(() => fc.sample(orElse(refused, fc.constant(1)), { numRuns: 1, seed: 1 })).toThrow(NotRun);
  });
});

describe('what a generation names is written only when it gives up', () => {
  test('a named-by-function filter that draws never calls it; one that gives up names what its function says', () => {
    let written = 0;
    const name = (): string => {
      written++;
      return 'the text of a large schema';
    };
    expect(fc.sample(boundedFilter(fc.integer(), () => true, name), { numRuns: 5, seed: 1 })).toHaveLength(5);
    expect(written).toBe(0);
    expect(() => fc.sample(boundedFilter(fc.integer(), () => false, name), { numRuns: 1, seed: 1 })).toThrow('no valid the text of a large schema could be generated');
    expect(written).toBe(1);
  });

  test('a schema the suite draws valid values of is not written out to name it', () => {
    const schema: Schema = { type: 'object', properties: { name: { type: 'string' } } };
    let read = 0;
    // A schema whose text is read (JSON.stringify calls toJSON) counts each writing.
    Object.defineProperty(schema, 'toJSON', { enumerable: false, value: () => (read++, { type: 'object' }) });
    expect(draw(schema, 5)).toHaveLength(5);
    expect(read).toBe(0);
  });
});

describe('a generation that gave up keeps nothing of the draw alive (D742)', () => {
  test('the error of a draw that gave up, kept, does not keep the arbitraries it was thrown from', async () => {
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const kept: unknown[] = [];
    const made = (): WeakRef<object> => {
      const arbitrary = boundedFilter(fc.integer(), () => false, 'an impossible integer');
      try {
        fc.sample(arbitrary, { numRuns: 1, seed: 1 });
      } catch (error) {
        kept.push(error);
      }
      return new WeakRef(arbitrary);
    };
    const held = made();
    // A WeakRef made in this job holds its target until the job ends.
    await new Promise((resolve) => setImmediate(resolve));
    collect();
    expect(kept[0]).toBeInstanceOf(GenerationGaveUp);
    expect(held.deref()).toBeUndefined();
  });
});
