import fc from 'fast-check';
import { sample } from 'openapi-sampler';
import { isNullOnly } from './lenient-schema.js';
import { unrolledSize } from './schema-refs.js';
import { stringMatching } from './string-matching.js';
import { compile, createAjv, jsonType, objectShape, ownerOf, patternRegExp, typesOf, type Schema, type Validator } from './schema.js';

/**
 * Values the mock makes up where the spec gives none that fits (spec/DECISIONS.md › D55): every candidate is
 * checked with the compiled validator of its schema, in this order: the spec's examples (the media type's
 * `example` and named `examples`, then the schema's own `example`/`examples`), openapi-sampler's sample, then a
 * value built here from the schema (`oneOf`/`anyOf` branches tried one by one, `const`/`enum`, formats, patterns
 * drawn with fast-check from a fixed seed, bounds). The first valid candidate wins.
 */
export interface Answer {
  value: unknown;
  /** `false` when no candidate satisfies the schema: `value` is then the best effort (the first candidate). */
  valid: boolean;
}

/** A validator of the samples' own, for a schema no model compiles (compiled once per schema object). */
const ajv = createAjv();
const validators = new WeakMap<Schema, Validator | null>();

/**
 * The compiled validator of `schema`, or `undefined` when ajv cannot compile it (then every value is taken as valid).
 * A schema of a model is checked by the function its model compiled (D420): one compilation, not two.
 */
export function validatorOf(schema: Schema): Validator | undefined {
  // A boolean schema (`true`, `false`: anything, nothing), which descriptions from the wild put where a member's
  // schema goes, is no WeakMap key: compiled each time it is asked for (it costs nothing).
  if (typeof schema !== 'object' || schema === null) {
    try {
      return compile(ajv, schema);
    } catch {
      return undefined;
    }
  }
  let found = validators.get(schema);
  if (found === undefined) {
    try {
      found = compile(ownerOf(schema) ?? ajv, schema);
    } catch {
      found = null;
    }
    validators.set(schema, found);
  }
  return found ?? undefined;
}

/**
 * The first value among the spec's `examples` (given first), the schema's own examples, a sample and a generated
 * value that `validate` (default: the schema compiled here) accepts. Never throws.
 */
export function validAnswer(schema: Schema, validate: Validator | undefined = validatorOf(schema), examples: readonly unknown[] = []): Answer {
  let first: { value: unknown } | undefined;
  for (const value of candidates(schema, examples)) {
    first ??= { value };
    if (validate === undefined || validate(value)) return { value, valid: true };
  }
  return { value: first?.value ?? null, valid: false };
}

const cache = new WeakMap<Schema, Answer>();

/** {@link validAnswer} with no examples, remembered per schema object (records.ts asks on every create). A copy each time. */
export function validSample(schema: Schema): unknown {
  let found = cache.get(schema);
  if (found === undefined) cache.set(schema, (found = validAnswer(schema)));
  return found.value !== null && typeof found.value === 'object' ? structuredClone(found.value) : found.value;
}

/**
 * Runs `f` with `console.warn` silenced: openapi-sampler warns on its own for an `allOf` of two types even when
 * asked to be quiet, a line per sample on the mock's output that no user can act on (the candidate is checked anyway).
 */
function quietly<T>(f: () => T): T {
  const warn = console.warn;
  console.warn = () => undefined;
  try {
    return f();
  } finally {
    console.warn = warn;
  }
}

/** The largest unrolled schema (in nodes) handed to openapi-sampler. */
const SAMPLER_LIMIT = 20_000;

