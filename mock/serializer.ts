import { isLosslessNumber } from 'lossless-json';
import { canonicalJson, exactInteger } from '../model/json.js';
import { isMarked, objectShape, typesOf, type Schema } from '../model/schema.js';

/** Writes one exact JSON value (numbers as `bigint`, `LosslessNumber` or `number`) as JSON text. */
export type Writer = (value: unknown) => string;

const PLAIN_INTEGER = /^-?(?:0|[1-9]\d*)$/;

/**
 * Compiles the JSON writer of a record schema (README › Resources): properties in the schema's order with
 * `first` (the id) before them, integers as canonical integer text (int64 exact: `1.0` → `1`), strings by
 * `JSON.stringify`, nested objects and arrays compiled the same way, other values losslessly; a property whose
 * response schema is `false` (`writeOnly`) or marked `writeOnly` is never written. Properties the schema does
 * not name are written after the named ones only when `additionalProperties` allows them.
 *
 * The output is one flat string: it is built by concatenation (the fastest way to join a few pieces) and then
 * flattened by reading a character. A concatenation is a rope of its pieces, about three times the memory of a
 * record, and 1,000,000 records must fit in 300 MB; reading a character makes V8 write the flat text once, and
 * the garbage collector then drops the rope (bench/RESULTS.md: the same heap as `Array.prototype.join`).
 */
export function compileRecordWriter(schema: Schema, first?: string): Writer {
  const write = objectWriter(schema, first, 0);
  return (value) => {
    const json = write(value);
    // Kept in a module variable so that the read is never optimised away.
    flattened = json.charCodeAt(0);
    return json;
  };
}

/** The last character read to flatten a record's text (see {@link compileRecordWriter}); never read otherwise. */
export let flattened = 0;

const MAX_DEPTH = 32;

function writerFor(schema: Schema | boolean, depth: number): Writer {
  if (typeof schema === 'boolean' || depth > MAX_DEPTH) return canonicalJson;
  const types = typesOf(schema).filter((type) => type !== 'null');
  const shape = objectShape(schema);
  if (types.length === 1 && types[0] === 'string') return (value) => (typeof value === 'string' ? JSON.stringify(value) : canonicalJson(value));
  if (types.length === 1 && types[0] === 'integer') return integerText;
  if (types.length === 1 && types[0] === 'boolean') return (value) => (value === true ? 'true' : value === false ? 'false' : canonicalJson(value));
  if ((types.length === 1 && types[0] === 'object') || (types.length === 0 && Object.keys(shape.properties).length > 0)) return objectWriter(schema, undefined, depth);
  if (types.length === 1 && types[0] === 'array') {
    const items = schema['items'];
    const item = typeof items === 'object' && items !== null && !Array.isArray(items) ? writerFor(items as Schema, depth + 1) : canonicalJson;
    return (value) => (Array.isArray(value) ? `[${value.map(item).join(',')}]` : canonicalJson(value));
  }
  return alternativesWriter(schema) ?? canonicalJson;
}

/**
 * The writer of a `oneOf`/`anyOf` of objects (a payment `source` that is a card or a bank account): the value
 * as it is, less every member some alternative forbids in an answer (`writeOnly`, such as a card's `cvc`), which a
 * stored record may hold since the request sent it. `undefined` when no alternative forbids any member.
 */
function alternativesWriter(schema: Schema): Writer | undefined {
  const alternatives = [...((schema['oneOf'] as Schema[] | undefined) ?? []), ...((schema['anyOf'] as Schema[] | undefined) ?? [])];
  const hidden = new Set<string>();
  for (const alternative of alternatives) {
    if (typeof alternative !== 'object' || alternative === null) continue;
    for (const [name, sub] of Object.entries(objectShape(alternative).properties) as [string, Schema | boolean][]) {
      if (sub === false || (typeof sub === 'object' && isMarked(sub, 'writeOnly'))) hidden.add(name);
    }
  }
  if (hidden.size === 0) return undefined;
  return (value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return canonicalJson(value);
    const kept = Object.entries(value as Record<string, unknown>).filter(([name]) => !hidden.has(name));
    return canonicalJson(Object.fromEntries(kept));
  };
}

/** An integer's canonical text: the literal itself when it is plain digits (the usual case), else its exact value. */
function integerText(value: unknown): string {
  if (typeof value === 'bigint') return String(value);
  if (isLosslessNumber(value)) {
    const literal = value.value;
    if (PLAIN_INTEGER.test(literal)) return literal === '-0' ? '0' : literal;
    const exact = exactInteger(literal);
    return exact === undefined ? literal : String(exact);
  }
  if (typeof value === 'number' && Number.isInteger(value)) return Object.is(value, -0) ? '0' : String(value);
  return canonicalJson(value);
}

function objectWriter(schema: Schema, first: string | undefined, depth: number): Writer {
  const { properties, additional } = objectShape(schema);
  const names = Object.keys(properties);
  // The id leads, whatever its place in the schema (`allOf` often adds it last): a record reads id first.
  if (first !== undefined && names.includes(first)) names.sort((a, b) => Number(b === first) - Number(a === first));
  // A `writeOnly` property is `false` in the response view (or `{not: {}}` once rewritten): never written.
  const written = names.filter((name) => {
    const sub = properties[name] as Schema | boolean;
    if (sub === false) return false;
    if (typeof sub !== 'object') return true;
    const forbidden = typeof sub['not'] === 'object' && sub['not'] !== null && Object.keys(sub['not']).length === 0;
    return !forbidden && !isMarked(sub, 'writeOnly');
  });
  const known = new Set(names);
  const writers = written.map((name) => writerFor(properties[name]!, depth + 1));
  const keys = written.map((name) => `${JSON.stringify(name)}:`);
  const keysAfter = keys.map((key) => `,${key}`);
  const others = additional !== false;
  return (value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return canonicalJson(value);
    const record = value as Record<string, unknown>;
    let json = '{';
    let empty = true;
    for (let i = 0; i < written.length; i++) {
      const item = record[written[i]!];
      if (item === undefined) continue;
      json += (empty ? keys[i]! : keysAfter[i]!) + writers[i]!(item);
      empty = false;
    }
    if (others) {
      for (const name of Object.keys(record)) {
        if (known.has(name) || record[name] === undefined) continue;
        json += `${empty ? '' : ','}${JSON.stringify(name)}:${canonicalJson(record[name])}`;
        empty = false;
      }
    }
    return `${json}}`;
  };
}
