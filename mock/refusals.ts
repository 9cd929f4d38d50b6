import { createErrorShape } from '../model/error-shape.js';
import type { ErrorShape } from '../model/model.js';
import { mediaKind } from '../model/media.js';
import type { ApiModel, OperationModel, ResponseModel } from '../model/model.js';
import { ERRORS, type ErrorCode } from './errors.js';
import type { MockRequest, MockResponse } from './messages.js';

/** Everything that may stop a request before its handler runs: a row of the error table, its detail, and the body's code. */
export type Refusal = { error: ErrorCode; detail?: string | undefined; headers?: Record<string, string>; code?: string | undefined };

const JSON_TYPE = 'application/json';
const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': JSON_TYPE });
const SEED_ERRORS = createErrorShape([]);

/** The error answer of a refusal, its body in the shape `shape` documents for the row's status. */
export function refuse(shape: ErrorShape, refusal: Refusal): MockResponse {
  const row = ERRORS[refusal.error];
  const status = INVALID_BODY.has(refusal.error) ? (shape.invalidBodyStatus ?? shape.invalidRequestStatus) : INVALID_REQUEST.has(refusal.error) ? shape.invalidRequestStatus : row.status;
  const { text, mediaType } = shape.write({ code: refusal.code ?? refusal.error, message: refusal.detail ?? row.message, status });
  const headers = mediaType === JSON_TYPE && refusal.headers === undefined ? JSON_HEADERS : { 'content-type': mediaType, ...refusal.headers };
  return { status, headers, body: text };
}

/** The rows that refuse what the request says (its body, query or form): 400, or the 422 an operation documents instead (D74). */
const INVALID_REQUEST: ReadonlySet<ErrorCode> = new Set(['INVALID_BODY', 'MALFORMED_JSON', 'BODY_REQUIRED', 'INVALID_QUERY', 'INVALID_HEADER', 'MALFORMED_FORM', 'RECORD_EXISTS_INVALID']);

/** The rows that refuse a body its schema rejects, or a required body left out: 422 where the operation documents it as validation (D143). */
const INVALID_BODY: ReadonlySet<ErrorCode> = new Set(['INVALID_BODY', 'BODY_REQUIRED']);

/** Whether an operation documents a body for any error status (`4xx`, `5xx`, `4XX`, `default`). */
export function documentsErrorBody(op: OperationModel): boolean {
  return op.responses.some((r) => /^[45]|^DEFAULT$/.test(r.status) && r.contents.length > 0);
}

const unroutedByApi = new WeakMap<ApiModel, (status: number) => ErrorShape>();

/**
 * An error the HTTP adapter answers itself, before the pipeline (413 for a body too large, 408, 431, a malformed
 * request), in the shape and media type the spec documents: the routed operation's, else the API's for that
 * status, else the seed's `Error` (README › Error bodies). `request` may be a stand-in when none was parsed.
 */
export function adapterError(api: ApiModel, request: Pick<MockRequest, 'method' | 'url'>, code: ErrorCode, detail?: string): MockResponse {
  let unrouted = unroutedByApi.get(api);
  if (unrouted === undefined) unroutedByApi.set(api, (unrouted = unroutedShapes(api)));
  const queryAt = request.url.indexOf('?');
  const pathname = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
  const path = pathname.startsWith(`${api.basePath}/`) ? pathname.slice(api.basePath.length) : undefined;
  const matching = path === undefined ? [] : api.operations.filter((op) => op.pattern.test(path));
  const operation = matching.find((op) => op.method === routingMethod(api, request.method, pathname));
  const shape = operation !== undefined && documentsErrorBody(operation) ? operation.errors : unrouted(ERRORS[code].status);
  return refuse(shape, { error: code, detail });
}

/**
 * For a request no operation answers (404, 405), or an operation that documents no error body: the JSON error shape
 * some operation documents for that status, else any documented JSON error shape, else the seed's (D551).
 */
export function unroutedShapes(api: ApiModel): (status: number) => ErrorShape {
  const cache = new Map<number, ErrorShape>();
  return (status) => {
    let shape = cache.get(status);
    if (shape === undefined) {
      // Only a JSON error is lent to other operations: one upload's `text/plain` 400 says nothing of how the API's
      // other operations err, and an error an operation does not document is JSON to its clients (D59, D551).
      const lent = (r: ResponseModel) => r.schema !== undefined && r.contents.some((c) => mediaKind(c.mediaType) === 'json');
      const documenting = (names: string[]) => api.operations.find((op) => op.responses.some((r) => names.includes(r.status) && lent(r)));
      // A schema documented for this very status first, then for its range, then for `default`.
      const anyError = () => api.operations.find((op) => op.responses.some((r) => /^[45]|^DEFAULT$/.test(r.status) && lent(r)));
      shape = (documenting([String(status)]) ?? documenting([`${String(status)[0]}XX`]) ?? documenting(['DEFAULT']) ?? anyError())?.errors ?? SEED_ERRORS;
      cache.set(status, shape);
    }
    return shape;
  };
}

const slashed = new WeakMap<ApiModel, boolean>();

/**
 * The same path with its trailing slash removed, or added when it has none (spec/DECISIONS.md › D500), for a
 * description that writes some of its own paths with a trailing slash (its server routes both forms); `undefined`
 * for any other description (D23: no path normalisation), and for the root `/` and an empty path.
 */
export function slashToggled(api: ApiModel, path: string): string | undefined {
  let writes = slashed.get(api);
  if (writes === undefined) slashed.set(api, (writes = api.operations.some((op) => op.path.length > 1 && op.path.endsWith('/'))));
  if (!writes || path === '' || path === '/') return undefined;
  return path.endsWith('/') ? path.slice(0, -1) : `${path}/`;
}

/**
 * The method a request is routed by: its own, except a `HEAD`, answered as the `GET` of its path (RFC 9110 § 9.3.2)
 * unless the spec documents a `HEAD` operation there (a description may give `HEAD` its own responses: D343).
 */
export function routingMethod(api: ApiModel, method: string, pathname: string): string {
  if (method !== 'HEAD') return method;
  const path = pathname.startsWith(`${api.basePath}/`) ? pathname.slice(api.basePath.length) : undefined;
  return path !== undefined && api.operations.some((op) => op.method === 'HEAD' && op.pattern.test(path)) ? 'HEAD' : 'GET';
}
