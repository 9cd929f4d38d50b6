import { isLosslessNumber } from 'lossless-json';
import { validatorOf } from '../model/samples.js';
import { admittedTypes, objectShape, type Schema } from '../model/schema.js';
import { parseExact, toView } from '../model/json.js';

/** Member names that key an object by convention, then the member a wrapper holds its one value in (`{"value": …}`). */
const HOLDERS = ['id', 'key', 'slug', 'code', 'uuid', 'value'];

/** Deeper than this, a value is not fit further: a schema cut at a cycle ends the walk. */
const FIT_DEPTH = 16;

/**
 * `value`, sent by a client for a place of the record whose schema is `schema`, made into a value that schema
 * admits (spec/DECISIONS.md › D890), or `undefined` when no such value can be read from it. The record is what
 * every later answer shows, so it never holds what its own schema refuses:
 *
 * - a value the schema admits is kept as it is;
 * - digits sent where the record holds an integer are that integer, an integer sent where it holds text is its
 *   digits (the same id in the record's type, as D350 reads a key);
 * - a scalar sent where the record holds an object is that object keyed by it: the object's first member of the
 *   scalar's type among `id`, `key`, `slug`, `code`, `uuid` and `value`, the rest the server's own (`make`);
 * - an object sent where the record holds a scalar is the scalar it holds under one of those names (a wrapper
 *   `{"value": "X"}` stands for `"X"`);
 * - an object sent for an object is fit member by member: a member that cannot be fit is left out, or is the
 *   server's own value where the schema requires it; a list item by item, an item that cannot be fit the server's;
 * - anything else is `undefined`: the caller leaves the member out, or makes its own value.
 *
 * `make` gives the server's own value for a schema (a sample; the current time for a `date-time`). Numbers are kept
 * as the record holds them (lossless literals); the result is checked with the schema's validator before it is
 * given. A schema that cannot be compiled admits anything (D134).
 */
export function fitValue(schema: Schema, value: unknown, make: (schema: Schema) => unknown, depth = 0): { value: unknown } | undefined {
  const validate = validatorOf(schema);
  const admits = (candidate: unknown): boolean => validate === undefined || validate(toView(candidate));
  // A member the answer never shows (`writeOnly`, forbidden in the record's answer view) is stored as sent (D71).
  if (admits(value) || admits(withoutHidden(schema, value, 0))) return { value };
  if (depth > FIT_DEPTH || typeof schema !== 'object' || schema === null) return undefined;
  const types = admittedTypes(schema);
  const tried = (candidate: unknown): { value: unknown } | undefined => (candidate !== undefined && admits(candidate) ? { value: candidate } : undefined);
  const text = scalarText(value);
  if (text !== undefined) {
    if (/^-?\d{1,15}$/.test(text) && (types.includes('integer') || types.includes('number'))) {
      const parsed = parseExact(text);
      const found = parsed.ok ? tried(parsed.document.value) : undefined;
      if (found !== undefined) return found;
    }
    if (typeof value !== 'string' && types.includes('string')) {
      const found = tried(text);
      if (found !== undefined) return found;
    }
    if (types.includes('object')) return keyedBy(schema, value, make);
    return undefined;
  }
  if (Array.isArray(value)) {
    const items = schema['items'];
    if (!types.includes('array') || items === null || typeof items !== 'object' || Array.isArray(items)) return undefined;
    return tried(value.map((item) => fitValue(items as Schema, item, make, depth + 1)?.value ?? make(items as Schema)));
  }
  if (!isPlain(value)) return undefined;
  if (!types.includes('object') && types.length > 0) {
    // An object sent for a scalar: the one value it holds under a holder's name.
    for (const name of HOLDERS) {
      if (!Object.hasOwn(value, name)) continue;
      const found = fitValue(schema, value[name], make, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  // One of several forms: the first branch the object can be read into, where the whole schema then admits it.
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const branches = schema[keyword];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches as Schema[]) {
      const found = typeof branch === 'object' && branch !== null ? fitValue(branch, value, make, depth + 1) : undefined;
      if (found !== undefined && admits(found.value)) return found;
    }
  }
  const { properties, required, additional } = objectShape(schema);
  const fitted: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value)) {
    const sub = properties[name] ?? (additional === false ? undefined : additional);
    if (sub === undefined) continue;
    const found = fitValue(sub, member, make, depth + 1);
    if (found !== undefined) fitted[name] = found.value;
  }
  for (const name of required) if (!Object.hasOwn(fitted, name)) fitted[name] = make(properties[name] ?? {});
  return tried(fitted);
}

/** The object `schema` describes, made by the server (`make`), with its first holder member of the scalar's type set to `value`. */
function keyedBy(schema: Schema, value: unknown, make: (schema: Schema) => unknown): { value: unknown } | undefined {
  const base = make(schema);
  if (!isPlain(base)) return undefined;
  const { properties } = objectShape(schema);
  const validate = validatorOf(schema);
  for (const name of HOLDERS) {
    const member = properties[name];
    if (member === undefined) continue;
    const found = fitValue(member, value, make, FIT_DEPTH);
    if (found === undefined) continue;
    const keyed = { ...base, [name]: found.value };
    if (validate === undefined || validate(toView(keyed))) return { value: keyed };
  }
  return undefined;
}

/** `value` without the members its schema forbids (`false`, a `writeOnly` member in an answer's view), at every depth and in every part. */
function withoutHidden(schema: Schema, value: unknown, depth: number): unknown {
  if (depth > FIT_DEPTH || typeof schema !== 'object' || schema === null || value === null || typeof value !== 'object' || isLosslessNumber(value)) return value;
  if (Array.isArray(value)) {
    const items = schema['items'];
    return items !== null && typeof items === 'object' && !Array.isArray(items) ? value.map((item) => withoutHidden(items as Schema, item, depth + 1)) : value;
  }
  const parts = [schema, ...(['allOf', 'oneOf', 'anyOf'] as const).flatMap((keyword) => (Array.isArray(schema[keyword]) ? (schema[keyword] as unknown[]) : []))].filter((part): part is Schema => part !== null && typeof part === 'object');
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value as Record<string, unknown>)) {
    const subs = parts.map((part) => (part['properties'] as Record<string, unknown> | undefined)?.[name]).filter((sub) => sub !== undefined);
    if (subs.some((sub) => sub === false)) continue;
    const sub = subs.find((one): one is Schema => one !== null && typeof one === 'object');
    out[name] = sub === undefined ? member : withoutHidden(sub, member, depth + 1);
  }
  return out;
}

/** A scalar's text (a string as it is, a number's literal, a boolean's word); `undefined` for `null`, objects and lists. */
function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (isLosslessNumber(value)) return value.toString();
  return undefined;
}

function isPlain(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || isLosslessNumber(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
