import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * A JSON Schema as the model holds it: OpenAPI 3.1's dialect (2020-12), after `$ref` resolution and after an
 * OpenAPI 3.0 schema has been rewritten into it ({@link toJsonSchema}). Kept loose on purpose: a user's spec may
 * use any keyword, and the model reads only the ones it understands.
 */
export type Schema = { [keyword: string]: unknown };

/** Bounds of the int64 format (seed, Resources: `id` and `categoryId` are int64). */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/**
 * The one ajv set-up both halves use: 2020-12, every error reported, unknown keywords and formats tolerated
 * (a user's spec may carry `x-` keywords or formats ajv does not know), OpenAPI's `int32`/`int64` formats.
 *
 * `int64` is checked on the double ajv sees: an in-range literal never becomes a double beyond ±2^63, and the
 * exact parsers ({@link numberView}) move any out-of-range literal strictly beyond it, so the check is exact.
 * `validateSchema: false` skips compiling the 2020-12 meta-schema at every start (a fifth of the start-up);
 * a malformed keyword still fails to compile, and Spectral lints the shipped spec.
 */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false, discriminator: false });
  addFormats.default(ajv);
  ajv.addFormat('int64', { type: 'number', validate: (x: number) => x >= -(2 ** 63) && x <= 2 ** 63 });
  ajv.addFormat('int32', { type: 'number', validate: (x: number) => x >= -(2 ** 31) && x <= 2 ** 31 - 1 });
  for (const format of ['float', 'double', 'byte', 'binary', 'password']) ajv.addFormat(format, true);
  return ajv;
}

const TWO_63 = 2 ** 63;

/**
 * The double a JSON number literal stands for, for validation. Integer literals outside int64 that round to
 * exactly ±2^63 (as 2^63 itself does) are moved one step further out, so that the `int64` format refuses them
 * while every in-range literal (whose double is at most 2^63 in magnitude) passes.
 */
export function numberView(literal: string, exact: bigint | undefined): number {
  const value = Number(literal);
  if (exact === undefined || Math.abs(value) !== TWO_63 || (exact >= INT64_MIN && exact <= INT64_MAX)) return value;
  return value > 0 ? TWO_63 + 2048 : -TWO_63 - 2048;
}

/** One readable sentence from ajv errors: `body/categoryId must be integer; body/status must be one of: a, b`. */
export function describeErrors(errors: ErrorObject[] | null | undefined, prefix = ''): string {
  const sentences = (errors ?? []).flatMap((error) => {
    // `if`/`then` and the branches of `oneOf`/`anyOf` add a summary error after their details: the details say more.
    if (error.keyword === 'if' || error.keyword === 'anyOf' || error.keyword === 'oneOf') return [];
    const where = `${prefix}${error.instancePath}`;
    const params = error.params as Record<string, unknown>;
    let what = error.message ?? 'is invalid';
    if (error.keyword === 'enum') what = `must be one of: ${(params['allowedValues'] as unknown[]).map(String).join(', ')}`;
    else if (error.keyword === 'format' && (params['format'] === 'int64' || params['format'] === 'int32')) {
      what = params['format'] === 'int64' ? 'must be an int64 integer (from -9223372036854775808 to 9223372036854775807)' : 'must be an int32 integer';
    } else if (error.keyword === 'additionalProperties') what = `must not have the property ${JSON.stringify(params['additionalProperty'])}`;
    else if (error.keyword === 'required') what = `must have the property ${JSON.stringify(params['missingProperty'])}`;
    else if (error.keyword === 'false schema') what = 'must not be sent';
    return [where === '' ? what : `${where} ${what}`];
  });
  return [...new Set(sentences)].join('; ') || 'is invalid';
}

