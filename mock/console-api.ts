import { randomUUID } from 'node:crypto';
import { exactJson, parseExact } from '../model/json.js';
import type { ApiModel, OperationModel, ResourceModel } from '../model/model.js';
import { compile, createAjv, isMarked, objectShape, type Schema, type Validator } from '../model/schema.js';
import type { ErrorCode } from './errors.js';
import { generateRecords, MAX_GENERATED } from './generate.js';
import type { JournalEntry, Journal } from './journal.js';
import { compileCoercion } from './parameters.js';
import type { MockResponse } from './messages.js';
import type { ResponseSink } from './messages.js';
import { recordFromBody, singularCode, singularWord } from './record-bodies.js';
import { answerableStatuses } from './statuses.js';
import { andThen, filterKey, storeView, type AnyRecordStore, type Maybe, type RecordId, type RecordValue } from './store/record-store.js';

/** What the console's endpoints answer: a JSON text, a stream, or a row of the error table. */
export type ConsoleAnswer = { status: number; body: string; stream?: (sink: ResponseSink) => void } | { error: ErrorCode; detail?: string; code?: string };

/** The last spec reload under `--watch` (README › Console › Health): when, what changed, records dropped, or why it failed. */
export interface ReloadInfo {
  time: string;
  ok: boolean;
  changes: string[];
  dropped: number;
  message?: string | undefined;
}

/** The state of the mock the health view shows, besides the spec: the store, the last reload, the journal. */
export interface ConsoleStatus {
  /** The `/__health` answer: `{status, store, state, …}` (200, or 503 while a shared store is away). */
  health: () => Maybe<MockResponse>;
  lastReload: () => ReloadInfo | undefined;
  sharedStore: boolean;
}

/** Most records a page of `GET /__admin/<resource>/page` holds. */
const PAGE_MAX = 500;
/** Milliseconds between two comment lines of the stream: keeps proxies and browsers from closing an idle stream. */
const KEEP_ALIVE_MS = 15_000;

/**
 * `GET /__admin/model` (README › Admin API): the spec as the console builds its forms from it. Resources with
 * their record schema, id, filters, page limits and the operations playing each part; operations with their
 * parameters, body schema and example, documented statuses, and the statuses the mock may answer undocumented.
 * Numbers stay exact (int64 bounds and examples).
 */
export function modelOf(api: ApiModel, sharedStore: boolean): string {
  return exactJson({
    title: api.title,
    version: api.version,
    basePath: api.basePath,
    resources: api.resources.map((resource) => ({
      name: resource.name,
      singular: singularWord(resource.name),
      // The key the console addresses records by: the store's (a global id where numbers repeat per parent, D240).
      idProperty: storeView(resource).idProperty,
      idType: storeView(resource).idType,
      recordSchema: resource.recordSchema,
      required: resource.required,
      filters: resource.filters.map((filter) => ({ parameter: filter.parameter.name, property: filter.property, values: filter.values, schema: filter.parameter.schema })),
      limit: resource.limit,
      operations: Object.fromEntries(Object.entries(resource.operations).map(([role, op]) => [role, op.operationId])),
      // The record a create takes: its body's, or the member of an enveloped body that holds it (D73).
      createSchema: createRecordSchema(resource.operations.create),
    })),
    // OpenAPI 3.2 tags with `parent` and `kind`: the console groups the operations by them (D87).
    tags: api.tags ?? [],
    operations: api.operations.map((op) => ({
      operationId: op.operationId,
      method: op.method,
      path: op.path,
      tags: op.tags ?? [],
      streams: op.responses.filter((r) => /^2/.test(r.status)).flatMap((r) => r.contents.filter((c) => c.stream !== undefined).map((c) => c.mediaType)),
      deprecated: op.deprecated,
      sunset: op.sunset,
      resource: op.resource?.name,
      role: op.role,
      security: op.security.map((scheme) => ({ ...scheme })),
      parameters: [...op.pathParams, ...op.queryParams].map((p) => ({ name: p.name, in: p.in, required: p.required, schema: p.schema })),
      body: op.body === undefined ? undefined : { required: op.body.required, mediaTypes: op.body.mediaTypes, schema: op.body.schema, example: bodyExample(op) },
      responses: op.responses.map((r) => ({ status: r.status, mediaType: r.mediaType, example: r.example, examples: exampleNames(r) })),
      successStatus: op.successStatus,
      undocumented: answerableStatuses(op, sharedStore).filter((status) => !op.errors.documents(status)),
    })),
  });
}

