import { sampleOf } from '../spec/error-shape.js';
import { statusAnswers, successAnswer, type ContentAnswer } from './answers.js';
import { canonicalJson, toView } from '../spec/json.js';
import type { OperationModel, ResourceModel } from '../spec/model.js';
import { mainType, objectShape, type Schema } from '../spec/schema.js';
import type { ErrorCode } from './errors.js';
import { mergePatch, recordFromBody, singularCode, singularWord } from './records.js';
import { andThen, filterKey, type AnyRecordStore, type Maybe, type RecordId, type RecordValue } from './store/record-store.js';

/**
 * What a handler receives once the request has been routed, authenticated and validated against the spec:
 * parameters already coerced (int64 as `bigint`, other integers as `number`), the body as parsed exactly.
 */
export interface OperationInput {
  /** The store of the operation's resource (in memory, or over the network); `undefined` for an operation no resource holds. */
  store: AnyRecordStore | undefined;
  query: Record<string, unknown>;
  path: Record<string, unknown>;
  body: unknown;
  /** The media type the pipeline negotiated for the success answer (`Accept`), when the success documents a body. */
  mediaType?: string | undefined;
}

/**
 * A handler's answer: a status with a JSON text body (empty for none), or a row of the error table; `code`
 * replaces the row's name in the body (`PET_NOT_FOUND` for the row `RECORD_NOT_FOUND` of `pets`).
 */
export type OperationResult =
  | { status: number; json: string; /** Another media type than the success's JSON one, with its text in `json` or its `bytes`. */ mediaType?: string; bytes?: Buffer }
  | { error: ErrorCode; detail?: string; code?: string };

/**
 * The state logic of one operation. Validation has already happened. The answer is there at once with the
 * in-memory store, and a promise with a store over the network (README › Several replicas).
 */
export type Handler = (input: OperationInput) => Maybe<OperationResult>;

/**
 * The handler of an operation, by the part it plays for its resource (README › Resources): list, create,
 * read, replace, update, delete; an operation no resource holds answers its documented success with the
 * spec's example or a schema-valid sample, as Prism does.
 */
export function compileHandler(op: OperationModel): Handler {
  const resource = op.resource;
  if (resource === undefined || op.role === undefined) return exampleHandler(op);
  const status = op.successStatus;
  const withBody = op.responses.some((r) => r.status === String(status) && r.schema !== undefined);
  const idParameter = op.pathParams.at(-1)?.name;
  const notFound = (id: unknown): OperationResult => ({
    error: 'RECORD_NOT_FOUND',
    code: `${singularCode(resource.name)}_NOT_FOUND`,
    detail: `No ${singularWord(resource.name)} has the ${idParameter ?? resource.idProperty} ${String(id)}.`,
  });
  // The path value as the store's id: a path parameter declared as a string still names an integer id by its digits.
  const idOf = (path: Record<string, unknown>): RecordId => {
    const raw = path[idParameter!];
    if (resource.idType === 'string') return String(raw);
    if (typeof raw === 'bigint') return raw;
    if (typeof raw === 'number' && Number.isSafeInteger(raw)) return BigInt(raw);
    return typeof raw === 'string' && /^-?\d{1,19}$/.test(raw) ? BigInt(raw) : String(raw);
  };
  switch (op.role) {
    case 'list':
      return listHandler(op, resource);
    case 'create':
      return ({ store, body }) =>
        andThen(store!.create(recordFromBody(resource, body as RecordValue)), (created): OperationResult => {
          if (created.ok) return { status, json: withBody ? created.json : '' };
          return created.reason === 'full'
            ? { error: 'STORE_FULL', detail: `The mock holds its maximum of ${store!.maxRecords} ${resource.name}; restart it or reset its data to add more.` }
            : { error: 'STORE_FULL', detail: `Every int64 ${resource.idProperty} above the largest stored one is taken.` };
        });
    case 'read':
      return ({ store, path }) => andThen(store!.get(idOf(path)), (json) => (json === undefined ? notFound(idOf(path)) : { status, json: withBody ? json : '' }));
    case 'replace':
      return ({ store, path, body }) => {
        const id = idOf(path);
        return andThen(store!.value(id), (previous) => {
          if (previous === undefined) return notFound(id);
          const record = recordFromBody(resource, body as RecordValue, previous);
          const invalid = recordProblem(resource, { ...record, [resource.idProperty]: id });
          if (invalid !== undefined) return invalid;
          // Another replica may delete the record between the read and the write: then it is not found.
          return andThen(store!.replace(id, record), (json) => (json === undefined ? notFound(id) : { status, json: withBody ? json : '' }));
        });
      };
    case 'update':
      return ({ store, path, body }) => {
        const id = idOf(path);
        return andThen(store!.value(id), (previous) => {
          if (previous === undefined) return notFound(id);
          const merged = mergePatch(resource, previous, (body ?? {}) as RecordValue);
          const invalid = recordProblem(resource, merged);
          if (invalid !== undefined) return invalid;
          return andThen(store!.replace(id, merged), (json) => (json === undefined ? notFound(id) : { status, json: withBody ? json : '' }));
        });
      };
    case 'delete':
      return ({ store, path }) => andThen(store!.delete(idOf(path)), (json) => (json === undefined ? notFound(idOf(path)) : { status, json: withBody ? json : '' }));
  }
}

