import type { IncomingHttpHeaders } from 'node:http';
import { createErrorShape, type ErrorShape } from '../spec/error-shape.js';
import { toView } from '../spec/json.js';
import type { ApiModel, OperationModel } from '../spec/model.js';
import { isFormMediaType } from '../spec/resources.js';
import { compileAuth, type Authenticator } from './auth.js';
import { ERRORS, type ErrorCode } from './errors.js';
import { compileHandler, type Handler, type OperationResult } from './handlers.js';
import { parseForm } from './forms.js';
import { parseJsonBody } from './json.js';
import { compileCoercion, type Coercion } from './parameters.js';
import { forcedResponse } from './prefer.js';
import { queryPairs } from './query.js';
import { singularCode } from './records.js';
import { STORE_RETRY_AFTER_SECONDS, StoreUnavailableError, type AnyRecordStore, type Maybe, type RecordStore } from './store/record-store.js';

/** A request as the pipeline sees it, whatever carried it (a socket, or a test calling in-process). */
export interface MockRequest {
  method: string;
  /** Path and query as sent, for example `/v1/pets?limit=5`. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The raw body bytes; `undefined` or empty when none was sent. */
  body?: Buffer | undefined;
}

/** The pipeline's answer: status, headers and a JSON text body (empty for 204). */
export interface MockResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The records a pipeline serves: one store per resource, by resource name. */
export type Dataset = ReadonlyMap<string, RecordStore>;

/** A dataset of either store: in memory, or over the network (README › Several replicas). */
export type AnyDataset = ReadonlyMap<string, AnyRecordStore>;

/** What the pipeline needs besides the spec: the accepted API keys and the data. */
export interface PipelineOptions {
  /** Keys accepted by the operations' security schemes (README › Authentication). */
  apiKeys: readonly string[];
  data: AnyDataset;
  /** Called for each authenticated call of a deprecated operation (seed, Endpoints §3), for the log's warning. */
  onDeprecated?: ((operation: OperationModel) => void) | undefined;
}

/** Everything that may stop a request before its handler runs: a row of the error table, its detail, and the body's code. */
export type Refusal = { error: ErrorCode; detail?: string | undefined; headers?: Record<string, string>; code?: string | undefined };

/** An operation compiled once: its checks, its handler and the headers of its success answer (frozen, shared). */
interface Served {
  op: OperationModel;
  auth: Authenticator;
  unauthorized: string;
  path: Coercion[];
  query: Coercion[];
  handler: Handler;
  headers: Readonly<Record<string, string>>;
}

const JSON_TYPE = 'application/json';
/** A shared empty list (no path segments, no query pairs); never written to. */
const NONE: readonly string[] = Object.freeze([]);
const utf8 = new TextDecoder('utf-8', { fatal: true });
const SEED_ERRORS = createErrorShape([]);

/**
 * Builds the mock's request pipeline from the model: route → authenticate → validate → handle.
 * The result answers every request; it never throws for any input, and every error body has the shape the
 * operation documents for its status (README › Error bodies; the seed's `Error` when it documents none).
 */
