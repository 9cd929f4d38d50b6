import { isLosslessNumber, LosslessNumber, parse, stringify } from 'lossless-json';
import { INT64_MAX, INT64_MIN, numberView } from './schema.js';

/**
 * A JSON document read without losing a digit (seed, Resources: int64 values round-trip exactly).
 * - `value`: the document as sent, every number a `LosslessNumber` (its literal text).
 * - `view`: the same document with plain JS numbers, for JSON Schema validation (ajv knows no bigint); a literal
 *   outside int64 is a double the `int64` format refuses (see `numberView` in model/schema.ts).
 */
export interface ExactDocument {
  value: unknown;
  view: unknown;
}

/** Result of {@link parseExact}: the document, or why the text is not one JSON document. */
export type ExactParse = { ok: true; document: ExactDocument } | { ok: false; message: string };

/**
 * Deepest nesting of arrays and objects accepted. Far beyond any schema of this style, and far from the stack
 * limit of the recursive parser and of {@link toView}.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Parses a JSON text exactly with lossless-json. Duplicate member names with different values are refused
 * (RFC 8259 leaves them unpredictable); `__proto__` stays an ordinary own property. Never throws.
 */
export function parseExact(text: string): ExactParse {
  const depth = nestingDepth(text);
  if (depth > MAX_JSON_DEPTH) return { ok: false, message: `it is nested too deeply (${depth} levels; at most ${MAX_JSON_DEPTH})` };
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    return { ok: false, message: error instanceof RangeError ? 'it is nested too deeply' : (error as Error).message };
  }
  return { ok: true, document: { value, view: toView(value) } };
}

/** A run of 16 digits or more: a number JSON.parse may not keep exactly (beyond 2^53, or 16+ significant digits). */
const LONG_DIGITS = /\d{16}/;

/**
 * {@link parseExact} for hot paths that only read (the validating proxy): when no number literal of the text
 * has 16 digits or more, `JSON.parse` keeps every number exactly, so the document is parsed natively (numbers
 * as JS numbers, `value` and `view` the same tree); otherwise it is parsed losslessly. Never throws. Unlike
 * {@link parseExact}, a member name repeated with different values is not refused on the native path.
 */
export function parseQuick(text: string): ExactParse {
  // A text of few brackets cannot nest deeply: its depth needs no scan.
  if (LONG_DIGITS.test(text) || (bracketsAtLeast(text, MAX_JSON_DEPTH + 1) && nestingDepth(text) > MAX_JSON_DEPTH)) return parseExact(text);
  try {
    const value: unknown = JSON.parse(text);
    return { ok: true, document: { value, view: value } };
  } catch {
    // The lossless parser's message names the position and the token.
    return parseExact(text);
  }
}

/** Whether a text holds at least `count` opening brackets (`[`, `{`), strings included (an upper bound of the depth). */
function bracketsAtLeast(text: string, count: number): boolean {
  let found = 0;
  for (let at = text.indexOf('{'); at !== -1 && found < count; at = text.indexOf('{', at + 1)) found++;
  for (let at = text.indexOf('['); at !== -1 && found < count; at = text.indexOf('[', at + 1)) found++;
  return found >= count;
}

/** Deepest `[`/`{` nesting of a JSON text, counted outside string literals in one pass. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** The validation view of an exact value: numbers as doubles (out-of-int64 integers kept out of range). */
export function toView(node: unknown): unknown {
  if (isLosslessNumber(node)) return numberView(node.value, exactInteger(node.value));
  if (typeof node === 'bigint') return numberView(String(node), node);
  if (Array.isArray(node)) return node.map(toView);
  if (node !== null && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(node)) {
      // Plain assignment makes the same own data property, except for `__proto__`, which it would treat as the prototype.
      if (key === '__proto__') Object.defineProperty(out, key, { value: toView(item), enumerable: true, writable: true, configurable: true });
      else out[key] = toView(item);
    }
    return out;
  }
  return node;
}

