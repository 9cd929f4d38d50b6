import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { OperationModel, ResourceModel } from '../model/model.js';
import { admittedTypes, type Schema } from '../model/schema.js';
import { referencesOf } from '../model/references.js';
import { validSample } from '../model/samples.js';
import { sampleRequest } from './wild-requests.js';

/** Most milliseconds one request of the round trip may wait for its answer. */
const REQUEST_MS = 10_000;

/**
 * What {@link roundTrip} found on one description: whether it has a resource to try (a top-level create with a
 * read, whose create body has a plain text member), and whether a value written there came back.
 * `read`/`list` are `undefined` when not reached (the create failed, or the resource has no list).
 */
export interface RoundTrip {
  /** `resource.member` tried, or `undefined` when the description has no resource a round trip fits. */
  tried?: string | undefined;
  created?: number | undefined;
  read?: boolean | undefined;
  list?: boolean | undefined;
  /** Why it did not hold, for the report (the first step that failed, with its status). */
  note?: string | undefined;
}

/**
 * The round trip a client relies on, "a value written comes back on read and in the list", on the first
 * resource it fits (those whose create names no record of another collection first, as a client makes those first): a top-level resource (no parent) with a create and a read by path, whose create body (JSON)
 * has a writable text member with no enum, format or pattern that the record holds as text (or an object it keys),
 * and whose create is not documented to answer only a boolean. The create body is the model's sample with that
 * member set to a fresh marker (and a key the client chooses made fresh, as a client naming a new record does;
 * members naming another collection's record left out where not required), sent in the JSON media type the create
 * documents; the record's id is read from the create's answer (the whole answer where it is a bare key, else its
 * envelope's key member, else the `Location` header's last segment); the read and the list (its required parameters
 * from samples, or from the create body where it wrote them) must each hold the marker somewhere in their text, or,
 * for a list of keys, the record's key. Never throws.
 */
export async function roundTrip(resources: readonly ResourceModel[], baseUrl: string, key: string, operations: readonly OperationModel[] = []): Promise<RoundTrip> {
  // A create whose body names a record of another collection needs that record first (D95): tried last.
  const needs = (resource: ResourceModel): number => (resource.operations.create === undefined || referencesOf(resource.operations.create, operations).length === 0 ? 0 : 1);
  for (const resource of [...resources].sort((a, b) => needs(a) - needs(b))) {
    const create = resource.operations.create;
    const read = resource.operations.read;
    if (create === undefined || read === undefined || resource.parent !== undefined || read.idIn !== 'path' || create.body === undefined) continue;
    if (read.pathParams.length !== 1 || create.pathParams.length !== 0 || !create.body.mediaTypes.some((media) => /json/i.test(media))) continue;
    // A create documented to answer only `true`/`false` names no record a client could read back (no key, no
    // Location): the round trip by key does not fit it.
    const answered = create.responses.find((response) => response.status === String(create.successStatus))?.schema;
    if (answered !== undefined && admittedTypes(answered).length === 1 && admittedTypes(answered)[0] === 'boolean') continue;
    const body = validSample(create.body.schema);
    const holder = create.bodyEnvelope === undefined ? body : (body as Record<string, unknown> | null)?.[create.bodyEnvelope];
    const schema = create.bodyEnvelope === undefined ? create.body.schema : propertiesOf(create.body.schema)[create.bodyEnvelope];
    if (holder === null || typeof holder !== 'object' || Array.isArray(holder) || schema === undefined) continue;
    const member = plainText(schema, resource);
    if (member === undefined) continue;
    const marker = `rt${randomBytes(6).toString('hex')}`;
    (holder as Record<string, unknown>)[member.name] = marker.padEnd(member.minLength, 'x');
    // A key the client chooses is made fresh, as a client naming a new record does: the sample's own key is the one
    // the probe's create took already, and a second record under it is rightly refused.
    const chosen = freshKey((holder as Record<string, unknown>)[resource.idProperty], propertiesOf(schema)[resource.idProperty]);
    if (chosen !== undefined) (holder as Record<string, unknown>)[resource.idProperty] = chosen;
    // A member naming a record of another collection that the create does not require is left out, as a client with no
    // such record to name leaves it out (the sample's value names none, and the mock rightly refuses it, D95).
    const required = new Set(objectRequired(schema));
    for (const reference of referencesOf(create, operations)) if (!required.has(reference.member) && reference.member !== member.name) Reflect.deleteProperty(holder, reference.member);
    const found: RoundTrip = { tried: `${resource.name}.${member.name}` };
    const created = await send(create, baseUrl, key, JSON.stringify(body));
    found.created = created.status;
    if (created.status < 200 || created.status >= 300) return { ...found, note: `create ${created.status}: ${created.text.slice(0, 160)}` };
    const id = idOf(created, create, resource);
    if (id === undefined) return { ...found, note: `create ${created.status}: no ${resource.idProperty} in the answer` };
    const readPath = read.path.replace(`{${read.pathParams[0]!.name}}`, encodeURIComponent(id));
    const answer = await send(read, baseUrl, key, undefined, readPath);
    found.read = answer.status >= 200 && answer.status < 300 && answer.text.includes(marker);
    if (!found.read) found.note = `read ${answer.status}: ${answer.text.slice(0, 160)}`;
    const list = resource.operations.list;
    if (list !== undefined && list.pathParams.length === 0) {
      // A list that requires a query parameter the create body wrote (`payorId`) is asked for the value written, as
      // the client that wrote it asks for its own records.
      const written = Object.fromEntries(list.queryParams.filter((parameter) => parameter.required && isScalar((holder as Record<string, unknown>)[parameter.name])).map((parameter) => [parameter.name, String((holder as Record<string, unknown>)[parameter.name])]));
      const listed = await send(list, baseUrl, key, undefined, undefined, written);
      found.list = listed.status >= 200 && listed.status < 300 && (listed.text.includes(marker) || listsKey(listed.text, id));
      if (!found.list) found.note ??= `list ${listed.status}: ${listed.text.slice(0, 160)}`;
    }
    return found;
  }
  return {};
}

