import busboy from 'busboy';
import type { Readable } from 'node:stream';
import { LosslessNumber } from 'lossless-json';
import { mainType, objectShape, type Schema } from '../model/schema.js';
import { parseJsonBody } from './exact-body.js';
import type { RecordValue } from './store/record-store.js';

/** A form body as a record: its fields coerced to the schema's types, numbers exact, and its file parts' facts; or why it cannot be read. */
export type FormParse = { ok: true; value: RecordValue; files: UploadedFile[] } | { ok: false; message: string };

/**
 * What a multipart file part carries beside its bytes (RFC 7578 §4.2, §4.4): the form field it came in, the file
 * name its `Content-Disposition` gives (the field's name when it gives none), its size in bytes, and the media type
 * its `Content-Type` gives (`text/plain` when it gives none, a part's default by RFC 7578 §4.4).
 */
export interface UploadedFile {
  field: string;
  filename: string;
  bytes: number;
  mediaType: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const INTEGER = /^-?(?:0|[1-9]\d*)$/;

/**
 * Reads an `application/x-www-form-urlencoded` or `multipart/form-data` body (spec/DECISIONS.md › D54) into the
 * value a JSON body of `schema` would be, for the same validation and storage:
 * - each field by the type of the property it names: `integer`/`number` from their literal (exact, as JSON
 *   numbers are kept), `boolean` from `true`/`false`, `array` from the field's repeated values (each by the items'
 *   type), `object` from a JSON text; any other text stays a string, so that a wrong type fails validation with
 *   the property's name;
 * - a multipart file part: its bytes as text when they are UTF-8, as base64 for a `format: byte` property, else a
 *   placeholder `<file NAME, N bytes>`;
 * - a field given more than once for a property that is no array: refused.
 * `contentType` is the request's whole header (multipart needs its `boundary`). Never throws.
 */
export function parseForm(bytes: Buffer, contentType: string, schema: Schema): FormParse {
  const fields = contentType.toLowerCase().startsWith('multipart/') ? multipartFields(bytes, contentType) : urlencodedFields(bytes);
  if ('message' in fields) return { ok: false, message: fields.message };
  const { properties } = objectShape(schema);
  const value: RecordValue = {};
  const files: UploadedFile[] = [];
  for (const [name, raw] of fields.values) {
    for (const part of raw) if (typeof part === 'object') files.push({ field: name, filename: part.name, bytes: part.file.length, mediaType: part.mediaType });
    const nested = BRACKETS.exec(name);
    if (nested !== null && !Object.hasOwn(properties, name)) {
      const problem = assign(value, [nested[1]!, ...[...nested[2]!.matchAll(/\[([^[\]]*)\]/g)].map((key) => key[1]!)], raw, schema);
      if (problem !== undefined) return { ok: false, message: problem };
      continue;
    }
    const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
    const type = property === undefined ? undefined : mainType(property);
    if (type !== 'array' && raw.length > 1) return { ok: false, message: `The form field ${JSON.stringify(name)} is given ${raw.length} times; its property takes one value.` };
    const coerced = type === 'array' ? raw.map((part) => coerce(part, (property?.['items'] ?? {}) as Schema)) : coerce(raw[0]!, property ?? {});
    // A field named `__proto__` is an own member like any other, never the object's prototype.
    Object.defineProperty(value, name, { value: coerced, enumerable: true, writable: true, configurable: true });
  }
  return { ok: true, value, files };
}

/** A field named in bracket notation, `metadata[plan]`, `items[0][price]`, `tags[]`: its first name, then its keys. */
const BRACKETS = /^([^[\]]+)((?:\[[^[\]]*\])+)$/;

/** Sets `target[key]` as an own member, even for `__proto__` (never the object's prototype). */
function setOwn(target: Record<string, unknown> | unknown[], key: string | number, member: unknown): void {
  Object.defineProperty(target, key, { value: member, enumerable: true, writable: true, configurable: true });
}

/** The schema of member `key` of a value of `schema`: an array's items, an object's property or its additional ones. */
function memberSchema(schema: Schema, key: string): Schema {
  if (mainType(schema) === 'array') return (schema['items'] ?? {}) as Schema;
  // A member of several shapes (an object or `""`) is read by its branch that is an object or a list (D331).
  const branch = mainType(schema) === undefined ? branchesOf(schema).find((one) => mainType(one) === 'array' || Object.keys(objectShape(one).properties).length > 0 || mainType(one) === 'object') : undefined;
  if (branch !== undefined) return memberSchema(branch, key);
  const { properties, additional } = objectShape(schema);
  if (Object.hasOwn(properties, key)) return properties[key]!;
  return additional === false ? {} : additional;
}

/**
 * Writes a field in bracket notation into `value` (the form style of OpenAPI's `deepObject` encoding, and how
 * clients such as Stripe's send nested members: `metadata[plan]=pro`, `items[0][price]=p_1`, `expand[]=customer`):
 * each key descends into the schema's member of that name; an empty key or a number under an array schema is an
 * element; the leaf is coerced as a plain field of its schema. Returns why the field cannot be placed (a key under
 * a member already given as plain text), or `undefined`.
 */
function assign(value: RecordValue, path: string[], raw: Part[], schema: Schema): string | undefined {
  let container: Record<string, unknown> | unknown[] = value;
  let current = schema;
  for (let depth = 0; depth < path.length; depth++) {
    const key = path[depth]!;
    const inner = memberSchema(current, key);
    const slot = Array.isArray(container) ? (key === '' ? container.length : Number(key)) : key;
    // Elements come in order (`items[0]`, `items[1]`): a gap would be a hole, and a large index a huge array.
    if (Array.isArray(container) && (!/^\d*$/.test(key) || (slot as number) > container.length)) return `The form field ${JSON.stringify(path[0])} names element [${key}] out of order; elements are numbered from 0 without gaps.`;
    if (depth === path.length - 1) {
      const leaf = mainType(inner) === 'array' ? raw.map((part) => coerce(part, (inner['items'] ?? {}) as Schema)) : coerce(raw[raw.length - 1]!, inner);
      if (Array.isArray(container) && key === '') for (const part of raw) container.push(coerce(part, inner));
      else setOwn(container, slot, leaf);
      return undefined;
    }
    const next = path[depth + 1]!;
    const existing = (container as Record<string | number, unknown>)[slot];
    let child: unknown = Object.hasOwn(container, slot) ? existing : undefined;
    if (child === undefined) {
      child = mainType(inner) === 'array' || (mainType(inner) === undefined && /^\d*$/.test(next)) ? [] : {};
      setOwn(container, slot, child);
    }
    if (child === null || typeof child !== 'object') return `The form field ${JSON.stringify(path[0])} is given both as a value and with keys in brackets.`;
    container = child as Record<string, unknown> | unknown[];
    current = inner;
  }
  return undefined;
}

/** One form value before coercion: a text field, or a file part's bytes, name and media type. */
type Part = string | FilePart;
type FilePart = { file: Buffer; name: string; mediaType: string };

/** The fields of a form, by name, each with every value given, in the order sent; or why they cannot be read. */
type Fields = { values: Map<string, Part[]> } | { message: string };

function add(values: Map<string, Part[]>, name: string, part: Part): void {
  const list = values.get(name);
  if (list === undefined) values.set(name, [part]);
  else list.push(part);
}

function urlencodedFields(bytes: Buffer): Fields {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { message: 'The form body is not valid UTF-8.' };
  }
  const values = new Map<string, Part[]>();
  for (const [name, part] of new URLSearchParams(text)) add(values, name, part);
  return { values };
}

