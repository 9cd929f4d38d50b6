import { validAnswer, validatorOf, type Answer } from './samples.js';
import { objectShape, typesOf, type Schema, type Validator } from './schema.js';

/** Deeper than this, a value is left as it is (a schema cut at a cycle ends the walk too). */
const DEPTH = 32;

/**
 * A valid value of a schema whose every member the server makes (an answer sampled where the description gives no
 * example, a record member no write body names; spec/DECISIONS.md › D530): {@link validAnswer}'s value, and where
 * that is a sample rather than one of the description's examples, the sample without the state it makes up
 * ({@link withoutMadeUpState}) when the schema still accepts it. Never throws.
 */
export function serverMadeAnswer(schema: Schema, validate: Validator | undefined, examples: readonly unknown[] = []): Answer {
  const answer = validAnswer(schema, validate, examples);
  if (!answer.valid || fromExamples(answer.value, schema, examples)) return answer;
  const lean = withoutMadeUpState(structuredClone(answer.value), schema, 0);
  return validate === undefined || validate(lean) ? { value: lean, valid: true } : answer;
}

const cache = new WeakMap<Schema, Answer>();

/**
 * {@link serverMadeAnswer} with no examples, remembered per schema object (a record's server-made members are made
 * on every create), as `validSample` is. A copy each time.
 */
export function serverMadeSample(schema: Schema): unknown {
  let found = cache.get(schema);
  if (found === undefined) cache.set(schema, (found = serverMadeAnswer(schema, validatorOf(schema))));
  return found.value !== null && typeof found.value === 'object' ? structuredClone(found.value) : found.value;
}

/** Whether `value` is one of the examples given or the schema's own (the very object: candidates are not copied). */
function fromExamples(value: unknown, schema: Schema, examples: readonly unknown[]): boolean {
  return examples.includes(value) || schema['example'] === value || (Array.isArray(schema['examples']) && (schema['examples'] as unknown[]).includes(value));
}

/**
 * `value` (a sample of `schema`) without the state it makes up (D530), at every depth: a list whose items are
 * placeholders only (each scalar a text its schema gives nothing to make from: no example, default, enum, const,
 * format or pattern) is empty unless the schema asks for items (`minItems`), since a collection the server fills from
 * its own state (the silences that mute an alert, a cluster's peers) holds nothing until that state does, and an
 * item of placeholders names nothing a client could follow. Items with an example, a number, a boolean or a value of
 * an enum say something and are kept (a completion's `choices`). Optional members are kept: a server may answer
 * them (D531 says how the shadow reads one the server leaves out). Changes `value` in place; returns it.
 */
export function withoutMadeUpState(value: unknown, schema: Schema, depth: number): unknown {
  if (value === null || typeof value !== 'object' || depth > DEPTH) return value;
  if (Array.isArray(value)) {
    const items = itemsOf(schema);
    if (items === undefined) return value;
    for (const item of value) withoutMadeUpState(item, items, depth + 1);
    const minimum = typeof schema['minItems'] === 'number' ? schema['minItems'] : 0;
    return minimum === 0 && value.length > 0 && value.every((item) => placeholderOnly(item, items, 0)) ? [] : value;
  }
  const { properties } = objectShape(schema);
  const record = value as Record<string, unknown>;
  for (const [name, member] of Object.entries(record)) {
    const sub = properties[name];
    if (typeof sub !== 'object' || sub === null) continue;
    record[name] = withoutMadeUpState(member, sub, depth + 1);
  }
  return value;
}

/** The schema of a list's items (its own, or its `allOf` parts'), or `undefined` when it names none. */
function itemsOf(schema: Schema): Schema | undefined {
  const parts = [schema, ...((schema['allOf'] as Schema[] | undefined) ?? [])];
  return parts.map((part) => part['items']).find((items): items is Schema => typeof items === 'object' && items !== null && !Array.isArray(items));
}

/** Keywords that give a text something to be made from: a value carrying one is no placeholder. */
const TELLING = ['example', 'examples', 'default', 'enum', 'const', 'format', 'pattern', 'oneOf', 'anyOf', 'allOf', '$ref'];

/**
 * Whether `value` is made of placeholders only: a text whose schema is a plain string (no {@link TELLING} keyword),
 * or a non-empty object or list of such values. Numbers, booleans, `null` and empty containers are not.
 */
function placeholderOnly(value: unknown, schema: Schema, depth: number): boolean {
  if (depth > DEPTH) return false;
  if (typeof value === 'string') return typesOf(schema).every((type) => type === 'string') && !TELLING.some((keyword) => schema[keyword] !== undefined);
  if (Array.isArray(value)) {
    const items = itemsOf(schema);
    return items !== undefined && value.length > 0 && value.every((item) => placeholderOnly(item, items, depth + 1));
  }
  if (value === null || typeof value !== 'object') return false;
  const { properties } = objectShape(schema);
  const entries = Object.entries(value as Record<string, unknown>);
  return entries.length > 0 && entries.every(([name, member]) => properties[name] !== undefined && placeholderOnly(member, properties[name], depth + 1));
}
