import { LosslessNumber } from 'lossless-json';
import { INT64_MAX, INT64_MIN } from '../../model/schema.js';
import type { Canonical } from './canonical.js';
import { OUT_OF_INT64 } from './integers.js';
import fc from 'fast-check';
import { canonicalJson } from '../../model/json.js';
import { GenerationGaveUp } from './bounded.js';
import { patternRegExp, patternString } from './pattern.js';
import { valueOf } from './schema-values.js';
import { FORMAT_BREAKERS } from './strings.js';

/**
 * One invalid value and what is wrong with it, for the report. `value` may hold `LosslessNumber`s (literals such
 * as `9223372036854775808` or `1e400` sent as written) and `bigint`s; `exactJson` writes it.
 */
export interface InvalidValue {
  kind: string;
  value: unknown;
}

/** A property that must not be sent (`readOnly`, forbidden in requests): the value to send it with. */
export type ForbiddenValue = (name: string) => unknown;

/** An integer literal exactly as written, even outside int64 (the value an implementation must refuse). */
function literal(value: bigint | string): LosslessNumber {
  return new LosslessNumber(String(value));
}

/**
 * The longest string drawn past a `maxLength` (code points): a body of that size is one every server reads, while a
 * longer one may meet the server's own body-size limit (a 413 the operation need not document) before its schema
 * is judged (D205). A bound at or above it is not probed.
 */
const LONGEST_PAST_BOUND = 65_536;

/** Strings of a pattern and length, drawn with a fixed seed: a cache of what the schema alone determines (no run learns anything here). */
const lengthCache = new Map<string, string>();

/**
 * A string of `length` code points that breaks nothing else of `form` where it can: matching its pattern (drawn
 * once per pattern and length, then kept), so that a too-short or too-long value tests the length alone; else
 * plain letters.
 */
function stringOfLength(form: Extract<Canonical, { kind: 'string' }>, length: number): string {
  const plain = 'y'.repeat(Math.max(0, length));
  if (form.pattern === undefined) return plain;
  const key = `${form.pattern} ${length}`;
  let found = lengthCache.get(key);
  if (found === undefined) {
    try {
      found = fc.sample(patternString(form.pattern, (text) => [...text].length === length), { numRuns: 1, seed: 1 })[0] ?? plain;
    } catch (error) {
      if (!(error instanceof GenerationGaveUp)) throw error;
      found = plain;
    }
    lengthCache.set(key, found);
  }
  return found;
}

/**
 * `items` made `length` long: with items drawn from the item schema that differ from those held, when the
 * array's items must be unique (so that only the length is wrong), else the held items repeated.
 */
function longerList(form: Extract<Canonical, { kind: 'array' }>, items: readonly unknown[], length: number): unknown[] {
  const list = [...items];
  if (form.uniqueItems) {
    const seen = new Set(list.map((item) => canonicalJson(item)));
    let drawn: unknown[] = [];
    try {
      drawn = fc.sample(valueOf(form.items, { integers: 'safe', strings: 'ordinary' }), { numRuns: length * 4, seed: 1 });
    } catch (error) {
      if (!(error instanceof GenerationGaveUp)) throw error;
    }
    for (const item of drawn) {
      if (list.length >= length) break;
      if (seen.has(canonicalJson(item))) continue;
      seen.add(canonicalJson(item));
      list.push(item);
    }
  }
  for (let i = 0; list.length < length; i++) list.push(items[i % items.length]);
  return list;
}

/** Strings tried in turn for one that breaks a `pattern`. */
const PATTERN_BREAKERS = ['', ' ', '!', '0', 'a', 'A', '-', 'conformance mismatch', '\u0000', '12345678901234567890'];

/**
 * Invalid values of a canonical schema, derived from the same form as the valid ones (as
 * hypothesis-jsonschema negates a canonical schema): a flipped type, `null` where not nullable, a step past a
 * bound, a string too long or too short or breaking its pattern or format, a value outside the enum, and for
 * objects a dropped required key, an extra property where forbidden, a forbidden (`readOnly`) property sent,
 * and each property made invalid in turn (down to `depth` 2). `sample` is a valid value of the same schema to
 * build from. Callers keep only those the spec's validator refuses.
 */