export function createPipeline(api: ApiModel, options: PipelineOptions & { data: Dataset }): (request: MockRequest) => MockResponse;
export function createPipeline(api: ApiModel, options: PipelineOptions): (request: MockRequest) => Maybe<MockResponse>;
export function createPipeline(api: ApiModel, options: PipelineOptions): (request: MockRequest) => Maybe<MockResponse> {
  const knownPaths = api.operations.map((op) => `${op.method} ${api.basePath}${op.path}`).join(', ');
  const served = new Map<OperationModel, Served>(api.operations.map((op) => [op, serve(op, options.apiKeys, api)]));
  // Paths without a template (`/v1/pets`) are found by one lookup; the others by their pattern (route()).
  const literalPaths = new Map<string, Map<string, Served>>();
  for (const op of api.operations) {
    if (op.path.includes('{')) continue;
    const path = `${api.basePath}${op.path}`;
    if (!literalPaths.has(path)) literalPaths.set(path, new Map());
    if (!literalPaths.get(path)!.has(op.method)) literalPaths.get(path)!.set(op.method, served.get(op)!);
  }
  const stores = new Map(api.operations.map((op) => [op, op.resource === undefined ? undefined : options.data.get(op.resource.name)]));
  const parentStores = new Map(api.operations.map((op) => [op, op.resource?.parent === undefined ? undefined : options.data.get(op.resource.parent.resource)]));
  const unrouted = unroutedShapes(api);

  return function handle(request) {
    const queryAt = request.url.indexOf('?');
    const pathname = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
    const search = queryAt === -1 ? '' : request.url.slice(queryAt + 1);
    const method = request.method === 'HEAD' ? 'GET' : request.method;

    // 1. Route: a path without a template by one lookup; else the operation whose template matches, then the method.
    let entry = literalPaths.get(pathname)?.get(method);
    let segments = NONE;
    if (entry === undefined) {
      const routed = route(api, method, pathname);
      if ('error' in routed) {
        const refusal = routed.error === 'ROUTE_NOT_FOUND' ? { ...routed, detail: `No operation is served at ${pathname}. Operations: ${knownPaths}.` } : routed;
        return refuse(unrouted(ERRORS[refusal.error].status), refusal);
      }
      if (routed.operation === undefined) return { status: 204, headers: { allow: routed.allow }, body: '' };
      entry = served.get(routed.operation)!;
      segments = routed.segments;
    }
    const op = entry.op;

    // 2. Authenticate by the operation's security schemes (seed, Authentication: a bearer key).
    if (entry.auth.check !== undefined && !entry.auth.check(request, search)) {
      return refuse(op.errors, { error: 'UNAUTHORIZED', detail: entry.unauthorized, ...(entry.auth.challenge === undefined ? {} : { headers: entry.auth.challenge }) });
    }
    if (op.deprecated) options.onDeprecated?.(op);
    // 2b. `Prefer: code=<status>` (Prism's convention, README › Forcing responses): a documented error of the operation.
    if (request.headers.prefer !== undefined) {
      const forced = forcedResponse(op, request.headers.prefer);
      if (forced !== undefined) return refuse(op.errors, forced.error === 'RECORD_NOT_FOUND' ? { ...forced, code: notFoundCode(op) } : forced);
    }

    // 3. Validate parameters and body against the spec.
    const input = validate(entry, segments, search, request);
    if ('error' in input) return refuse(op.errors, input);

    // 4. Handle: the state logic of the operation; with a store over the network, once it answered.
    const result = entry.handler({ store: stores.get(op), query: input.query, path: input.path, body: input.body, parentStore: parentStores.get(op), url: request.url, host: request.headers.host });
    if (result instanceof Promise) return result.then((answered) => respond(entry, answered), (error: unknown) => unavailable(op, error));
    return respond(entry, result);
  };
}

function respond(entry: Served, result: OperationResult): MockResponse {
  if ('error' in result) return refuse(entry.op.errors, result);
  const headers = result.json === '' ? NO_BODY : entry.headers;
  return { status: result.status, headers: result.headers === undefined ? headers : { ...headers, ...result.headers }, body: result.json };
}

/** A 503 in the operation's error shape when the shared store did not answer (README › Several replicas); any other failure is a bug, rethrown. */
function unavailable(op: OperationModel, error: unknown): MockResponse {
  if (!(error instanceof StoreUnavailableError)) throw error;
  return refuse(op.errors, { error: 'STORE_UNAVAILABLE', detail: `${ERRORS.STORE_UNAVAILABLE.message} (${error.message})`, headers: { 'retry-after': String(STORE_RETRY_AFTER_SECONDS) } });
}

const NO_BODY: Readonly<Record<string, string>> = Object.freeze({});

