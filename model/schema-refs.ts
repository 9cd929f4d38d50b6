import type { Ajv2020 } from 'ajv/dist/2020.js';

/**
 * A JSON Schema as the model holds it: OpenAPI 3.1's dialect (2020-12), after `$ref` resolution and after an
 * OpenAPI 3.0 schema has been rewritten into it (schema.ts › toJsonSchema). Kept loose on purpose: a user's spec
 * may use any keyword, and the model reads only the ones it understands. Defined here, under the walk over schemas
 * that schema.ts compiles with, and named everywhere else through schema.ts.
 */
export type Schema = { [keyword: string]: unknown };

/**
 * Large schemas compiled in linear time (spec/DECISIONS.md › D80). The model resolves every `$ref` and cuts each
 * cycle with `{}` ({@link createSchemaConverter}), so a schema is a DAG whose shared parts are shared objects. ajv
 * inlines every subschema it meets without a `$ref`: compiled as it is, a DAG is compiled as the tree it unrolls
 * into, and a union that recurses through `oneOf` (a conversation item of forty kinds, each nesting the next)
 * unrolls into millions of nodes (minutes and gigabytes for one validator). Here a schema whose unrolled tree
 * exceeds {@link INLINE_LIMIT} nodes is rewritten before compiling: each part of {@link HOIST_SIZE} nodes or more
 * becomes `{ $ref: "urn:schema:N" }`, the part itself added to the ajv instance once under that `$id`, so every
 * part is compiled once per ajv instance, whatever the number of schemas (operations) sharing it.
 *
 * Small schemas (the seed's, most specs') are compiled as they are: their validators stay inlined (fastest).
 * Schemas using `unevaluatedProperties`/`unevaluatedItems` or `$dynamicRef` are left as they are too, since
 * what those keywords see across a `$ref` differs from what they see inline.
 */
export const INLINE_LIMIT = 500;
const HOIST_SIZE = 24;

const MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const MEMBERS = ['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else', 'unevaluatedProperties', 'unevaluatedItems'];
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
/** Keywords that give a part its own base URI or anchor: dropped from a copy, since nothing refers to them once the model resolved every `$ref`. */
const IDENTIFIERS = ['$id', '$schema', '$anchor', '$dynamicAnchor'];

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The schema objects directly under `schema` (its subschemas, in every keyword that holds them). */
export function childrenOf(schema: Schema): Schema[] {
  const out: Schema[] = [];
  for (const key of MAPS) if (isSchema(schema[key])) for (const sub of Object.values(schema[key] as Record<string, unknown>)) if (isSchema(sub)) out.push(sub);
  for (const key of MEMBERS) if (isSchema(schema[key])) out.push(schema[key] as Schema);
  for (const key of LISTS) if (Array.isArray(schema[key])) for (const sub of schema[key] as unknown[]) if (isSchema(sub)) out.push(sub);
  return out;
}

/**
 * Per ajv instance: the `$id` each hoisted part was added under, by object and by content. The model converts a
 * schema once per view and per use, so one description's part (an expandable object nested in hundreds of
 * responses) reaches ajv as many equal objects: keyed by object alone, each copy was added and compiled again, and
 * the compiled validators (kept by ajv for the process) grew with every operation the suite touched.
 */
interface Registry {
  byObject: WeakMap<Schema, string>;
  /** The written body of each part added (its `$ref`s naming parts already added), to its `$id`. */
  byContent: Map<string, string>;
}
const registries = new WeakMap<Ajv2020, Registry>();
const sizes = new WeakMap<Schema, number>();
const delicate = new WeakMap<Schema, boolean>();
let counter = 0;

/**
 * The number of nodes `schema` unrolls into as a tree (a double: it may be astronomic). Linear in the schema's
 * distinct objects, remembered per object. A part met again on its own path (a cycle some caller built) counts once.
 */
export function unrolledSize(schema: Schema, active = new Set<Schema>()): number {
  const known = sizes.get(schema);
  if (known !== undefined) return known;
  if (active.has(schema)) return 1;
  active.add(schema);
  let size = 1;
  for (const child of childrenOf(schema)) size += unrolledSize(child, active);
  active.delete(schema);
  sizes.set(schema, size);
  return size;
}

