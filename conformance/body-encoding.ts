import { isLosslessNumber } from 'lossless-json';
import { exactJson, sameJson, toView } from '../model/json.js';
import type { BodyModel, OperationModel } from '../model/model.js';
import { isJsonMediaType, objectShape, typesOf, type Schema } from '../model/schema.js';

/** How a request body of an operation is written: JSON, or one of the two form encodings HTML and OpenAPI define. */
export type BodyEncoding = 'json' | 'urlencoded' | 'multipart' | 'raw';

const URLENCODED = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';

/** The essence of a media type: `multipart/form-data; boundary=x` → `multipart/form-data`. */
function essence(mediaType: string): string {
  return mediaType.split(';')[0]!.trim().toLowerCase();
}

/**
 * The media type the suite sends `op`'s body as: the JSON one when the operation declares one (seed, What the
 * service does: `application/json`), else a form encoding it declares, else its first media type; JSON when
 * it declares none.
 */
export function requestMediaType(op: OperationModel): { mediaType: string; encoding: BodyEncoding } {
  const types = op.body?.mediaTypes ?? [];
  const json = types.find(isJsonMediaType);
  if (json !== undefined) return { mediaType: json, encoding: 'json' };
  const form = types.find((type) => essence(type) === URLENCODED) ?? types.find((type) => essence(type) === MULTIPART);
  if (form !== undefined) return { mediaType: essence(form), encoding: essence(form) === URLENCODED ? 'urlencoded' : 'multipart' };
  if (types.length === 0 || types.some((type) => /^\*\/\*|^application\/\*/.test(type))) return { mediaType: 'application/json', encoding: 'json' };
  return { mediaType: types[0]!, encoding: 'raw' };
}

/** Whether `op` takes its body as a form (`application/x-www-form-urlencoded` or `multipart/form-data`) rather than JSON. */
export function takesForm(op: OperationModel): boolean {
  const { encoding } = requestMediaType(op);
  return encoding === 'urlencoded' || encoding === 'multipart';
}

/** The boundary of the multipart bodies the suite writes (no value sent contains it). */
export const MULTIPART_BOUNDARY = 'conformance-form-boundary-7f3a9c';

/** One field value as form text: strings as they are, integers in digits (int64 exact), objects as JSON. */
function fieldText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (isLosslessNumber(value)) return value.value;
  return exactJson(value);
}

/**
 * The form fields of an object value, in order: a member per field, an array as the field repeated (OpenAPI's
 * default for forms: `style: form`, `explode: true`), an object member as JSON text (multipart's default
 * part type), `null` members left out (a form cannot say null). A member named in `deep` (its Encoding Object's
 * `style: deepObject`) is sent in bracket notation instead: `metadata[plan]=pro`, `items[0][price]=p_1`.
 */
export function formFields(value: unknown, deep: ReadonlySet<string> = new Set()): [string, string][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || isLosslessNumber(value)) return [];
  const fields: [string, string][] = [];
  for (const [name, member] of Object.entries(value as Record<string, unknown>)) {
    if (member === null || member === undefined) continue;
    if (deep.has(name) && isStructured(member)) bracketFields(name, member, fields);
    else if (Array.isArray(member)) for (const item of member) fields.push([name, fieldText(item)]);
    else fields.push([name, fieldText(member)]);
  }
  return fields;
}

/** Whether a member is an object or an array (not an exact number, which is an object in memory). */
function isStructured(member: unknown): member is object {
  return member !== null && typeof member === 'object' && !isLosslessNumber(member);
}

/** `member` as bracket-notation fields under `name`, depth first; nulls left out. */
function bracketFields(name: string, member: object, fields: [string, string][]): void {
  const entries: [string, unknown][] = Array.isArray(member) ? member.map((item, index) => [String(index), item]) : Object.entries(member);
  for (const [key, inner] of entries) {
    if (inner === null || inner === undefined) continue;
    if (isStructured(inner)) bracketFields(`${name}[${key}]`, inner, fields);
    else fields.push([`${name}[${key}]`, fieldText(inner)]);
  }
}

