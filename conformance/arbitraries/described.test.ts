import { describe, expect, test } from 'vitest';
import { describedDigits, describedRule } from './described.js';

describe('rules a description states (D98)', () => {
  test('country, currency and letter codes, digits and lengths', () => {
    expect(describedRule({ type: 'string', description: 'Two-letter country code (ISO 3166-1 alpha-2) of the address.' })?.pattern).toBe('^[A-Z]{2}$');
    expect(describedRule({ type: 'string', description: 'ISO 3166-1 alpha-3 code' })?.pattern).toBe('^[A-Z]{3}$');
    expect(describedRule({ type: 'string', description: 'Three-letter ISO currency code, in lowercase.' })?.pattern).toBe('^[a-z]{3}$');
    expect(describedRule({ type: 'string', description: 'Card security code, 3 or 4 digits usually found on the back.' })).toMatchObject({ pattern: '^[0-9]{3,4}$', minLength: 3, maxLength: 4 });
    expect(describedRule({ type: 'string', description: 'The account number, digits only.' })?.pattern).toBe('^[0-9]+$');
    expect(describedRule({ type: 'string', description: 'A password of at least 8 characters.' })).toMatchObject({ pattern: undefined, minLength: 8 });
  });

  test('a text held to a count of digits (D494)', () => {
    expect(describedRule({ type: 'string', description: 'The sort code for the bank account, in string form. Must be a six-digit number.' })).toMatchObject({ pattern: '^[0-9]{6}$', minLength: 6, maxLength: 6 });
    expect(describedRule({ type: 'string', description: 'A 4-digit PIN code.' })).toMatchObject({ pattern: '^[0-9]{4}$' });
    expect(describedRule({ type: 'string', description: 'The postal code, a five digit code.' })?.pattern).toBe('^[0-9]{5}$');
  });

  test('a hexadecimal colour without its leading #, and a length stated as "N characters or fewer" (D262)', () => {
    expect(describedRule({ type: 'string', description: 'The [hexadecimal color code](http://www.color-hex.com/) for the label, without the leading `#`.' })).toMatchObject({ pattern: '^[0-9a-fA-F]{6}$', minLength: 6, maxLength: 6 });
    expect(describedRule({ type: 'string', description: '6-character hex code, without the leading #, identifying the color' })?.pattern).toBe('^[0-9a-fA-F]{6}$');
    expect(describedRule({ type: 'string', description: 'The hex colour, with the leading `#`.' })?.pattern).toBe('^#[0-9a-fA-F]{6}$');
    expect(describedRule({ type: 'string', description: 'A short description of the label. Must be 100 characters or fewer.' })).toMatchObject({ pattern: undefined, maxLength: 100 });
  });

  test('a schema that encodes a rule speaks for itself; a description without one states none', () => {
    expect(describedRule({ type: 'string', pattern: '^[a-z]+$', description: 'Two-letter code' })).toBeUndefined();
    expect(describedRule({ type: 'string', enum: ['eur'], description: 'Three-letter ISO currency code' })).toBeUndefined();
    expect(describedRule({ type: 'string', description: 'The name of the port.' })).toBeUndefined();
  });

  test('integers described by their count of digits', () => {
    expect(describedDigits({ type: 'integer', description: "Four-digit number representing the card's expiration year." })).toMatchObject({ min: 1000n, max: 9999n });
    expect(describedDigits({ type: 'integer', description: 'Two-digit number representing the month.' })).toMatchObject({ min: 10n, max: 99n });
    expect(describedDigits({ type: 'integer', minimum: 1, description: 'Two-digit number' })).toBeUndefined();
  });
});
