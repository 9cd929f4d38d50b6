import { describe, expect, it } from 'vitest';
import { canonicalise } from './canonical.js';
import { invalidValuesOf } from './invalid.js';

/** Which strings past a `maxLength` the suite sends as invalid values (spec/DECISIONS.md › D205). */
describe('a string past its maxLength', () => {
  it('is drawn one code point past an ordinary bound', () => {
    const kinds = invalidValuesOf(canonicalise({ type: 'string', maxLength: 40 }), 'Rex');
    const long = kinds.find((one) => one.kind === 'longer than maxLength 40');
    expect(long?.value).toHaveLength(41);
  });

  it('is not drawn past a bound a server body-size limit may meet first (20 MiB data URLs)', () => {
    const kinds = invalidValuesOf(canonicalise({ type: 'string', maxLength: 20_971_520 }), 'Rex').map((one) => one.kind);
    expect(kinds.some((kind) => kind.startsWith('longer than maxLength'))).toBe(false);
    expect(kinds).toContain('not a string: 42');
  });
});