function serve(op: OperationModel, apiKeys: readonly string[], api: ApiModel): Served {
  const scheme = op.security[0];
  const unauthorized =
    scheme === undefined || scheme.kind === 'bearer'
      ? ERRORS.UNAUTHORIZED.message
      : scheme.kind === 'basic'
        ? 'Missing or invalid API key: send "Authorization: Basic <base64 of user:API_KEY>".'
        : `Missing or invalid API key: send it in the ${scheme.in} ${JSON.stringify(scheme.parameter)}.`;
  return {
    op,
    auth: compileAuth(op.security, apiKeys),
    unauthorized,
    path: op.pathParams.map(compileCoercion),
    query: op.queryParams.map(compileCoercion),
    handler: compileHandler(op, api),
    headers: Object.freeze(headersOf(op)),
  };
}

type Routed = { operation: OperationModel; segments: readonly string[] } | { operation: undefined; allow: string } | Refusal;

function route(api: ApiModel, method: string, pathname: string): Routed {
  if (!pathname.startsWith(`${api.basePath}/`)) return { error: 'ROUTE_NOT_FOUND' };
  const path = pathname.slice(api.basePath.length);
  // The common case first: an operation of this method matches. `Allow` is only worked out when none does.
  for (const op of api.operations) {
    if (op.method !== method) continue;
    const match = op.pattern.exec(path);
    if (match !== null) return { operation: op, segments: match.slice(1) };
  }
  const matching = api.operations.filter((op) => op.pattern.test(path));
  if (matching.length === 0) return { error: 'ROUTE_NOT_FOUND' };
  const allow = [...new Set(matching.flatMap((op) => (op.method === 'GET' ? ['GET', 'HEAD'] : [op.method]))), 'OPTIONS'].join(', ');
  if (method === 'OPTIONS') return { operation: undefined, allow };
  return { error: 'METHOD_NOT_ALLOWED', detail: `${method} is not allowed on ${pathname}; allowed: ${allow}.`, headers: { allow } };
}

/** For a request no operation answers (404, 405): the error shape some operation documents for that status, else the seed's. */
function unroutedShapes(api: ApiModel): (status: number) => ErrorShape {
  const cache = new Map<number, ErrorShape>();
  return (status) => {
    let shape = cache.get(status);
    if (shape === undefined) {
      const documenting = (names: string[]) => api.operations.find((op) => op.responses.some((r) => names.includes(r.status) && r.schema !== undefined));
      // A schema documented for this very status first, then for its range, then for `default`.
      shape = (documenting([String(status)]) ?? documenting([`${String(status)[0]}XX`]) ?? documenting(['DEFAULT']))?.errors ?? SEED_ERRORS;
      cache.set(status, shape);
    }
    return shape;
  };
}

type ValidInput = { query: Record<string, unknown>; path: Record<string, unknown>; body: unknown };

