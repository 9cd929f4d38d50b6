import type { ParameterModel } from '../model/model.js';
import { INT64_MAX, INT64_MIN, type Schema } from '../model/schema.js';

/** A parameter's raw text turned into its schema's type and validated: the value, or why it is refused. */
export type Coerced = { ok: true; value: unknown } | { ok: false; message: string };

/** Turns one raw text (or, for an array parameter, every occurrence) into a validated value. */
export type Coercion = (raw: string | readonly string[]) => Coerced;

const INTEGER_TEXT = /^[+-]?\d+$/;
const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * The coercion of a query or path parameter (README › Resources): integers written in decimal digits only
 * (`1e1` and `1.0` are refused in a URL), int64 integers as exact `bigint` within [-2^63, 2^63-1], a path's
 * integer past 2^53 too (it names a record, D901), other integers and numbers as `number`, booleans as `true`/`false`, strings as they are; an array parameter takes
 * every occurrence (`?tag=a&tag=b`) with its items coerced alike. The value is then checked against the
 * parameter's schema (enum, bounds, pattern…). An array sent as one value (`explode: false`) is split at its
 * style's delimiter (`,`, space, `|`). Messages name the parameter: `limit must be <= 100, got 500`.
 */
export function compileCoercion(parameter: ParameterModel): Coercion {
  const name = parameter.name;
  if (parameter.type === 'array') {
    const items = (parameter.schema['items'] ?? {}) as Schema;
    const item = typeOf(items) === 'object' ? objectItem(name) : scalar(name, typeOf(items), items['format'] === 'int64');
    const delimiter = parameter.delimiter;
    return (raw) => {
      const values: unknown[] = [];
      const texts = typeof raw === 'string' ? [raw] : raw;
      // `explode: false` (`?status=available,sold`): one value holds every item, split at the style's delimiter.
      for (const text of delimiter === undefined ? texts : texts.flatMap((one) => (one === '' ? [] : one.split(delimiter)))) {
        const coerced = item(text);
        if (!coerced.ok) return coerced;
        values.push(coerced.value);
      }
      return checked(parameter, values, JSON.stringify(raw));
    };
  }
  // A value of several shapes (`anyOf: [range object, integer]`) is read as the first scalar branch type its text
  // is, and the schema judges the result (D329): `created=1700000000` is the integer, not its text.
  const branchTypes = parameter.type === undefined ? unionScalarTypes(parameter.schema) : [];
  if (branchTypes.length > 0) {
    const readers = branchTypes.map((type) => scalar(name, type, false));
    return (raw) => {
      const text = typeof raw === 'string' ? raw : (raw[0] ?? '');
      for (const read of readers) {
        const coerced = read(text);
        if (!coerced.ok) continue;
        const judged = checked(parameter, coerced.value, JSON.stringify(text));
        if (judged.ok) return judged;
      }
      return checked(parameter, text, JSON.stringify(text));
    };
  }
  // A path segment names a record: an integer key past 2^53 (one the mock counted up from an example's id there) is
  // read exactly, as an int64 is, or it would name the record a double rounds it to (D901).
  const one = scalar(name, parameter.type, parameter.int64, parameter.in === 'path');
  return (raw) => {
    const text = typeof raw === 'string' ? raw : (raw[0] ?? '');
    const coerced = one(text);
    if (!coerced.ok) return coerced;
    // int64 bounds are already exact on the bigint; the schema's other keywords see the double.
    return checked(parameter, coerced.value, typeof coerced.value === 'string' ? JSON.stringify(text) : text);
  };
}

/** The scalar types (integer, number, boolean, in that order) of a schema's `anyOf`/`oneOf` branches; empty when none. */
function unionScalarTypes(schema: Schema): string[] {
  const branches = (['anyOf', 'oneOf'] as const).flatMap((key) => (Array.isArray(schema[key]) ? (schema[key] as Schema[]) : []));
  const types = new Set(branches.filter((branch) => typeof branch === 'object' && branch !== null).map(typeOf));
  return ['integer', 'number', 'boolean'].filter((type) => types.has(type));
}

function typeOf(schema: Schema): string | undefined {
  const type = schema['type'];
  return typeof type === 'string' ? type : Array.isArray(type) ? (type.find((t) => t !== 'null') as string | undefined) : undefined;
}

