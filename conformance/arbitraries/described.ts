import type { Schema } from '../../model/schema.js';

// Rules a string member's description states in common forms that its schema does not encode: a "two-letter
// country code (ISO 3166-1 alpha-2)", a "three-letter ISO currency code", "digits only", "at least 8 characters".
// A server written from the spec's text enforces them, so the suite's ordinary values honour them (D98).

/** A rule read from a description: the pattern and length it implies, and the words that state it. */
export interface DescribedRule {
  /** An anchored pattern the value must match (`^[A-Z]{2}$`), when the rule is one of form. */
  pattern: string | undefined;
  minLength: number | undefined;
  maxLength: number | undefined;
  /** The words of the description that state the rule, for reports. */
  says: string;
}

const LETTERS: Record<string, number> = { two: 2, three: 3, '2': 2, '3': 3 };
const COUNTS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };

/**
 * The rule a string schema's description states (D98), or `undefined`: only where the schema itself gives no
 * `pattern`, `format`, `enum` or `const` (a schema that encodes a rule speaks for itself). Recognised forms: ISO
 * 3166-1 alpha-2 / alpha-3 and ISO 4217 codes, "two-letter" / "three-letter" codes (lower case where the
 * description says "lowercase"), "digits only" / "only digits", "N or M digits", "at least N characters",
 * "hexadecimal color code" (six hex digits, no `#` unless the text asks for it), "N characters or fewer", "a six-digit
 * number" (that many digits, D494).
 */
export function describedRule(schema: Schema): DescribedRule | undefined {
  const text = typeof schema['description'] === 'string' ? schema['description'] : '';
  if (text === '' || schema['pattern'] !== undefined || schema['format'] !== undefined || schema['enum'] !== undefined || schema['const'] !== undefined) return undefined;
  const lower = /\blower[- ]?case\b/i.test(text);
  const letters = (count: number, says: string): DescribedRule => ({ pattern: lower ? `^[a-z]{${count}}$` : `^[A-Z]{${count}}$`, minLength: count, maxLength: count, says });
  const iso = /\bISO[ -]?3166(?:-1)?[ -]?alpha[ -]?([23])\b/i.exec(text);
  if (iso !== null) return letters(Number(iso[1]), iso[0]);
  if (/\bISO[ -]?4217\b/i.test(text)) return letters(3, 'ISO 4217');
  const named = /\b(two|three|2|3)[- ]letter\b/i.exec(text);
  if (named !== null) return letters(LETTERS[named[1]!.toLowerCase()]!, named[0]);
  const range = /\b(\d+) or (\d+) digits\b/i.exec(text);
  if (range !== null) return { pattern: `^[0-9]{${range[1]},${range[2]}}$`, minLength: Number(range[1]), maxLength: Number(range[2]), says: range[0] };
  // A text "Must be a six-digit number" (a sort code, a PIN held as a string) is that many digits (D494).
  const counted = /\b(one|two|three|four|five|six|seven|eight|nine|ten|[1-9]|1[0-9])[- ]digits? (?:number|code|string|pin)\b/i.exec(text);
  if (counted !== null) {
    const count = COUNTS[counted[1]!.toLowerCase()] ?? Number(counted[1]);
    return { pattern: `^[0-9]{${count}}$`, minLength: count, maxLength: count, says: counted[0] };
  }
  const digits = /\b(?:digits only|only digits|numeric string)\b/i.exec(text);
  if (digits !== null) return { pattern: '^[0-9]+$', minLength: 1, maxLength: undefined, says: digits[0] };
  const least = /\bat least (\d+) (?:characters|chars|letters)\b/i.exec(text);
  if (least !== null) return { pattern: undefined, minLength: Number(least[1]), maxLength: undefined, says: least[0] };
  // A colour "hexadecimal color code ... without the leading #" (D262): six hex digits, or as many as it counts;
  // a description that asks for the `#` keeps it.
  const colour = /\b(?:(\d+)[- ]character )?hex(?:adecimal)?\b[^.]*?\bcolou?r\b/i.exec(text);
  if (colour !== null) {
    const count = colour[1] === undefined ? 6 : Number(colour[1]);
    const hash = /\bwith (?:a|the) leading\b[^.]*#/i.test(text) ? '#' : '';
    return { pattern: `^${hash}[0-9a-fA-F]{${count}}$`, minLength: count + hash.length, maxLength: count + hash.length, says: colour[0] };
  }
  const most = /\b(?:(\d+) (?:characters|chars) or (?:fewer|less)|(?:at most|no more than|up to) (\d+) (?:characters|chars))\b/i.exec(text);
  if (most !== null) return { pattern: undefined, minLength: undefined, maxLength: Number(most[1] ?? most[2]), says: most[0] };
  return undefined;
}

const DIGITS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, '1': 1, '2': 2, '3': 3, '4': 4, '5': 5, '6': 6 };

/**
 * The bounds an integer schema's description states as a count of digits ("Two-digit number", "Four-digit
 * number"): from 10^(N-1) to 10^N - 1 (D98). Only where the schema gives no bound of its own; `undefined` otherwise.
 */
export function describedDigits(schema: Schema): { min: bigint; max: bigint; says: string } | undefined {
  const text = typeof schema['description'] === 'string' ? schema['description'] : '';
  if (text === '' || ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'enum', 'const'].some((key) => schema[key] !== undefined)) return undefined;
  const match = /\b(one|two|three|four|five|six|[1-6])[- ]digits? (?:number|integer|year|code)\b/i.exec(text);
  if (match === null) return undefined;
  const count = DIGITS[match[1]!.toLowerCase()]!;
  return { min: count === 1 ? 0n : 10n ** BigInt(count - 1), max: 10n ** BigInt(count) - 1n, says: match[0] };
}
