import type { ErrorShape } from '../model/model.js';
import type { MockRequest, MockResponse } from './messages.js';
import { parseExact, toView } from '../model/json.js';
import { concreteType, mediaKind, rangeFit, serialize } from '../model/media.js';
import { isJsonMediaType, mainType } from '../model/schema.js';
import type { ApiModel, ContentModel, OperationModel, ResponseModel } from '../model/model.js';
import { isFormMediaType } from '../model/resources.js';
import { reversedRangeIn } from '../model/windows.js';
import { documentedHeaders, negotiate, pickAnswer, successAnswer } from './answers.js';
import { compileAuth, type Authenticator } from './authenticate.js';
import { readIdentities } from './identity.js';
import { ERRORS } from './errors.js';
import { compileHandler } from './handlers.js';
import type { Handler, OperationResult } from './handler.js';
import { parseForm, type UploadedFile } from './forms.js';
import { parseJsonBody } from './exact-body.js';
import { bracketedMembers, compileCoercion, explodedMembers, type Coercion } from './parameters.js';
import { forcedResponse, type PreferExample } from './prefer.js';
import { queryPairs } from './query.js';
import { fixedQueryRouter } from './fixed-query.js';
import { fileTrees } from './file-tree.js';
import { singularCode } from './record-bodies.js';
import { bodyAsksStream, streamChunks } from './streams.js';
import type { StreamModel } from '../model/streams.js';
import { documentsErrorBody, refuse, routingMethod, slashToggled, unroutedShapes, type Refusal } from './refusals.js';
import { MemoryRecordStore } from './store/memory-store.js';
import { memberSourceOf, memberWriteOf } from './member-writes.js';
import { storesBelow } from './cascade.js';
import { STORE_RETRY_AFTER_SECONDS, StoreUnavailableError, type AnyRecordStore, type Maybe, type RecordStore } from './store/record-store.js';

/** The records a pipeline serves: one store per resource, by resource name. */
export type Dataset = ReadonlyMap<string, RecordStore>;

export type { Refusal } from './refusals.js';

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

/** An operation compiled once: its checks, its handler and the headers of its success answer (frozen, shared). */
interface Served {
  op: OperationModel;
  auth: Authenticator;
  unauthorized: string;
  path: Coercion[];
  query: Coercion[];
  header: Coercion[];
  handler: Handler;
  /** The operation's error shapes; the API's when the operation documents no error body at all (D58). */
  errors: ErrorShape;
  headers: Readonly<Record<string, string>>;
  /** The success headers of an answer without body: `headers` but `Content-Type` (a redirect's `Location`, `Deprecation`). */
  emptyHeaders: Readonly<Record<string, string>>;
  /** The documented response of the success status, whose media types `Accept` is matched against. */
  success: ResponseModel | undefined;
  /** Success headers per negotiated media type other than the default one (made on first use). */
  headersByType: Map<string, Readonly<Record<string, string>>>;
  /** The last `Accept` seen and the content it chose: clients repeat theirs, so most requests skip the parse. */
  lastAccept: string | string[] | undefined;
  lastContent: ContentModel | undefined;
  /** A list's last success answer and what it was made from: sent again while none of it changed. */
  memo: ListMemo | undefined;
  /** The success response's stream media types (D85), empty for most operations. */
  streams: ContentModel[];
  /** The success media type a stream's handler writes for (JSON first), whose answer becomes the events. */
  plainContent: ContentModel | undefined;
}

/**
 * The last answer of a list and what it depended on: the URL (path, filters, page), the negotiated content, the
 * `Host` (absolute links) and the versions of the resource's store and its parent's. Clients poll the same list;
 * an unchanged one costs a few comparisons instead of validation and a store read. The credentials are checked on
 * every request before the memo is looked at.
 */
interface ListMemo {
  url: string;
  content: ContentModel | undefined;
  host: string | undefined;
  version: number;
  parentVersion: number | undefined;
  response: MockResponse;
}