/**
 * The parts of a multipart body, read with busboy. The body is whole in memory, so busboy parses it while `end`
 * runs: fields arrive at once, and each file's bytes are in its stream's buffer when `end` returns.
 */
function multipartFields(bytes: Buffer, contentType: string): Fields {
  const values = new Map<string, Part[]>();
  const files: { part: FilePart; stream: Readable }[] = [];
  let failure: string | undefined;
  try {
    // No limit below the body's own size (the server bounds it): a longer field would be cut short silently.
    const parser = busboy({ headers: { 'content-type': contentType }, limits: { fieldSize: bytes.length + 1, fileSize: bytes.length + 1 } });
    parser.on('field', (name, text) => add(values, name, text));
    parser.on('file', (name, stream, info) => {
      const part = { file: Buffer.alloc(0), name: info.filename ?? name, mediaType: info.mimeType };
      files.push({ part, stream });
      add(values, name, part);
    });
    parser.on('error', (error: Error) => (failure = error.message));
    parser.end(bytes);
  } catch (error) {
    failure = (error as Error).message;
  }
  if (failure !== undefined) return { message: `The multipart body cannot be read: ${failure}.` };
  for (const { part, stream } of files) {
    const chunks: Buffer[] = [];
    for (let chunk = stream.read() as Buffer | null; chunk !== null; chunk = stream.read() as Buffer | null) chunks.push(chunk);
    part.file = Buffer.concat(chunks);
  }
  return { values };
}

/** A form value as the value of a property of `schema` (see {@link parseForm}). */
function coerce(part: Part, schema: Schema): unknown {
  if (typeof part === 'object') {
    if (schema['format'] === 'byte') return part.file.toString('base64');
    try {
      return utf8.decode(part.file);
    } catch {
      return `<file ${part.name}, ${part.file.length} bytes>`;
    }
  }
  // A value of several shapes (`anyOf: [boolean, enum]`, `[enum inf, integer]`) is read as the first scalar type
  // among its branches that its text spells (D331), else as text.
  if (mainType(schema) === undefined) {
    const types = new Set(branchesOf(schema).map(mainType));
    if (types.has('integer') && INTEGER.test(part)) return new LosslessNumber(part);
    if (types.has('number') && NUMBER.test(part)) return new LosslessNumber(part);
    if (types.has('boolean') && (part === 'true' || part === 'false')) return part === 'true';
    return part;
  }
  switch (mainType(schema)) {
    case 'integer':
      return INTEGER.test(part) ? new LosslessNumber(part) : part;
    case 'number':
      return NUMBER.test(part) ? new LosslessNumber(part) : part;
    case 'boolean':
      return part === 'true' ? true : part === 'false' ? false : part;
    case 'object': {
      const parsed = parseJsonBody(part);
      return parsed.ok ? parsed.body.value : part;
    }
    default:
      return part;
  }
}

/** The `anyOf`/`oneOf` branches of a schema that are objects (schemas); empty when it has none. */
function branchesOf(schema: Schema): Schema[] {
  return (['anyOf', 'oneOf'] as const).flatMap((key) => (Array.isArray(schema[key]) ? (schema[key] as unknown[]).filter((branch): branch is Schema => typeof branch === 'object' && branch !== null) : []));
}