/** The members `op`'s form body sends in bracket notation (see {@link formFields}). */
function deepMembers(op: OperationModel): ReadonlySet<string> {
  return new Set(op.body?.deepObjects ?? []);
}

/** `fields` as `application/x-www-form-urlencoded` text (HTML's form serialisation: spaces as `+`). */
export function urlencoded(fields: readonly [string, string][]): string {
  return new URLSearchParams(fields as [string, string][]).toString();
}

/** `fields` as `multipart/form-data` text (RFC 7578), one text part per field, with {@link MULTIPART_BOUNDARY}. */
export function multipart(fields: readonly [string, string][]): string {
  const parts = fields.map(([name, text]) => `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="${name.replace(/["\r\n]/g, '_')}"\r\n\r\n${text}\r\n`);
  return `${parts.join('')}--${MULTIPART_BOUNDARY}--\r\n`;
}

/** A request body ready to send: its text and its `Content-Type`. */
export interface EncodedBody {
  text: string;
  contentType: string;
}

/**
 * `value` written as `op` takes it (see {@link requestMediaType}): exact JSON (int64 digit for digit), a form
 * (urlencoded or multipart, from {@link formFields}), or for any other media type a string as it is and
 * anything else as JSON.
 */
export function encodeBody(op: OperationModel, value: unknown): EncodedBody {
  const { mediaType, encoding } = requestMediaType(op);
  switch (encoding) {
    case 'urlencoded':
      return { text: urlencoded(formFields(value, deepMembers(op))), contentType: mediaType };
    case 'multipart':
      return { text: multipart(formFields(value, deepMembers(op))), contentType: `${MULTIPART}; boundary=${MULTIPART_BOUNDARY}` };
    case 'raw':
      return { text: typeof value === 'string' ? value : exactJson(value), contentType: mediaType };
    case 'json':
      return { text: exactJson(value), contentType: mediaType };
  }
}

/**
 * The object a server reads from form fields, by the body schema: a field of an integer, number or boolean
 * member as that type when its text is one, of an array member as the list of its repeated fields, of an
 * object member as its JSON text parsed; anything else as the text. Used to keep only the invalid form bodies
 * that stay invalid once read, and the valid ones that stay valid.
 */
export function decodeForm(schema: Schema, fields: readonly [string, string][]): Record<string, unknown> {
  const { properties } = objectShape(schema);
  const out: Record<string, unknown> = {};
  for (const [name, text] of fields) {
    const keys = BRACKETS.exec(name);
    if (keys !== null && !Object.hasOwn(properties, name) && Object.hasOwn(properties, keys[1]!)) {
      placeBracketed(out, [keys[1]!, ...[...keys[2]!.matchAll(/\[([^[\]]*)\]/g)].map((key) => key[1]!)], text, schema);
      continue;
    }
    const member = properties[name];
    const types = member === undefined ? [] : typesOf(member);
    if (types.includes('array')) {
      const items = (member?.['items'] as Schema | undefined) ?? {};
      const list = Array.isArray(out[name]) ? (out[name] as unknown[]) : [];
      list.push(scalarOf(items, text));
      out[name] = list;
    } else out[name] = member === undefined ? text : scalarOf(member, text);
  }
  return out;
}

/** A field named in bracket notation: its first name, then its keys (`items[0][price]`). */
const BRACKETS = /^([^[\]]+)((?:\[[^[\]]*\])+)$/;

/** Reads one bracket-notation field into `out` as a server would, by the schema at each key (see {@link formFields}). */
function placeBracketed(out: Record<string, unknown>, path: string[], text: string, schema: Schema): void {
  let container: Record<string, unknown> | unknown[] = out;
  let current = schema;
  for (let depth = 0; depth < path.length; depth++) {
    const key = path[depth]!;
    const inner = innerSchema(current, key);
    const slot = Array.isArray(container) ? (key === '' ? container.length : Number(key)) : key;
    // Own members only: a key `__proto__` is a member like any other, never the object's prototype.
    const own = (member: unknown): unknown => Object.defineProperty(container, slot, { value: member, enumerable: true, writable: true, configurable: true });
    if (depth === path.length - 1) {
      // A list member sent as one bracketed field (`filters[countries]=x`) is read as a list of that one item, as a
      // top-level list's single field is (D330): a server may read it so, so it is never sent as a refused body.
      const items = typesOf(inner).includes('array') && typeof inner['items'] === 'object' && inner['items'] !== null ? (inner['items'] as Schema) : undefined;
      own(items === undefined ? scalarOf(inner, text) : [scalarOf(items, text)]);
      return;
    }
    const existing = Object.hasOwn(container, slot) ? (container as Record<string | number, unknown>)[slot] : undefined;
    // A list under a member of several shapes (a list or `""`) is a list too, as a server reads `aliases[0]=x` (D882).
    const next = existing !== null && typeof existing === 'object' ? existing : /^\d*$/.test(path[depth + 1]!) && listable(inner) ? [] : {};
    if (next !== existing) own(next);
    container = next as Record<string, unknown> | unknown[];
    current = inner;
  }
}

