import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { badCredentials } from './credentials.js';

/** The user name and password of a Basic header, or `undefined` when it is not one. */
function basicParts(header: string | null | undefined): [string, string] | undefined {
  if (typeof header !== 'string' || !/^Basic +/.test(header)) return undefined;
  const decoded = Buffer.from(header.replace(/^Basic +/, ''), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 ? undefined : [decoded.slice(0, colon), decoded.slice(colon + 1)];
}

describe('random bad Basic credentials (D571)', () => {
  test('never carry the right key as their user name or password, even a one-letter key', () => {
    // With the key `k`, about 6 in 100,000 draws were `x:k` before: the mock (any user, the key as password) and a
    // server taking the key as the user name rightly accept such a credential.
    for (const key of ['k', 'dev-key']) {
      const drawn = fc.sample(badCredentials({ kind: 'basic', name: 'basicAuth' }, key), { numRuns: 100_000, seed: 42 });
      const opening = drawn.map((credentials) => basicParts(credentials.headers['authorization'])).filter((parts) => parts !== undefined && parts.includes(key));
      expect(opening, key).toEqual([]);
      // The random keys are still drawn: most draws are not the fixed kinds.
      expect(drawn.filter((credentials) => credentials.kind === 'a random key').length).toBeGreaterThan(40_000);
    }
  });
});