function* candidates(schema: Schema, examples: readonly unknown[]): Generator<unknown> {
  yield* examples;
  if (schema['example'] !== undefined) yield schema['example'];
  if (Array.isArray(schema['examples'])) yield* schema['examples'] as unknown[];
  let sampled: unknown;
  try {
    // openapi-sampler walks every optional member: over a schema that unrolls into a huge tree it would not end soon (D82).
    sampled = unrolledSize(schema) > SAMPLER_LIMIT ? undefined : quietly(() => sample(schema as never, { skipReadOnly: false, skipWriteOnly: true, quiet: true }));
  } catch {
    // It throws on what it cannot read, and may run out of stack on a deep schema: the generator's values follow.
    sampled = undefined;
  }
  // openapi-sampler names a map's entries `property1` and `property2`: a map the schema leaves open is sampled empty (D391).
  sampled = withoutPlaceholders(sampled, schema, 0);
  // A null where the schema admits something else says little (a nullable union): the generator's value first (D131).
  if (sampled !== undefined && !(sampled === null && !isNullOnly(schema))) yield withVersionTexts(schema, sampled);
  yield generate(schema, { optional: true, examples: true, depth: 0 });
  yield generate(schema, { optional: true, examples: false, depth: 0 });
  yield generate(schema, { optional: false, examples: false, depth: 0 });
}

/** The names openapi-sampler gives the two entries it makes up for an `additionalProperties` schema. */
const PLACEHOLDERS = ['property1', 'property2'];
/** Deeper than this, a sampled value is left as it is (a schema cut at a cycle ends the walk too). */
const PLACEHOLDER_DEPTH = 32;

/**
 * `value` (a sample of `schema`) without the entries openapi-sampler makes up for an `additionalProperties` schema
 * (spec/DECISIONS.md › D391): at every depth, an object's `property1` and `property2` that no `properties` of its
 * schema (its `allOf`, `oneOf` and `anyOf` parts included) names are dropped, so a map is sampled with no entry
 * instead of entries no client or server would write. A map that must hold entries (`minProperties`) then fails its
 * validator, and the next candidate, built from the schema, is taken. Changes `value` in place; returns it.
 */
export function withoutPlaceholders(value: unknown, schema: Schema, depth: number): unknown {
  if (value === null || typeof value !== 'object' || depth > PLACEHOLDER_DEPTH) return value;
  const parts = schemaParts(schema, 0);
  if (Array.isArray(value)) {
    const items = together(parts.map((part) => part['items']).filter((items): items is Schema => typeof items === 'object' && items !== null && !Array.isArray(items)));
    if (items !== undefined) for (const item of value) withoutPlaceholders(item, items, depth + 1);
    return value;
  }
  const record = value as Record<string, unknown>;
  for (const name of Object.keys(record)) {
    // Every part that names the member says what it holds: one part's bare `items: {}` beside another's record.
    const named = together(parts.map((part) => (part['properties'] as Record<string, Schema> | undefined)?.[name]).filter((sub): sub is Schema => typeof sub === 'object' && sub !== null));
    if (named !== undefined) {
      withoutPlaceholders(record[name], named, depth + 1);
      continue;
    }
    if (PLACEHOLDERS.includes(name)) {
      delete record[name];
      continue;
    }
    const extra = parts.map((part) => part['additionalProperties']).find((sub): sub is Schema => typeof sub === 'object' && sub !== null);
    if (extra !== undefined) withoutPlaceholders(record[name], extra, depth + 1);
  }
  return value;
}

/** The one schema of `parts`, or all of them as an `allOf` (walked part by part by {@link schemaParts}); `undefined` for none. */
function together(parts: readonly Schema[]): Schema | undefined {
  return parts.length <= 1 ? parts[0] : { allOf: [...parts] };
}

/** `schema` and its `allOf`, `oneOf` and `anyOf` parts, at every depth (bounded). */
function schemaParts(schema: Schema, depth: number): Schema[] {
  if (depth > 6) return [schema];
  const nested = ['allOf', 'oneOf', 'anyOf'].flatMap((keyword) => (Array.isArray(schema[keyword]) ? (schema[keyword] as Schema[]) : []));
  return [schema, ...nested.filter((part) => typeof part === 'object' && part !== null).flatMap((part) => schemaParts(part, depth + 1))];
}