/**
 * A fresh value for a key the create body carries (`sent`), in the key schema's type: a random integer, a UUID or
 * an address where its format says so, else random text as long as its `minLength`; `undefined` (the sample's key
 * kept) when the body carries none, or the key has a pattern or another format.
 */
function freshKey(sent: unknown, schema: Schema | undefined): unknown {
  const text = (typeof schema === 'object' && schema !== null ? schema : {}) as { format?: unknown; pattern?: unknown; minLength?: unknown; maxLength?: unknown; minimum?: unknown };
  if (typeof sent === 'number') return Number.isInteger(sent) ? Math.max(Number(text.minimum ?? 1), 1) + randomInt(100_000_000, 2_000_000_000) : undefined;
  if (typeof sent !== 'string' || text.pattern !== undefined) return undefined;
  if (text.format === 'uuid') return randomUUID();
  const fresh = `k${randomBytes(6).toString('hex')}`.padEnd(typeof text.minLength === 'number' ? text.minLength : 0, 'k');
  if (text.format === 'email') return `${fresh}@example.com`;
  if (text.format !== undefined || (typeof text.maxLength === 'number' && text.maxLength < fresh.length)) return undefined;
  return fresh;
}

/** The top-level properties of an object schema, its `allOf` parts merged (first wins). */
function propertiesOf(schema: Schema): Record<string, Schema> {
  if (typeof schema !== 'object' || schema === null) return {};
  const own = (schema as { properties?: Record<string, Schema> }).properties ?? {};
  const parts = ((schema as { allOf?: Schema[] }).allOf ?? []).map(propertiesOf);
  return Object.assign({}, ...parts.reverse(), own) as Record<string, Schema>;
}

/** The names an object schema requires, its `allOf` parts' included. */
function objectRequired(schema: Schema): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const own = (schema as { required?: unknown }).required;
  return [...(Array.isArray(own) ? own.filter((name): name is string => typeof name === 'string') : []), ...((schema as { allOf?: Schema[] }).allOf ?? []).flatMap(objectRequired)];
}

