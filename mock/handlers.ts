import { statusAnswers, successAnswer, type ContentAnswer } from './answers.js';
import { toView } from '../spec/json.js';
import type { OperationModel, ResourceModel } from '../spec/model.js';
import type { ErrorCode } from './errors.js';
import { listHandler } from './lists.js';
import { mergePatch, recordFromBody, singularCode, singularWord } from './records.js';
import { andThen, type AnyRecordStore, type Maybe, type RecordId, type RecordValue } from './store/record-store.js';

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
  /** The request's path and query as sent (`/v1/pets?page=2`): lists link their other pages with it. */
  url?: string;
  /** The request's `Host` header, for links whose schema asks for an absolute URI. */
  host?: string | undefined;
}

/**
 * A handler's answer: a status with a JSON text body (empty for none), or a row of the error table; `code`
 * replaces the row's name in the body (`PET_NOT_FOUND` for the row `RECORD_NOT_FOUND` of `pets`).
 */
export type OperationResult =
  | {
      status: number;
      json: string;
      /** Another media type than the success's JSON one, with its text in `json` or its `bytes`. */
      mediaType?: string;
      bytes?: Buffer;
      /** Headers the answer adds (a list's `Link`, `X-Total-Count`; a create's `Location`). */
      headers?: Record<string, string>;
    }
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
  // A sub-path view of a collection (spec/DECISIONS.md › D48) lists that resource's records.
  if (resource !== undefined && op.role === undefined && resource.views.some((view) => view.operation === op)) return listHandler(op, resource);
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
