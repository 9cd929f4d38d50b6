import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { TargetTls } from '../conformance/target.js';
import { decodeBody } from '../conformance/transport/dispatcher.js';
import { documentedResponse } from '../judge/documented.js';
import { hasCredentials, idText, judgeExchange, judgeRequest, violationLabel, type RequestVerdict } from '../judge/exchange.js';
import { SequenceJudge } from '../judge/traffic.js';
import type { ExchangeVerdict, ExchangeViolation } from '../judge/verdict.js';
import { ADMIN_PREFIX } from '../mock/admin.js';
import { HEALTH_PATH } from '../mock/front-door.js';
import { announcesBody, closeServer, listen, openStream, readBody } from '../mock/http-adapter.js';
import { createMock, DEFAULT_API_KEY, type Mock, type MockOptions } from '../mock/index.js';
import type { MockRequest, MockResponse } from '../mock/index.js';
import type { AnyRecordStore, Maybe } from '../mock/store/record-store.js';
import { parseExact } from '../model/json.js';
import type { ApiModel, OperationModel } from '../model/model.js';
import { recordIn } from '../model/resources.js';
import { adminRefusal, digest, errorAnswer, errorResponse, flatHeaders, journalViolation, relayStream, write, type Answer } from './answer.js';
import { framingOf } from '../model/streams.js';
import { Recorder } from './recorder.js';
import { jsonOf, Shadow, type ShadowDifference } from './shadow.js';
import { createUpstream, headerText, UpstreamError, type Upstream } from './upstream.js';
import { ViolationCounts } from './violation-counts.js';

export { ANSWERED_BY_HEADER, VIOLATIONS_HEADER, violationsHeader } from './answer.js';

/** How to run the validating proxy (README › Proxy). Every field but `model` and `upstream` has a default. */
export interface ProxyOptions {
  model: ApiModel;
  /** The upstream's base URL, as the suite's `--base-url` takes it: the spec's base path maps onto its path. */
  upstream: string;
  /** Private CA and client certificate of an https upstream (`--proxy-ca`, `--proxy-cert`, `--proxy-key`). */
  tls?: TargetTls | undefined;
  /** operationIds always answered by the mock (`--mock-operations`). */
  mockOperations?: readonly string[];
  /** Also answer from the mock when the upstream lacks the route (404 for it), answers 501, or cannot be reached. */
  fallback?: boolean;
  /** Refuse a request the spec does not allow with the mock's error (the spec's 400/401) instead of forwarding it. */
  errors?: boolean;
  /**
   * Also answer every exchange forwarded to the upstream from the mock, whose store receives the same writes, and
   * report where the two answers differ (log, journal's `shadow`; DECISIONS D470-D473). The client still gets the
   * upstream's answer.
   */
  shadow?: boolean;
  /** Add {@link VIOLATIONS_HEADER} to answers with violations (default true). */
  violationHeader?: boolean;
  /** Folder to record the exchanges (HAR) and the records seen (data.json) into. */
  record?: string | undefined;
  /** Version written into the HAR file's creator. */
  version?: string;
  logger?: Logger | undefined;
  /** The mock that answers for the operations the upstream does not (its data, keys, CORS, admin API, journal). */
  mock?: Omit<MockOptions, 'model' | 'api' | 'spec' | 'logger' | 'store' | 'isolateByKey'>;
  port?: number;
  host?: string;
  /** Largest request body accepted, in bytes (413 beyond); default 1 MiB. */
  maxBodyBytes?: number;
  /** Connections kept to the upstream; default 64. */
  upstreamConnections?: number;
}

/** A listening proxy: its origin, the base URL clients call (`http://127.0.0.1:4010/v1`), its mock and counts. */
export interface StartedProxy {
  origin: string;
  baseUrl: string;
  server: Server;
  mock: Mock<AnyRecordStore, Maybe<MockResponse>>;
  counts: ViolationCounts;
  /** Writes the recording (`record`) and the mock's state file now: call it before the process exits. */
  flush(): void;
  close(): Promise<void>;
}