/** A 400 when the record a replace or update makes breaks the record schema (a PATCH removing a required property). */
function recordProblem(resource: ResourceModel, record: RecordValue): OperationResult | undefined {
  if (resource.validateRecord(toView(record))) return undefined;
  return { error: 'INVALID_BODY', detail: `The ${singularWord(resource.name)} would be invalid: ${resource.validateRecord.errors() || 'it does not match its schema'}.` };
}

/**
 * Lists records (README › Resources › Lists): each filter keeps the records whose property equals the
 * parameter's value (int64 exactly); the limit parameter's value, else its default, bounds the page (no limit
 * parameter: every record); newest first. A wrapper list puts the page in its array property, the number of
 * matching records in an integer `total`/`count`, and a sample in any other required property.
 */
function listHandler(op: OperationModel, resource: ResourceModel): Handler {
  const filters = resource.filters.map((filter) => filter.parameter.name);
  // A parameter declared as text for a numeric or boolean property (`?rank=2` with `type: string`) compares by value.
  const converts = resource.filters.map((filter) => filter.parameter.type === 'string' && ['integer', 'number', 'boolean'].includes(mainType(resource.properties[filter.property] ?? {}) ?? ''));
  const keyOf = (query: Record<string, unknown>, i: number): unknown => {
    const value = query[filters[i]!];
    if (!converts[i] || typeof value !== 'string') return filterKey(value);
    if (value === 'true' || value === 'false') return value === 'true';
    return /^-?\d+$/.test(value) ? BigInt(value) : Number.isNaN(Number(value)) ? value : filterKey(Number(value));
  };
  const limit = resource.limit;
  const fallback = limit?.default ?? Infinity;
  const shape = resource.listShape;
  if (shape === undefined || shape.kind === 'array') {
    return ({ store, query }) => {
      const keys = filters.length === 0 ? filters : filters.map((_, i) => keyOf(query, i));
      const size = limit === undefined ? Infinity : Number(query[limit.parameter] ?? fallback);
      return andThen(store!.list({ keys, limit: size }), (page) => ({ status: op.successStatus, json: page.json }));
    };
  }
  const wrapper = wrapperWriter(shape.schema, shape.itemsProperty);
  return ({ store, query }) => {
    const keys = filters.map((_, i) => keyOf(query, i));
    const size = limit === undefined ? Infinity : Number(query[limit.parameter] ?? fallback);
    return andThen(store!.list({ keys, limit: size, countAll: wrapper.counts }), (page) => ({ status: op.successStatus, json: wrapper.write(page.json, page.total) }));
  };
}

const COUNT_NAMES = /^(total|count|totalCount|total_count|totalItems|total_items|totalElements|size)$/;

/** One member of a wrapper list: the page, the count of matches, or a fixed sample (JSON text). */
type WrapperPart = { key: string; kind: 'page' } | { key: string; kind: 'total' } | { key: string; kind: 'sample'; json: string };

function wrapperWriter(schema: Schema, itemsProperty: string): { counts: boolean; write: (page: string, total: number) => string } {
  const { properties, required } = objectShape(schema);
  const parts: WrapperPart[] = [];
  for (const [name, sub] of Object.entries(properties)) {
    const key = JSON.stringify(name);
    if (name === itemsProperty) parts.push({ key, kind: 'page' });
    else if (COUNT_NAMES.test(name) && mainType(sub) === 'integer') parts.push({ key, kind: 'total' });
    else if (required.includes(name)) parts.push({ key, kind: 'sample', json: canonicalJson(sampleOf(sub)) });
  }
  const text = (part: WrapperPart, page: string, total: number): string => (part.kind === 'page' ? page : part.kind === 'total' ? String(total) : part.json);
  return {
    counts: parts.some((part) => part.kind === 'total'),
    write: (page, total) => `{${parts.map((part) => `${part.key}:${text(part, page, total)}`).join(',')}}`,
  };
}

/**
 * An operation no resource holds: its success status (or, documenting none, its 3xx or `default`: see
 * `successAnswer`) with the spec's first valid example, else a schema-valid sample (Prism's way, checked:
 * spec/DECISIONS.md › D55), in the media type the pipeline negotiated.
 */
function exampleHandler(op: OperationModel): Handler {
  const { status, response } = successAnswer(op);
  if (status === 204 || response === undefined || response.contents.length === 0) return () => ({ status, json: '' });
  // Made on first use (or by the start-up check, mock/answers.ts): a spec of hundreds of operations starts at once.
  let byType: Map<string, ContentAnswer> | undefined;
  return ({ mediaType }) => {
    byType ??= new Map([...statusAnswers(response).byContent].map(([content, answer]) => [content.mediaType, answer]));
    const answer = (mediaType === undefined ? undefined : byType.get(mediaType)) ?? byType.get(response.mediaType ?? '') ?? [...byType.values()][0]!;
    const payload = answer.payload;
    return payload.bytes === undefined ? { status, json: payload.text, mediaType: answer.mediaType } : { status, json: '', mediaType: answer.mediaType, bytes: payload.bytes };
  };
}
