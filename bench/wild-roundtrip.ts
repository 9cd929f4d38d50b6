import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { OperationModel, ResourceModel } from '../model/model.js';
import type { Schema } from '../model/schema.js';
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
 * has a writable text member with no enum, format or pattern. The create body is the model's sample with that
 * member set to a fresh marker (and a key the client chooses made fresh, as a client naming a new record does); the record's id is read from the create's answer (its envelope, else the
 * `Location` header's last segment); the read and the list (its required parameters from samples) must each hold
 * the marker somewhere in their text. Never throws.
 */
export async function roundTrip(resources: readonly ResourceModel[], baseUrl: string, key: string, operations: readonly OperationModel[] = []): Promise<RoundTrip> {
  // A create whose body names a record of another collection needs that record first (D95): tried last.
  const needs = (resource: ResourceModel): number => (resource.operations.create === undefined || referencesOf(resource.operations.create, operations).length === 0 ? 0 : 1);
  for (const resource of [...resources].sort((a, b) => needs(a) - needs(b))) {
    const create = resource.operations.create;
    const read = resource.operations.read;
    if (create === undefined || read === undefined || resource.parent !== undefined || read.idIn !== 'path' || create.body === undefined) continue;
    if (read.pathParams.length !== 1 || create.pathParams.length !== 0 || !create.body.mediaTypes.some((media) => /json/i.test(media))) continue;
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
      const listed = await send(list, baseUrl, key, undefined);
      found.list = listed.status >= 200 && listed.status < 300 && listed.text.includes(marker);
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

/** A writable text member of the create body with no enum, const, format or pattern, that the record also has. */
function plainText(schema: Schema, resource: ResourceModel): { name: string; minLength: number } | undefined {
  for (const [name, property] of Object.entries(propertiesOf(schema))) {
    if (typeof property !== 'object' || property === null || name === resource.idProperty || !(name in resource.properties)) continue;
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

/** Sends `operation`'s sample request with `body` (JSON) and `path` (below the base) in place of the sample's. */
async function send(operation: OperationModel, baseUrl: string, key: string, body: string | undefined, path?: string): Promise<Answered> {
  const request = sampleRequest(operation, baseUrl, key, false);
  if (request === undefined) return { status: 0, text: 'no request', location: null };
  const url = new URL(request.url);
  if (path !== undefined) url.pathname = `${new URL(baseUrl).pathname.replace(/\/+$/, '')}${path}`;
  const headers = { ...request.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
  try {
    const response = await fetch(url, { method: operation.method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(REQUEST_MS) });
    return { status: response.status, text: await response.text(), location: response.headers.get('location') };
  } catch (error) {
    return { status: 0, text: error instanceof Error ? error.message : String(error), location: null };
  }
}

/** The new record's id: its key member in the create's answer (under its envelope), else the `Location` header's last segment. */
function idOf(created: Answered, create: OperationModel, resource: ResourceModel): string | undefined {
  try {
    const json = JSON.parse(created.text) as unknown;
    const record = create.answerEnvelope === undefined ? json : (json as Record<string, unknown> | null)?.[create.answerEnvelope];
    const id = (record as Record<string, unknown> | null)?.[resource.idProperty];
    if (typeof id === 'string' || typeof id === 'number') return String(id);
  } catch {
    // Not JSON: the Location header may still name the record.
  }
  const segment = created.location?.split('?')[0]?.split('/').filter((part) => part !== '').pop();
  return segment === undefined ? undefined : decodeURIComponent(segment);
}