/** A writable text member of the create body with no enum, const, format or pattern, that the record also has, as text or an object. */
function plainText(schema: Schema, resource: ResourceModel): { name: string; minLength: number } | undefined {
  for (const [name, property] of Object.entries(propertiesOf(schema))) {
    if (typeof property !== 'object' || property === null || name === resource.idProperty || !(name in resource.properties)) continue;
    // Text written where the record holds a number (an article's `defined_type`, sent by name, held by number) cannot
    // come back as written: a client reads it back from a member the record holds as text (or an object it keys).
    const held = admittedTypes(resource.properties[name]!);
    if (held.length > 0 && !held.includes('string') && !held.includes('object')) continue;
    const text = property as { type?: unknown; enum?: unknown; const?: unknown; format?: unknown; pattern?: unknown; readOnly?: unknown; maxLength?: unknown; minLength?: unknown };
    const typed = text.type === 'string' || (Array.isArray(text.type) && text.type.includes('string'));
    if (!typed || text.enum !== undefined || text.const !== undefined || text.format !== undefined || text.pattern !== undefined || text.readOnly === true) continue;
    const minLength = typeof text.minLength === 'number' ? text.minLength : 0;
    if (typeof text.maxLength === 'number' && text.maxLength < Math.max(14, minLength)) continue;
    return { name, minLength };
  }
  return undefined;
}

interface Answered {
  status: number;
  text: string;
  location: string | null;
}

/**
 * Sends `operation`'s sample request with `body` (JSON, in the JSON media type the operation documents, such as
 * JSON:API's `application/vnd.api+json`) and `path` (below the base) in place of the sample's, and `query` values in
 * place of the sample's.
 */
async function send(operation: OperationModel, baseUrl: string, key: string, body: string | undefined, path?: string, query: Record<string, string> = {}): Promise<Answered> {
  const request = sampleRequest(operation, baseUrl, key, false);
  if (request === undefined) return { status: 0, text: 'no request', location: null };
  const url = new URL(request.url);
  if (path !== undefined) url.pathname = `${new URL(baseUrl).pathname.replace(/\/+$/, '')}${path}`;
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const documented = request.headers['content-type'];
  const headers = { ...request.headers, ...(body === undefined ? {} : { 'content-type': documented !== undefined && /json/i.test(documented) ? documented : 'application/json' }) };
  try {
    const response = await fetch(url, { method: operation.method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(REQUEST_MS) });
    return { status: response.status, text: await response.text(), location: response.headers.get('location') };
  } catch (error) {
    return { status: 0, text: error instanceof Error ? error.message : String(error), location: null };
  }
}

/** The new record's id: the create's whole answer where that is a bare key, else its key member (under its envelope), else the `Location` header's last segment. */
function idOf(created: Answered, create: OperationModel, resource: ResourceModel): string | undefined {
  try {
    const json = JSON.parse(created.text) as unknown;
    // A create that answers only the new record's key (`"k1"`, `42`) names it so.
    if (typeof json === 'string' || typeof json === 'number') return String(json);
    const record = create.answerEnvelope === undefined ? json : (json as Record<string, unknown> | null)?.[create.answerEnvelope];
    const id = (record as Record<string, unknown> | null)?.[resource.idProperty];
    if (typeof id === 'string' || typeof id === 'number') return String(id);
  } catch {
    // Not JSON: the Location header may still name the record.
  }
  const segment = created.location?.split('?')[0]?.split('/').filter((part) => part !== '').pop();
  return segment === undefined ? undefined : decodeURIComponent(segment);
}

/** Whether `value` is text, a number or a boolean: a value a query parameter can carry as written. */
function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/**
 * Whether a list answer (`text`) names the record `id` as an item of an array of keys (`{"ticketIds": ["1"]}`): a list
 * that answers its records' keys only lists a record by its key, and a client finds its record there so.
 */
function listsKey(text: string, id: string): boolean {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return false;
  }
  // The list's own array: the answer, or a member of its envelope; never an array inside a record.
  const keys = (value: unknown): boolean => Array.isArray(value) && value.every(isScalar) && value.some((item) => String(item) === id);
  return keys(json) || (json !== null && typeof json === 'object' && !Array.isArray(json) && Object.values(json).some(keys));
}