/** How {@link generate} builds a value: how full, whether members' own examples are taken, and how deep it is. */
export interface Mode {
  /** Whether optional object members are filled too (the fuller value first, the required-only one as fallback). */
  optional: boolean;
  /** Whether a member's own `example` is taken as it is (first try), or the member is built from its keywords. */
  examples: boolean;
  depth: number;
  /** Nodes this value may still build (shared by every part of one value); none left: the cheapest value. */
  budget?: { left: number };
}

/** Deeper than this, a value holds only what its schema requires: a recursion through optional members closes. */
const MAX_DEPTH = 8;
/** Deeper than this, nothing more is built (`null`): a recursion through required members closes too (D82). */
const HARD_DEPTH = 24;
/** Nodes one generated value may hold (D82): a union of many recursive branches is never built out in full. */
const NODE_BUDGET = 4_000;

/**
 * A value built from the schema's keywords (deterministic): `const`, an `enum` member of an allowed type, a
 * member's own example (first try), the first `oneOf`/`anyOf` branch whose value the whole node's validator
 * accepts, `allOf` merged, then by type. Not checked as a whole: {@link validAnswer} does that. Bounded
 * (spec/DECISIONS.md › D82): at most {@link NODE_BUDGET} nodes and {@link HARD_DEPTH} levels, branches built one
 * at a time (the first accepted one wins); beyond {@link MAX_DEPTH} only required members are built, so a
 * recursive schema yields a finite value that closes through the branch or member that ends.
 */
export function generate(schema: Schema, mode: Mode = { optional: true, examples: true, depth: 0 }): unknown {
  const budget = (mode.budget ??= { left: NODE_BUDGET });
  if (schema['const'] !== undefined) return schema['const'];
  if (Array.isArray(schema['enum'])) {
    // The first member of an allowed type: enough where `enum` is the member's only constraint, and no compile.
    const types = typesOf({ type: schema['type'] });
    const allowed = (value: unknown): boolean => types.length === 0 || types.includes(jsonType(value)) || (types.includes('number') && jsonType(value) === 'integer');
    // A nullable enum shows a value before its null (D131).
    return (schema['enum'] as unknown[]).find((value) => value !== null && allowed(value)) ?? (schema['enum'] as unknown[]).find(allowed) ?? (schema['enum'] as unknown[])[0];
  }
  if (mode.examples && mode.depth > 0) {
    if (Array.isArray(schema['examples']) && schema['examples'].length > 0) return (schema['examples'] as unknown[])[0];
    if (schema['example'] !== undefined) return schema['example'];
  }
  if (--budget.left < 0 || mode.depth > HARD_DEPTH) return typesOf(schema).includes('null') ? null : cheapest(schema);
  const deeper = { ...mode, depth: mode.depth + 1, optional: mode.optional && mode.depth < MAX_DEPTH };
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches) || branches.length === 0) continue;
    const { [key]: _, ...rest } = schema;
    // Branches one at a time, the ones that end first once deep: a recursive union closes through a leaf.
    // Shallow, a nullable union shows its other branch first (D131): `anyOf: [{type: null}, X]` answers an X.
    const ordered = mode.depth < MAX_DEPTH ? [...(branches as Schema[])].sort((a, b) => Number(isNullOnly(a)) - Number(isNullOnly(b))) : [...(branches as Schema[])].sort((a, b) => unrolledSize(a) - unrolledSize(b));
    let first: { value: unknown } | undefined;
    for (const branch of ordered) {
      const value = generate(mergedBranch(schema, key, rest, branch), deeper);
      first ??= { value };
      if (accepts(schema, value)) return value;
      if (budget.left < 0) break;
    }
    // A fuller branch value may match two branches of a `oneOf`: their required members alone may not.
    for (const branch of ordered) {
      if (budget.left < 0) break;
      const value = generate(mergedBranch(schema, key, rest, branch), { ...deeper, optional: false, examples: false });
      if (accepts(schema, value)) return value;
    }
    return first?.value ?? null;
  }
  if (Array.isArray(schema['allOf']) && schema['allOf'].length > 0) {
    let whole = mergedParts.get(schema);
    if (whole === undefined) {
      const { allOf, ...rest } = schema;
      mergedParts.set(schema, (whole = (allOf as Schema[]).reduce(merge, rest)));
    }
    return generate(whole, { ...mode, depth: mode.depth + 1 });
  }
  const type = typesOf(schema).find((t) => t !== 'null') ?? inferredType(schema);
  switch (type) {
    case 'object':
      return objectValue(schema, deeper);
    case 'array':
      return arrayValue(schema, deeper);
    case 'integer':
      return numberValue(schema, true);
    case 'number':
      return numberValue(schema, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return stringValue(schema);
  }
}