/** What one proxy shares across requests: the spec, both sides, the judges and the bookkeeping. */
interface ProxyContext {
  /** The mock's own streams passed on to clients (the console's live journal), ended when the proxy closes. */
  ownStreams: Set<ServerResponse>;
  model: ApiModel;
  options: ProxyOptions;
  mock: Mock<AnyRecordStore, Maybe<MockResponse>>;
  upstream: Upstream;
  counts: ViolationCounts;
  sequences: SequenceJudge;
  recorder: Recorder | undefined;
  mockOperations: ReadonlySet<string>;
  /** Ids of records created on the mock side, by resource: their reads, writes and deletes go to the mock too (DECISIONS D64). */
  mockIds: Map<string, Set<string>>;
  mockKey: string;
  adminDigest: Buffer | undefined;
  logger: Logger | undefined;
  logRequests: boolean;
  exchangeCount: number;
  /** `--shadow`: the mock's side of every forwarded exchange. */
  shadow: Shadow | undefined;
}

/** The mock's answer to a forwarded exchange (`--shadow`) and where it differs from the upstream's. */
interface Shadowed {
  status: number;
  body: string;
  differences: ShadowDifference[];
  /** The upstream's answer decoded, for the log line. */
  upstreamText: string;
}

/** One request as the proxy reads it: where it goes below the base path and upstream, and what the judge reads of it. */
interface Arrival {
  request: MockRequest;
  method: string;
  url: string;
  /** The path below the spec's base path (query included); outside it, the URL as it came (no operation has it: `route`). */
  judgedPath: string;
  upstreamPath: string;
  headers: Readonly<Record<string, string>>;
  bodyText: string | undefined;
  /** A CORS preflight: forwarded or answered, never judged. */
  preflight: boolean;
  started: number;
}

/**
 * Starts the validating proxy (README › Proxy): every request below the spec's base path is judged, forwarded to
 * the upstream (or answered by the mock: `--mock-operations`, `--fallback`), and the answer judged and returned
 * unchanged (status, headers less the hop-by-hop ones, body bytes), with {@link ANSWERED_BY_HEADER} and
 * {@link VIOLATIONS_HEADER}. Each violation is one log line, kept in the journal (`GET /__admin/requests`) and
 * counted (`GET /__admin/violations`). `/__admin` and `/__health` are the mock's. Never answers a 5xx of its
 * own except 502 when the upstream cannot be reached and nothing falls back. Errors: rejects when the port is
 * taken, `mockOperations` names no operation, or the record folder cannot be created.
 */
