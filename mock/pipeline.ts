import type { IncomingHttpHeaders } from 'node:http';
import { bearerToken, headerForm, sameKey } from './bearer.js';
import { apiError, type ErrorCode } from './errors.js';
import { handlers } from './handlers.js';
import { parseJsonBody } from './json.js';
import { describe, type Api, type Operation } from './operations.js';
import { forcedResponse } from './prefer.js';
import { queryPairs } from './query.js';
import type { PetStore } from './store.js';

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

/** What the pipeline needs besides the spec: the accepted API keys and the store. */
export interface PipelineOptions {
  /** Keys accepted in `Authorization: Bearer <key>` (seed, Authentication). At least one. */
  apiKeys: readonly string[];
  store: PetStore;
  /** Called for each authenticated call of a deprecated operation (seed, Endpoints §3), for the log's warning. */
  onDeprecated?: ((operation: Operation) => void) | undefined;
}

/** Everything that may stop a request before its handler runs: a row of the error table and its detail. */
type Refusal = { error: ErrorCode; detail?: string | undefined; headers?: Record<string, string> };

const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json' });
/** A shared empty list (no path segments, no query pairs); never written to. */
const NONE: readonly string[] = Object.freeze([]);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Builds the mock's request pipeline from the spec (STYLE 2): route → authenticate → validate → handle.
 * The result answers every request; it never throws for any input, and every error is the seed's `Error`
 * with `status` equal to the HTTP status (seed, Errors).
 */
export function createPipeline(api: Api, options: PipelineOptions): (request: MockRequest) => MockResponse {
  const acceptedKeys = options.apiKeys.map(headerForm);
  const knownPaths = api.operations.map((op) => `${op.method} ${api.basePath}${op.path}`).join(', ');
  // Paths without a template (`/v1/pets`) are found by one lookup; the others by their pattern (route()).
  const literalPaths = new Map<string, Map<string, Operation>>();
  for (const op of api.operations) {
    if (op.path.includes('{')) continue;
    const path = `${api.basePath}${op.path}`;
    if (!literalPaths.has(path)) literalPaths.set(path, new Map());
    literalPaths.get(path)!.set(op.method, op);
  }
  // Each operation's handler and the headers of its success answer, looked up once (headers shared: frozen).
  const served = new Map(api.operations.map((op) => [op, { handler: handlers[op.operationId], headers: Object.freeze(headersOf(op)) }] as const));

  return function handle(request) {
    const queryAt = request.url.indexOf('?');
    const pathname = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
    const search = queryAt === -1 ? '' : request.url.slice(queryAt + 1);
    const method = request.method === 'HEAD' ? 'GET' : request.method;

    // 1. Route: a path without a template by one lookup; else the operation whose template matches, then the method.
    let operation = literalPaths.get(pathname)?.get(method);
    let segments = NONE;
    if (operation === undefined) {
      const routed = route(api, method, pathname);
      if ('error' in routed) {
        return refuse(routed.error === 'ROUTE_NOT_FOUND' ? { ...routed, detail: `No operation is served at ${pathname}. Operations: ${knownPaths}.` } : routed);
      }
      if (routed.operation === undefined) return { status: 204, headers: { allow: routed.allow }, body: '' };
      ({ operation, segments } = routed);
    }

    // 2. Authenticate: `Authorization: Bearer <key>` with an accepted key (seed, Authentication).
    const authorization = request.headers.authorization;
    if (operation.secured && !authenticated(authorization, acceptedKeys)) {
      return refuse({ error: 'UNAUTHORIZED', headers: { 'www-authenticate': 'Bearer' } });
    }
    if (operation.deprecated) options.onDeprecated?.(operation);
    // 2b. `Prefer: code=<status>` (Prism's convention, README › Forcing responses): a documented error of the operation.
    if (request.headers.prefer !== undefined) {
      const forced = forcedResponse(operation, request.headers.prefer);
      if (forced !== undefined) return refuse(forced);
    }

    // 3. Validate parameters and body against the spec.
    const input = validate(operation, segments, search, request);
    if ('error' in input) return refuse(input);

    // 4. Handle: the state logic of the operation.
    const { handler, headers } = served.get(operation)!;
    const result = handler!({ store: options.store, query: input.query, path: input.path, body: input.body });
    if ('error' in result) return refuse(result);
    return { status: result.status, headers, body: result.json };
  };
}

type Routed = { operation: Operation; segments: readonly string[] } | { operation: undefined; allow: string } | Refusal;