/** The least a schema's type allows, built without looking deeper (the value once the budget or depth is spent). */
function cheapest(schema: Schema): unknown {
  const type = typesOf(schema).find((t) => t !== 'null') ?? inferredType(schema);
  if (type === 'object') return {};
  if (type === 'array') return [];
  if (type === 'integer' || type === 'number') return numberValue(schema, type === 'integer');
  if (type === 'boolean') return true;
  return stringValue(schema);
}

function inferredType(schema: Schema): string {
  if (typesOf(schema).includes('null')) return 'null';
  if (schema['properties'] !== undefined || schema['required'] !== undefined || schema['additionalProperties'] !== undefined) return 'object';
  if (schema['items'] !== undefined || schema['prefixItems'] !== undefined) return 'array';
  if (schema['minimum'] !== undefined || schema['maximum'] !== undefined || schema['multipleOf'] !== undefined) return 'number';
  return 'string';
}

/** Whether the schema's validator accepts `value` (a schema ajv cannot compile accepts every value). */
function accepts(schema: Schema, value: unknown): boolean {
  const validate = validatorOf(schema);
  return validate === undefined || validate(value);
}

/**
 * The merged schemas of a schema's `allOf` parts and of each of its `oneOf`/`anyOf` branches with its siblings, made
 * once per schema object: a merged schema is a new object, and the validator {@link accepts} compiles for it is kept
 * per object, so merging anew at every answer compiled the same validators again at every request (D885). What the
 * schema alone determines; no request learns anything here.
 */
const mergedParts = new WeakMap<Schema, Schema>();
const mergedBranches = { oneOf: new WeakMap<Schema, Map<unknown, Schema>>(), anyOf: new WeakMap<Schema, Map<unknown, Schema>>() };

/** `merge(rest, branch)` for a branch of `schema[key]`, `rest` being `schema` without `key`, kept per schema and branch. */
function mergedBranch(schema: Schema, key: 'oneOf' | 'anyOf', rest: Schema, branch: Schema): Schema {
  let byBranch = mergedBranches[key].get(schema);
  if (byBranch === undefined) mergedBranches[key].set(schema, (byBranch = new Map()));
  let found = byBranch.get(branch);
  if (found === undefined) byBranch.set(branch, (found = merge(rest, branch)));
  return found;
}

/** Two schemas as one (an `allOf`, or a `oneOf` branch with its siblings): object members merged, other keywords of `b` win. */
function merge(a: Schema, b: Schema): Schema {
  const out: Schema = { ...a, ...b };
  const shapeA = a['properties'] ?? a['required'];
  const shapeB = b['properties'] ?? b['required'];
  if (shapeA !== undefined || shapeB !== undefined) {
    const { properties, required } = objectShape({ allOf: [a, b] });
    out['properties'] = properties;
    out['required'] = required;
  }
  if (a['type'] !== undefined && b['type'] === undefined) out['type'] = a['type'];
  return out;
}

