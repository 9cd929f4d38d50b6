import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { canonicalise } from './canonical.js';
import { valueOf } from './schema-values.js';

// `format: float` is single precision (spec/DECISIONS.md › D189): the values drawn survive a 32-bit column and a
// float's shortest printing unchanged, so a server that holds them so echoes them exactly.

/** The shortest decimal that reads back as the single-precision `value` (what a float's printer writes). */
function singleText(value: number): number {
  for (let digits = 1; digits <= 9; digits++) {
    const text = Number(value.toPrecision(digits));
    if (Math.fround(text) === value) return text;
  }
  return value;
}

const draw = (schema: Record<string, unknown>): number[] => fc.sample(valueOf(canonicalise(schema), { integers: 'int64', strings: 'ordinary' }), { numRuns: 500, seed: 7 }) as number[];

describe('numbers of format float', () => {
  test('survive single precision and its shortest printing', () => {
    const values = draw({ type: 'number', format: 'float' });
    expect(values.every((value) => Math.fround(value) === value && singleText(Math.fround(value)) === value)).toBe(true);
    expect(values.some((value) => !Number.isInteger(value))).toBe(true);
  });
  test('stay within their bounds', () => {
    expect(draw({ type: 'number', format: 'float', minimum: 0.5, maximum: 3 }).every((value) => value >= 0.5 && value <= 3)).toBe(true);
  });
  test('a double keeps every double', () => {
    expect(draw({ type: 'number', format: 'double' }).some((value) => Math.fround(value) !== value)).toBe(true);
  });
});