function createRecordSchema(create: OperationModel | undefined): Schema | undefined {
  const schema = create?.body?.schema;
  return schema === undefined || create?.bodyEnvelope === undefined ? schema : objectShape(schema).properties[create.bodyEnvelope];
}

/** The names of a response's named examples (`Prefer: example=`), when the model keeps them. */
function exampleNames(response: object): string[] {
  if (!('examples' in response) || !Array.isArray(response.examples)) return [];
  return response.examples.flatMap((example: unknown) => (typeof example === 'object' && example !== null && 'name' in example && typeof example.name === 'string' ? [example.name] : []));
}

function bodyExample(op: OperationModel): unknown {
  const schema = op.body?.schema;
  if (schema === undefined) return undefined;
  return schema['example'] ?? (Array.isArray(schema['examples']) ? (schema['examples'] as unknown[])[0] : undefined);
}

/** `GET /__admin/health`: the spec, the store and its state, the last reload, the undocumented statuses, the journal's size. */
export function healthOf(api: ApiModel, status: ConsoleStatus, journal: Journal): Maybe<ConsoleAnswer> {
  return andThen(status.health(), (answered) => {
    let store: unknown;
    try {
      store = JSON.parse(answered.body);
    } catch {
      store = { status: 'unknown' };
    }
    const undocumented = api.operations
      .map((op) => ({ operationId: op.operationId, statuses: answerableStatuses(op, status.sharedStore).filter((s) => !op.errors.documents(s)) }))
      .filter((entry) => entry.statuses.length > 0);
    const body = { title: api.title, version: api.version, basePath: api.basePath, store, lastReload: status.lastReload() ?? null, undocumented, notes: api.notes, journal: { size: journal.size, capacity: journal.capacity } };
    return { status: 200, body: JSON.stringify(body) };
  });
}

/**
 * `GET /__admin/requests/stream`: Server-Sent Events (`text/event-stream`). Each batch of new journal entries is
 * one `requests` event (`{"entries":[…oldest first],"skipped":N}`); a change made outside the contract (admin
 * reset, loads, edits, a cleared journal) is one `change` event. A comment line every 15 s keeps it open.
 */