function scalar(name: string, type: string | undefined, int64: boolean, exact = false): (text: string) => Coerced {
  if (type === 'integer') {
    return (text) => {
      if (!INTEGER_TEXT.test(text)) return { ok: false, message: `${name} must be an integer, got ${JSON.stringify(text)}` };
      if (int64) {
        const exact = BigInt(text);
        if (exact < INT64_MIN || exact > INT64_MAX) return { ok: false, message: `${name} must be an int64 integer, got ${text}` };
        return { ok: true, value: exact };
      }
      // At most 15 characters (sign and 14 digits) is exact as a double, no BigInt needed; `+ 0` turns -0 into 0.
      if (text.length <= 15) return { ok: true, value: Number(text) + 0 };
      const whole = BigInt(text);
      // With `exact`, an integer a double cannot hold but an int64 can stays a bigint; else it is the double.
      return { ok: true, value: exact && !Number.isSafeInteger(Number(whole)) && whole >= INT64_MIN && whole <= INT64_MAX ? whole : Number(whole) };
    };
  }
  if (type === 'number') {
    return (text) => (NUMBER_TEXT.test(text) ? { ok: true, value: Number(text) + 0 } : { ok: false, message: `${name} must be a number, got ${JSON.stringify(text)}` });
  }
  if (type === 'boolean') {
    return (text) => (text === 'true' ? { ok: true, value: true } : text === 'false' ? { ok: true, value: false } : { ok: false, message: `${name} must be true or false, got ${JSON.stringify(text)}` });
  }
  return (text) => ({ ok: true, value: text });
}

/**
 * The reading of an object item of a list parameter (`timeline: {type: array, items: {type: object}}`): such an item
 * has no form of its own in a query (OpenAPI's styles serialise scalars and one level of members), so it travels as
 * its JSON text, as the suite sends it, and is read back as that object (D725). Other text is refused.
 */
function objectItem(name: string): (text: string) => Coerced {
  const refused = (text: string): Coerced => ({ ok: false, message: `${name} must hold JSON objects, got ${JSON.stringify(text)}` });
  return (text) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return refused(text);
    }
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? { ok: true, value } : refused(text);
  };
}

function checked(parameter: ParameterModel, value: unknown, shown: string): Coerced {
  const view = typeof value === 'bigint' ? Number(value) : Array.isArray(value) ? value.map((item: unknown) => (typeof item === 'bigint' ? Number(item) : item)) : value;
  if (parameter.validate(view)) return { ok: true, value };
  return { ok: false, message: `${parameter.validate.errors()}, got ${shown}` };
}

/**
 * The object a `style: deepObject` query parameter sends as `name[member]=value` pairs (OpenAPI 3 § Style Values,
 * spec/DECISIONS.md › D326), each member's text read as its schema's type where that is a number or a boolean
 * (in the parameter's own properties or those of an object branch of its `anyOf`/`oneOf`); `undefined` when no such
 * pair is sent. Deeper brackets (`name[a][b]`) are kept under their first member as text. `pairs` is flat, as
 * {@link queryPairs} gives them.
 */
export function bracketedMembers(parameter: ParameterModel, pairs: readonly string[]): Record<string, unknown> | undefined {
  const prefix = `${parameter.name}[`;
  let found: Record<string, unknown> | undefined;
  const shapes = [parameter.schema, ...(['anyOf', 'oneOf'] as const).flatMap((key) => (Array.isArray(parameter.schema[key]) ? (parameter.schema[key] as Schema[]) : []))];
  for (let i = 0; i < pairs.length; i += 2) {
    const name = pairs[i]!;
    if (!name.startsWith(prefix)) continue;
    const close = name.indexOf(']', prefix.length);
    if (close === -1) continue;
    const member = name.slice(prefix.length, close);
    const text = pairs[i + 1]!;
    const schema = shapes.map((shape) => (shape['properties'] as Record<string, Schema> | undefined)?.[member]).find((one) => one !== undefined);
    const type = schema === undefined ? undefined : typeOf(schema);
    found ??= {};
    found[member] = (type === 'integer' || type === 'number') && NUMBER_TEXT.test(text) ? Number(text) : type === 'boolean' && (text === 'true' || text === 'false') ? text === 'true' : text;
  }
  return found;
}

/**
 * The object an exploded form query parameter sends (spec/DECISIONS.md › D557; OpenAPI 3 § Style Values, `form` with
 * `explode: true`): one `member=value` pair per member, under no name of its own. `declared` holds the pairs named by
 * the schema's `properties`, each read as its schema's type where that is a number or a boolean; `others` counts
 * the pairs a schema that takes other members (`additionalProperties` not `false`) holds too: every pair that names
 * no parameter of the operation (`parameters`) and no bracketed member. `pairs` is flat, as `queryPairs` gives them.
 * Both empty when no pair belongs to it: on the wire an empty object and an absent one are the same.
 */
export function explodedMembers(parameter: ParameterModel, pairs: readonly string[], parameters: ReadonlySet<string>): { declared: Record<string, unknown>; others: number } {
  const properties = (parameter.schema['properties'] as Record<string, Schema> | undefined) ?? {};
  const open = parameter.schema['additionalProperties'] !== false;
  const declared: Record<string, unknown> = {};
  let others = 0;
  for (let i = 0; i < pairs.length; i += 2) {
    const name = pairs[i]!;
    const text = pairs[i + 1]!;
    const schema = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (schema === undefined) {
      if (open && !parameters.has(name) && !name.includes('[')) others++;
      continue;
    }
    const type = typeOf(schema);
    declared[name] = (type === 'integer' || type === 'number') && NUMBER_TEXT.test(text) ? Number(text) : type === 'boolean' && (text === 'true' || text === 'false') ? text === 'true' : text;
  }
  return { declared, others };
}