const JSON_TYPE = 'application/json';
/** A shared empty list (no path segments, no query pairs); never written to. */
const NONE: readonly string[] = Object.freeze([]);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Builds the mock's request pipeline from the model: route → authenticate → validate → handle.
 * The result answers every request; it never throws for any input, and every error body has the shape the
 * operation documents for its status (README › Error bodies; the seed's `Error` when it documents none).
 */
export function createPipeline(api: ApiModel, options: PipelineOptions & { data: Dataset }): (request: MockRequest) => MockResponse;
export function createPipeline(api: ApiModel, options: PipelineOptions): (request: MockRequest) => Maybe<MockResponse>;
export function createPipeline(api: ApiModel, options: PipelineOptions): (request: MockRequest) => Maybe<MockResponse> {
  const knownPaths = api.operations.map((op) => `${op.method} ${api.basePath}${op.path}`).join(', ');
  const unrouted = unroutedShapes(api);
  // Each operation is compiled on its first request (D580): a description of a thousand operations answers its
  // first request without building the handlers, answers and coercions of the others. What is built is the same
  // whichever operation comes first: nothing of one operation's compilation depends on another's.
  const served = new Map<OperationModel, Served>();
  const entryOf = (op: OperationModel): Served => {
    let entry = served.get(op);
    if (entry === undefined) served.set(op, (entry = serve(op, options.apiKeys, unrouted, api)));
    return entry;
  };
  // Paths without a template (`/v1/pets`) are found by one lookup; the others by their pattern (route()).
  const literalPaths = new Map<string, Map<string, OperationModel>>();
  for (const op of api.operations) {
    if (op.path.includes('{')) continue;
    const path = `${api.basePath}${op.path}`;
    if (!literalPaths.has(path)) literalPaths.set(path, new Map());
    if (!literalPaths.get(path)!.has(op.method)) literalPaths.get(path)!.set(op.method, op);
  }
  const withQuery = fixedQueryRouter(api);
  // Records addressed by a file path (D460): routed before the templates, whose parameters take one segment each.
  const trees = fileTrees(api, (op, refusal) => refuse(entryOf(op).errors, refusal));
  const storeOf = (name: string): AnyRecordStore | undefined => options.data.get(name);
  // A write to the members of a sub-collection no resource holds (D291) works on that collection's store.
  // An action on an item's record (D323) works on that record's store.
  const holders = new Map(api.operations.map((op) => [op, op.resource ?? op.acts ?? memberWriteOf(op, api.resources)?.resource]));
  const stores = new Map(api.operations.map((op) => [op, holders.get(op) === undefined ? undefined : options.data.get(holders.get(op)!.name)]));
  const parentStores = new Map(api.operations.map((op) => [op, holders.get(op)?.parent === undefined ? undefined : options.data.get(holders.get(op)!.parent!.resource)]));
  // A write of a sub-collection's members copies a member made already from its source collection (D294).
  const sourceStores = new Map(api.operations.map((op) => {
    const members = memberWriteOf(op, api.resources);
    const source = members === undefined ? undefined : memberSourceOf(op, members.resource, api.resources);
    return [op, source === undefined ? undefined : options.data.get(source.name)];
  }));
  // A delete removes what lived under the record too (D292): the stores of the resources below its own.
  const belowStores = new Map(api.operations.map((op) => [op, op.role === 'delete' && op.resource !== undefined ? storesBelow(op.resource, api.resources, (name) => options.data.get(name)) : undefined]));
  // A resource numbered per parent counts its siblings' numbers too, and writes its twins there (D240, D244).
  const siblingStores = new Map(api.operations.map((op) => [op, op.resource?.numbering === undefined ? undefined : new Map(op.resource.numbering.shared.flatMap((name) => { const store = options.data.get(name); return store === undefined ? [] : [[name, store] as const]; }))]));

  // A token the API's own login issued is accepted beside the mock's keys, and bound to its user (D480-D483).
  const identities = readIdentities(api);
  const authenticated = (entry: Served, request: MockRequest, search: string): boolean => entry.auth.check === undefined || entry.auth.check(request, search) || (identities?.accepts(entry.op, request, search) ?? false);
  // A path without the base path is the same call where the description's text says so (D600).
  const prefixed = api.unprefixed === true ? (url: string): string => (url === api.basePath || url.startsWith(`${api.basePath}/`) || url.startsWith(`${api.basePath}?`) ? url : `${api.basePath}${url}`) : undefined;
  const handle = (sent: MockRequest): Maybe<MockResponse> => {
    const request = prefixed === undefined ? sent : { ...sent, url: prefixed(sent.url) };
    const queryAt = request.url.indexOf('?');
    const pathname = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
    const search = queryAt === -1 ? '' : request.url.slice(queryAt + 1);
    const method = routingMethod(api, request.method, pathname);

    // 1. Route: an operation whose path key names the query sent (D250); a path without a template by one lookup;
    // else the operation whose template matches, then the method.
    const tree = trees?.(method, pathname);
    if (tree !== undefined) {
      const treeEntry = entryOf(tree.op);
      if (!authenticated(treeEntry, request, search)) {
        return refuse(treeEntry.errors, { error: 'UNAUTHORIZED', detail: treeEntry.unauthorized, ...(treeEntry.auth.challenge === undefined ? {} : { headers: treeEntry.auth.challenge }) });
      }
      return tree.answer(request, search);
    }
    const queried = withQuery?.(method, pathname, search);
    const literal = queried === undefined ? (literalPaths.get(pathname)?.get(method) ?? (pathname.includes('%') ? literalPaths.get(decodedPath(pathname))?.get(method) : undefined)) : queried.op;
    let entry = literal === undefined ? undefined : entryOf(literal);
    let segments = queried?.segments ?? NONE;
    if (entry === undefined) {
      const routed = route(api, method, pathname);
      if ('error' in routed) {
        const refusal = routed.error === 'ROUTE_NOT_FOUND' ? { ...routed, detail: `No operation is served at ${pathname}. Operations: ${knownPaths}.` } : routed;
        return refuse(unrouted(ERRORS[refusal.error].status), refusal);
      }
      if (routed.operation === undefined) return { status: 204, headers: { allow: routed.allow }, body: '' };
      entry = entryOf(routed.operation);
      segments = routed.segments;
    }
    const op = entry.op;

    // 2. Authenticate by the operation's security schemes (seed, Authentication: a bearer key).
    if (!authenticated(entry, request, search)) {
      return refuse(entry.errors, { error: 'UNAUTHORIZED', detail: entry.unauthorized, ...(entry.auth.challenge === undefined ? {} : { headers: entry.auth.challenge }) });
    }
    if (op.deprecated) options.onDeprecated?.(op);
    // 2b. `Prefer: code=<status>` (Prism's convention, README › Forcing responses): a documented error of the operation.
    if (request.headers.prefer !== undefined) {
      const forced = forcedResponse(op, request.headers.prefer);
      if (forced !== undefined && 'example' in forced) return exampleAnswer(entry, forced.example, request.headers.accept);
      if (forced !== undefined) return refuse(entry.errors, forced.error === 'RECORD_NOT_FOUND' ? { ...forced, code: notFoundCode(op) } : forced);
    }
    // 2c. The media type of the answer, by `Accept` among those the success documents (406 when none fits).
    let content: ContentModel | undefined;
    if (entry.success !== undefined && entry.success.contents.length > 0) {
      const accept = request.headers.accept;
      if (accept !== entry.lastAccept || entry.lastContent === undefined) {
        entry.lastContent = negotiate(entry.success.contents, accept);
        entry.lastAccept = accept;
      }
      content = entry.lastContent;
      if (content === undefined) return refuse(entry.errors, notAcceptable(entry.success.contents.map((c) => c.mediaType), accept));
    }

    // 2d. A list asked again while nothing it shows changed: the same answer (see ListMemo).
    const store = stores.get(op);
    const parentStore = parentStores.get(op);
    // A memo is only ever made from stores in this process (below), so the stores are those.
    const memo = entry.memo;
    if (memo !== undefined && memo.url === request.url && memo.content === content && memo.host === request.headers.host && memo.version === (store as RecordStore).version && memo.parentVersion === (parentStore as RecordStore | undefined)?.version && (request.body === undefined || request.body.length === 0)) {
      return memo.response;
    }

    // 3. Validate parameters and body against the spec.
    // 4. Handle: the state logic of the operation; with a store over the network, once it answered.
    // An answer the spec does not let the mock build (D83) is the operation's error in its documented shape, never a crash.
    let response: MockResponse;
    try {
      const input = validate(entry, segments, search, request);
      if ('error' in input) return refuse(entry.errors, input);

      // 3b. A stream, when the client asks for one by `Accept` or by the body's stream member (D85, D86); the member
      // wins over an `Accept` that names only JSON, which client libraries send on every request (D152).
      if (entry.streams.length > 0) {
        const chosen = content?.stream !== undefined ? content : bodyAsksStream(op, input.body) ? (negotiate(entry.streams, request.headers.accept) ?? entry.streams[0]) : undefined;
        if (chosen?.stream !== undefined) return streamed(entry, { ...chosen, stream: chosen.stream }, entry.handler({ store, query: input.query, path: input.path, body: input.body, files: input.files, mediaType: entry.plainContent?.mediaType, url: request.url, host: request.headers.host, parentStore, below: belowStores.get(op), sourceStore: sourceStores.get(op), siblingStores: siblingStores.get(op), storeOf }));
      }

      const result = entry.handler({ store, query: input.query, path: input.path, body: input.body, files: input.files, mediaType: content?.mediaType, url: request.url, host: request.headers.host, parentStore, below: belowStores.get(op), sourceStore: sourceStores.get(op), siblingStores: siblingStores.get(op), storeOf });
      if (result instanceof Promise) return result.then((answered) => respond(entry, answered, content), (error: unknown) => unavailable(entry, error)).catch((error: unknown) => failed(entry, error));
      response = respond(entry, result, content);
    } catch (error) {
      return failed(entry, error);
    }
    // Only a store in this process has a version that every write changes (a shared store's other replicas write too).
    if (op.role === 'list' && op.headerParams.length === 0 && response.status < 300 && store instanceof MemoryRecordStore && (parentStore === undefined || parentStore instanceof MemoryRecordStore)) {
      entry.memo = { url: request.url, content, host: request.headers.host, version: store.version, parentVersion: parentStore?.version, response };
    }
    return response;
  };
  return identities === undefined ? handle : (request) => identities.around(request, handle);
}

/**
 * A path with the escapes of ASCII characters a URL cannot carry as they are decoded (`/%3Cupload_url%3E` →
 * `/<upload_url>`, a literal path of the spec). Escaped letters and digits (`/%70ets`) stay as sent: the routes
 * have always told them apart from the spec's paths.
 */
function decodedPath(pathname: string): string {
  return pathname.replace(/%([0-7][0-9A-Fa-f])/g, (escape, hex: string) => {
    const character = String.fromCharCode(Number.parseInt(hex, 16));
    return /[A-Za-z0-9\-._~/%]/.test(character) || character < ' ' ? escape : character;
  });
}

/**
 * A streamed success answer (D85): the handler has done its work (a streamed create stores its record), then its
 * answer becomes the events of the stream. A refusal or a non-2xx outcome is answered as usual.
 */
function streamed(entry: Served, content: ContentModel & { stream: StreamModel }, result: OperationResult | Promise<OperationResult>): Maybe<MockResponse> {
  if (result instanceof Promise) return result.then((answered) => streamed(entry, content, answered), (error: unknown) => unavailable(entry, error));
  if ('error' in result || result.status >= 300) return respond(entry, result, entry.plainContent);
  const headers: Record<string, string> = { ...entry.emptyHeaders, ...result.headers, 'content-type': concreteType(content.mediaType), 'cache-control': 'no-cache', 'x-accel-buffering': 'no' };
  return { status: result.status, headers, body: '', chunks: streamChunks(content, result.bytes === undefined ? result.json : undefined) };
}

function respond(entry: Served, result: OperationResult, content: ContentModel | undefined): MockResponse {
  if ('error' in result) return refuse(entry.errors, result);
  if (result.headers !== undefined) return withHeaders(respond(entry, { ...result, headers: undefined }, content), result.headers);
  if (result.json === '' && result.bytes === undefined) {
    // A record's operation whose success documents a body without a schema (a create answered by a `text/plain`
    // token) gives no record to show: its documented example, written in the negotiated type, as an operation no
    // resource holds would answer, never an empty body with no Content-Type where a body is documented.
    if (content === undefined || content.schema !== undefined || content.stream !== undefined || !entry.success?.contents.includes(content) || String(result.status) !== entry.success.status) return { status: result.status, headers: entry.emptyHeaders, body: '' };
    const payload = serialize(content.examples[0]?.value ?? (mediaKind(content.mediaType) === 'json' ? {} : ''), content.mediaType, undefined);
    const headers = headersFor(entry, content.mediaType);
    return payload.bytes === undefined ? { status: result.status, headers, body: payload.text } : { status: result.status, headers, body: '', bytes: payload.bytes };
  }
  const mediaType = result.mediaType ?? content?.mediaType;
  if (mediaType === undefined || mediaType === entry.headers['content-type']) return { status: result.status, headers: entry.headers, body: result.json, ...(result.bytes === undefined ? {} : { bytes: result.bytes }) };
  const headers = headersFor(entry, mediaType);
  if (result.bytes !== undefined) return { status: result.status, headers, body: '', bytes: result.bytes };
  // A record answered as XML or text: the JSON the store wrote, read exactly and written in the negotiated type.
  if (result.mediaType === undefined && content !== undefined && mediaKind(mediaType) !== 'json') {
    const parsed = parseExact(result.json);
    const payload = serialize(parsed.ok ? parsed.document.value : result.json, mediaType, content.schema);
    return payload.bytes === undefined ? { status: result.status, headers, body: payload.text } : { status: result.status, headers, body: '', bytes: payload.bytes };
  }
  return { status: result.status, headers, body: result.json };
}

/** The success headers with another media type, made once per type and operation. */
function headersFor(entry: Served, mediaType: string): Readonly<Record<string, string>> {
  let headers = entry.headersByType.get(mediaType);
  if (headers === undefined) {
    headers = Object.freeze({ ...entry.headers, 'content-type': concreteType(mediaType) });
    entry.headersByType.set(mediaType, headers);
  }
  return headers;
}

/** A documented example asked for with `Prefer` (spec/DECISIONS.md › D56): no state read or written. */
function exampleAnswer(entry: Served, asked: PreferExample['example'], accept: string | string[] | undefined): MockResponse {
  const op = entry.op;
  const picked = pickAnswer(asked.response, accept, asked.name);
  if (!picked.ok && picked.reason === 'unknown-example') {
    const known = picked.known.length === 0 ? 'it documents no named example' : `its examples: ${picked.known.join(', ')}`;
    return refuse(entry.errors, { error: 'PREFER_EXAMPLE_UNKNOWN', detail: `Prefer: example=${asked.name ?? ''} is not a valid example of ${op.operationId}'s ${asked.status} answer; ${known}.` });
  }
  if (!picked.ok) return refuse(entry.errors, notAcceptable(picked.offered, accept));
  const answer = picked.answer;
  if (answer?.failed !== undefined) return failed(entry, new Error(answer.failed));
  const declared = { ...(asked.response === entry.success ? entry.emptyHeaders : {}), ...documentedHeaders(asked.response) };
  if (answer === undefined || asked.status === 204) return { status: asked.status, headers: Object.keys(declared).length === 0 ? NO_BODY : declared, body: '' };
  const headers = { ...declared, 'content-type': concreteType(answer.mediaType) };
  return answer.payload.bytes === undefined ? { status: asked.status, headers, body: answer.payload.text } : { status: asked.status, headers, body: '', bytes: answer.payload.bytes };
}

function notAcceptable(offered: string[], accept: string | string[] | undefined): Refusal {
  const asked = Array.isArray(accept) ? accept.join(', ') : (accept ?? '');
  return { error: 'NOT_ACCEPTABLE', detail: `Accept: ${asked} admits none of the media types of this answer: ${offered.join(', ')}.` };
}

/** An answer with the headers its handler added (a list's `Link`, a create's `Location`) over the shared ones. */
function withHeaders(response: MockResponse, headers: Record<string, string>): MockResponse {
  return { ...response, headers: { ...response.headers, ...headers } };
}

/**
 * The answer when building one failed (spec/DECISIONS.md › D83): `ANSWER_FAILED` (500) in the operation's
 * documented error shape, naming what failed, so that a client sees the spec's error body and the mock stays up.
 * A 503 of the shared store passes through as it is.
 */
function failed(entry: Served, error: unknown): MockResponse {
  if (error instanceof StoreUnavailableError) return unavailable(entry, error);
  const what = error instanceof RangeError ? 'a schema of this operation is too deeply recursive' : error instanceof Error ? error.message : String(error);
  return refuse(entry.errors, { error: 'ANSWER_FAILED', detail: `${ERRORS.ANSWER_FAILED.message} (${entry.op.operationId}: ${what})` });
}

/** A 503 in the operation's error shape when the shared store did not answer (README › Several replicas); any other failure is a bug, rethrown. */
function unavailable(entry: Served, error: unknown): MockResponse {
  if (!(error instanceof StoreUnavailableError)) throw error;
  return refuse(entry.errors, { error: 'STORE_UNAVAILABLE', detail: `${ERRORS.STORE_UNAVAILABLE.message} (${error.message})`, headers: { 'retry-after': String(STORE_RETRY_AFTER_SECONDS) } });
}

const NO_BODY: Readonly<Record<string, string>> = Object.freeze({});

function serve(op: OperationModel, apiKeys: readonly string[], unrouted: (status: number) => ErrorShape, api: ApiModel): Served {
  const scheme = op.security[0];
  const unauthorized =
    scheme === undefined || scheme.kind === 'bearer'
      ? ERRORS.UNAUTHORIZED.message
      : scheme.kind === 'basic'
        ? 'Missing or invalid API key: send "Authorization: Basic <base64 of user:API_KEY>".'
        : `Missing or invalid API key: send it in the ${scheme.in} ${JSON.stringify(scheme.parameter)}.`;
  const success = successAnswer(op).response;
  return {
    op,
    auth: compileAuth(op.security, apiKeys),
    unauthorized,
    path: op.pathParams.map(compileCoercion),
    query: op.queryParams.map(compileCoercion),
    header: op.headerParams.map(compileCoercion),
    handler: compileHandler(op, api),
    errors: documentsErrorBody(op) ? op.errors : { documents: (status) => op.errors.documents(status), invalidRequestStatus: op.errors.invalidRequestStatus, invalidBodyStatus: op.errors.invalidBodyStatus, body: (facts) => unrouted(facts.status).body(facts), write: (facts) => unrouted(facts.status).write(facts) },
    headers: Object.freeze(headersOf(op)),
    emptyHeaders: emptyHeadersOf(op),
    success,
    headersByType: new Map(),
    lastAccept: undefined,
    lastContent: undefined,
    memo: undefined,
    streams: success?.contents.filter((c) => c.stream !== undefined) ?? [],
    plainContent: negotiate(success?.contents.filter((c) => c.stream === undefined) ?? [], undefined),
  };
}

type Routed = { operation: OperationModel; segments: readonly string[] } | { operation: undefined; allow: string } | Refusal;

function route(api: ApiModel, method: string, pathname: string): Routed {
  if (!pathname.startsWith(`${api.basePath}/`)) return { error: 'ROUTE_NOT_FOUND' };
  const path = pathname.slice(api.basePath.length);
  // The common case first: an operation of this method matches. `Allow` is only worked out when none does. Of two
  // that match, the one with more fixed text wins (D393): `/deployments/{id}:deleteRevision` before `/deployments/{id}`.
  let found: { operation: OperationModel; segments: readonly string[] } | undefined;
  for (const op of api.operations) {
    if (op.method !== method) continue;
    const match = op.pattern.exec(path);
    if (match !== null && (found === undefined || fixedText(op) > fixedText(found.operation))) found = { operation: op, segments: match.slice(1) };
  }
  if (found !== undefined) return found;
  const matching = api.operations.filter((op) => op.pattern.test(path));
  if (matching.length === 0) {
    // A path that differs from a described one only by a trailing slash names it (D500): only when nothing else matches.
    const other = slashToggled(api, path);
    if (other !== undefined && api.operations.some((op) => op.pattern.test(other))) return route(api, method, `${api.basePath}${other}`);
    // A free-text last parameter takes the rest of the path, slashes and all (D506): only when nothing else matches.
    let rest: { operation: OperationModel; segments: readonly string[] } | undefined;
    for (const op of api.operations) {
      if (op.method !== method) continue;
      const match = greedyPattern(op)?.exec(path);
      if (match != null && (rest === undefined || fixedText(op) > fixedText(rest.operation))) rest = { operation: op, segments: match.slice(1) };
    }
    return rest ?? { error: 'ROUTE_NOT_FOUND' };
  }
  const allow = [...new Set(matching.flatMap((op) => (op.method === 'GET' ? ['GET', 'HEAD'] : [op.method]))), 'OPTIONS'].join(', ');
  if (method === 'OPTIONS') return { operation: undefined, allow };
  return { error: 'METHOD_NOT_ALLOWED', detail: `${method} is not allowed on ${pathname}; allowed: ${allow}.`, headers: { allow } };
}

const greedyPatterns = new WeakMap<OperationModel, RegExp | null>();

/**
 * The pattern of an operation whose path ends in a parameter of free text (a string with no enum, pattern or
 * format), that parameter taking the rest of the path, slashes included (spec/DECISIONS.md › D506): a plugin id
 * `@scope/package:plugin`, a resource name `projects/p/locations/l`. `undefined` for any other path.
 */
function greedyPattern(op: OperationModel): RegExp | undefined {
  let found = greedyPatterns.get(op);
  if (found === undefined) {
    const last = op.pathParams.at(-1);
    const free = last !== undefined && op.path.endsWith(`{${last.name}}`) && last.type === 'string' && ['enum', 'pattern', 'format', 'const'].every((keyword) => last.schema[keyword] === undefined);
    found = free ? new RegExp(`${op.pattern.source.slice(0, -'([^/]+)$'.length)}(.+)$`) : null;
    greedyPatterns.set(op, found);
  }
  return found ?? undefined;
}

const fixedTexts = new WeakMap<OperationModel, number>();

const queryNameSets = new WeakMap<OperationModel, ReadonlySet<string>>();

/** The names of the query parameters `op` declares, made once per operation. */
function queryNames(op: OperationModel): ReadonlySet<string> {
  let found = queryNameSets.get(op);
  if (found === undefined) queryNameSets.set(op, (found = new Set(op.queryParams.map((parameter) => parameter.name))));
  return found;
}

/** How many characters of `op`'s path template are fixed text (not a `{parameter}`): the more, the more specific the route. */
function fixedText(op: OperationModel): number {
  let found = fixedTexts.get(op);
  if (found === undefined) fixedTexts.set(op, (found = op.path.replace(/\{[^}]*\}/g, '').length));
  return found;
}

