import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringMatching } from './string-matching.js';

describe('stringMatching, built once per pattern', () => {
  it('gives the same arbitrary for the same pattern and flags, another for other flags, and its draws match', () => {
    const duration = /^([0-9]+([.][0-9]+)?(ns|us|µs|ms|s|m|h))+$/;
    const first = stringMatching(duration);
    expect(stringMatching(new RegExp(duration.source))).toBe(first);
    expect(stringMatching(new RegExp(duration.source, 'u'))).not.toBe(first);
    for (const text of fc.sample(first, { seed: 7, numRuns: 50 })) expect(text).toMatch(duration);
  });

  it('throws what fast-check throws for a pattern it cannot read, every time', () => {
    const backReference = /^(a)\1$/;
    let thrown: unknown;
    try {
      fc.stringMatching(backReference);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect(() => stringMatching(backReference)).toThrow((thrown as Error).message);
    expect(() => stringMatching(backReference)).toThrow((thrown as Error).message);
  });
});