export function requestStream(journal: Journal): ConsoleAnswer {
  return {
    status: 200,
    body: ': openapi-harness mock journal\nretry: 1000\n\n',
    stream(sink) {
      const stopRequests = journal.subscribe(({ entries, skipped }) => sink.write(`event: requests\nid: ${entries.at(-1)?.seq ?? 0}\ndata: ${JSON.stringify({ entries, skipped })}\n\n`));
      const stopChanges = journal.onChanged(() => sink.write('event: change\ndata: {}\n\n'));
      const keepAlive = setInterval(() => sink.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
      keepAlive.unref();
      sink.onClose(() => {
        stopRequests();
        stopChanges();
        clearInterval(keepAlive);
      });
    },
  };
}

/** Query of `GET /__admin/requests`: `limit`, `operation` (an operationId), `status` (`404` or `4xx`). */
export function journalQuery(journal: Journal, query: URLSearchParams): ConsoleAnswer {
  const limit = query.get('limit');
  if (limit !== null && !/^\d{1,9}$/.test(limit)) return { error: 'INVALID_QUERY', detail: `limit must be a whole number, got ${JSON.stringify(limit)}.` };
  const status = query.get('status') ?? undefined;
  if (status !== undefined && !/^([1-5]\d\d|[1-5]xx)$/i.test(status)) return { error: 'INVALID_QUERY', detail: `status must be a status (404) or a class (4xx), got ${JSON.stringify(status)}.` };
  const entries: JournalEntry[] = journal.entries({ limit: limit === null ? undefined : Number(limit), operationId: query.get('operation') ?? undefined, status });
  return { status: 200, body: JSON.stringify(entries) };
}

/**
 * `GET /__admin/<resource>/page?offset=&limit=&<filter>=`: records as the mock lists them (newest first, the
 * spec's filters by their query parameter names), `{"total":N,"offset":O,"limit":L,"records":[…]}`.
 * Errors: a bad filter value is 400 `INVALID_QUERY` with the message the list operation gives.
 */
export function pageOf(resource: ResourceModel, store: AnyRecordStore, query: URLSearchParams): Maybe<ConsoleAnswer> {
  const offset = wholeNumber(query.get('offset'), 0);
  const limit = wholeNumber(query.get('limit'), 20);
  if (offset === undefined || limit === undefined || limit < 1 || limit > PAGE_MAX) return { error: 'INVALID_QUERY', detail: `offset must be a whole number and limit one from 1 to ${PAGE_MAX}.` };
  const keys: unknown[] = [];
  for (const filter of resource.filters) {
    const raw = query.get(filter.parameter.name);
    if (raw === null || raw === '') {
      keys.push(undefined);
      continue;
    }
    const coerced = compileCoercion(filter.parameter)(filter.parameter.type === 'array' ? [raw] : raw);
    if (!coerced.ok) return { error: 'INVALID_QUERY', detail: `${coerced.message}.` };
    keys.push(Array.isArray(coerced.value) ? filterKey(coerced.value[0]) : filterKey(coerced.value));
  }
  return andThen(store.list({ keys, limit: offset + limit, countAll: true }), (page) => {
    const parsed = parseExact(page.json);
    const all = parsed.ok && Array.isArray(parsed.document.value) ? (parsed.document.value as unknown[]) : [];
    const records = all.slice(offset, offset + limit);
    return { status: 200, body: `{"total":${page.total},"offset":${offset},"limit":${limit},"records":${exactJson(records)}}` };
  });
}

/**
 * `POST /__admin/<resource>`: one record from a JSON object, validated as the create operation validates its body
 * (the same message), or by the record schema when the spec has no create. The id and readOnly properties, when
 * sent (a record exported earlier), are left out: the store assigns them as on create. 201 and the record.
 */
export function createOne(resource: ResourceModel, store: AnyRecordStore, text: string): Maybe<ConsoleAnswer> {
  const parsed = parseExact(text);
  if (!parsed.ok) return { error: 'MALFORMED_JSON', detail: `The request body is not valid JSON: ${parsed.message}.` };
  const value = parsed.document.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: 'INVALID_BODY', detail: 'The request body is invalid: body must be object.' };
  const fields = writable(resource, value as RecordValue);
  const body = resource.operations.create?.body;
  if (body !== undefined) {
    const view = parseExact(exactJson(fields));
    if (view.ok && !body.validate(view.document.view)) return { error: 'INVALID_BODY', detail: `The request body is invalid: ${body.validate.errors()}.` };
  }
  const record = recordFromBody(resource, fields);
  if (body === undefined) {
    const invalid = recordProblem(resource, { ...record, [resource.idProperty]: placeholderId(resource) });
    if (invalid !== undefined) return invalid;
  }
  return andThen(store.create(record), (created): ConsoleAnswer => (created.ok ? { status: 201, body: created.json } : { error: 'STORE_FULL', detail: `The mock holds its maximum of ${store.maxRecords} ${resource.name}.` }));
}

/** A record's fields a client may set: without its id and its readOnly properties (the server's, as on create and replace). */
function writable(resource: ResourceModel, value: RecordValue): RecordValue {
  const fields = { ...value };
  delete fields[resource.idProperty];
  for (const [name, schema] of Object.entries(resource.properties)) if (isMarked(schema, 'readOnly')) delete fields[name];
  return fields;
}

/** An id of the right kind, to validate a record before the store assigns its real one. */
function placeholderId(resource: ResourceModel): unknown {
  if (resource.idType === 'integer') return 1;
  return resource.idSchema['format'] === 'uuid' ? randomUUID() : 'id';
}

/**
 * `PUT /__admin/<resource>/<id>`: replaces one record with a JSON object (its id kept from the path, its readOnly
 * values from the record held, absent properties' defaults filled as a replace fills them), validated as the replace
 * operation validates its body when the spec has one, then always against the record schema.
 */
export function replaceOne(resource: ResourceModel, store: AnyRecordStore, rawId: string, text: string): Maybe<ConsoleAnswer> {
  const id = idOf(resource, rawId);
  const parsed = parseExact(text);
  if (!parsed.ok) return { error: 'MALFORMED_JSON', detail: `The request body is not valid JSON: ${parsed.message}.` };
  const value = parsed.document.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: 'INVALID_BODY', detail: 'The request body is invalid: body must be object.' };
  // The id and the server's own (readOnly) values come from the record held, as a replace operation keeps them.
  const fields = writable(resource, value as RecordValue);
  const body = resource.operations.replace?.body;
  if (body !== undefined) {
    const view = parseExact(exactJson(fields));
    if (view.ok && !body.validate(view.document.view)) return { error: 'INVALID_BODY', detail: `The request body is invalid: ${body.validate.errors()}.` };
  }
  return andThen(store.value(id), (previous): Maybe<ConsoleAnswer> => {
    if (previous === undefined) return notFound(resource, rawId);
    const record = recordFromBody(resource, fields, previous);
    const invalid = recordProblem(resource, { ...record, [resource.idProperty]: id });
    if (invalid !== undefined) return invalid;
    return andThen(store.replace(id, record), (json): ConsoleAnswer => (json === undefined ? notFound(resource, rawId) : { status: 200, body: json }));
  });
}