/** Whether a keyword whose meaning changes across a `$ref` appears anywhere under `schema`. */
function usesDelicateKeywords(schema: Schema, seen = new Set<Schema>()): boolean {
  const known = delicate.get(schema);
  if (known !== undefined) return known;
  if (seen.has(schema)) return false;
  seen.add(schema);
  const found = schema['unevaluatedProperties'] !== undefined || schema['unevaluatedItems'] !== undefined || schema['$dynamicRef'] !== undefined || childrenOf(schema).some((child) => usesDelicateKeywords(child, seen));
  delicate.set(schema, found);
  return found;
}

/** `schema` as ajv should compile it: itself when small (or delicate), else its `$ref` form (see above). */
export function compilable(ajv: Ajv2020, schema: Schema): Schema {
  if (unrolledSize(schema) <= INLINE_LIMIT || usesDelicateKeywords(schema)) return schema;
  let registry = registries.get(ajv);
  if (registry === undefined) registries.set(ajv, (registry = { byObject: new WeakMap(), byContent: new Map() }));
  return rewrite(ajv, registry, schema, new Set());
}

/** A copy of `schema` whose large parts (and any part met again on its own path) are `$ref`s to parts added to `ajv`. */
function rewrite(ajv: Ajv2020, registry: Registry, schema: Schema, active: Set<Schema>): Schema {
  active.add(schema);
  const part = (sub: unknown): unknown => {
    if (!isSchema(sub)) return sub;
    if (active.has(sub) || unrolledSize(sub) >= HOIST_SIZE) return { $ref: hoisted(ajv, registry, sub) };
    return rewrite(ajv, registry, sub, active);
  };
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (IDENTIFIERS.includes(key)) continue;
    if (MAPS.includes(key) && isSchema(value)) out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, part(sub)]));
    else if (MEMBERS.includes(key)) out[key] = part(value);
    else if (LISTS.includes(key) && Array.isArray(value)) out[key] = value.map(part);
    else out[key] = value;
  }
  active.delete(schema);
  return out;
}

/**
 * The `$id` of a part added to `ajv` (added on first use; its own large parts hoisted the same way). A part whose
 * written body equals one already added takes that one's `$id`: equal bodies validate alike, so it is compiled once.
 */
function hoisted(ajv: Ajv2020, registry: Registry, schema: Schema): string {
  const known = registry.byObject.get(schema);
  if (known !== undefined) return known;
  const id = `urn:schema:${++counter}`;
  // Registered before its body is written: a part that contains itself refers to its own `$id`.
  registry.byObject.set(schema, id);
  const body = rewrite(ajv, registry, schema, new Set([schema]));
  // A body that refers to this part's new `$id` (directly or through a part written just now) holds a name no
  // other body holds, so it never matches: only a body that does not need the new `$id` can take an older one.
  const key = contentKey(body);
  const same = key === undefined ? undefined : registry.byContent.get(key);
  if (same !== undefined) {
    registry.byObject.set(schema, same);
    return same;
  }
  if (key !== undefined) registry.byContent.set(key, id);
  ajv.addSchema({ ...body, $id: id });
  return id;
}

/**
 * The JSON text of a written part, as the key of its content; `undefined` when the part holds a value JSON does not
 * write faithfully (a bigint, an object of a class, `undefined`), since two such parts could differ unseen.
 */
function contentKey(body: Schema): string | undefined {
  let faithful = true;
  const text = JSON.stringify(body, (_key, value: unknown) => {
    if (value === undefined || typeof value === 'bigint' || typeof value === 'function' || typeof value === 'symbol') faithful = false;
    else if (typeof value === 'number' && !Number.isFinite(value)) faithful = false;
    else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const prototype = Object.getPrototypeOf(value) as unknown;
      if (prototype !== Object.prototype && prototype !== null) faithful = false;
    }
    return value;
  });
  return faithful ? text : undefined;
}
