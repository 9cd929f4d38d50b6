import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { boundedFilter, GenerationGaveUp, orElse, reusable } from './bounded.js';

describe('an arbitrary built once draws as a newly built one at every use (D802)', () => {
  // About one candidate in 400 passes: a first value is found within its 2,000 tries, a later one rarely within 60.
  const rare = (): fc.Arbitrary<number> => boundedFilter(fc.noBias(fc.integer({ min: 0, max: 39_999 })), (value) => value % 400 === 13, 'a rare integer');

  test('the values its filters kept from one seed are not what it draws for the next', () => {
    const fresh = reusable(rare);
    const reused = [1, 2, 3].map((seed) => fc.sample(fresh(), { numRuns: 1, seed })[0]);
    const built = [1, 2, 3].map((seed) => fc.sample(rare(), { numRuns: 1, seed })[0]);
    expect(reused).toEqual(built);
    // Without forgetting, the later seeds fall back on the first seed's value: the case above is one that tells.
    const kept = rare();
    expect([1, 2, 3].map((seed) => fc.sample(kept, { numRuns: 1, seed })[0])).not.toEqual(built);
  });

  test('a first choice given up for one draw is tried again at the next', () => {
    let refuse = true;
    const first = fc.constant('whole').map((value) => {
      if (refuse) throw new GenerationGaveUp('a whole body');
      return value;
    });
    const fresh = reusable(() => orElse(first, fc.constant('plain')));
    expect(fc.sample(fresh(), { numRuns: 1, seed: 1 })).toEqual(['plain']);
    refuse = false;
    expect(fc.sample(fresh(), { numRuns: 1, seed: 1 })).toEqual(['whole']);
  });

  test('what building throws is thrown to the one who asked', () => {
    expect(() =>
      reusable((): fc.Arbitrary<number> => {
        rare();
        throw new Error('no arbitrary');
      }),
    ).toThrow('no arbitrary');
  });
});