export async function startProxy(options: ProxyOptions): Promise<StartedProxy> {
  const { model } = options;
  const mockOperations = new Set(options.mockOperations ?? []);
  const unknown = [...mockOperations].filter((id) => !model.operations.some((op) => op.operationId === id));
  if (unknown.length > 0) throw new Error(`--mock-operations names no operation of the spec: ${unknown.join(', ')} (known: ${model.operations.map((op) => op.operationId).join(', ')})`);
  const mock = (await createMock({ ...options.mock, model, ...(options.logger === undefined ? {} : { logger: options.logger }) })) as Mock<AnyRecordStore, Maybe<MockResponse>>;
  const context: ProxyContext = {
    model,
    options,
    mock,
    upstream: createUpstream({ baseUrl: options.upstream, tls: options.tls, ...(options.upstreamConnections === undefined ? {} : { connections: options.upstreamConnections }) }),
    counts: new ViolationCounts(),
    sequences: new SequenceJudge(model),
    recorder: options.record === undefined ? undefined : new Recorder(options.record, model, options.version ?? '0.0.0'),
    mockOperations,
    mockIds: new Map<string, Set<string>>(model.resources.map((resource) => [resource.name, new Set<string>()])),
    mockKey: options.mock?.apiKeys?.[0] ?? DEFAULT_API_KEY,
    adminDigest: options.mock?.adminToken === undefined ? undefined : digest(options.mock.adminToken),
    logger: options.logger,
    logRequests: options.logger?.isLevelEnabled('info') === true,
    exchangeCount: 0,
    shadow: options.shadow === true ? new Shadow() : undefined,
    ownStreams: new Set<ServerResponse>(),
  };
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const started = performance.now();
    const onFailure = (error: unknown): void => {
      context.logger?.error(`proxy failed on ${req.method ?? ''} ${req.url ?? ''}: ${(error as Error).message}`);
      if (!res.headersSent) write(res, errorAnswer('INTERNAL_ERROR'), undefined);
      else res.destroy();
    };
    if (!announcesBody(req)) {
      req.resume();
      handle(context, req, res, undefined, started).catch(onFailure);
      return;
    }
    readBody(
      req,
      res,
      maxBodyBytes,
      (body) => handle(context, req, res, body, started).catch(onFailure),
      () => write(res, errorAnswer('PAYLOAD_TOO_LARGE', `The request body is larger than ${maxBodyBytes} bytes.`), undefined),
    );
  };
  // A request node cannot parse still gets the error shape, as from the mock.
  const { origin, server } = await listen(onRequest, { port: options.port, host: options.host, errorAnswer: (_request, code, detail) => errorResponse(code, detail) });
  return {
    origin,
    baseUrl: `${origin}${model.basePath}`,
    server,
    mock,
    counts: context.counts,
    flush: () => {
      context.recorder?.flush();
      mock.flush();
    },
    close: async () => {
      // The mock's streams first: a connection whose stream just ended is idle, and only then closed with the idle ones.
      for (const open of context.ownStreams) open.end();
      await closeServer(server);
      context.recorder?.flush();
      mock.flush();
      await mock.dispose();
    },
  };
}

/** One request's way through the proxy: arrive, judge the request, choose a side, judge the answer, send, report. */
async function handle(context: ProxyContext, req: IncomingMessage, res: ServerResponse, body: Buffer | undefined, started: number): Promise<void> {
  const arrival = arrive(context.model, context.upstream, req, body, started);
  if (arrival.url.startsWith(`${ADMIN_PREFIX}/violations`) && /^\/__admin\/violations\/?(?:\?|$)/.test(arrival.url)) return write(res, violationsEndpoint(context, arrival.request), undefined);
  if (isOwn(arrival.url)) {
    const own = await context.mock.handle(arrival.request);
    return own.stream === undefined ? write(res, own, undefined) : openStream(res, own, context.ownStreams);
  }
  const judgedRequest = arrival.preflight ? undefined : judgeRequest(context.model, { method: arrival.method, path: arrival.judgedPath, headers: arrival.headers, body: arrival.bodyText });
  const answer = (await fromMockFirst(context, arrival, judgedRequest)) ?? (await forward(context, arrival, judgedRequest?.routed.op, res));
  const { verdict, violations, text } = judgeAnswer(context, arrival, judgedRequest, answer);
  const op = judgedRequest?.routed.op;
  const shadowed = context.shadow !== undefined && op !== undefined && answer.answeredBy === 'upstream' && answer.streamed !== true ? await shadowExchange(context, context.shadow, arrival, op, answer, text) : undefined;
  const answeredMs = performance.now() - started;
  // A stream went out piece by piece as it came (D89): only its verdict is left to report.
  if (answer.streamed !== true) write(res, answer, context.options.violationHeader === false ? undefined : violations);
  report(context, arrival, answer, violations, Math.round((performance.now() - started) * 100) / 100, shadowed);
  context.recorder?.add(...recording(arrival, req, answer, violations, text, answeredMs, verdict, judgedRequest));
}

