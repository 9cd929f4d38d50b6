import { closedBesideParts, liftClosedParts } from './closed-parts.js';
import type { Schema } from './schema-refs.js';

/**
 * The kinds of flaw a real description carries that the model reads as its author meant (spec/DECISIONS.md ›
 * D130), each with the sentence the start-up log prints once beside its count.
 */
export const LENIENT_KINDS = {
  'nullable-in-3.1': "OpenAPI 3.0's `nullable` in a 3.1 schema, read as allowing null",
  'nullable-without-type': '`nullable: true` without `type` (beside anyOf/oneOf/allOf/$ref or alone), read as "this schema or null"',
  'boolean-exclusive-in-3.1': "OpenAPI 3.0's boolean `exclusiveMinimum`/`exclusiveMaximum` in a 3.1 schema, read as the 3.0 bound",
  'numeric-exclusive-in-3.0': "OpenAPI 3.1's numeric `exclusiveMinimum`/`exclusiveMaximum` in a 3.0 schema, read as the 3.1 bound",
  'examples-in-3.0': "JSON Schema's `examples` list in a 3.0 schema, read as examples",
  'examples-not-a-list': 'schema `examples` that is not a list, read as one example',
  'ref-with-siblings': '`$ref` beside other keywords (3.0 says to ignore them), read with them: the target and the siblings both apply',
  'examples-list': '`examples` of a media type, parameter or header written as a list, read as unnamed examples',
  'example-without-value': 'named examples holding the value itself instead of `value`, read as that value',
  'unknown-keyword': 'schema keywords neither JSON Schema nor OpenAPI defines (and not `x-`), ignored',
  'closed-beside-allof': '`additionalProperties: false` beside `allOf` with no `properties` of its own (which admits no member at all), read as closing the object over the parts\' members (`unevaluatedProperties: false`, D845)',
  'closed-beside-allof-parts': '`additionalProperties: false` beside `properties` of its own and `allOf` parts naming other members (which it forbids, though a part may require them), read as closing the object over its own and the parts\' members (D920)',
  'closed-allof-part': 'an `allOf` part closed by `additionalProperties: false` beside other parts or properties naming members it does not (which it forbids, though they may be required), read as closing the whole object over every part\'s members (D921)',
  'enum-of-another-type': "an `enum` none of whose values its own scalar `type` admits, read in that type where each converts exactly (`\"1\"` as 1, `true` as \"true\"), else left out",
  'required-not-allowed': '`required` naming a member that the same schema\'s `additionalProperties: false` forbids (named in no `properties` nor `patternProperties`), read as not required',
} as const;

/** One of {@link LENIENT_KINDS}. */
export type LenientKind = keyof typeof LENIENT_KINDS;

/** How many schema objects showed each kind of flaw, for one start-up line per kind. */
export type LenientTally = Map<LenientKind, number>;

/** Adds one to `kind` in `tally`. */
export function countKind(tally: LenientTally, kind: LenientKind): void {
  tally.set(kind, (tally.get(kind) ?? 0) + 1);
}

/** Kinds met outside a schema object (a `$ref`, an `examples` member): counted as places, not schemas. */
const PLACE_KINDS: ReadonlySet<LenientKind> = new Set(['ref-with-siblings', 'examples-list', 'example-without-value']);

/** One start-up line per kind met, with its count: `3 schemas: OpenAPI 3.0's nullable in a 3.1 schema, …`. */
export function lenientNotes(tally: ReadonlyMap<LenientKind, number>): string[] {
  return [...tally].map(([kind, count]) => `${count} ${PLACE_KINDS.has(kind) ? 'place' : 'schema'}${count === 1 ? '' : 's'}: ${LENIENT_KINDS[kind]} (D130)`);
}

/**
 * Every keyword JSON Schema 2020-12 (and draft 4 to 7, which 3.0 descends from) or OpenAPI's Schema Object
 * defines: any other (not `x-`) is an unknown keyword, counted and left for validators to ignore.
 */
const KNOWN_KEYWORDS: ReadonlySet<string> = new Set([
  '$schema', '$id', '$ref', '$anchor', '$dynamicRef', '$dynamicAnchor', '$defs', '$comment', '$vocabulary', '$recursiveRef', '$recursiveAnchor', 'definitions', 'id',
  'type', 'enum', 'const', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern',
  'maxItems', 'minItems', 'uniqueItems', 'maxContains', 'minContains', 'maxProperties', 'minProperties', 'required', 'dependentRequired', 'dependencies',
  'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas', 'prefixItems', 'items', 'additionalItems', 'contains', 'properties',
  'patternProperties', 'additionalProperties', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'format', 'contentEncoding', 'contentMediaType',
  'contentSchema', 'title', 'description', 'default', 'deprecated', 'readOnly', 'writeOnly', 'examples',
  'nullable', 'discriminator', 'xml', 'externalDocs', 'example',
]);