export function invalidValuesOf(form: Canonical, sample: unknown, forbiddenValue: ForbiddenValue = () => 1, depth = 0): InvalidValue[] {
  const out: InvalidValue[] = [];
  const add = (kind: string, value: unknown): void => void out.push({ kind, value });
  const nullable = 'nullable' in form && form.nullable;
  switch (form.kind) {
    case 'any':
    case 'never':
    case 'null':
      return out;
    case 'enum': {
      const first = form.values.find((v) => typeof v === 'string') as string | undefined;
      const candidates: [string, unknown][] = [['a string outside the enum', 'conformance-unknown-value'], ['the empty string', ''], ['null', null], ['a number', 1], ['an array', [form.values[0]]], ['an object', { value: form.values[0] }]];
      if (first !== undefined) candidates.unshift(['outside the enum (upper case)', first.toUpperCase()], ['outside the enum (capitalised)', first.charAt(0).toUpperCase() + first.slice(1)], ['outside the enum (trailing space)', `${first} `]);
      for (const [kind, value] of candidates) if (!form.values.some((v) => JSON.stringify(v) === JSON.stringify(value))) add(kind, value);
      return out;
    }
    case 'boolean':
      for (const value of ['true', 1, [], {}]) add(`not a boolean: ${JSON.stringify(value)}`, value);
      break;
    case 'integer':
      for (const value of ['12', '', 1.5, -0.25, true, [1], { id: 1 }, 'NaN']) add(`not an integer: ${JSON.stringify(value)}`, value);
      if (form.min !== undefined) add(`below the minimum ${form.min}`, literal(form.min - 1n));
      if (form.max !== undefined) add(`above the maximum ${form.max}`, literal(form.max + 1n));
      if (form.multipleOf !== undefined) add(`not a multiple of ${form.multipleOf}`, literal((form.min ?? 0n) + form.multipleOf * 3n + 1n));
      if (form.int64 || form.min === undefined || form.max === undefined) for (const text of OUT_OF_INT64) add(`outside int64: ${text}`, literal(text));
      else if (form.min > INT64_MIN && form.max < INT64_MAX) add('far outside its bounds', literal(OUT_OF_INT64[0]!));
      break;
    case 'number':
      for (const value of ['12', true, [1], {}]) add(`not a number: ${JSON.stringify(value)}`, value);
      if (form.min !== undefined) add(`below the minimum ${form.min}`, form.min - 1);
      if (form.max !== undefined) add(`above the maximum ${form.max}`, form.max + 1);
      if (form.minExclusive === true && form.min !== undefined) add(`equal to the exclusive minimum ${form.min}`, form.min);
      if (form.maxExclusive === true && form.max !== undefined) add(`equal to the exclusive maximum ${form.max}`, form.max);
      if (form.multipleOf !== undefined) add(`not a multiple of ${form.multipleOf}`, form.multipleOf * 1.5 + 0.001);
      break;
    case 'string': {
      const text = typeof sample === 'string' ? sample : 'Rex';
      for (const value of [42, true, [text], { first: text }]) add(`not a string: ${JSON.stringify(value)}`, value);
      if (form.minLength > 0 && form.minLength <= LONGEST_PAST_BOUND) add(`shorter than minLength ${form.minLength}`, stringOfLength(form, form.minLength - 1));
      // Past a large bound (OpenAI's 20 MiB data URLs) a server's body-size limit may answer 413 first (D205).
      if (form.maxLength !== undefined && form.maxLength < LONGEST_PAST_BOUND) add(`longer than maxLength ${form.maxLength}`, stringOfLength(form, form.maxLength + 1));
      const pattern = form.pattern === undefined ? undefined : patternRegExp(form.pattern);
      if (pattern !== undefined) {
        // Prefer a breaker within the length bounds, so that it breaks the pattern alone (`''` also breaks minLength).
        const fitsLength = (candidate: string): boolean => candidate.length >= form.minLength && (form.maxLength === undefined || candidate.length <= form.maxLength);
        const breaker = PATTERN_BREAKERS.find((candidate) => !pattern.test(candidate) && fitsLength(candidate)) ?? PATTERN_BREAKERS.find((candidate) => !pattern.test(candidate));
        if (breaker !== undefined) add(`not matching the pattern ${form.pattern}`, breaker);
      }
      if (form.format !== undefined && FORMAT_BREAKERS[form.format] !== undefined) add(`not a ${form.format}`, FORMAT_BREAKERS[form.format]);
      break;
    }
    case 'array': {
      for (const value of ['x', {}, 42]) add(`not an array: ${JSON.stringify(value)}`, value);
      const items = Array.isArray(sample) ? sample : [];
      if (form.minItems > 0) add(`fewer than minItems ${form.minItems}`, items.slice(0, form.minItems - 1));
      // A list past a bound in the billions (2^63-1 in some descriptions) is never built: no server reads one.
      if (form.maxItems !== undefined && form.maxItems < LONGEST_PAST_BOUND && items.length > 0) add(`more than maxItems ${form.maxItems}`, longerList(form, items, form.maxItems + 1));
      if (form.uniqueItems && items.length > 0) add('repeated items where items must be unique', [items[0], items[0], ...items.slice(1)]);
      if (depth < 2) {
        const itemSample = items[0];
        for (const wrong of invalidValuesOf(form.items, itemSample, forbiddenValue, depth + 1).slice(0, 6)) add(`an item ${wrong.kind}`, [wrong.value, ...items.slice(1)]);
      }
      break;
    }
    case 'object': {
      for (const value of ['x', [], 42]) add(`not an object: ${JSON.stringify(value)}`, value);
      const base = sample !== null && typeof sample === 'object' && !Array.isArray(sample) ? (sample as Record<string, unknown>) : {};
      if (depth > 0) {
        for (const name of form.required) {
          const { [name]: _, ...rest } = base;
          add(`without the required ${name}`, rest);
        }
      }
      if (!form.additional) add('with a property the schema does not allow', { ...base, conformanceExtra: 1 });
      for (const name of form.forbidden) add(`with the read-only ${name}`, { ...base, [name]: forbiddenValue(name) });
      if (depth < 2) {
        for (const [name, sub] of Object.entries(form.properties)) {
          for (const wrong of invalidValuesOf(sub, base[name], forbiddenValue, depth + 1)) add(`${name} ${wrong.kind}`, { ...base, [name]: wrong.value });
        }
      }
      break;
    }
    case 'union': {
      const takes = (kind: string): boolean => form.branches.some((b) => b.kind === kind || b.kind === 'any' || (b.kind === 'enum' && b.values.some((v) => typeof v === kind)));
      if (!form.branches.some((b) => b.kind === 'null' || ('nullable' in b && b.nullable) || b.kind === 'any')) add('null', null);
      if (!takes('object')) add('an object', { conformance: 1 });
      if (!takes('boolean')) add('a boolean', true);
      return out;
    }
  }
  if (!nullable) add('null where the schema does not allow it', null);
  return out;
}