/** Reads where a request goes: below the spec's base path for the judge, and the same path below the upstream's. */
function arrive(model: ApiModel, upstream: Upstream, req: IncomingMessage, body: Buffer | undefined, started: number): Arrival {
  const url = req.url ?? '/';
  const method = (req.method ?? 'GET').toUpperCase();
  const base = model.basePath;
  const below = base === '' ? url : url === base || url.startsWith(`${base}/`) || url.startsWith(`${base}?`) ? url.slice(base.length) || '/' : undefined;
  return {
    request: { method, url, headers: req.headers, body },
    method,
    url,
    judgedPath: below ?? url,
    upstreamPath: below === undefined ? url : `${upstream.basePath}${below}`,
    // node joins a request's repeated headers into one text (set-cookie aside, which requests do not carry): no copy needed.
    headers: req.headers as Readonly<Record<string, string>>,
    bodyText: body?.toString('utf8'),
    preflight: method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined,
    started,
  };
}

/**
 * The mock's answer where it answers before the upstream is asked (DECISIONS D64): an operation of
 * `--mock-operations`, a record the mock created, or with `--errors` a request the spec does not allow (refused
 * with the mock's 4xx). `undefined`: the upstream is asked.
 */
async function fromMockFirst(context: ProxyContext, arrival: Arrival, judgedRequest: RequestVerdict | undefined): Promise<Answer | undefined> {
  const routed = judgedRequest?.routed;
  if (routed?.op === undefined) return undefined;
  const { op, pathValues } = routed;
  if (context.mockOperations.has(op.operationId)) return fromMock(context, arrival.request, op, 'mock-operations');
  if (heldByMock(op, pathValues, context.mockIds)) return fromMock(context, arrival.request, op, 'record held by the mock');
  if (context.options.errors === true && judgedRequest!.violations.length > 0) {
    const refused = await fromMock(context, arrival.request, op, 'errors: invalid request');
    if (refused.status >= 400 && refused.status < 500) return refused;
  }
  return undefined;
}

/**
 * The upstream's answer, or with `--fallback` the mock's where the upstream answers 501, lacks the route (404) or
 * cannot be reached; otherwise a 502 `UPSTREAM_UNREACHABLE` (or `UPSTREAM_FAILED`) in the error table's shape.
 */
async function forward(context: ProxyContext, arrival: Arrival, op: OperationModel | undefined, res: ServerResponse): Promise<Answer> {
  const { request, method, url, preflight } = arrival;
  const fallback = context.options.fallback === true;
  try {
    const got = await context.upstream.forward(method, arrival.upstreamPath, request.headers, request.body, preflight ? undefined : isStream);
    // A stream is passed on piece by piece as the upstream sends it (D89), and judged whole once it ended.
    if (got.stream !== undefined) {
      const answer: Answer = { status: got.status, headers: got.headers, bytes: got.bytes, answeredBy: 'upstream' };
      return { ...answer, bytes: await relayStream(res, answer, got.stream), streamed: true };
    }
    if (fallback && op !== undefined && !preflight) {
      if (got.status === 501) return fromMock(context, request, op, 'fallback: upstream answered 501');
      if (got.status === 404 && routeMissing(op, got.bytes, headerText(got.headers['content-encoding']))) return fromMock(context, request, op, 'fallback: upstream has no such route (404)');
    }
    return { status: got.status, headers: got.headers, bytes: got.bytes, answeredBy: 'upstream' };
  } catch (error) {
    const unreachable = error instanceof UpstreamError && !error.reachable;
    if (fallback && unreachable && (op !== undefined || preflight)) return fromMock(context, request, op, 'fallback: upstream unreachable');
    context.logger?.warn(`${method} ${url}: ${(error as Error).message}`);
    const failed = errorResponse(unreachable ? 'UPSTREAM_UNREACHABLE' : 'UPSTREAM_FAILED', `${(error as Error).message}`);
    return { status: failed.status, headers: failed.headers, bytes: Buffer.from(failed.body), answeredBy: 'mock', reason: 'upstream failed' };
  }
}