function route(api: Api, method: string, pathname: string): Routed {
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

/**
 * Whether the header carries an accepted key (seed, Authentication), in constant time with respect to the
 * accepted keys (issue 5): the given key is compared with every accepted key by {@link sameKey} (no early
 * exit, work set by the accepted key's length only), so the time taken tells nothing of an accepted key's
 * bytes. `acceptedKeys` are in header form (one character per byte). No regex, `Buffer` or hash per request:
 * each cost microseconds under load (bench/RESULTS.md).
 */
function authenticated(header: string | undefined, acceptedKeys: readonly string[]): boolean {
  const given = bearerToken(header);
  if (given === undefined) return false;
  let ok = false;
  for (const key of acceptedKeys) ok = sameKey(given, key) || ok;
  return ok;
}

type ValidInput = { query: Record<string, unknown>; path: Record<string, unknown>; body: unknown };

function validate(operation: Operation, segments: readonly string[], search: string, request: MockRequest): ValidInput | Refusal {
  const path: Record<string, unknown> = {};
  for (let index = 0; index < operation.pathParams.length; index++) {
    const parameter = operation.pathParams[index]!;
    const raw = decodeSegment(segments[index]!);
    const coerced = parameter.coerce(raw);
    // A petId that is no int64 names no animal: 404, the status getPet documents (DECISIONS.md › Invalid petId).
    if (!coerced.ok) return { error: 'PET_NOT_FOUND', detail: `No animal has the id ${JSON.stringify(raw)}: ${coerced.message}.` };
    path[parameter.name] = coerced.value;
  }

  const query: Record<string, unknown> = {};
  const pairs = operation.queryParams.length === 0 ? NONE : queryPairs(search);
  for (const parameter of operation.queryParams) {
    let count = 0;
    let value = '';
    for (let i = 0; i < pairs.length; i += 2) {
      if (pairs[i] === parameter.name && count++ === 0) value = pairs[i + 1]!;
    }
    if (count > 1) return { error: 'INVALID_QUERY', detail: `${parameter.name} must be given at most once, got ${count} values.` };
    if (count === 0) {
      if (parameter.required) return { error: 'INVALID_QUERY', detail: `${parameter.name} is required.` };
      if (parameter.schema.default !== undefined) query[parameter.name] = parameter.schema.default;
      continue;
    }
    const coerced = parameter.coerce(value);
    if (!coerced.ok) return { error: 'INVALID_QUERY', detail: `${coerced.message}.` };
    query[parameter.name] = coerced.value;
  }

  if (operation.body === undefined) return { query, path, body: undefined };
  const bytes = request.body;
  if (bytes === undefined || bytes.length === 0) {
    return operation.body.required ? { error: 'BODY_REQUIRED' } : { query, path, body: undefined };
  }
  const mediaType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (!operation.body.mediaTypes.includes(mediaType)) {
    return { error: 'UNSUPPORTED_MEDIA_TYPE', detail: `The body must be sent as Content-Type: ${operation.body.mediaTypes.join(' or ')}, got ${JSON.stringify(mediaType || '(none)')}.` };
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { error: 'MALFORMED_JSON', detail: 'The request body is not valid UTF-8.' };
  }
  const parsed = parseJsonBody(text);
  if (!parsed.ok) return { error: 'MALFORMED_JSON', detail: parsed.message };
  const { value, view, overflows } = parsed.body;
  const problems: string[] = overflows.map((pointer) => `body${pointer} must be an int64 integer (from -9223372036854775808 to 9223372036854775807)`);
  if (!operation.body.validate(view)) problems.push(describe(operation.body.validate.errors, 'body'));
  if (problems.length > 0) return { error: 'INVALID_BODY', detail: `The request body is invalid: ${problems.join('; ')}.` };
  return { query, path, body: value };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Headers of an operation's success answer: JSON, and for a deprecated one `Deprecation` and `Sunset` (seed, Endpoints §3; DECISIONS D21). */
function headersOf(operation: Operation): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (operation.deprecated) {
    headers['deprecation'] = 'true';
    if (operation.sunset !== undefined) headers['sunset'] = new Date(`${operation.sunset}T00:00:00Z`).toUTCString();
  }
  return headers;
}

function refuse(refusal: Refusal): MockResponse {
  const error = apiError(refusal.error, refusal.detail);
  return { status: error.status, headers: refusal.headers === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...refusal.headers }, body: JSON.stringify(error) };
}
