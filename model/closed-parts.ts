import type { Schema } from './schema-refs.js';

/**
 * Objects closed by `additionalProperties: false` and extended with `allOf`, read as their authors meant
 * (spec/DECISIONS.md › D920, D921; counted at start-up with D130's other lenient readings). `additionalProperties`
 * sees only the `properties` beside it, never a sibling's or a part's: written beside `allOf`, or inside one part of
 * an `allOf`, it forbids the members the other parts declare, even those they require, so that no object at all may
 * be valid. Each function takes one converted schema object (every `$ref` resolved, its subschemas converted) and
 * changes it in place, never a part it holds (parts are shared by every schema naming them): a part to change is
 * replaced by a copy.
 */

const isObject = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The names `schema`'s own `properties` declare. */
function ownNames(schema: Schema): string[] {
  return isObject(schema['properties']) ? Object.keys(schema['properties']) : [];
}

/** The schema each member name is first declared with, in `schema`'s `properties` and its `allOf` parts at any depth. */
function declaredSchemas(schema: unknown, into = new Map<string, unknown>(), seen = new Set<unknown>()): Map<string, unknown> {
  if (!isObject(schema) || seen.has(schema)) return into;
  seen.add(schema);
  if (isObject(schema['properties'])) for (const [name, sub] of Object.entries(schema['properties'])) if (!into.has(name)) into.set(name, sub);
  if (Array.isArray(schema['allOf'])) for (const part of schema['allOf'] as unknown[]) declaredSchemas(part, into, seen);
  return into;
}

/**
 * The member names a converted schema declares in its `properties`, with those of its `allOf` parts at any depth (a
 * cycle, already cut to `{}` by the converter, names none).
 */
function declaredNames(schema: unknown, into = new Set<string>(), seen = new Set<unknown>()): Set<string> {
  if (!isObject(schema) || seen.has(schema)) return into;
  seen.add(schema);
  for (const name of ownNames(schema)) into.add(name);
  if (Array.isArray(schema['allOf'])) for (const part of schema['allOf'] as unknown[]) declaredNames(part, into, seen);
  return into;
}

/** Whether `schema` admits a member `name` it does not declare: not when a `patternProperties` pattern matches it. */
function matchesPattern(schema: Schema, name: string): boolean {
  if (!isObject(schema['patternProperties'])) return false;
  return Object.keys(schema['patternProperties']).some((pattern) => {
    try {
      return new RegExp(pattern, 'u').test(name);
    } catch {
      return false;
    }
  });
}

/**
 * `additionalProperties: false` beside `properties` of its own and `allOf` parts declaring other members (shipengine.com's
 * paged lists: `{additionalProperties: false, properties: {images}, allOf: [{required: [total, page, pages, links],
 * …}]}`, which admits no body at all) is read as closed over its own members and the parts' (`unevaluatedProperties:
 * false`, said as {@link closeOver} says it), as D845 reads the same schema with no properties of its own (D920). A
 * schema whose parts declare nothing beyond its own members is left as written (both readings admit the same objects).
 * Whether it changed `schema`.
 */
export function closedBesideParts(schema: Schema): boolean {
  if (schema['additionalProperties'] !== false || schema['unevaluatedProperties'] !== undefined || !Array.isArray(schema['allOf']) || schema['allOf'].length === 0) return false;
  if (!isObject(schema['properties'])) return false;
  const own = new Set(ownNames(schema));
  const parts = new Set<string>();
  for (const part of schema['allOf'] as unknown[]) declaredNames(part, parts);
  if (![...parts].some((name) => !own.has(name) && !matchesPattern(schema, name))) return false;
  closeOver(schema, parts);
  return true;
}

/** Whether a converted schema or any of its `allOf` parts, at any depth, admits members by a pattern. */
function hasPatterns(schema: unknown, seen = new Set<unknown>()): boolean {
  if (!isObject(schema) || seen.has(schema)) return false;
  seen.add(schema);
  return isObject(schema['patternProperties']) || (Array.isArray(schema['allOf']) && (schema['allOf'] as unknown[]).some((part) => hasPatterns(part, seen)));
}

