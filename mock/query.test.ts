import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { queryPairs } from './query.js';

/** The reference: what the platform's application/x-www-form-urlencoded parser gives, flat. */
function platform(search: string): string[] {
  return [...new URLSearchParams(search)].flat();
}

describe('queryPairs (the hand-split fast path of query strings)', () => {
  it.each(['', 'limit=5', 'limit=5&status=sold', 'a&&b', '&limit=5&', 'a=1=2', '=x', 'limit=', 'limit', '?limit=5', 'x=%41', 'x=a+b', 'é=ü', '&&&'])(
    'gives what URLSearchParams gives for %j',
    (search) => expect(queryPairs(search)).toEqual(platform(search)),
  );

  it('property: equals URLSearchParams for any query text (characters that matter in queries, and any others)', () => {
    const char = fc.oneof(fc.constantFrom('&', '=', '%', '+', '?', 'a', 'l', '1', '#', ' ', '\u00e9', '\ud800', '\udc00', '%4', '%41', '%zz'), fc.string({ maxLength: 1, unit: 'binary' }));
    const search = fc.array(char, { maxLength: 30 }).map((parts) => parts.join(''));
    fc.assert(fc.property(search, (text) => {
      expect(queryPairs(text)).toEqual(platform(text));
    }), { numRuns: 2000 });
  });
});