/** The mock's answer to a request, its credentials swapped for the mock's key; an id it creates is remembered as the mock's. */
async function fromMock(context: ProxyContext, request: MockRequest, op: OperationModel | undefined, reason: string): Promise<Answer> {
  const response = await askMock(context, request, op);
  if (op?.role === 'create' && op.resource !== undefined && response.status < 300) {
    const parsed = parseExact(response.body);
    const id = parsed.ok ? (recordIn(parsed.document.value, op.answerEnvelope) as Record<string, unknown> | null | undefined)?.[op.resource.idProperty] : undefined;
    if (id !== undefined) context.mockIds.get(op.resource.name)!.add(idText(id));
  }
  // A stream the mock answers (D85) is sent whole here: its pieces are known at once.
  return { status: response.status, headers: response.headers, bytes: Buffer.from(response.chunks === undefined ? response.body : response.chunks.join('')), answeredBy: 'mock', reason };
}

/** The mock's own answer to a request, its credentials swapped for the mock's key (nothing remembered). */
async function askMock(context: ProxyContext, request: MockRequest, op: OperationModel | undefined): Promise<MockResponse> {
  const asMock = withMockCredentials(request, op, context.mockKey);
  const handler = context.mock.stores.handlerFor(asMock);
  const answered = handler === 'full' ? errorResponse('TOO_MANY_KEYS') : await handler(asMock);
  return context.mock.cors.decorate(asMock, answered);
}

/**
 * `--shadow`: the same request replayed on the mock (ids the upstream gave swapped for the mock's, D472), its
 * answer compared with the upstream's (`upstreamText`, decoded), and what the shadow learns kept for later exchanges.
 */
async function shadowExchange(context: ProxyContext, shadow: Shadow, arrival: Arrival, op: OperationModel, answer: Answer, upstreamText: string): Promise<Shadowed> {
  const response = await askMock(context, shadow.toMock(arrival.request), op);
  const body = response.chunks === undefined ? response.body : response.chunks.join('');
  const written = jsonOf(arrival.bodyText);
  const upstream = { status: answer.status, body: jsonOf(upstreamText) };
  const mock = { status: response.status, body: jsonOf(body) };
  // The answer's documented schema says which members are optional (D531), of the first JSON media type documented.
  const documented = op.responses.find((candidate) => candidate.status === String(answer.status)) ?? op.responses.find((candidate) => candidate.status.toUpperCase() === `${String(answer.status)[0]}XX`);
  const differences = shadow.compare(upstream, mock, answer.status < 300 ? written : undefined, documented?.schema);
  shadow.learn(op, written, upstream, mock);
  return { status: response.status, body, differences, upstreamText };
}

/**
 * The verdict on the exchange (judge/exchange.ts) and on the sequence so far (read-after-create, delete then 404,
 * pages; judge/traffic.ts), held only between exchanges that did not overlap, with the answer's body as text.
 */
function judgeAnswer(context: ProxyContext, arrival: Arrival, judgedRequest: RequestVerdict | undefined, answer: Answer): { verdict: ExchangeVerdict | undefined; violations: ExchangeViolation[]; text: string } {
  if (arrival.preflight) return { verdict: undefined, violations: [], text: '' };
  const { method, judgedPath, headers, bodyText } = arrival;
  // The judge reads the media type alone; the recording keeps every header.
  const responseHeaders = context.recorder === undefined ? { 'content-type': headerText(answer.headers['content-type']) ?? '' } : flatHeaders(answer.headers);
  if (answer.headers['content-type'] === undefined) delete responseHeaders['content-type'];
  let text: string;
  try {
    const encoding = headerText(answer.headers['content-encoding']);
    text = encoding === undefined ? answer.bytes.toString('utf8') : decodeBody(answer.bytes, encoding);
  } catch (error) {
    text = `(${(error as Error).message})`;
  }
  const verdict = judgeExchange(context.model, { request: { method, path: judgedPath, headers, body: bodyText }, response: { status: answer.status, headers: responseHeaders, text } }, { quick: true }, judgedRequest);
  if (verdict.op?.resource === undefined) return { verdict, violations: verdict.violations, text };
  const observed = { request: { method, path: judgedPath, headers, body: bodyText }, response: { status: answer.status, headers: {}, text } };
  const sequence = context.sequences.judge(verdict, { index: ++context.exchangeCount, exchange: observed, url: arrival.url, sentAt: performance.timeOrigin + arrival.started, answeredAt: performance.timeOrigin + performance.now() });
  return { verdict, violations: sequence.length === 0 ? verdict.violations : [...verdict.violations, ...sequence], text };
}