function objectValue(schema: Schema, mode: Mode): Record<string, unknown> {
  const { properties, required } = objectShape(schema);
  const out: Record<string, unknown> = {};
  for (const [name, sub] of Object.entries(properties)) {
    if ((sub as unknown) === false || (!mode.optional && !required.includes(name))) continue;
    out[name] = generate(sub, mode);
  }
  for (const name of required) if (!(name in out)) out[name] = 'value';
  const minimum = typeof schema['minProperties'] === 'number' ? schema['minProperties'] : 0;
  const extra = schema['additionalProperties'];
  for (let i = 0; Object.keys(out).length < minimum && extra !== false && i < minimum; i++) {
    out[`extra${i}`] = typeof extra === 'object' && extra !== null ? generate(extra as Schema, mode) : 'value';
  }
  return out;
}

function arrayValue(schema: Schema, mode: Mode): unknown[] {
  const prefix = Array.isArray(schema['prefixItems']) ? (schema['prefixItems'] as Schema[]).map((item) => generate(item, mode)) : [];
  const items = typeof schema['items'] === 'object' && schema['items'] !== null ? (schema['items'] as Schema) : undefined;
  // One item shows the item's shape; once deep, only the items the schema requires (a recursion through `items` closes).
  const count = Math.max(typeof schema['minItems'] === 'number' ? schema['minItems'] : items === undefined || mode.depth > MAX_DEPTH ? 0 : 1, prefix.length);
  const out = [...prefix];
  if (items === undefined) {
    while (out.length < count) out.push(out.length);
    return out;
  }
  const options = Array.isArray(items['enum']) ? (items['enum'] as unknown[]) : undefined;
  // An item shown only to show the shape, where no item the schema builds is valid (an object `type` beside an `enum`
  // of texts): the list is shown empty instead, which its schema admits (D894).
  if (typeof schema['minItems'] !== 'number' && count === 1 && out.length === 0) {
    const value = generate(items, mode);
    return accepts(items, value) ? [value] : [];
  }
  for (let i = out.length; i < count; i++) {
    if (options !== undefined && schema['uniqueItems'] === true) out.push(options[i % options.length]);
    else {
      const value = generate(items, mode);
      // Distinct items where uniqueness is asked: numbers step, strings take a suffix.
      out.push(schema['uniqueItems'] === true && i > 0 ? varied(value, i) : value);
    }
  }
  return out;
}

function varied(value: unknown, i: number): unknown {
  if (typeof value === 'number') return value + i;
  if (typeof value === 'string') return `${value}${i}`;
  return value;
}

function numberValue(schema: Schema, integer: boolean): number {
  const num = (key: string): number | undefined => (typeof schema[key] === 'number' ? (schema[key] as number) : undefined);
  const step = num('multipleOf') ?? (integer ? 1 : undefined);
  const exclusiveMin = num('exclusiveMinimum');
  const exclusiveMax = num('exclusiveMaximum');
  let low = num('minimum') ?? (exclusiveMin === undefined ? undefined : exclusiveMin + (step ?? 1));
  const high = num('maximum') ?? (exclusiveMax === undefined ? undefined : exclusiveMax - (step ?? 1));
  if (low === undefined) low = high !== undefined && high < 1 ? high : 1;
  let value = step === undefined ? low : Math.ceil(low / step) * step;
  if (exclusiveMin !== undefined && value <= exclusiveMin) value += step ?? 1;
  return integer ? Math.round(value) : value;
}

/** Strings by format, each one a value ajv-formats accepts. */
const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '2024-01-01T00:00:00Z',
  date: '2024-01-01',
  time: '00:00:00Z',
  duration: 'P1D',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uri: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  iri: 'https://example.com/',
  'iri-reference': 'https://example.com/',
  url: 'https://example.com/',
  'uri-template': 'https://example.com/{id}',
  uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  'json-pointer': '/value',
  'relative-json-pointer': '0',
  regex: '^value$',
  byte: 'dmFsdWU=',
  binary: 'value',
  password: 'password',
  int64: '1',
  decimal: '1.5',
  int32: '1',
};