const PLAIN_INTEGER = /^-?(?:0|[1-9]\d*)$/;
const NUMBER_LITERAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * The exact integer a JSON number literal denotes, or `undefined` when it is not an integer (`1.0`, `1e3` and
 * `-0` are integers: JSON Schema compares values, not spellings). Magnitudes beyond 10^400 are reported as
 * ±10^400, outside every int64.
 */
export function exactInteger(literal: string): bigint | undefined {
  if (PLAIN_INTEGER.test(literal)) return BigInt(literal);
  const match = NUMBER_LITERAL.exec(literal);
  if (match === null) return undefined;
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = match;
  const digits = (whole + fraction).replace(/^0+(?=\d)/, '');
  const exponent = Number(exponentText) - fraction.length;
  if (/^0+$/.test(digits)) return 0n;
  let magnitude: bigint;
  if (exponent >= 0) {
    if (digits.length + exponent > 400) return sign === '-' ? -(10n ** 400n) : 10n ** 400n;
    magnitude = BigInt(digits) * 10n ** BigInt(exponent);
  } else {
    const cut = digits.length + exponent;
    const dropped = cut > 0 ? digits.slice(cut) : digits;
    if (!/^0*$/.test(dropped)) return undefined;
    magnitude = cut > 0 ? BigInt(digits.slice(0, cut)) : 0n;
  }
  return sign === '-' ? -magnitude : magnitude;
}

/** Whether an exact integer lies in int64. */
function inInt64(value: bigint): boolean {
  return value >= INT64_MIN && value <= INT64_MAX;
}

/**
 * The canonical JSON text of an exact value: integers inside int64 in plain decimal (`1.0` → `1`, `1e3` → `1000`),
 * other numbers as written, `bigint` as digits. Two values are the same JSON value when their canonical texts
 * are equal (object members compared in order; see {@link sameJson} for order-free equality).
 */
export function canonicalJson(value: unknown): string {
  return stringify(canonical(value)) ?? 'null';
}

function canonical(node: unknown): unknown {
  if (isLosslessNumber(node)) {
    const exact = exactInteger(node.value);
    return exact !== undefined && inInt64(exact) ? new LosslessNumber(exact.toString()) : node;
  }
  if (typeof node === 'bigint') return new LosslessNumber(node.toString());
  if (Array.isArray(node)) return node.map(canonical);
  if (node !== null && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(node)) {
      if (key === '__proto__') Object.defineProperty(out, key, { value: canonical(item), enumerable: true, writable: true, configurable: true });
      else out[key] = canonical(item);
    }
    return out;
  }
  return node;
}

/**
 * Whether two exact JSON values are equal as JSON values: numbers by value (exactly, int64 digit for digit;
 * `1.0` equals `1`), strings code unit for code unit, objects whatever their member order.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (isNumberLike(a) && isNumberLike(b)) return numberText(a) === numberText(b);
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const keysA = Object.keys(a);
    const keysB = Object.keys(b);
    return keysA.length === keysB.length && keysA.every((key) => Object.hasOwn(b, key) && sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
  }
  return a === b;
}

function isNumberLike(value: unknown): value is LosslessNumber | bigint | number {
  return isLosslessNumber(value) || typeof value === 'bigint' || typeof value === 'number';
}

/** A number's canonical text: an exact integer in plain digits, otherwise the shortest double text. */
function numberText(value: LosslessNumber | bigint | number): string {
  if (typeof value === 'bigint') return value.toString();
  const literal = typeof value === 'number' ? String(value) : value.value;
  const exact = exactInteger(literal);
  return exact !== undefined ? exact.toString() : String(Number(literal));
}

/** Exact JSON text of a value whose numbers may be `bigint` or `LosslessNumber` (request bodies with int64 fields). */
export function exactJson(value: unknown): string {
  return stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? new LosslessNumber(item.toString()) : item)) ?? 'null';
}