/** The request log line, one warning per violation, the counts (`GET /__admin/violations`) and the journal entry. */
function report(context: ProxyContext, arrival: Arrival, answer: Answer, violations: readonly ExchangeViolation[], ms: number, shadowed?: Shadowed): void {
  const { method, url } = arrival;
  const { logger } = context;
  context.counts.add(violations);
  if (context.logRequests) logger!.info({ method, path: url, status: answer.status, ms, answeredBy: answer.answeredBy, ...(answer.reason === undefined ? {} : { reason: answer.reason }) }, `${method} ${url} ${answer.status} ${ms} ms (${answer.answeredBy}${answer.reason === undefined ? '' : `: ${answer.reason}`})`);
  for (const violation of violations) {
    logger?.warn({ operationId: violation.operationId, rule: violation.rule, side: violation.side, pointer: violation.pointer, expected: violation.expected, got: violation.got, answeredBy: answer.answeredBy }, `violation ${violationLabel(violation)} (${violation.side}): ${violation.message}; expected ${violation.expected}, got ${violation.got}`);
  }
  if (shadowed !== undefined) {
    const both = `upstream ${answer.status} ${cut(shadowed.upstreamText)}, mock ${shadowed.status} ${cut(shadowed.body)}`;
    for (const difference of shadowed.differences) {
      logger?.warn({ shadow: difference.kind, pointer: difference.pointer, upstream: difference.upstream, mock: difference.mock }, `shadow ${method} ${url}: ${difference.kind} at ${difference.pointer || '(answer)'}: upstream ${difference.upstream}, mock ${difference.mock} (${both})`);
    }
  }
  // With --shadow the upstream's answer is kept beside the mock's, so that each difference shows with both answers.
  context.mock.journal.record(arrival.request, shadowed === undefined ? { status: answer.status } : { status: answer.status, body: shadowed.upstreamText }, { answeredBy: answer.answeredBy, violations: violations.map(journalViolation), ...(shadowed === undefined ? {} : { shadow: { status: shadowed.status, body: shadowed.body, differences: shadowed.differences } }) });
}

/** The arguments of `Recorder.add` for one exchange (`--record`): the HAR entry with its comment, and what the recorder keeps of the records. */
function recording(arrival: Arrival, req: IncomingMessage, answer: Answer, violations: readonly ExchangeViolation[], text: string, answeredMs: number, verdict: ExchangeVerdict | undefined, judgedRequest: RequestVerdict | undefined): Parameters<Recorder['add']> {
  const { method, url, request, started } = arrival;
  const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
  const comment = `answered by ${answer.answeredBy}${answer.reason === undefined ? '' : ` (${answer.reason})`}${violations.length === 0 ? '' : `; violations: ${violations.map(violationLabel).join('; ')}`}`;
  const schemaClean = !violations.some((v) => v.side === 'response' && (v.rule === 'body.schema' || v.rule === 'body.json' || v.rule === 'media-type'));
  const routed = judgedRequest?.routed;
  return [
    {
      request: { method: method as 'GET', path: url, url: `${origin}${url}`, headers: flatHeaders(req.headers), ...(request.body === undefined || request.body.length === 0 ? {} : { body: request.body.toString('utf8') }) },
      response: { status: answer.status, headers: flatHeaders(answer.headers), text },
      // When the request came and how long until its answer was ready: a later request of the same client
      // starts after that (the sequence rules of --from-har rely on it).
      timing: { startedDateTime: new Date(performance.timeOrigin + started).toISOString(), totalMs: answeredMs },
    },
    comment,
    routed?.op,
    answer.answeredBy === 'upstream',
    schemaClean ? verdict?.body : undefined,
    routed?.op === undefined ? {} : routed.pathValues,
  ];
}