function stringValue(schema: Schema): string {
  const min = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0;
  const max = typeof schema['maxLength'] === 'number' ? schema['maxLength'] : Infinity;
  const fits = (s: string): boolean => [...s].length >= min && [...s].length <= max;
  if (typeof schema['pattern'] === 'string') {
    const drawn = matching(schema['pattern'], min, max);
    if (drawn !== undefined) return drawn;
  }
  const format = typeof schema['format'] === 'string' ? FORMAT_SAMPLES[schema['format']] : undefined;
  if (format !== undefined && fits(format)) return format;
  let text = 'string';
  if (text.length < min) text = text.padEnd(min, 'x');
  return max < text.length ? text.slice(0, max) : text;
}

/**
 * A string matching an ECMA-262 `pattern` (with the `u` flag where it compiles so, else without) of `min` to
 * `max` characters, drawn by fast-check from a fixed seed so every start serves the same value, once per pattern
 * and bounds; `undefined` when fast-check cannot read the pattern or draws nothing of the length asked.
 */
const matched = new Map<string, string | undefined>();

function matching(pattern: string, min: number, max: number): string | undefined {
  const key = `${min}:${max}:${pattern}`;
  if (!matched.has(key)) matched.set(key, draw(pattern, (s) => [...s].length >= min && [...s].length <= max));
  return matched.get(key);
}

function draw(pattern: string, fits: (s: string) => boolean): string | undefined {
  const regex = regexOf(pattern);
  if (regex === undefined) return undefined;
  // Word boundaries (`\b`, `\B`) are zero-width: without them the pattern draws a superset, checked against the original.
  const drawers = [regex, regexOf(pattern.replace(/\\[bB]/g, ''))];
  for (const drawer of drawers) {
    if (drawer === undefined) continue;
    try {
      const found = fc.sample(stringMatching(drawer), { seed: 42, numRuns: 40 }).find((s) => regex.test(s) && fits(s));
      if (found !== undefined) return found;
    } catch {
      // fast-check cannot read this pattern: the next drawer, or no value.
    }
  }
  return undefined;
}

/** The pattern as ECMA-262 reads it, with the `u` flag where it compiles so, else without; `undefined` when it does not compile. */
function regexOf(pattern: string): RegExp | undefined {
  try {
    return patternRegExp(pattern);
  } catch {
    // Valid in neither mode: no value drawn from it.
    return undefined;
  }
}

/** The version text a member named as a version is sampled with (D437). */
export const SAMPLE_VERSION = '1.0.0';

/**
 * openapi-sampler's value with its `"string"` placeholders read as the schema means them (spec/DECISIONS.md › D437):
 * a plain string member named as a version (`version`, `apiVersion`; no enum, pattern or format) is a version text
 * rather than `"string"`, which a client would read as a version and warn about. Made-up map entries are dropped
 * before, by {@link withoutPlaceholders} (D391).
 */
function withVersionTexts(schema: Schema, value: unknown, name?: string): unknown {
  if (Array.isArray(value)) {
    const items = typeof schema['items'] === 'object' && schema['items'] !== null && !Array.isArray(schema['items']) ? (schema['items'] as Schema) : undefined;
    return items === undefined ? value : value.map((item) => withVersionTexts(items, item));
  }
  if (value !== null && typeof value === 'object') {
    const { properties } = objectShape(schema);
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
      const sub = properties[key];
      out[key] = sub === undefined || typeof sub !== 'object' ? member : withVersionTexts(sub, member, key);
    }
    return out;
  }
  if (value === 'string' && name !== undefined && /version$/i.test(name) && schema['enum'] === undefined && schema['pattern'] === undefined && schema['format'] === undefined) return SAMPLE_VERSION;
  return value;
}
