import fc from 'fast-check';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { compile, createAjv, type Schema } from '../../model/schema.js';
import { boundedFilter, GenerationGaveUp } from './bounded.js';
import { validValues } from './schema-values.js';

const ajv = createAjv();

/** What `arbitrary` draws for `seed`, or the name of the error it throws: the outcome a check reads. */
function outcome(arbitrary: fc.Arbitrary<unknown>, seed: number, runs = 10): unknown {
  try {
    return fc.sample(arbitrary, { numRuns: runs, seed });
  } catch (error) {
    return error instanceof GenerationGaveUp ? 'gave up' : error;
  }
}

/**
 * A clock that runs a second ahead at every reading: every reading of the clock during a draw sees the draw take
 * longer than any wall-clock bound, as on a machine too loaded to give the draw its CPU.
 */
function slowMachine(): void {
  let now = performance.now();
  vi.spyOn(performance, 'now').mockImplementation(() => (now += 1_000));
  vi.spyOn(Date, 'now').mockImplementation(() => Math.round((now += 1_000)));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a draw reaches the same outcome however loaded the machine (D800)', () => {
  // A rare predicate (about one value in 60 passes): the first draws need dozens of tries.
  const rare = (): fc.Arbitrary<number> => boundedFilter(fc.integer({ min: 0, max: 5_999 }), (value) => value % 60 === 7, 'a rare integer');
  // A oneOf whose branches overlap but for a narrow band: most candidates match both and are refused.
  const overlapping: Schema = {
    oneOf: [
      { type: 'integer', minimum: 0, maximum: 1_000 },
      { type: 'integer', minimum: 0, maximum: 1_010 },
    ],
  };

  test('a filter that needs dozens of tries draws the same values under a clock that runs ahead', () => {
    const idle = outcome(rare(), 11);
    expect(idle).toHaveLength(10);
    slowMachine();
    expect(outcome(rare(), 11)).toEqual(idle);
  });

  test("a schema's valid values are the same under a clock that runs ahead", () => {
    const draw = (): unknown => outcome(validValues(overlapping, compile(ajv, overlapping), { integers: 'safe', strings: 'ordinary' }), 5);
    const idle = draw();
    expect(idle).toHaveLength(10);
    slowMachine();
    expect(draw()).toEqual(idle);
  });

  test('a filter whose predicate spends its time busy draws what an idle one draws', () => {
    const busy = (): fc.Arbitrary<number> =>
      boundedFilter(
        fc.integer({ min: 0, max: 5_999 }),
        (value) => {
          const until = performance.now() + 5;
          while (performance.now() < until) {
            // A predicate that takes its time, as on a machine that gives the draw little CPU.
          }
          return value % 60 === 7;
        },
        'a rare integer, slowly',
      );
    expect(outcome(busy(), 11, 2)).toEqual(outcome(rare(), 11, 2));
  });
});

describe('a give-up costs work in proportion to the size of what it draws, not a fixed number of tries (D800)', () => {
  test('a filter that never passes over large values gives up after a few dozen of them, not two thousand', () => {
    let judged = 0;
    const large = boundedFilter(fc.array(fc.integer(), { minLength: 2_000, maxLength: 2_000 }), () => (judged++, false), 'a large value no predicate takes');
    expect(outcome(large, 1, 1)).toBe('gave up');
    // Each candidate is 2,001 nodes: the bound of a first value's work lets about 25 of them be drawn.
    expect(judged).toBeGreaterThanOrEqual(3);
    expect(judged).toBeLessThanOrEqual(30);
  });

  test("nested generations' candidates count toward the generation they are drawn in", () => {
    let outer = 0;
    const inner = boundedFilter(fc.array(fc.integer(), { minLength: 500, maxLength: 500 }), () => true, 'a large value');
    const never = boundedFilter(fc.tuple(inner, inner), () => (outer++, false), 'a pair no predicate takes');
    expect(outcome(never, 1, 1)).toBe('gave up');
    // Each outer candidate holds 1,003 nodes, and its two inner values count 1,002 more: about 25 outer tries.
    expect(outer).toBeGreaterThanOrEqual(3);
    expect(outer).toBeLessThanOrEqual(30);
  });
});