/** `GET /__admin/<resource>/<id>`: the record, or 404 with the resource's code (`PET_NOT_FOUND`). */
export function readOne(resource: ResourceModel, store: AnyRecordStore, rawId: string): Maybe<ConsoleAnswer> {
  return andThen(store.get(idOf(resource, rawId)), (json): ConsoleAnswer => (json === undefined ? notFound(resource, rawId) : { status: 200, body: json }));
}

/** `DELETE /__admin/<resource>/<id>`: 204, or 404 with the resource's code. */
export function deleteOne(resource: ResourceModel, store: AnyRecordStore, rawId: string): Maybe<ConsoleAnswer> {
  return andThen(store.delete(idOf(resource, rawId)), (json): ConsoleAnswer => (json === undefined ? notFound(resource, rawId) : { status: 204, body: '' }));
}

/**
 * `POST /__admin/<resource>/generate?count=N` (1..10,000): N new schema-valid records (mock/generate.ts);
 * `{"created":N}`, with `"full":true` when `--max-records` stopped it early (409 `STORE_FULL` when none fitted).
 */
export function generate(resource: ResourceModel, store: AnyRecordStore, query: URLSearchParams): Maybe<ConsoleAnswer> {
  const count = wholeNumber(query.get('count'), 10);
  if (count === undefined || count < 1 || count > MAX_GENERATED) return { error: 'INVALID_QUERY', detail: `count must be a whole number from 1 to ${MAX_GENERATED}.` };
  let records: RecordValue[];
  try {
    records = generateRecords(resource, count);
  } catch (error) {
    return { error: 'INVALID_RECORDS', code: `INVALID_${singularCode(resource.name)}S`, detail: (error as Error).message };
  }
  let created = 0;
  let full = false;
  const step = (index: number): Maybe<ConsoleAnswer> => {
    for (let i = index; i < records.length; i++) {
      const result = store.create(recordFromBody(resource, records[i]!));
      if (result instanceof Promise) {
        return result.then((answered) => {
          if (!answered.ok) {
            full = true;
            return stop();
          }
          created++;
          return step(i + 1);
        });
      }
      if (!result.ok) {
        full = true;
        break;
      }
      created++;
    }
    return stop();
  };
  const stop = (): ConsoleAnswer =>
    full && created === 0 ? { error: 'STORE_FULL', detail: `The mock holds its maximum of ${store.maxRecords} ${resource.name}.` } : { status: 201, body: JSON.stringify(full ? { created, full: true } : { created }) };
  return step(0);
}

/** Record-schema validators whose messages read as the pipeline's (`body/name must be string`), one per resource. */
const recordValidators = new WeakMap<ResourceModel, Validator>();

function recordProblem(resource: ResourceModel, record: RecordValue): ConsoleAnswer | undefined {
  let validate = recordValidators.get(resource);
  if (validate === undefined) {
    validate = compile(createAjv(), resource.recordSchema, 'body');
    recordValidators.set(resource, validate);
  }
  const view = parseExact(exactJson(record));
  if (view.ok && validate(view.document.view)) return undefined;
  return { error: 'INVALID_BODY', detail: `The request body is invalid: ${view.ok ? validate.errors() : 'it is not JSON'}.` };
}

function notFound(resource: ResourceModel, rawId: string): ConsoleAnswer {
  return { error: 'RECORD_NOT_FOUND', code: `${singularCode(resource.name)}_NOT_FOUND`, detail: `No ${singularWord(resource.name)} has the ${resource.idProperty} ${rawId}.` };
}

function idOf(resource: ResourceModel, raw: string): RecordId {
  let text = raw;
  try {
    text = decodeURIComponent(raw);
  } catch {
    // A malformed escape names no record: kept as is, it is simply not found.
  }
  return resource.idType === 'integer' && /^-?\d{1,19}$/.test(text) ? BigInt(text) : text;
}

function wholeNumber(text: string | null, fallback: number): number | undefined {
  if (text === null || text === '') return fallback;
  return /^\d{1,9}$/.test(text) ? Number(text) : undefined;
}