/**
 * One (already converted) schema object's version keywords in 2020-12 terms, whatever version its file says
 * (spec/DECISIONS.md › D130): `nullable: true` adds `null` to `type` (and to `enum`), or, without either, makes
 * the schema `anyOf: [schema, {type: null}]`; `nullable: false` is dropped; a boolean `exclusiveMinimum`/
 * `exclusiveMaximum` moves its `minimum`/`maximum` into a numeric one; an `examples` that is no list becomes a
 * list of its one value. Each kind met is counted once per schema object in `tally`. Returns the schema to use
 * (`schema` itself, changed in place, or a new `anyOf` around it).
 */
export function normaliseKeywords(schema: Schema, openapi30: boolean, tally: LenientTally): Schema {
  if (Array.isArray(schema['enum']) && typeof schema['type'] === 'string' && enumOfAnotherType(schema, schema['type'])) countKind(tally, 'enum-of-another-type');
  // Before `required` is read against the closed object: a name a part declares is allowed there once this reading holds.
  if (closedBesideParts(schema)) countKind(tally, 'closed-beside-allof-parts');
  if (schema['additionalProperties'] === false && Array.isArray(schema['required']) && requiredNotAllowed(schema)) countKind(tally, 'required-not-allowed');
  if (typeof schema['exclusiveMinimum'] === 'boolean' || typeof schema['exclusiveMaximum'] === 'boolean') {
    if (!openapi30) countKind(tally, 'boolean-exclusive-in-3.1');
    exclusiveBounds(schema);
  } else if (openapi30 && (typeof schema['exclusiveMinimum'] === 'number' || typeof schema['exclusiveMaximum'] === 'number')) countKind(tally, 'numeric-exclusive-in-3.0');
  if (schema['examples'] !== undefined && !Array.isArray(schema['examples'])) {
    countKind(tally, 'examples-not-a-list');
    schema['examples'] = [schema['examples']];
  } else if (openapi30 && Array.isArray(schema['examples'])) countKind(tally, 'examples-in-3.0');
  if (Object.keys(schema).some((key) => !KNOWN_KEYWORDS.has(key) && !key.startsWith('x-'))) countKind(tally, 'unknown-keyword');
  // `additionalProperties: false` sees only the properties beside it: with every member in `allOf` parts it admits
  // no member, not even a required one, so no body could be valid. Its authors meant the parts' members (D845).
  if (schema['additionalProperties'] === false && Array.isArray(schema['allOf']) && schema['allOf'].length > 0 && schema['properties'] === undefined && schema['patternProperties'] === undefined && schema['unevaluatedProperties'] === undefined) {
    countKind(tally, 'closed-beside-allof');
    delete schema['additionalProperties'];
    schema['unevaluatedProperties'] = false;
  }
  if (liftClosedParts(schema)) countKind(tally, 'closed-allof-part');
  if (!('nullable' in schema)) return schema;
  const nullable = schema['nullable'] === true;
  delete schema['nullable'];
  if (!openapi30) countKind(tally, 'nullable-in-3.1');
  if (!nullable) return schema;
  const type = schema['type'];
  if (typeof type === 'string') schema['type'] = type === 'null' ? type : [type, 'null'];
  else if (Array.isArray(type) && !type.includes('null')) schema['type'] = [...(type as unknown[]), 'null'];
  if (Array.isArray(schema['enum']) && !schema['enum'].includes(null)) schema['enum'] = [...(schema['enum'] as unknown[]), null];
  if (type !== undefined || schema['enum'] !== undefined) return schema;
  if (schema['const'] === null) return schema;
  countKind(tally, 'nullable-without-type');
  // An empty schema (any value) already admits null: the wrapper would only add a branch.
  if (Object.keys(schema).length === 0) return schema;
  // The markers and annotations stay readable on the wrapper (readOnly/writeOnly views, descriptions, examples).
  const annotations = Object.fromEntries(ANNOTATIONS.filter((key) => schema[key] !== undefined).map((key) => [key, schema[key]]));
  return { ...annotations, anyOf: [schema, { type: 'null' }] };
}