/** Whether `schema`, or one of its `anyOf`/`oneOf` branches, is an array: numbered keys below it are its items. */
function listable(schema: Schema): boolean {
  if (typesOf(schema).includes('array')) return true;
  return (['anyOf', 'oneOf'] as const).some((name) => Array.isArray(schema[name]) && (schema[name] as unknown[]).some((branch) => typeof branch === 'object' && branch !== null && typesOf(branch as Schema).includes('array')));
}

/**
 * The schema of key `key` below `schema`, as a bracketed form field reaches it: an array's items, an object's member,
 * or that of the first `anyOf`/`oneOf` branch that has one (a member that is an object or `""`, D328); `{}` when none.
 */
function innerSchema(schema: Schema, key: string): Schema {
  const branches = [schema, ...(['anyOf', 'oneOf'] as const).flatMap((name) => (Array.isArray(schema[name]) ? (schema[name] as Schema[]).filter((branch) => typeof branch === 'object' && branch !== null) : []))];
  const listed = /^\d*$/.test(key) ? branches.find((branch) => typesOf(branch).includes('array') && typeof branch['items'] === 'object') : undefined;
  if (listed !== undefined) return listed['items'] as Schema;
  for (const branch of branches) {
    if (typesOf(branch).includes('array')) continue;
    const member = objectShape(branch).properties[key];
    if (member !== undefined) return member;
  }
  return typesOf(schema).includes('array') ? ((schema['items'] as Schema | undefined) ?? {}) : {};
}

function scalarOf(schema: Schema, text: string): unknown {
  // A member of several shapes (`anyOf: [{enum: [inf]}, {type: integer}]`) is read by the types of its branches too (D328).
  const types = [...typesOf(schema), ...(['anyOf', 'oneOf'] as const).flatMap((key) => (Array.isArray(schema[key]) ? (schema[key] as Schema[]).flatMap((branch) => (typeof branch === 'object' && branch !== null ? typesOf(branch) : [])) : []))];
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+$/.test(text)) return BigInt(text);
  if (types.includes('number') && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if (types.includes('object') || types.includes('array')) {
    try {
      const parsed = JSON.parse(text) as unknown;
      // JSON text stands for an object or a list; where a branch takes text, `true` or `"x"` is that text (D520).
      if ((typeof parsed === 'object' && parsed !== null) || !types.includes('string')) return parsed;
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * Whether the spec accepts `value` once written as `op` takes it and read back; for a form, also whether it reads
 * back as sent (a form cannot say `null` nor an empty list, and reads digits in a string-or-integer member as
 * an integer, nor carry a lone surrogate in UTF-8): only such values are sent as valid, so that an echo can be judged.
 */
export function survivesEncoding(op: OperationModel, body: BodyModel, value: unknown): boolean {
  if (!takesForm(op)) return body.validate(toView(value));
  const fields = formFields(value, deepMembers(op));
  // A form travels as UTF-8 text, which has no lone surrogate: `"\ud800"` arrives as U+FFFD (D206).
  if (fields.some(([name, text]) => LONE_SURROGATE.test(name) || LONE_SURROGATE.test(text))) return false;
  const decoded = decodeForm(body.schema, fields);
  return body.validate(toView(decoded)) && sameJson(decoded, value);
}

/** A UTF-16 surrogate without its pair: no UTF-8 text can carry it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
