import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bearerToken, headerForm, sameKey } from './bearer.js';

/** The reference syntax of the credential (seed, Authentication), as a regular expression. */
function reference(header: string): string | undefined {
  return /^Bearer +(\S+) *$/i.exec(header)?.[1];
}

describe('bearerToken (the Authorization header read by hand)', () => {
  it.each(['Bearer k', 'bearer k', 'BEARER  k  ', 'Bearer', 'Bearer ', 'Bearer  ', 'Bearerk', 'Bearer\tk', 'Bearer k\t', 'Bearer k x', 'Basic k', 'Bearer \u00a0k', 'Bearer k\u00a0', 'Bearer \u00ffk', 'Beaver k', 'Bearer ak '])(
    'reads %j as the regular expression does',
    (header) => expect(bearerToken(header)).toBe(reference(header)),
  );

  it('property: agrees with /^Bearer +(\\S+) *$/i on any one-byte header value', () => {
    const scheme = fc.constantFrom('Bearer', 'bearer', 'BEARER', 'BeArEr', 'Bearer\t', 'Basic', 'Bearr', '');
    const piece = fc.oneof(fc.constantFrom(' ', '  ', '\t', '\u00a0', '\u000b', 'k', 'key', '\u00e9', 'x y'), fc.string({ maxLength: 3, unit: fc.integer({ min: 0, max: 255 }).map((code) => String.fromCharCode(code)) }));
    const header = fc.tuple(scheme, fc.array(piece, { maxLength: 5 })).map(([s, parts]) => s + parts.join(''));
    fc.assert(fc.property(header, (value) => {
      expect(bearerToken(value)).toBe(reference(value));
    }), { numRuns: 3000 });
  });

  it('undefined for no header', () => expect(bearerToken(undefined)).toBeUndefined());
});

describe('sameKey (constant-time key comparison)', () => {
  it('property: true exactly when the strings are equal', () => {
    const key = fc.string({ minLength: 1, maxLength: 20 }).map(headerForm);
    fc.assert(fc.property(key, key, (given, accepted) => {
      expect(sameKey(given, accepted)).toBe(given === accepted);
    }));
    fc.assert(fc.property(key, (accepted) => sameKey(accepted, accepted) && !sameKey(`${accepted}x`, accepted) && !sameKey(accepted.slice(1), accepted)));
  });

  it('compares bytes: a non-ASCII key sent as UTF-8 (node reads header bytes one per character) matches', () => {
    const key = 'clé-ünïcode';
    const asReceived = Buffer.from(key, 'utf8').toString('latin1');
    expect(sameKey(asReceived, headerForm(key))).toBe(true);
    expect(sameKey(key, headerForm(key))).toBe(false);
  });
});