/** The JSON type a scalar value is, for an `enum` member (`integer` for a whole number). */
function scalarType(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/** `value` in the scalar `type` where it converts exactly (digits to a number, a boolean or number to its text, `"true"` to true), else `undefined`. */
function convertedTo(type: string, value: unknown): unknown {
  const kind = scalarType(value);
  if (kind === type || (kind === 'integer' && type === 'number') || kind === 'null') return value;
  if ((type === 'integer' || type === 'number') && typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) {
    const number = Number(value.trim());
    return type === 'integer' && !Number.isSafeInteger(number) ? undefined : number;
  }
  if (type === 'string' && (kind === 'boolean' || kind === 'integer' || kind === 'number')) return String(value);
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return undefined;
}

/**
 * An `enum` that its own scalar `type` refuses every value of (`type: integer` with `["1", "2"]`; `type: string`
 * with `[true, false]`; `type: integer` with `["0 (Unknown)", …]`) admits no value at all, so no answer or request
 * could be valid (D628): read in the type where every value converts exactly, else left out (the type stays).
 * Changes `schema` in place; whether it did.
 */
function enumOfAnotherType(schema: Schema, type: string): boolean {
  if (!['integer', 'number', 'string', 'boolean'].includes(type)) return false;
  const values = schema['enum'] as unknown[];
  if (values.every((value) => value === null) || values.some((value) => value !== null && convertedTo(type, value) === value)) return false;
  const converted = values.map((value) => convertedTo(type, value));
  if (converted.every((value) => value !== undefined)) schema['enum'] = converted;
  else delete schema['enum'];
  return true;
}

/**
 * A `required` name that the same schema object's `additionalProperties: false` forbids (named in no `properties`,
 * matching no `patternProperties` pattern) makes the schema admit no object at all (britbox.co.uk's
 * `EeValidatePinResponse` requires `validationStatus` and declares only `pinValid` and `trackingHeader`), so no
 * answer or request could be valid (spec/DECISIONS.md › D823): such names are read as not required, the others
 * stay. Changes `schema` in place; whether it did.
 */
function requiredNotAllowed(schema: Schema): boolean {
  const properties = schema['properties'];
  const named = typeof properties === 'object' && properties !== null && !Array.isArray(properties) ? new Set(Object.keys(properties)) : new Set<string>();
  const patterns = schema['patternProperties'];
  const matchers = typeof patterns === 'object' && patterns !== null && !Array.isArray(patterns) ? Object.keys(patterns).flatMap((pattern) => {
    try {
      return [new RegExp(pattern, 'u')];
    } catch {
      return [];
    }
  }) : [];
  const required = schema['required'] as unknown[];
  const allowed = required.filter((name) => typeof name !== 'string' || named.has(name) || matchers.some((matcher) => matcher.test(name)));
  if (allowed.length === required.length) return false;
  if (allowed.length === 0) delete schema['required'];
  else schema['required'] = allowed;
  return true;
}

const ANNOTATIONS = ['title', 'description', 'default', 'deprecated', 'readOnly', 'writeOnly', 'example', 'examples'] as const;

/** Boolean `exclusiveMinimum`/`exclusiveMaximum` (OpenAPI 3.0, or a 3.1 spec written the 3.0 way) as 2020-12 numbers. */
function exclusiveBounds(out: Schema): void {
  if (out['exclusiveMinimum'] === true && typeof out['minimum'] === 'number') {
    out['exclusiveMinimum'] = out['minimum'];
    delete out['minimum'];
  } else if (typeof out['exclusiveMinimum'] === 'boolean') delete out['exclusiveMinimum'];
  if (out['exclusiveMaximum'] === true && typeof out['maximum'] === 'number') {
    out['exclusiveMaximum'] = out['maximum'];
    delete out['maximum'];
  } else if (typeof out['exclusiveMaximum'] === 'boolean') delete out['exclusiveMaximum'];
}

/** Whether a schema admits `null` only (`type: null`, `enum: [null]`, `const: null`): the null branch of a nullable union. */
export function isNullOnly(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return false;
  const record = schema as Schema;
  const type = record['type'];
  if (type === 'null' || (Array.isArray(type) && type.length > 0 && type.every((t) => t === 'null'))) return true;
  if (Array.isArray(record['enum']) && record['enum'].length > 0 && record['enum'].every((v) => v === null)) return true;
  return 'const' in record && record['const'] === null;
}

/** Keywords that do not constrain a value: a nullable union's other branch may be read with them beside it. */
const NEUTRAL = new Set<string>(['title', 'description', 'default', 'deprecated', 'readOnly', 'writeOnly', 'example', 'examples', '$comment', 'discriminator']);

/**
 * The schema of a nullable union's non-null value (spec/DECISIONS.md › D131), where a type is needed and `null`
 * cannot be meant (a query, path or header parameter's text, a drawn value): `anyOf`/`oneOf` of one schema and
 * null-only branches (FastAPI's `anyOf: [{type: boolean}, {type: 'null'}]`) reads as that schema, with the
 * union's annotations beside it (a `default: null` left out); `type: [X, 'null']` reads as `type: X` (and `null`
 * leaves `enum`). Any other schema is returned as it is (the very object).
 */
export function withoutNull(schema: Schema): Schema {
  const type = schema['type'];
  if (Array.isArray(type) && type.includes('null') && type.some((t) => t !== 'null')) {
    const rest = type.filter((t) => t !== 'null');
    const out: Schema = { ...schema, type: rest.length === 1 ? rest[0] : rest };
    if (Array.isArray(schema['enum'])) out['enum'] = schema['enum'].filter((value) => value !== null);
    if (out['default'] === null) delete out['default'];
    return out;
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    const others = branches.filter((branch) => !isNullOnly(branch));
    const other = others[0];
    if (others.length !== 1 || others.length === branches.length || typeof other !== 'object' || other === null) continue;
    const around = Object.entries(schema).filter(([name, value]) => name !== key && !(name === 'default' && value === null));
    if (around.some(([name]) => !NEUTRAL.has(name) && !name.startsWith('x-'))) return schema;
    return { ...Object.fromEntries(around), ...withoutNull(other as Schema) };
  }
  return schema;
}

/**
 * Leaves out of `schema` (in place) each `example` and `examples` value `fits` refuses (spec/DECISIONS.md › D132):
 * an example that breaks its own schema is never served as data nor sent by the suite as a value. The `examples`
 * list is filtered in place, so views that share it (request and response views) lose the value too; a nullable
 * wrapper's own branch ({@link normaliseKeywords}) loses it alike. Returns the values left out.
 */
export function dropInvalidExamples(schema: Schema, fits: (value: unknown) => boolean): unknown[] {
  const dropped: unknown[] = [];
  const holders = [schema, ...(Array.isArray(schema['anyOf']) ? (schema['anyOf'] as unknown[]) : []).filter((part): part is Schema => typeof part === 'object' && part !== null && ('example' in part || 'examples' in part))];
  if (!('example' in schema) && !('examples' in schema)) return dropped;
  const verdicts = new Map<unknown, boolean>();
  const fitsOnce = (value: unknown): boolean => {
    if (!verdicts.has(value)) verdicts.set(value, fits(value));
    return verdicts.get(value)!;
  };
  for (const holder of holders) {
    if ('example' in holder && !fitsOnce(holder['example'])) {
      if (holder === schema) dropped.push(holder['example']);
      delete holder['example'];
    }
    const list = holder['examples'];
    if (!Array.isArray(list)) continue;
    for (let at = list.length - 1; at >= 0; at--) {
      if (fitsOnce(list[at])) continue;
      if (holder === schema) dropped.push(list[at]);
      list.splice(at, 1);
    }
    if (list.length === 0) delete holder['examples'];
  }
  return dropped;
}

/** The members of OpenAPI's Example Object: an entry holding none of them is the example's value itself. */
const EXAMPLE_FIELDS = ['value', 'externalValue', 'summary', 'description', 'dataValue', 'serializedValue', '$ref'];

/**
 * The examples of a media type, parameter or header (`examples`), as their authors meant them (D130): a map of
 * Example Objects gives each `value`; an entry holding none of the Example Object's members is the value itself
 * (`examples: {cat: {name: Tom}}`), and a list (`examples: [a, b]`, JSON Schema's way) gives unnamed values.
 * An entry with only an `externalValue` or a stream's `dataValue` gives nothing here. Each lenient reading is
 * counted once per `examples` member in `tally`.
 */
export function namedExamples(examples: unknown, tally: LenientTally): { name: string | undefined; value: unknown }[] {
  if (Array.isArray(examples)) {
    countKind(tally, 'examples-list');
    return examples.map((value) => ({ name: undefined, value }));
  }
  if (typeof examples !== 'object' || examples === null) return [];
  let bare = false;
  const out = Object.entries(examples).flatMap(([name, entry]) => {
    if (typeof entry === 'object' && entry !== null && !Array.isArray(entry) && EXAMPLE_FIELDS.some((field) => field in entry)) {
      return 'value' in entry ? [{ name, value: (entry as { value: unknown }).value }] : [];
    }
    bare = true;
    return [{ name, value: entry as unknown }];
  });
  if (bare) countKind(tally, 'example-without-value');
  return out;
}
