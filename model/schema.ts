import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { dropInvalidExamples, normaliseKeywords, type LenientKind, type LenientTally } from './lenient-schema.js';
import { childrenOf, compilable, type Schema } from './schema-refs.js';

export type { Schema } from './schema-refs.js';

/** Bounds of the int64 format (seed, Resources: `id` and `categoryId` are int64). */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** A decimal number's text: optional sign, digits with an optional fraction (`12`, `-0.5`, `.25`), an optional exponent. */
const DECIMAL_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * The one ajv set-up both halves use: 2020-12, every error reported, unknown keywords tolerated (a user's spec
 * may carry `x-` keywords), OpenAPI's `int32`/`int64` formats. Formats ajv does not know are registered as
 * "any value" by {@link acceptFormats} (the start-up log names them once); ajv itself logs nothing.
 *
 * `int64` is checked on the double ajv sees: an in-range literal never becomes a double beyond ±2^63, and the
 * exact parsers ({@link numberView}) move any out-of-range literal strictly beyond it, so the check is exact.
 * `validateSchema: false` skips compiling the 2020-12 meta-schema at every start (a fifth of the start-up);
 * the model leaves out the keywords no validator can compile ({@link SchemaConverter}), and Spectral lints the shipped spec.
 * Patterns compile as {@link patternRegExp} does: with the `u` flag when they can, without it otherwise.
 *
 * Compilation is most of a large description's start-up (spec/DECISIONS.md › D420): `inlineRefs: false` compiles
 * each `$ref` target (the parts {@link compilable} hoists) once, as a function its users call, instead of copying
 * its code into every schema that names it, and `code.optimize: false` skips ajv's passes over the generated code,
 * which cost as much as generating it. On GitHub's description the validators the mock compiles before its first
 * answer took about half the CPU time and a quarter of the memory; validating is as fast (bench/RESULTS.md).
 */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false, discriminator: false, logger: false, inlineRefs: false, code: { regExp: PATTERN_ENGINE, optimize: false } });
  addFormats.default(ajv);
  ajv.addFormat('int64', { type: 'number', validate: (x: number) => x >= -(2 ** 63) && x <= 2 ** 63 });
  ajv.addFormat('int32', { type: 'number', validate: (x: number) => x >= -(2 ** 31) && x <= 2 ** 31 - 1 });
  for (const format of ['float', 'double', 'byte', 'binary', 'password']) ajv.addFormat(format, true);
  // The OpenAPI Format Registry's `decimal` on a string: a number written in decimal digits (D321), so that a
  // made-up value is a number's text and not a word.
  ajv.addFormat('decimal', { type: 'string', validate: (text: string) => DECIMAL_TEXT.test(text) });
  // …and its `unix-time`: whole seconds since the epoch (D322).
  ajv.addFormat('unix-time', { type: 'number', validate: (seconds: number) => Number.isInteger(seconds) });
  return ajv;
}

/**
 * Registers each of `formats` that `ajv` does not know as accepting any value (OpenAPI: formats are open, a
 * tool ignores those it does not know). Returns the names it registered, sorted, for one line of the log.
 */
export function acceptFormats(ajv: Ajv2020, formats: Iterable<string>): string[] {
  const unknown = [...new Set(formats)].filter((format) => ajv.formats[format] === undefined).sort();
  for (const format of unknown) ajv.addFormat(format, true);
  return unknown;
}

/**
 * A spec's `pattern` as its author meant it (ECMA-262, JSON Schema › pattern): with the `u` flag when the pattern
 * is valid with it, else without (`^[a-zA-Z0-9_\-\:]+$`: identity escapes are valid only without `u`).
 * Errors: throws a `SyntaxError` when the pattern is valid in neither mode.
 */
export function patternRegExp(pattern: string): RegExp {
  const source = withoutNestedRepeat(pattern);
  try {
    return new RegExp(source, 'u');
  } catch {
    return new RegExp(source);
  }
}

/**
 * One repeated atom inside a repeated group (`([\/\w .-]*)*`, `(?:\d+)+`): the same strings as the group repeated once
 * (`(A*)*`, `(A+)*` and `(A*)+` match what `A*` matches, `(A+)+` what `A+` does), but a backtracking engine tries every
 * way to split a run of A between the two loops, so a string that fails to match takes exponential time: one such
 * `pattern` in a public description (a URL check) kept the mock from starting, and any request could hang it.
 */
const NESTED_REPEAT = /\((\?:)?(\[(?:[^\]\\]|\\.)*\]|\\[^\d]|[^()|*+?{}[\]\\^$])([*+])\)([*+])/g;