type ValidInput = { query: Record<string, unknown>; path: Record<string, unknown>; body: unknown; files?: UploadedFile[] };

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
      // A deepObject sent as `name[member]=value` pairs is given: checked against its schema, not applied (D326).
      const members = parameter.deepObject === true ? bracketedMembers(parameter, pairs) : undefined;
      if (members !== undefined) {
        if (!parameter.validate(members)) return { error: 'INVALID_QUERY', detail: `${parameter.name} is invalid: ${parameter.validate.errors()}.` };
        continue;
      }
      // An exploded form object is its members' own pairs (D557): those its schema names are checked against it, not
      // applied; sent with none, it is the empty object, required or not, where its schema takes one.
      if (parameter.explodedObject === true) {
        const { declared, others } = explodedMembers(parameter, pairs, queryNames(op));
        const given = Object.keys(declared).length > 0 || others > 0;
        if (Object.keys(declared).length > 0 || (parameter.required && !given)) {
          if (!parameter.validate(declared)) return { error: 'INVALID_QUERY', detail: given ? `${parameter.name} is invalid: ${parameter.validate.errors()}.` : `${parameter.name} is required.` };
        }
        continue;
      }
      if (parameter.required) return { error: 'INVALID_QUERY', detail: `${parameter.name} is required.` };
      // An empty default (`name: ""`) means "no filter" in practice: taken literally, it would hide every record (D78).
      // So does the default of free text, which lists no values (`sha` defaulting to `none`, D239): only a default
      // among listed values, or of another type than text, is applied.
      const fallback = parameter.schema['default'];
      if (fallback !== undefined && fallback !== '' && !(typeof fallback === 'string' && !Array.isArray(parameter.schema['enum']))) query[parameter.name] = fallback;
      continue;
    }
    const raw = parameter.type === 'array' ? pairs.filter((_, i) => i % 2 === 1 && pairs[i - 1] === parameter.name) : value;
    const coerced = entry.query[index]!(raw);
    if (!coerced.ok) return { error: 'INVALID_QUERY', detail: `${coerced.message}.` };
    query[parameter.name] = coerced.value;
  }

  // A lower bound above the upper one, where the spec says such a range is refused (D107).
  const reversed = reversedRangeIn(op, query);
  if (reversed !== undefined) return { error: 'INVALID_QUERY', detail: reversed };

  // OpenAPI 3.2 `in: querystring`: the whole query is one form-encoded object, judged by its schema (D87).
  if (op.querystring !== undefined) {
    const whole = querystringValue(op.querystring.schema, queryPairs(search));
    if (Object.keys(whole).length === 0 && op.querystring.required) return { error: 'INVALID_QUERY', detail: `The query string (${op.querystring.name}) is required.` };
    if (!op.querystring.validate(whole)) return { error: 'INVALID_QUERY', detail: `The query string (${op.querystring.name}) is invalid: ${op.querystring.validate.errors()}.` };
  }

  // Header parameters: a required one must be sent, and any sent must fit its schema (values are not kept).
  for (let index = 0; index < op.headerParams.length; index++) {
    const parameter = op.headerParams[index]!;
    const raw = request.headers[parameter.name];
    if (raw === undefined) {
      if (parameter.required) return { error: 'INVALID_HEADER', detail: `The header ${parameter.name} is required.` };
      continue;
    }
    const coerced = entry.header[index]!(raw);
    if (!coerced.ok) return { error: 'INVALID_HEADER', detail: `The header ${coerced.message}.` };
  }

  const body = op.body;
  if (body === undefined) return { query, path, body: undefined };
  const bytes = request.body;
  if (bytes === undefined || bytes.length === 0) {
    return body.required ? { error: 'BODY_REQUIRED' } : { query, path, body: undefined };
  }
  const sentType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  // A string body a client sends through the Fetch standard without naming its type goes as `text/plain`: where the
  // operation takes JSON and documents no 415, it is read as the JSON it holds, as servers that parse every body do (D501).
  // A documented media type with parameters (`application/json;version=2018-01-01`) takes the type it names: the
  // sent type is compared by its essence, as the parameters are read off it above (D662).
  const documented = body.mediaTypes.map((type) => type.split(';')[0]!.trim().toLowerCase());
  const mediaType = sentType === 'text/plain' && !documented.includes(sentType) && !op.responses.some((response) => response.status === '415') ? (documented.find(isJsonMediaType) ?? sentType) : sentType;
  // A documented range (`*/*`, `text/*`) takes any type within it (RFC 9110 § 8.3.1), as its answers are sent (D925).
  if (!documented.includes(mediaType) && !(mediaType !== '' && documented.some((type) => inRange(type, mediaType)))) {
    return { error: 'UNSUPPORTED_MEDIA_TYPE', detail: `The body must be sent as Content-Type: ${body.mediaTypes.join(' or ')}, got ${JSON.stringify(mediaType || '(none)')}.` };
  }
  // An operation no resource holds may take bytes or text (`application/octet-stream`, `image/png`, `text/plain`):
  // bytes are taken as they are, text is checked against a string schema (spec/DECISIONS.md › D57).
  const kind = mediaKind(mediaType);
  if (op.resource === undefined && kind !== 'json' && !/^(?:application\/x-www-form-urlencoded|multipart\/)/.test(mediaType)) {
    if (kind === 'binary') return { query, path, body: bytes };
    const decoded = decodeText(bytes);
    if (decoded === undefined) return { error: 'INVALID_BODY', detail: 'The request body is not valid UTF-8.' };
    if (mainType(body.schema) === 'string' && !body.validate(decoded)) return { error: 'INVALID_BODY', detail: `The request body is invalid: ${body.validate.errors()}.` };
    return { query, path, body: decoded };
  }
  if (isFormMediaType(mediaType)) {
    const form = parseForm(bytes, request.headers['content-type']!, body.schema);
    if (!form.ok) return { error: 'MALFORMED_FORM', detail: form.message };
    if (!body.validate(toView(form.value))) return { error: 'INVALID_BODY', detail: `The request body is invalid: ${body.validate.errors()}.` };
    return { query, path, body: form.value, ...(form.files.length === 0 ? {} : { files: form.files }) };
  }
  const text = decodeText(bytes);
  if (text === undefined) return { error: 'MALFORMED_JSON', detail: 'The request body is not valid UTF-8.' };
  const parsed = parseJsonBody(text);
  if (!parsed.ok) return { error: 'MALFORMED_JSON', detail: parsed.message };
  // Unknown properties are judged by the schema alone (`additionalProperties`); int64 by the schema's format.
  if (!body.validate(parsed.body.view)) return { error: 'INVALID_BODY', detail: `The request body is invalid: ${body.validate.errors()}.` };
  return { query, path, body: parsed.body.value };
}

