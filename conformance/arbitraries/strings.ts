import fc from 'fast-check';

/**
 * A string every implementation must accept where the spec leaves a string unconstrained (no `minLength`,
 * `maxLength`, `pattern`, `format` or `enum`): ASCII letters and digits in words separated by single spaces,
 * 1 to 40 characters (DECISIONS D2, the seed's `name`).
 */
export const ordinaryString: fc.Arbitrary<string> = fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,9}( [A-Za-z0-9]{1,9}){0,3}$/);

/** Whether an unconstrained string is one every implementation must accept (see {@link ordinaryString}). */
export function isOrdinaryString(text: string): boolean {
  return /^[A-Za-z][A-Za-z0-9]*( [A-Za-z0-9]+)*$/.test(text) && text.length <= 40;
}

/**
 * Strings where implementations slip (trimming, truncation, normalisation, escaping, size): each is sent in
 * every unconstrained string property on every run. An implementation may refuse them with a 400 (DECISIONS D2,
 * unless `--strict`) but must echo them exactly when it accepts them.
 */
export const CORNER_STRINGS: readonly string[] = [
  '', ' ', ' Rex ', '\tRex\t', 'Rex\u0000', 'e\u0301', 'Ｒｅｘ', '🐕‍🦺', '𝒳', '\u202Eabc', 'a\r\nb', '"quoted"\\', '<script>', '\u2028',
  'Rex'.padEnd(41, 'x'), 'y'.repeat(255), 'y'.repeat(256), 'x'.repeat(5000),
];

/** Strings at the corners of Unicode and size: any code unit, graphemes, the corner strings, surrounding blanks. */
export const unusualString: fc.Arbitrary<string> = fc.oneof(
  // Any code point, lone surrogates included, as fast-check's `unit: 'binary'` draws them: built from an integer
  // because fast-check builds that unit's table at construction, about 3 s of every run's start.
  fc.string({ unit: fc.integer({ min: 0, max: 0x10ffff }).map((codePoint) => String.fromCodePoint(codePoint)), minLength: 1, maxLength: 40 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
  fc.constantFrom(...CORNER_STRINGS),
  fc.tuple(fc.constantFrom(' ', '\t', '\u00a0'), ordinaryString).map(([space, text]) => `${space}${text}${space}`),
);

const ALNUM = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];

/**
 * Letters and digits with a length in [min, max] (code points, as JSON Schema counts them). One arbitrary per pair of
 * bounds: fast-check builds a string arbitrary's tables as it is made, and a large body names the same bounds
 * hundreds of times (D801).
 */
export function boundedString(min: number, max: number | undefined): fc.Arbitrary<string> {
  const key = `${min} ${max ?? ''}`;
  let arbitrary = lengths.get(key);
  if (arbitrary === undefined) lengths.set(key, (arbitrary = fc.string({ unit: fc.constantFrom(...ALNUM), minLength: min, maxLength: Math.max(min, max ?? min + 24) })));
  return arbitrary;
}

/** The string arbitraries of {@link boundedString}, by bounds: what the bounds alone determine (an arbitrary holds no state). */
const lengths = new Map<string, fc.Arbitrary<string>>();

const label = fc.stringMatching(/^[a-z][a-z0-9]{0,9}$/);

/**
 * Values of the string formats a spec of this style uses, valid for ajv-formats: `date-time`, `date`, `time`,
 * `email`, `uuid`, `uri`/`url`, `hostname`, `ipv4`, `ipv6`, `decimal` (OpenAPI's registry). Unknown formats: `undefined` (the caller then
 * generates by length and pattern, and the validator filters).
 */
export function formatString(format: string): fc.Arbitrary<string> | undefined {
  const instant = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2999-12-31T23:59:59Z'), noInvalidDate: true });
  switch (format) {
    case 'date-time':
      return instant.map((date) => date.toISOString());
    case 'date':
      return instant.map((date) => date.toISOString().slice(0, 10));
    case 'time':
      return instant.map((date) => `${date.toISOString().slice(11, 19)}Z`);
    case 'email':
      return fc.tuple(label, label).map(([local, domain]) => `${local}@${domain}.example`);
    case 'uuid':
      return fc.uuid();
    case 'uri':
    case 'url':
    case 'iri':
      return fc.tuple(label, fc.array(label, { maxLength: 3 })).map(([host, path]) => `https://${host}.example/${path.join('/')}`);
    case 'uri-reference':
    case 'iri-reference':
      return fc.array(label, { minLength: 1, maxLength: 3 }).map((path) => `/${path.join('/')}`);
    case 'hostname':
      return label.map((host) => `${host}.example`);
    case 'ipv4':
      return fc.ipV4();
    case 'ipv6':
      return fc.ipV6();
    case 'decimal':
      // A decimal number's text (D321): digits, and a fraction half the time.
      return fc.tuple(fc.nat(1_000_000), fc.option(fc.nat(99), { nil: undefined })).map(([whole, fraction]) => (fraction === undefined ? `${whole}` : `${whole}.${String(fraction).padStart(2, '0')}`));
    default:
      return undefined;
  }
}

/** A value that breaks a string format (for invalid data), or `undefined` for formats the validator does not check. */
export const FORMAT_BREAKERS: Record<string, string> = {
  'date-time': '2021-13-45T25:61:00Z',
  date: '2021-02-30x',
  time: '25:61:00',
  email: 'not an email',
  uuid: 'not-a-uuid',
  uri: 'not a uri',
  url: 'not a url',
  hostname: '-bad-.host-',
  ipv4: '256.1.1.1',
  ipv6: 'not:an:ipv6::x',
};