/** `pattern` with each {@link NESTED_REPEAT} made a single loop over its atom: the same language, linear to refuse (D341). */
function withoutNestedRepeat(pattern: string): string {
  return pattern.replace(NESTED_REPEAT, (_whole, group: string | undefined, atom: string, inner: string, outer: string) => `(${group ?? ''}${atom}${inner === '+' && outer === '+' ? '+' : '*'})`);
}

/** ajv's regular expression engine: {@link patternRegExp}, keeping the `u` ajv asks for when the pattern allows it. */
const PATTERN_ENGINE = Object.assign((pattern: string, flags: string) => (flags.includes('u') ? patternRegExp(pattern) : new RegExp(pattern, flags)), { code: 'patternRegExp' });

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
function describeErrors(errors: ErrorObject[] | null | undefined, prefix = ''): string {
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
function issuesOf(errors: ErrorObject[] | null | undefined, prefix = ''): { pointer: string; message: string; keyword: string }[] {
  return (errors ?? [])
    .filter((error) => error.keyword !== 'if' && error.keyword !== 'anyOf' && error.keyword !== 'oneOf')
    .map((error) => {
      const missing = error.keyword === 'required' ? (error.params as { missingProperty?: string }).missingProperty : undefined;
      const pointer = missing === undefined ? error.instancePath : `${error.instancePath}/${missing.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      return { pointer, message: describeErrors([error], prefix), keyword: error.keyword };
    });
}

/** A compiled validator and the sentence for its last errors. */
export interface Validator {
  (value: unknown): boolean;
  errors: () => string;
  /** The last call's errors one by one: the JSON pointer (RFC 6901) of each refused value (a missing property's own pointer), what is wrong with it, and the JSON Schema keyword it breaks (`minItems`). */
  issues: () => { pointer: string; message: string; keyword: string }[];
  /** Why the schema could not be compiled (D134), once a call tried: the validator then accepts every value. `undefined` otherwise. */
  failure: () => string | undefined;
}

/**
 * The schemas of one model that could not be compiled (D134): each reason once, and how many values were let
 * through unjudged, so that a suite check that met one is reported "not run" with the reason instead of a verdict.
 */
export interface SchemaFailures {
  reasons: Set<string>;
  uses: number;
  /** The reason of the last value let through unjudged. */
  last?: string | undefined;
}

/**
 * A validator of `schema`; errors come back as one sentence prefixed by `prefix` (`body`, `limit`). The schema
 * is compiled on the validator's first call, once: a spec of hundreds of operations starts without compiling
 * what no request uses, and ajv compiles an object it has seen (a schema shared by many operations) only once.
 * A schema the model built ({@link SchemaConverter}) holds only keywords of the right types, so compiling it mostly
 * succeeds; one that still cannot be compiled (a `$id` given twice, a keyword ajv refuses) accepts every value,
 * says why through `failure()`, and counts each value it let through in `track` (D134). Never throws for that.
 */
export function compile(ajv: Ajv2020, schema: Schema, prefix = '', track?: { failures: SchemaFailures; where: string }): Validator {
  // A boolean schema (`true`, `false`) is no WeakMap key (D783): it is compiled without being remembered.
  if (typeof schema === 'object' && schema !== null && !owners.has(schema)) owners.set(schema, ajv);
  let validate: ValidateFunction | undefined;
  let broken: string | undefined;
  // Set when the last value was refused before or outside ajv (too deep, the stack ran out): its one error.
  let refused: ErrorObject[] | undefined;
  const unjudged = (): true => {
    if (track !== undefined) {
      track.failures.uses++;
      track.failures.last = broken;
    }
    return true;
  };
  const check = ((value: unknown) => {
    refused = undefined;
    if (broken !== undefined) return unjudged();
    if (!withinDepth(value, MAX_VALUE_DEPTH)) {
      refused = [outsideError(`must not be nested deeper than ${MAX_VALUE_DEPTH} levels`)];
      return false;
    }
    try {
      if (validate === undefined) {
        try {
          validate = compiledIn(ajv, schema);
        } catch (error) {
          if (error instanceof RangeError) throw error;
          // A schema ajv cannot compile costs only its own judgement (D134): values pass unjudged, the reason is kept.
          broken = `${track === undefined ? '' : `${track.where}: `}the schema of ${prefix === '' ? 'a value' : prefix} cannot be compiled (${(error as Error).message})`;
          track?.failures.reasons.add(broken);
          return unjudged();
        }
      }
      return validate(value);
    } catch (error) {
      // A recursive schema meeting a deep value may still exhaust the stack: the value is refused, the process stays up.
      if (!(error instanceof RangeError)) throw error;
      refused = [outsideError('is too deeply nested to be checked')];
      return false;
    }
  }) as Validator;
  check.errors = () => describeErrors(refused ?? validate?.errors, prefix);
  check.issues = () => issuesOf(refused ?? validate?.errors, prefix);
  check.failure = () => broken;
  return check;
}

/** The ajv instance each schema object was first handed to {@link compile} with (a model's, as a rule). */
const owners = new WeakMap<Schema, Ajv2020>();
/** The compiled function of each schema object, per ajv instance: validators of one schema share one function. */
const compiledBy = new WeakMap<Ajv2020, WeakMap<Schema, ValidateFunction>>();

/**
 * The ajv instance that {@link compile} first met `schema` with, if any: a value made up for the schema
 * (model/samples.ts) is then checked by the function the model compiled, not by a second compilation of the same
 * schema in another instance (spec/DECISIONS.md › D420).
 */
export function ownerOf(schema: Schema): Ajv2020 | undefined {
  return owners.get(schema);
}

/** `schema` compiled by `ajv` once (the large ones in their hoisted form, {@link compilable}). Errors: what `ajv.compile` throws. */
function compiledIn(ajv: Ajv2020, schema: Schema): ValidateFunction {
  if (typeof schema !== 'object' || schema === null) return ajv.compile(schema);
  let byObject = compiledBy.get(ajv);
  if (byObject === undefined) compiledBy.set(ajv, (byObject = new WeakMap()));
  let found = byObject.get(schema);
  if (found === undefined) byObject.set(schema, (found = ajv.compile(compilable(ajv, schema))));
  return found;
}

/**
 * The deepest nesting of arrays and objects a validator looks into (spec/DECISIONS.md › D81): a deeper value is
 * refused before ajv sees it, since ajv's validator of a recursive schema recurses once per level of the value.
 * No JSON a real API exchanges comes close; the sample generator stays far below it.
 */
export const MAX_VALUE_DEPTH = 128;

/** Whether `value` nests arrays and objects at most `limit` levels deep (iterative: never itself runs out of stack). */
export function withinDepth(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return true;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > limit) return false;
    for (const child of Array.isArray(node) ? node : Object.values(node as object)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return true;
}

function outsideError(message: string): ErrorObject {
  return { keyword: 'maxDepth', instancePath: '', schemaPath: '#', params: {}, message };
}

/**
 * Rewrites an OpenAPI 3.0 schema into 2020-12 (OpenAPI 3.1's dialect): `nullable: true` becomes a `null` type or
 * enum member, boolean `exclusiveMinimum`/`exclusiveMaximum` become numbers, `example` is kept as an annotation.
 * A 3.1 schema keeps its keywords, but the 3.0 ones its authors wrote anyway are read the same way
 * ({@link normaliseKeywords}). Cycles (a recursive schema after dereferencing) become `{}` at the point
 * where they close: the model never recurses without end. One call, one conversion: see
 * {@link createSchemaConverter} to convert many schemas that share parts (and to read what was left out).
 */
export function toJsonSchema(schema: unknown, openapi30: boolean): Schema {
  return createSchemaConverter(openapi30)(schema);
}

/** A keyword of a spec's schema that no validator can compile, left out: the schema object holding it, the keyword, why. */
export interface SchemaProblem {
  /** The schema object as the spec holds it (before conversion), to find where it was written. */
  source: object;
  keyword: string;
  reason: string;
}

/**
 * Converts the schemas of one spec ({@link toJsonSchema}), each schema object once: a schema shared by many
 * operations (a `$ref` target) becomes one shared converted object, so its later views and ajv's compilation
 * (cached by object) are done once too. A cycle closes with `{}` where the conversion that met it first found it.
 * Records the `format` names it meets (`formats`) for {@link acceptFormats}. A keyword no validator can compile
 * (`type: file`, `required: true`, `minimum: "3"`, a `pattern` that is a regular expression in neither mode of
 * {@link patternRegExp}, a `$ref` left unresolved) is left out and recorded in `problems`, so that the schema
 * compiles (the validator then checks everything else), and the start-up log can say where.
 */
export interface SchemaConverter {
  (schema: unknown): Schema;
  readonly formats: ReadonlySet<string>;
  readonly problems: readonly SchemaProblem[];
  /** How many schema objects carried each kind of flaw read leniently ({@link normaliseKeywords}). */
  readonly lenient: ReadonlyMap<LenientKind, number>;
  /** The `example`/`examples` values left out because their own schema refuses them (D132): only when the converter was given an ajv to check them with. */
  readonly invalidExamples: readonly InvalidExample[];
}

/** A schema example its own schema refuses: the schema object as the spec holds it, and the value. */
export interface InvalidExample {
  source: object;
  value: unknown;
}

/**
 * Whether `value` satisfies `schema` (compiled once per schema object in `ajv`); `true` when the schema cannot be
 * compiled, since then nothing says the example is wrong.
 */
function exampleFits(ajv: Ajv2020, schema: Schema, value: unknown, validators: Map<string, Validator>): boolean {
  // Leaf schemas differ mostly by their annotations: one validator per set of constraints (`{type: string}`) keeps the start fast.
  const constraints = Object.fromEntries(Object.entries(schema).filter(([key]) => !ANNOTATION_KEYWORDS.has(key) && !key.startsWith('x-')));
  const key = JSON.stringify(constraints);
  let validate = validators.get(key);
  if (validate === undefined) validators.set(key, (validate = compile(ajv, constraints)));
  try {
    return validate(value);
  } catch {
    return true;
  }
}

const ANNOTATION_KEYWORDS: ReadonlySet<string> = new Set(['title', 'description', 'example', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly', '$comment', 'externalDocs', 'xml']);

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const NUMBER_KEYWORDS = new Set(['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'multipleOf', 'minContains', 'maxContains']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_MEMBERS = new Set(['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else', 'unevaluatedProperties', 'unevaluatedItems']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

export function createSchemaConverter(openapi30: boolean, examplesAjv?: Ajv2020): SchemaConverter {
  const done = new WeakMap<object, Schema>();
  const active = new Set<object>();
  const formats = new Set<string>();
  const problems: SchemaProblem[] = [];
  const lenient: LenientTally = new Map();
  const invalidExamples: InvalidExample[] = [];
  const exampleValidators = new Map<string, Validator>();
  const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null && !Array.isArray(value);
  const isSchema = (value: unknown): boolean => typeof value === 'boolean' || isObject(value);
  const isPattern = (pattern: string): boolean => {
    try {
      patternRegExp(pattern);
      return true;
    } catch {
      return false;
    }
  };

  const convert = (schema: unknown): Schema => {
    if (schema === true || schema === undefined) return {};
    if (schema === false) return { not: {} };
    if (!isObject(schema)) return {};
    const cached = done.get(schema);
    if (cached !== undefined) return cached;
    if (active.has(schema)) return {};
    active.add(schema);
    const leftOut = (keyword: string, reason: string): void => void problems.push({ source: schema, keyword, reason });
    let out: Schema = {};
    for (const [key, value] of Object.entries(schema)) {
      if (SCHEMA_MAPS.has(key)) {
        if (!isObject(value)) {
          leftOut(key, 'must be an object of schemas');
          continue;
        }
        const entries = Object.entries(value).filter(([name]) => {
          if (key !== 'patternProperties' || isPattern(name)) return true;
          leftOut(key, `has a name that is no regular expression: ${JSON.stringify(name)}`);
          return false;
        });
        out[key] = Object.fromEntries(entries.map(([name, sub]) => [name, convert(sub)]));
      } else if (SCHEMA_MEMBERS.has(key)) {
        if (key === 'items' && Array.isArray(value)) out['prefixItems'] = value.map((sub) => convert(sub));
        else if (!isSchema(value)) leftOut(key, 'must be a schema (an object or a boolean)');
        else out[key] = typeof value === 'boolean' ? value : convert(value);
      } else if (SCHEMA_LISTS.has(key)) {
        if (!Array.isArray(value)) leftOut(key, 'must be an array of schemas');
        else out[key] = value.map((sub) => convert(sub));
      } else if (key === 'type' && !(typeof value === 'string' ? JSON_TYPES.has(value) : Array.isArray(value) && value.every((t) => typeof t === 'string' && JSON_TYPES.has(t)))) {
        leftOut(key, `must be a JSON type (${[...JSON_TYPES].join(', ')}) or a list of them, not ${JSON.stringify(value)}`);
        const known = Array.isArray(value) ? value.filter((t) => typeof t === 'string' && JSON_TYPES.has(t)) : [];
        if (known.length > 0) out[key] = known;
      } else if ((key === 'required' || key === 'enum') && !Array.isArray(value)) {
        leftOut(key, `must be an array, not ${JSON.stringify(value)}`);
      } else if (NUMBER_KEYWORDS.has(key) && typeof value !== 'number') {
        leftOut(key, `must be a number, not ${JSON.stringify(value)}`);
      } else if (key === 'pattern' && (typeof value !== 'string' || !isPattern(value))) {
        leftOut(key, typeof value !== 'string' ? `must be a string, not ${JSON.stringify(value)}` : `is not a regular expression (ECMA-262, with or without the u flag): ${JSON.stringify(value)}`);
      } else if (key === '$schema' || key === '$id') {
        // A dialect or base URI of its own means nothing once every `$ref` is resolved, and ajv refuses a dialect it
        // does not hold (draft-04) or an `$id` given twice: left out, the rest of the schema applies.
        continue;
      } else if (key === '$ref' && typeof value === 'string') {
        leftOut(key, `does not resolve: ${JSON.stringify(value)}`);
      } else {
        if (key === 'format' && typeof value === 'string') formats.add(value);
        out[key] = value;
      }
    }
    out = normaliseKeywords(out, openapi30, lenient);
    // Only a schema without subschemas is compiled for its examples at load (cheap); a larger one's examples are checked where used (samples.ts).
    if (examplesAjv !== undefined && childrenOf(out).length === 0) {
      for (const value of dropInvalidExamples(out, (candidate) => exampleFits(examplesAjv, out, candidate, exampleValidators))) invalidExamples.push({ source: schema, value });
    }
    for (const bound of ['exclusiveMinimum', 'exclusiveMaximum']) {
      if (out[bound] !== undefined && typeof out[bound] !== 'number') {
        leftOut(bound, `must be a number, not ${JSON.stringify(out[bound])}`);
        delete out[bound];
      }
    }
    active.delete(schema);
    done.set(schema, out);
    return out;
  };
  return Object.assign(convert, { formats, problems, lenient, invalidExamples });
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

/**
 * The JSON types a schema admits, read through composition: its `type` (or `enum`/`const`), else its `allOf` parts'
 * (the first that says), else the union of its `oneOf`/`anyOf` branches' (`[]` when one of them does not say), else
 * `object` for a schema with `properties` and `array` for one with `items`; `[]` when nothing says.
 */
export function admittedTypes(schema: Schema): string[] {
  const own = typesOf(schema);
  if (own.length > 0) return own;
  for (const part of Array.isArray(schema['allOf']) ? (schema['allOf'] as Schema[]) : []) {
    const types = typeof part === 'object' && part !== null ? admittedTypes(part) : [];
    if (types.length > 0) return types;
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (!Array.isArray(schema[key])) continue;
    const branches = (schema[key] as Schema[]).map((branch) => (typeof branch === 'object' && branch !== null ? admittedTypes(branch) : []));
    return branches.some((types) => types.length === 0) ? [] : [...new Set(branches.flat())];
  }
  if (typeof schema['properties'] === 'object') return ['object'];
  return typeof schema['items'] === 'object' ? ['array'] : [];
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
 * with `allOf` of their schemas (one schema named twice, as D920 and D921 close an object over its parts', is itself).
 */
export interface ObjectShape {
  properties: Record<string, Schema>;
  required: string[];
  /** `false` when no other property is allowed; a schema (or `{}`) otherwise. */
  additional: Schema | false;
}

export function objectShape(schema: Schema): ObjectShape {
  // A boolean schema (`false` for a `readOnly` member of a request view, D783, merged with another part below) names
  // no member: `true` adds nothing, and `false`, which nothing satisfies, has no members to list.
  if (typeof schema !== 'object' || schema === null) return { properties: {}, required: [], additional: {} };
  const parts = [schema, ...((schema['allOf'] as Schema[] | undefined) ?? []).map((part) => objectShape(part))];
  const properties: Record<string, Schema> = {};
  const required = new Set<string>();
  let additional: Schema | false = {};
  for (const part of parts) {
    const props = ('properties' in part ? part.properties : {}) as Record<string, Schema>;
    for (const [name, sub] of Object.entries(props)) properties[name] = properties[name] === undefined || properties[name] === sub ? sub : { allOf: [properties[name], sub] };
    for (const name of (('required' in part ? part.required : []) as string[]) ?? []) required.add(name);
    // `unevaluatedProperties: false` closes the object over every part's members, as this merged view does (D845).
    const extra = 'additional' in part ? part.additional : part['unevaluatedProperties'] === false ? false : part['additionalProperties'];
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