/** Whether a documented media range (`*\/*`, `image/*`; never a concrete type) holds the concrete `mediaType`. */
function inRange(range: string, mediaType: string): boolean {
  const [type = '', subtype = ''] = range.split('/');
  return subtype === '*' && (type === '*' || rangeFit({ type, subtype }, mediaType) >= 0);
}

/**
 * A form-encoded query string as the object its `querystring` schema describes: each name once (repeated names, or an
 * array property, give an array), numbers, integers and booleans read from their text where the property says so.
 */
function querystringValue(schema: Record<string, unknown>, pairs: readonly string[]): Record<string, unknown> {
  const properties = (schema['properties'] ?? {}) as Record<string, Record<string, unknown>>;
  const value: Record<string, unknown> = {};
  const read = (name: string, text: string): unknown => {
    const type = mainType(properties[name] ?? {});
    if ((type === 'integer' || type === 'number') && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
    if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
    return text;
  };
  for (let i = 0; i < pairs.length; i += 2) {
    const name = pairs[i]!;
    const item = read(name, pairs[i + 1]!);
    const held = value[name];
    if (held === undefined) value[name] = mainType(properties[name] ?? {}) === 'array' ? [item] : item;
    else value[name] = Array.isArray(held) ? [...(held as unknown[]), item] : [held, item];
  }
  return value;
}

/** The code of a 404: the resource's (`PET_NOT_FOUND`), or its parent's when `parameter` names the parent (D53). */
function notFoundCode(op: OperationModel, parameter?: string): string | undefined {
  const parent = op.resource?.parent;
  if (parent !== undefined && parameter === parent.parameter) return `${singularCode(parent.resource)}_NOT_FOUND`;
  return op.resource === undefined ? undefined : `${singularCode(op.resource.name)}_NOT_FOUND`;
}

function decodeText(bytes: Buffer): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The success headers of an answer without body; the shared empty object when there are none (most operations). */
function emptyHeadersOf(op: OperationModel): Readonly<Record<string, string>> {
  const { 'content-type': _, ...others } = headersOf(op);
  return Object.keys(others).length === 0 ? NO_BODY : Object.freeze(others);
}

/** Headers of an operation's success answer: its media type, and for a deprecated one `Deprecation` and `Sunset` (seed, Endpoints §3; DECISIONS D21). */
function headersOf(op: OperationModel): Record<string, string> {
  const success = successAnswer(op).response;
  const headers: Record<string, string> = { ...documentedHeaders(success), 'content-type': concreteType(success?.mediaType ?? JSON_TYPE) };
  if (op.deprecated) {
    headers['deprecation'] = 'true';
    if (op.sunset !== undefined) headers['sunset'] = new Date(`${op.sunset}T00:00:00Z`).toUTCString();
  }
  return headers;
}