/** Each error that names a value (the summaries of `oneOf`/`anyOf`/`if` left out), by pointer; a missing property's own pointer. */
function issuesOf(errors: ErrorObject[] | null | undefined): { pointer: string; message: string }[] {
  return (errors ?? [])
    .filter((error) => error.keyword !== 'if' && error.keyword !== 'anyOf' && error.keyword !== 'oneOf')
    .map((error) => {
      const missing = error.keyword === 'required' ? (error.params as { missingProperty?: string }).missingProperty : undefined;
      const pointer = missing === undefined ? error.instancePath : `${error.instancePath}/${missing.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      return { pointer, message: describeErrors([{ ...error, instancePath: '' }]) };
    });
}

/** A compiled validator and the sentence for its last errors. */
export interface Validator {
  (value: unknown): boolean;
  errors: () => string;
  /** The last call's errors one by one: the JSON pointer (RFC 6901) of each refused value (a missing property's own pointer) and what is wrong with it. */
  issues: () => { pointer: string; message: string }[];
}

/** Compiles `schema`; errors come back as one sentence prefixed by `prefix` (`body`, `limit`). */
export function compile(ajv: Ajv2020, schema: Schema, prefix = ''): Validator {
  const validate: ValidateFunction = ajv.compile(schema);
  const check = ((value: unknown) => validate(value)) as Validator;
  check.errors = () => describeErrors(validate.errors, prefix);
  check.issues = () => issuesOf(validate.errors);
  return check;
}

/**
 * Rewrites an OpenAPI 3.0 schema into 2020-12 (OpenAPI 3.1's dialect): `nullable: true` becomes a `null` type or
 * enum member, boolean `exclusiveMinimum`/`exclusiveMaximum` become numbers, `example` is kept as an annotation.
 * A 3.1 schema is returned as is. Cycles (a recursive schema after dereferencing) become `{}` at the point
 * where they close: the model never recurses without end.
 */
export function toJsonSchema(schema: unknown, openapi30: boolean, seen = new Set<object>()): Schema {
  if (schema === true || schema === undefined) return {};
  if (schema === false) return { not: {} };
  if (typeof schema !== 'object' || schema === null) return {};
  if (seen.has(schema)) return {};
  seen.add(schema);
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' || key === 'patternProperties' || key === '$defs' || key === 'definitions' || key === 'dependentSchemas') {
      out[key] = Object.fromEntries(Object.entries(value as object).map(([name, sub]) => [name, toJsonSchema(sub, openapi30, seen)]));
    } else if (key === 'items' || key === 'additionalProperties' || key === 'not' || key === 'contains' || key === 'propertyNames' || key === 'if' || key === 'then' || key === 'else' || key === 'unevaluatedProperties' || key === 'unevaluatedItems') {
      out[key] = typeof value === 'boolean' ? value : Array.isArray(value) ? value.map((sub) => toJsonSchema(sub, openapi30, seen)) : toJsonSchema(value, openapi30, seen);
    } else if (key === 'allOf' || key === 'anyOf' || key === 'oneOf' || key === 'prefixItems') {
      out[key] = (value as unknown[]).map((sub) => toJsonSchema(sub, openapi30, seen));
    } else {
      out[key] = value;
    }
  }
  seen.delete(schema);
  if (openapi30) {
    if (out['exclusiveMinimum'] === true && typeof out['minimum'] === 'number') {
      out['exclusiveMinimum'] = out['minimum'];
      delete out['minimum'];
    } else if (typeof out['exclusiveMinimum'] === 'boolean') delete out['exclusiveMinimum'];
    if (out['exclusiveMaximum'] === true && typeof out['maximum'] === 'number') {
      out['exclusiveMaximum'] = out['maximum'];
      delete out['maximum'];
    } else if (typeof out['exclusiveMaximum'] === 'boolean') delete out['exclusiveMaximum'];
    if (out['nullable'] === true) {
      delete out['nullable'];
      if (typeof out['type'] === 'string') out['type'] = [out['type'], 'null'];
      if (Array.isArray(out['enum']) && !out['enum'].includes(null)) out['enum'] = [...out['enum'], null];
      if (out['type'] === undefined && out['enum'] === undefined) return { anyOf: [out, { type: 'null' }] };
    }
  }
  return out;
}

/** The types a schema allows (`type` as a string or a list), `[]` when it does not say. */
export function typesOf(schema: Schema): string[] {
  const type = schema['type'];
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  if (Array.isArray(schema['enum'])) return [...new Set((schema['enum'] as unknown[]).map(jsonType))];
  if (schema['const'] !== undefined) return [jsonType(schema['const'])];
  return [];
}

/** The JSON type of a value (`integer` for whole numbers). */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'bigint') return 'integer';
  return typeof value;
}

/** The main type of a schema, ignoring `null`: `integer`, `string`, …, or `undefined` when it does not say. */
export function mainType(schema: Schema): string | undefined {
  return typesOf(schema).find((type) => type !== 'null');
}

/** Whether the schema declares an int64 integer (seed: `format: int64`). */
export function isInt64(schema: Schema): boolean {
  return schema['format'] === 'int64' && (mainType(schema) === 'integer' || mainType(schema) === 'number');
}

/**
 * An object schema seen as one: its properties, required names and `additionalProperties`, with `allOf` merged
 * (the usual way to write "every field of NewPet plus `id`"). Properties named in several parts are merged
 * with `allOf` of their schemas.
 */
export interface ObjectShape {
  properties: Record<string, Schema>;
  required: string[];
  /** `false` when no other property is allowed; a schema (or `{}`) otherwise. */
  additional: Schema | false;
}

export function objectShape(schema: Schema): ObjectShape {
  const parts = [schema, ...((schema['allOf'] as Schema[] | undefined) ?? []).map((part) => objectShape(part))];
  const properties: Record<string, Schema> = {};
  const required = new Set<string>();
  let additional: Schema | false = {};
  for (const part of parts) {
    const props = ('properties' in part ? part.properties : {}) as Record<string, Schema>;
    for (const [name, sub] of Object.entries(props)) properties[name] = properties[name] === undefined ? sub : { allOf: [properties[name], sub] };
    for (const name of (('required' in part ? part.required : []) as string[]) ?? []) required.add(name);
    const extra = 'additional' in part ? part.additional : part['additionalProperties'];
    if (extra === false) additional = false;
    else if (typeof extra === 'object' && extra !== null && additional !== false && Object.keys(additional).length === 0) additional = extra as Schema;
  }
  return { properties, required: [...required], additional };
}

/** Whether a property schema (or an `allOf` of them) is marked `readOnly` / `writeOnly`. */
export function isMarked(schema: Schema, marker: 'readOnly' | 'writeOnly'): boolean {
  if (schema[marker] === true) return true;
  return ((schema['allOf'] as Schema[] | undefined) ?? []).some((part) => isMarked(part, marker));
}

/**
 * The schema as a request must satisfy it (OpenAPI: `readOnly` properties are never sent) or as a response must
 * (`writeOnly` properties are never returned): the marked properties are forbidden (`false`) and dropped from
 * `required`, at every depth. Other keywords are kept as they are.
 */
export function directionalView(schema: Schema, direction: 'request' | 'response', seen = new Map<Schema, Schema>(), inherited: ReadonlySet<string> = new Set()): Schema {
  const done = seen.get(schema);
  if (done !== undefined && inherited.size === 0) return done;
  const forbidden = direction === 'request' ? 'readOnly' : 'writeOnly';
  const out: Schema = { ...schema };
  if (inherited.size === 0) seen.set(schema, out);
  // Names marked anywhere in this object (its own properties or an `allOf` part) leave every part's `required`.
  const dropped = new Set([...inherited, ...Object.entries(objectShape(schema).properties).filter(([, sub]) => isMarked(sub, forbidden)).map(([name]) => name)]);
  const properties = schema['properties'] as Record<string, Schema> | undefined;
  if (properties !== undefined) {
    out['properties'] = Object.fromEntries(
      Object.entries(properties).map(([name, sub]) => [name, dropped.has(name) ? false : directionalView(sub, direction, seen)]),
    );
  }
  if (Array.isArray(schema['required'])) out['required'] = (schema['required'] as string[]).filter((name) => !dropped.has(name));
  if (Array.isArray(schema['allOf'])) out['allOf'] = (schema['allOf'] as Schema[]).map((sub) => directionalView(sub, direction, seen, dropped));
  for (const key of ['anyOf', 'oneOf', 'prefixItems'] as const) {
    if (Array.isArray(schema[key])) out[key] = (schema[key] as Schema[]).map((sub) => directionalView(sub, direction, seen));
  }
  for (const key of ['items', 'additionalProperties', 'not'] as const) {
    const sub = schema[key];
    if (typeof sub === 'object' && sub !== null && !Array.isArray(sub)) out[key] = directionalView(sub as Schema, direction, seen);
  }
  return out;
}

/** Whether a media type is JSON (`application/json`, `application/problem+json`, with or without parameters). */
export function isJsonMediaType(mediaType: string): boolean {
  return /^application\/(?:[\w.+-]+\+)?json(?:;|$)/i.test(mediaType);
}
