import { parse, LosslessNumber } from 'lossless-json';

/** Smallest and largest int64 values (seed, Resources: `categoryId`, `id` and `petId` are int64). */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/**
 * A request body parsed without losing a digit.
 * - `value`: the document as sent, numbers kept as `LosslessNumber` (their literal text).
 * - `view`: the same document with plain JS numbers, for JSON Schema validation (ajv knows no bigint).
 * - `overflows`: JSON pointers of integer literals outside int64, whose `view` number is therefore inexact.
 */
export interface ParsedBody {
  value: unknown;
  view: unknown;
  overflows: string[];
}

/** Result of {@link parseJsonBody}: the parsed body, or why the text is not one JSON document. */
export type ParseResult = { ok: true; body: ParsedBody } | { ok: false; message: string };

/**
 * Parses a JSON text exactly (seed, Resources: int64 fields must round-trip; 9223372036854775807 stays so).
 * Duplicate member names with different values are rejected (RFC 8259 leaves them unpredictable);
 * `__proto__` stays an ordinary own property. Never throws: any failure, including nesting too deep for the
 * parser, is `{ ok: false }` with a message for the `MALFORMED_JSON` error.
 */
export function parseJsonBody(text: string): ParseResult {
  const depth = nestingDepth(text);
  if (depth > MAX_JSON_DEPTH) {
    return { ok: false, message: `The request body is not valid JSON: it is nested too deeply (${depth} levels; at most ${MAX_JSON_DEPTH}).` };
  }
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    const reason = error instanceof RangeError ? 'it is nested too deeply' : (error as Error).message;
    return { ok: false, message: `The request body is not valid JSON: ${reason}.` };
  }
  const overflows: string[] = [];
  const view = toView(value, '', overflows);
  return { ok: true, body: { value, view, overflows } };
}

/**
 * Deepest nesting of arrays and objects a request body may have. `NewPet` needs 1; the bound keeps the
 * recursive parser and {@link toView} far from the stack limit, which some depths between ~2,000 and ~8,000
 * reached (a `RangeError` thrown outside the parser's own try). Seed, Limits: request size limits not shown.
 */
export const MAX_JSON_DEPTH = 64;

/** Deepest `[`/`{` nesting of a JSON text, counted outside string literals in one pass (O(length), no recursion). */
function nestingDepth(text: string): number {
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

function toView(node: unknown, pointer: string, overflows: string[]): unknown {
  if (node instanceof LosslessNumber) {
    // At most 18 digits and no fraction or exponent: an integer below 10^18, inside int64 without further work.
    if (SHORT_INTEGER.test(node.value)) return Number(node.value);
    const exact = exactInteger(node.value);
    if (exact !== undefined && (exact < INT64_MIN || exact > INT64_MAX)) overflows.push(pointer);
    return Number(node.value);
  }
  if (Array.isArray(node)) return node.map((item, index) => toView(item, `${pointer}/${index}`, overflows));
  if (node !== null && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(node)) {
      const value = toView(item, `${pointer}/${key.includes('~') || key.includes('/') ? key.replaceAll('~', '~0').replaceAll('/', '~1') : key}`, overflows);
      // Plain assignment makes the same own data property, except for `__proto__`, which it would treat as the prototype.
      if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      else out[key] = value;
    }
    return out;
  }
  return node;
}

const SHORT_INTEGER = /^-?\d{1,18}$/;
/** An integer in plain notation, the usual case: `BigInt` reads it as is. */
const PLAIN_INTEGER = /^-?(?:0|[1-9]\d*)$/;
const NUMBER_LITERAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * The exact integer a JSON number literal denotes, or `undefined` when it is not an integer
 * (`1.0`, `1e3` and `-0` are integers: JSON Schema compares values, not spellings).
 * Literals whose magnitude exceeds 10^400 are reported as ±10^400, which is outside every int64.
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
