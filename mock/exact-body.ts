import { parse, LosslessNumber } from 'lossless-json';
import { exactInteger, MAX_JSON_DEPTH, nestingDepth } from '../model/json.js';
import { INT64_MAX, INT64_MIN, numberView as exactView } from '../model/schema.js';

export { INT64_MAX, INT64_MIN } from '../model/schema.js';
export { exactInteger, MAX_JSON_DEPTH } from '../model/json.js';

/**
 * A request body parsed without losing a digit.
 * - `value`: the document as sent, numbers kept as `LosslessNumber` (their literal text).
 * - `view`: the same document with plain JS numbers, for JSON Schema validation (ajv knows no bigint); a literal
 *   outside int64 is a double the `int64` format refuses (model/schema.ts › numberView), so the schema decides.
 * - `overflows`: JSON pointers of integer literals outside int64 (for reports; the mock judges by the schema).
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
 * parser, is `{ ok: false }` with a message for the `MALFORMED_JSON` error. A flat object (every `NewPet`) is
 * read by a one-pass fast path with the same result (see {@link parseFlatObject}); anything else by lossless-json.
 */
export function parseJsonBody(text: string): ParseResult {
  const flat = parseFlatObject(text);
  return flat === undefined ? parseJsonGeneral(text) : { ok: true, body: flat };
}

/**
 * {@link parseJsonBody} by lossless-json alone, for any text: the general path, and the reference the fast path
 * ({@link parseFlatObject}) is tested against.
 */
export function parseJsonGeneral(text: string): ParseResult {
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

/** The plain JS number of a number literal, for validation; a literal outside int64 adds its pointer to `overflows`. */
function numberView(literal: string, pointer: string, overflows: string[]): number {
  // At most 18 digits and no fraction or exponent: an integer below 10^18, inside int64 without further work.
  if (SHORT_INTEGER.test(literal)) return Number(literal);
  const exact = exactInteger(literal);
  if (exact !== undefined && (exact < INT64_MIN || exact > INT64_MAX)) overflows.push(pointer);
  return exactView(literal, exact);
}

/** A member name as a JSON Pointer reference token (RFC 6901: `~` as `~0`, `/` as `~1`). */
function pointerToken(key: string): string {
  return key.includes('~') || key.includes('/') ? key.replaceAll('~', '~0').replaceAll('/', '~1') : key;
}

function toView(node: unknown, pointer: string, overflows: string[]): unknown {
  if (node instanceof LosslessNumber) return numberView(node.value, pointer, overflows);
  if (Array.isArray(node)) return node.map((item, index) => toView(item, `${pointer}/${index}`, overflows));
  if (node !== null && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(node)) {
      const value = toView(item, `${pointer}/${pointerToken(key)}`, overflows);
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
/** Index of the first character at or after `i` that is not JSON white space (space, tab, line feed, carriage return). */
function skipSpace(text: string, i: number): number {
  let c = text.charCodeAt(i);
  while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++i);
  return i;
}

/** Index just past the string token that starts at `i` (a `"`), or -1 when it has a raw control character or no end. */
function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x22) return j + 1;
    if (c === 0x5c) j++;
    else if (c < 0x20) return -1;
  }
  return -1;
}

/** The string the token `text[start, end)` denotes: sliced when it holds no escape, else decoded by `JSON.parse`; `undefined` if invalid. */
function stringValue(text: string, start: number, end: number): string | undefined {
  const inner = text.slice(start + 1, end - 1);
  if (!inner.includes('\\')) return inner;
  try {
    return JSON.parse(text.slice(start, end)) as string;
  } catch {
    return undefined;
  }
}

function digitsEnd(text: string, i: number): number {
  let c = text.charCodeAt(i);
  while (c >= 0x30 && c <= 0x39) c = text.charCodeAt(++i);
  return i;
}

/** Index just past the JSON number literal at `i` (RFC 8259 §6 grammar), or -1 when there is none. */
function numberEnd(text: string, i: number): number {
  if (text.charCodeAt(i) === 0x2d /* - */) i++;
  const first = text.charCodeAt(i);
  if (first === 0x30) i++;
  else if (first >= 0x31 && first <= 0x39) i = digitsEnd(text, i + 1);
  else return -1;
  if (text.charCodeAt(i) === 0x2e /* . */) {
    const end = digitsEnd(text, i + 1);
    if (end === i + 1) return -1;
    i = end;
  }
  const e = text.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    i++;
    const sign = text.charCodeAt(i);
    if (sign === 0x2b || sign === 0x2d) i++;
    const end = digitsEnd(text, i);
    if (end === i) return -1;
    i = end;
  }
  return i;
}

/** Whether a plain integer literal (no leading zero) lies in int64, by comparing its digits with the bounds'. */
function plainInInt64(literal: string): boolean {
  const negative = literal.charCodeAt(0) === 0x2d;
  const digits = negative ? literal.length - 1 : literal.length;
  if (digits !== 19) return digits < 19;
  return negative ? literal.slice(1) <= '9223372036854775808' : literal <= '9223372036854775807';
}

/**
 * The fast path of {@link parseJsonBody} (create is on the hot path): a flat JSON object, as every `NewPet` is, whose member
 * values are strings, numbers, `true`, `false` or `null`, read in one pass with the same result as the general
 * path (mock/json.test.ts compares them on generated texts). `undefined` for any other text (nesting, arrays,
 * duplicate or `__proto__` names, a number outside int64, anything malformed): the general path then decides.
 */
function parseFlatObject(text: string): ParsedBody | undefined {
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== 0x7b /* { */) return undefined;
  const value: Record<string, unknown> = {};
  const view: Record<string, unknown> = {};
  const overflows: string[] = [];
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === 0x7d /* } */) return skipSpace(text, i + 1) === text.length ? { value, view, overflows } : undefined;
  for (;;) {
    if (text.charCodeAt(i) !== 0x22) return undefined;
    const keyEnd = stringEnd(text, i);
    const key = keyEnd === -1 ? undefined : stringValue(text, i, keyEnd);
    if (key === undefined || key === '__proto__' || Object.hasOwn(value, key)) return undefined;
    i = skipSpace(text, keyEnd);
    if (text.charCodeAt(i) !== 0x3a /* : */) return undefined;
    i = skipSpace(text, i + 1);
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = stringEnd(text, i);
      const string = end === -1 ? undefined : stringValue(text, i, end);
      if (string === undefined) return undefined;
      value[key] = view[key] = string;
      i = end;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const end = numberEnd(text, i);
      if (end === -1) return undefined;
      const literal = text.slice(i, end);
      value[key] = new LosslessNumber(literal);
      if (PLAIN_INTEGER.test(literal) && plainInInt64(literal)) view[key] = Number(literal);
      else view[key] = numberView(literal, `/${pointerToken(key)}`, overflows);
      // Outside int64: the request is refused; the general path lists the pointers in the order it reports them.
      if (overflows.length > 0) return undefined;
      i = end;
    } else if (text.startsWith('true', i) || text.startsWith('null', i)) {
      value[key] = view[key] = c === 0x74 ? true : null;
      i += 4;
    } else if (text.startsWith('false', i)) {
      value[key] = view[key] = false;
      i += 5;
    } else {
      return undefined;
    }
    i = skipSpace(text, i);
    const next = text.charCodeAt(i);
    if (next === 0x7d) return skipSpace(text, i + 1) === text.length ? { value, view, overflows } : undefined;
    if (next !== 0x2c /* , */) return undefined;
    i = skipSpace(text, i + 1);
  }
}
