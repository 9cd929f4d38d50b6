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
  'unknown-keyword': 'schema keywords neither JSON Schema nor OpenAPI defines (and not `x-`), ignored',
} as const;

/** One of {@link LENIENT_KINDS}. */
export type LenientKind = keyof typeof LENIENT_KINDS;

/** How many schema objects showed each kind of flaw, for one start-up line per kind. */
export type LenientTally = Map<LenientKind, number>;

/** Adds one to `kind` in `tally`. */
export function countKind(tally: LenientTally, kind: LenientKind): void {
  tally.set(kind, (tally.get(kind) ?? 0) + 1);
}

/** One start-up line per kind met, with its count: `3 schemas: OpenAPI 3.0's nullable in a 3.1 schema, …`. */
export function lenientNotes(tally: ReadonlyMap<LenientKind, number>): string[] {
  return [...tally].map(([kind, count]) => `${count} schema${count === 1 ? '' : 's'}: ${LENIENT_KINDS[kind]} (D130)`);
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
  if (typeof schema['exclusiveMinimum'] === 'boolean' || typeof schema['exclusiveMaximum'] === 'boolean') {
    if (!openapi30) countKind(tally, 'boolean-exclusive-in-3.1');
    exclusiveBounds(schema);
  } else if (openapi30 && (typeof schema['exclusiveMinimum'] === 'number' || typeof schema['exclusiveMaximum'] === 'number')) countKind(tally, 'numeric-exclusive-in-3.0');
  if (schema['examples'] !== undefined && !Array.isArray(schema['examples'])) {
    countKind(tally, 'examples-not-a-list');
    schema['examples'] = [schema['examples']];
  } else if (openapi30 && Array.isArray(schema['examples'])) countKind(tally, 'examples-in-3.0');
  if (Object.keys(schema).some((key) => !KNOWN_KEYWORDS.has(key) && !key.startsWith('x-'))) countKind(tally, 'unknown-keyword');
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