/** A body as a log line shows it: its first 120 characters. */
function cut(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 120 ? `${flat.slice(0, 117)}...` : flat || '(no body)';
}

/** `GET /__admin/violations` (the counts) and `DELETE` (clears them), behind the admin token. */
function violationsEndpoint(context: ProxyContext, request: MockRequest): Answer {
  const refusal = adminRefusal(context.options.mock?.admin !== false, context.adminDigest, request);
  if (refusal !== undefined) return refusal;
  if (request.method === 'DELETE') {
    context.counts.clear();
    return { status: 204, headers: {}, bytes: Buffer.alloc(0), answeredBy: 'mock' };
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') return errorAnswer('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${ADMIN_PREFIX}/violations; allowed: GET, DELETE.`, { allow: 'GET, DELETE' });
  return { status: 200, headers: { 'content-type': 'application/json' }, bytes: Buffer.from(JSON.stringify(context.counts.toJSON())), answeredBy: 'mock' };
}

/** Whether an upstream's answer is a stream to pass on as it comes: its media type is a sequential one (D85). */
function isStream(headers: Record<string, string | string[]>): boolean {
  const type = headerText(headers['content-type']);
  return type !== undefined && framingOf(type) !== undefined;
}

/** `/__admin…` and `/__health`: the mock's own endpoints, never forwarded. */
function isOwn(url: string): boolean {
  for (const prefix of [ADMIN_PREFIX, HEALTH_PATH]) {
    if (!url.startsWith(prefix)) continue;
    const next = url.charAt(prefix.length);
    if (next === '' || next === '/' || next === '?') return true;
  }
  return false;
}

/**
 * Whether an upstream's 404 says it has no such route rather than no such record: an operation without path
 * parameters (its 404 is the route's), or a 404 body that is not the one the spec documents for the operation
 * (a web server's page, another error shape). DECISIONS D64.
 */
function routeMissing(op: OperationModel, bytes: Buffer, encoding: string | undefined): boolean {
  if (op.pathParams.length === 0) return true;
  const { response, documented } = documentedResponse(op, 404);
  if (!documented || response?.validate === undefined) return true;
  let text: string;
  try {
    text = decodeBody(bytes, encoding);
  } catch {
    return true;
  }
  const parsed = parseExact(text);
  return !parsed.ok || !response.validate(parsed.document.view);
}

/** Whether a request addresses a record the mock created (its resource's id path parameter names one). */
function heldByMock(op: OperationModel, pathValues: Record<string, string>, mockIds: Map<string, Set<string>>): boolean {
  const resource = op.resource;
  if (resource?.idParameter === undefined || op.role === 'list' || op.role === 'create') return false;
  const id = pathValues[resource.idParameter];
  return id !== undefined && mockIds.get(resource.name)!.has(id);
}

/**
 * The request as the mock sees it: credentials the request presents are swapped for the mock's own key, since
 * the upstream, not the mock, is the authority on keys (DECISIONS D64); a request without credentials keeps none.
 */
function withMockCredentials(request: MockRequest, op: OperationModel | undefined, key: string): MockRequest {
  const scheme = op?.security[0];
  if (scheme === undefined || op === undefined) return request;
  const queryAt = request.url.indexOf('?');
  if (!hasCredentials(op.security, flatHeaders(request.headers), new URLSearchParams(queryAt === -1 ? '' : request.url.slice(queryAt + 1)))) return request;
  const headers: IncomingHttpHeaders = { ...request.headers };
  if (scheme.kind === 'bearer') headers.authorization = `Bearer ${key}`;
  else if (scheme.kind === 'basic') headers.authorization = `Basic ${Buffer.from(`user:${key}`).toString('base64')}`;
  else if (scheme.in === 'header') headers[scheme.parameter.toLowerCase()] = key;
  else if (scheme.in === 'query') {
    const query = new URLSearchParams(request.url.slice(queryAt + 1));
    query.set(scheme.parameter, key);
    return { ...request, url: `${request.url.slice(0, queryAt)}?${query.toString()}` };
  }
  return { ...request, headers };
}