function validate(entry: Served, segments: readonly string[], search: string, request: MockRequest): ValidInput | Refusal {
  const op = entry.op;
  const path: Record<string, unknown> = {};
  for (let index = 0; index < op.pathParams.length; index++) {
    const parameter = op.pathParams[index]!;
    const raw = decodeSegment(segments[index]!);
    const coerced = entry.path[index]!(raw);
    // A path value that is no valid id names no record: 404, the status a read documents (spec/DECISIONS.md › D11).
    if (!coerced.ok) return { error: 'RECORD_NOT_FOUND', code: notFoundCode(op, parameter.name), detail: `Nothing has the ${parameter.name} ${JSON.stringify(raw)}: ${coerced.message}.` };
    path[parameter.name] = coerced.value;
  }

  const query: Record<string, unknown> = {};
  const pairs = op.queryParams.length === 0 ? NONE : queryPairs(search);
  for (let index = 0; index < op.queryParams.length; index++) {
    const parameter = op.queryParams[index]!;
    let count = 0;
    let value = '';
    for (let i = 0; i < pairs.length; i += 2) {
      if (pairs[i] === parameter.name && count++ === 0) value = pairs[i + 1]!;
    }
    if (count > 1 && parameter.type !== 'array') return { error: 'INVALID_QUERY', detail: `${parameter.name} must be given at most once, got ${count} values.` };
    if (count === 0) {
      if (parameter.required) return { error: 'INVALID_QUERY', detail: `${parameter.name} is required.` };
      if (parameter.schema['default'] !== undefined) query[parameter.name] = parameter.schema['default'];
      continue;
    }
    const raw = parameter.type === 'array' ? pairs.filter((_, i) => i % 2 === 1 && pairs[i - 1] === parameter.name) : value;
    const coerced = entry.query[index]!(raw);
    if (!coerced.ok) return { error: 'INVALID_QUERY', detail: `${coerced.message}.` };
    query[parameter.name] = coerced.value;
  }

  const body = op.body;
  if (body === undefined) return { query, path, body: undefined };
  const bytes = request.body;
  if (bytes === undefined || bytes.length === 0) {
    return body.required ? { error: 'BODY_REQUIRED' } : { query, path, body: undefined };
  }
  const mediaType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (!body.mediaTypes.includes(mediaType)) {
    return { error: 'UNSUPPORTED_MEDIA_TYPE', detail: `The body must be sent as Content-Type: ${body.mediaTypes.join(' or ')}, got ${JSON.stringify(mediaType || '(none)')}.` };
  }
  if (isFormMediaType(mediaType)) {
    const form = parseForm(bytes, request.headers['content-type']!, body.schema);
    if (!form.ok) return { error: 'MALFORMED_FORM', detail: form.message };
    if (!body.validate(toView(form.value))) return { error: 'INVALID_BODY', detail: `The request body is invalid: ${body.validate.errors()}.` };
    return { query, path, body: form.value };
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { error: 'MALFORMED_JSON', detail: 'The request body is not valid UTF-8.' };
  }
  const parsed = parseJsonBody(text);
  if (!parsed.ok) return { error: 'MALFORMED_JSON', detail: parsed.message };
  // Unknown properties are judged by the schema alone (`additionalProperties`); int64 by the schema's format.
  if (!body.validate(parsed.body.view)) return { error: 'INVALID_BODY', detail: `The request body is invalid: ${body.validate.errors()}.` };
  return { query, path, body: parsed.body.value };
}

/** The code of a 404: the resource's (`PET_NOT_FOUND`), or its parent's when `parameter` names the parent (D53). */
function notFoundCode(op: OperationModel, parameter?: string): string | undefined {
  const parent = op.resource?.parent;
  if (parent !== undefined && parameter === parent.parameter) return `${singularCode(parent.resource)}_NOT_FOUND`;
  return op.resource === undefined ? undefined : `${singularCode(op.resource.name)}_NOT_FOUND`;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Headers of an operation's success answer: its media type, and for a deprecated one `Deprecation` and `Sunset` (seed, Endpoints §3; DECISIONS D21). */
function headersOf(op: OperationModel): Record<string, string> {
  const success = op.responses.find((r) => r.status === String(op.successStatus));
  const headers: Record<string, string> = { 'content-type': success?.mediaType ?? JSON_TYPE };
  if (op.deprecated) {
    headers['deprecation'] = 'true';
    if (op.sunset !== undefined) headers['sunset'] = new Date(`${op.sunset}T00:00:00Z`).toUTCString();
  }
  return headers;
}

/** The error answer of a refusal, its body in the shape `shape` documents for the row's status. */
function refuse(shape: ErrorShape, refusal: Refusal): MockResponse {
  const row = ERRORS[refusal.error];
  const { value, mediaType } = shape.body({ code: refusal.code ?? refusal.error, message: refusal.detail ?? row.message, status: row.status });
  const headers = mediaType === JSON_TYPE && refusal.headers === undefined ? JSON_HEADERS : { 'content-type': mediaType, ...refusal.headers };
  return { status: row.status, headers, body: JSON.stringify(value) };
}

const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': JSON_TYPE });