/**
 * Closes `schema` over its own members and `names`: each name it does not declare is added to its `properties`, with
 * the very schema a part declares it with (so that the merged view of the object, schema.ts › objectShape, reads it as
 * before), beside `additionalProperties: false`. This says what
 * `unevaluatedProperties: false` would, without it: a schema using that keyword is compiled whole, never in shared
 * parts (schema-refs.ts › compilable), which made the first answer of a large description's list take seconds. Where a
 * part admits members by a pattern, only `unevaluatedProperties` says it, and is used.
 */
function closeOver(schema: Schema, names: Iterable<string>): void {
  if (hasPatterns(schema)) {
    delete schema['additionalProperties'];
    schema['unevaluatedProperties'] = false;
    return;
  }
  const properties: Schema = { ...(isObject(schema['properties']) ? schema['properties'] : {}) };
  const declared = declaredSchemas(schema);
  for (const name of names) if (!Object.hasOwn(properties, name)) properties[name] = declared.get(name) ?? {};
  schema['properties'] = properties;
  schema['additionalProperties'] = false;
  delete schema['unevaluatedProperties'];
}

/** Whether a part closes itself: `additionalProperties: false` or `unevaluatedProperties: false` (D845, D920, or as written). */
function closesItself(schema: Schema): boolean {
  return schema['additionalProperties'] === false || schema['unevaluatedProperties'] === false;
}

/**
 * `part` with its closing taken off wherever it forbids a name of `outside` (the members declared beside it: the
 * holder's own and the other parts'), at any depth of its `allOf`: a copy where anything changed, else `part` itself.
 */
function opened(part: unknown, outside: ReadonlySet<string>): unknown {
  if (!isObject(part)) return part;
  const mine = declaredNames(part);
  if (![...outside].some((name) => !mine.has(name) && !matchesPattern(part, name))) return part;
  const copy: Schema = { ...part };
  let changed = false;
  if (closesItself(copy)) {
    if (copy['additionalProperties'] === false) delete copy['additionalProperties'];
    if (copy['unevaluatedProperties'] === false) delete copy['unevaluatedProperties'];
    changed = true;
  }
  if (Array.isArray(part['allOf'])) {
    const subs = part['allOf'] as unknown[];
    const next = subs.map((sub, index) => opened(sub, new Set([...outside, ...ownNames(part), ...subs.flatMap((other, at) => (at === index ? [] : [...declaredNames(other)]))])));
    if (next.some((sub, index) => sub !== subs[index])) {
      copy['allOf'] = next;
      changed = true;
    }
  }
  return changed ? copy : part;
}

/**
 * An `allOf` part closed by `additionalProperties: false` (or by D845's and D920's `unevaluatedProperties: false`)
 * beside other parts or properties declaring members it does not forbids those members, even where they are required
 * (shipengine.com's `{allOf: [{additionalProperties: false, properties: {carriers}, required: [carriers]},
 * {additionalProperties: false, properties: {errors, request_id}, required: [errors, request_id]}]}` admits no object).
 * Its authors meant one object of every part's members and no others, which is how the model's merged view of an
 * object (schema.ts › objectShape) already reads it: each such part is replaced by a copy without its closing, and
 * the schema holding the `allOf` is closed over every member instead ({@link closeOver}). Left as written
 * where the holder admits other members by a schema of its own (`additionalProperties: {…}`), or where no closed part
 * forbids a member declared beside it (D921). Whether it changed `schema`.
 */
export function liftClosedParts(schema: Schema): boolean {
  const parts = schema['allOf'];
  if (!Array.isArray(parts) || parts.length === 0) return false;
  if ((schema['additionalProperties'] !== undefined && schema['additionalProperties'] !== false) || (schema['unevaluatedProperties'] !== undefined && schema['unevaluatedProperties'] !== false)) return false;
  const own = ownNames(schema);
  const names = (parts as unknown[]).map((part) => declaredNames(part));
  const next = (parts as unknown[]).map((part, index) => opened(part, new Set([...own, ...names.flatMap((set, at) => (at === index ? [] : [...set]))])));
  if (next.every((part, index) => part === parts[index])) return false;
  schema['allOf'] = next;
  closeOver(schema, names.flatMap((set) => [...set]));
  return true;
}
