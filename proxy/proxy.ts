import { createServer, STATUS_CODES, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { TargetTls } from '../conformance/target.js';
import { decodeBody } from '../conformance/transport/dispatcher.js';
import { documentedResponse } from '../conformance/contract.js';
import { hasCredentials, idText, judgeExchange, judgeRequest, violationLabel, type ExchangeVerdict, type RequestVerdict } from '../conformance/exchange.js';
import { SequenceJudge } from '../conformance/traffic.js';
import { parseExact } from '../spec/json.js';
import type { ApiModel, OperationModel } from '../spec/model.js';
import { recordIn } from '../spec/resources.js';
import { ADMIN_PREFIX } from '../mock/admin.js';
import { adminRefusal, digest, errorAnswer, errorResponse, flatHeaders, journalViolation, relayStream, write, type Answer } from './answer.js';
import { framingOf } from '../spec/streams.js';

export { ANSWERED_BY_HEADER, VIOLATIONS_HEADER, violationsHeader } from './answer.js';
import { HEALTH_PATH } from '../mock/front-door.js';
import { createMock, DEFAULT_API_KEY, type Mock, type MockOptions } from '../mock/index.js';
import type { MockRequest, MockResponse } from '../mock/pipeline.js';
import type { AnyRecordStore, Maybe } from '../mock/store/record-store.js';
import { Recorder } from './recorder.js';
import { createUpstream, headerText, UpstreamError } from './upstream.js';
import { ViolationCounts } from './violation-counts.js';

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

/**
 * Starts the validating proxy (README › Proxy): every request below the spec's base path is judged, forwarded to
 * the upstream (or answered by the mock: `--mock-operations`, `--fallback`), and the answer judged and returned
 * unchanged (status, headers less the hop-by-hop ones, body bytes), with {@link ANSWERED_BY_HEADER} and
 * {@link VIOLATIONS_HEADER}. Each violation is one log line, kept in the journal (`GET /__admin/requests`) and
 * counted (`GET /__admin/violations`). `/__admin` and `/__health` are the mock's. Never answers a 5xx of its
 * own except 502 when the upstream cannot be reached and nothing falls back. Errors: rejects when the port is
 * taken or the record folder cannot be created.
 */
export async function startProxy(options: ProxyOptions): Promise<StartedProxy> {
  const { model } = options;
  const mock = (await createMock({ ...options.mock, model, ...(options.logger === undefined ? {} : { logger: options.logger }) })) as Mock<AnyRecordStore, Maybe<MockResponse>>;
  const upstream = createUpstream({ baseUrl: options.upstream, tls: options.tls, ...(options.upstreamConnections === undefined ? {} : { connections: options.upstreamConnections }) });
  const counts = new ViolationCounts();
  const sequences = new SequenceJudge(model);
  let exchangeCount = 0;
  const recorder = options.record === undefined ? undefined : new Recorder(options.record, model, options.version ?? '0.0.0');
  const mockOperations = new Set(options.mockOperations ?? []);
  const unknown = [...mockOperations].filter((id) => !model.operations.some((op) => op.operationId === id));
  if (unknown.length > 0) throw new Error(`--mock-operations names no operation of the spec: ${unknown.join(', ')} (known: ${model.operations.map((op) => op.operationId).join(', ')})`);
  const mockKey = options.mock?.apiKeys?.[0] ?? DEFAULT_API_KEY;
  const adminDigest = options.mock?.adminToken === undefined ? undefined : digest(options.mock.adminToken);
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  /** Ids of records created on the mock side, by resource: their reads, writes and deletes go to the mock too (DECISIONS D64). */
  const mockIds = new Map<string, Set<string>>(model.resources.map((resource) => [resource.name, new Set<string>()]));
  const logger = options.logger;
  const logRequests = logger?.isLevelEnabled('info') === true;

  const fromMock = async (request: MockRequest, op: OperationModel | undefined, reason: string): Promise<Answer> => {
    const asMock = withMockCredentials(request, op, mockKey);
    const handler = mock.stores.handlerFor(asMock);
    const answered = handler === 'full' ? errorResponse('TOO_MANY_KEYS') : await handler(asMock);
    const response = mock.cors.decorate(asMock, answered);
    if (op?.role === 'create' && op.resource !== undefined && response.status < 300) {
      const parsed = parseExact(response.body);
      const id = parsed.ok ? (recordIn(parsed.document.value, op.answerEnvelope) as Record<string, unknown> | null | undefined)?.[op.resource.idProperty] : undefined;
      if (id !== undefined) mockIds.get(op.resource.name)!.add(idText(id));
    }
    // A stream the mock answers (D85) is sent whole here: its pieces are known at once.
    return { status: response.status, headers: response.headers, bytes: Buffer.from(response.chunks === undefined ? response.body : response.chunks.join('')), answeredBy: 'mock', reason };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, body: Buffer | undefined, started: number): Promise<void> => {
    const url = req.url ?? '/';
    const method = (req.method ?? 'GET').toUpperCase();
    const request: MockRequest = { method, url, headers: req.headers, body };
    if (url.startsWith(`${ADMIN_PREFIX}/violations`) && /^\/__admin\/violations\/?(?:\?|$)/.test(url)) return write(res, violationsEndpoint(request), undefined);
    if (isOwn(url)) return write(res, await mock.handle(request), undefined);
    const base = model.basePath;
    const below = base === '' ? url : url === base || url.startsWith(`${base}/`) || url.startsWith(`${base}?`) ? url.slice(base.length) || '/' : undefined;
    const upstreamPath = below === undefined ? url : `${upstream.basePath}${below}`;
    const preflight = method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
    // node joins a request's repeated headers into one text (set-cookie aside, which requests do not carry): no copy needed.
    const headers = req.headers as Readonly<Record<string, string>>;
    // A path outside the base path is judged as it is: no operation has it (`route`).
    const judgedPath = below ?? url;
    const bodyText = body?.toString('utf8');
    const judgedRequest: RequestVerdict | undefined = preflight ? undefined : judgeRequest(model, { method, path: judgedPath, headers, body: bodyText });
    const op = judgedRequest?.routed.op;
    const pathValues = judgedRequest?.routed.op === undefined ? {} : judgedRequest.routed.pathValues;

    let answer: Answer | undefined;
    let streamed = false;
    if (op !== undefined && mockOperations.has(op.operationId)) answer = await fromMock(request, op, 'mock-operations');
    else if (op !== undefined && heldByMock(op, pathValues, mockIds)) answer = await fromMock(request, op, 'record held by the mock');
    else if (op !== undefined && options.errors === true && judgedRequest!.violations.length > 0) {
      const refused = await fromMock(request, op, 'errors: invalid request');
      if (refused.status >= 400 && refused.status < 500) answer = refused;
    }
    if (answer === undefined) {
      try {
        const got = await upstream.forward(method, upstreamPath, req.headers, body, preflight ? undefined : isStream);
        answer = { status: got.status, headers: got.headers, bytes: got.bytes, answeredBy: 'upstream' };
        // A stream is passed on piece by piece as the upstream sends it (D85), and judged whole once it ended.
        if (got.stream !== undefined) {
          streamed = true;
          answer.bytes = await relayStream(res, answer, got.stream);
        }
        if (options.fallback === true && op !== undefined && !preflight) {
          if (got.status === 501) answer = await fromMock(request, op, 'fallback: upstream answered 501');
          else if (got.status === 404 && routeMissing(op, got.bytes, headerText(got.headers['content-encoding']))) answer = await fromMock(request, op, 'fallback: upstream has no such route (404)');
        }
      } catch (error) {
        const unreachable = error instanceof UpstreamError && !error.reachable;
        if (options.fallback === true && unreachable && (op !== undefined || preflight)) answer = await fromMock(request, op, 'fallback: upstream unreachable');
        else {
          logger?.warn(`${method} ${url}: ${(error as Error).message}`);
          const failed = errorResponse(unreachable ? 'UPSTREAM_UNREACHABLE' : 'UPSTREAM_FAILED', `${(error as Error).message}`);
          answer = { status: failed.status, headers: failed.headers, bytes: Buffer.from(failed.body), answeredBy: 'mock', reason: 'upstream failed' };
        }
      }
    }

    let verdict: ExchangeVerdict | undefined;
    let text = '';
    if (!preflight) {
      // The judge reads the media type alone; the recording keeps every header.
      const responseHeaders = recorder === undefined ? { 'content-type': headerText(answer.headers['content-type']) ?? '' } : flatHeaders(answer.headers);
      if (answer.headers['content-type'] === undefined) delete responseHeaders['content-type'];
      try {
        const encoding = headerText(answer.headers['content-encoding']);
        text = encoding === undefined ? answer.bytes.toString('utf8') : decodeBody(answer.bytes, encoding);
      } catch (error) {
        text = `(${(error as Error).message})`;
      }
      verdict = judgeExchange(model, { request: { method, path: judgedPath, headers, body: bodyText }, response: { status: answer.status, headers: responseHeaders, text } }, { quick: true }, judgedRequest);
    }
    // The sequence rules too (read-after-create, delete then 404, pages), held only between exchanges that did not overlap.
    const observed = { request: { method, path: judgedPath, headers, body: bodyText }, response: { status: answer.status, headers: {}, text } };
    const sequence = verdict?.op?.resource === undefined ? [] : sequences.judge(verdict, { index: ++exchangeCount, exchange: observed, url, sentAt: performance.timeOrigin + started, answeredAt: performance.timeOrigin + performance.now() });
    const violations = verdict === undefined ? [] : sequence.length === 0 ? verdict.violations : [...verdict.violations, ...sequence];
    const answeredMs = performance.now() - started;
    if (!streamed) write(res, answer, options.violationHeader === false ? undefined : violations);

    const ms = Math.round((performance.now() - started) * 100) / 100;
    counts.add(violations);
    if (logRequests) logger!.info({ method, path: url, status: answer.status, ms, answeredBy: answer.answeredBy, ...(answer.reason === undefined ? {} : { reason: answer.reason }) }, `${method} ${url} ${answer.status} ${ms} ms (${answer.answeredBy}${answer.reason === undefined ? '' : `: ${answer.reason}`})`);
    for (const violation of violations) {
      logger?.warn({ operationId: violation.operationId, rule: violation.rule, side: violation.side, pointer: violation.pointer, expected: violation.expected, got: violation.got, answeredBy: answer.answeredBy }, `violation ${violationLabel(violation)} (${violation.side}): ${violation.message}; expected ${violation.expected}, got ${violation.got}`);
    }
    mock.journal.record(request, { status: answer.status }, { answeredBy: answer.answeredBy, violations: violations.map(journalViolation) });
    if (recorder !== undefined) {
      const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
      const comment = `answered by ${answer.answeredBy}${answer.reason === undefined ? '' : ` (${answer.reason})`}${violations.length === 0 ? '' : `; violations: ${violations.map(violationLabel).join('; ')}`}`;
      const schemaClean = !violations.some((v) => v.side === 'response' && (v.rule === 'body.schema' || v.rule === 'body.json' || v.rule === 'media-type'));
      recorder.add(
        {
          request: { method: method as 'GET', path: url, url: `${origin}${url}`, headers: flatHeaders(req.headers), ...(body === undefined || body.length === 0 ? {} : { body: body.toString('utf8') }) },
          response: { status: answer.status, headers: flatHeaders(answer.headers), text },
          // When the request came and how long until its answer was ready: a later request of the same client
          // starts after that (the sequence rules of --from-har rely on it).
          timing: { startedDateTime: new Date(performance.timeOrigin + started).toISOString(), totalMs: answeredMs },
        },
        comment,
        op,
        answer.answeredBy === 'upstream',
        schemaClean ? verdict?.body : undefined,
        pathValues,
      );
    }
  };

  const violationsEndpoint = (request: MockRequest): Answer => {
    const refusal = adminRefusal(options.mock?.admin !== false, adminDigest, request);
    if (refusal !== undefined) return refusal;
    if (request.method === 'DELETE') {
      counts.clear();
      return { status: 204, headers: {}, bytes: Buffer.alloc(0), answeredBy: 'mock' };
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return errorAnswer('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${ADMIN_PREFIX}/violations; allowed: GET, DELETE.`, { allow: 'GET, DELETE' });
    return { status: 200, headers: { 'content-type': 'application/json' }, bytes: Buffer.from(JSON.stringify(counts.toJSON())), answeredBy: 'mock' };
  };

  const server = createServer({ requireHostHeader: false, keepAliveTimeout: 5_000 }, (req, res) => {
    const started = performance.now();
    const onFailure = (error: unknown): void => {
      logger?.error(`proxy failed on ${req.method ?? ''} ${req.url ?? ''}: ${(error as Error).message}`);
      if (!res.headersSent) write(res, errorAnswer('INTERNAL_ERROR'), undefined);
      else res.destroy();
    };
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      req.resume();
      handle(req, res, undefined, started).catch(onFailure);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > maxBodyBytes) {
        refused = true;
        res.setHeader('connection', 'close');
        write(res, errorAnswer('PAYLOAD_TOO_LARGE', `The request body is larger than ${maxBodyBytes} bytes.`), undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!refused) handle(req, res, Buffer.concat(chunks, size), started).catch(onFailure);
    });
    req.on('error', () => res.destroy());
  });
  // A request node cannot parse still gets the error shape, as from the mock (mock/server.ts).
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const failed = errorResponse(error.code === 'HPE_HEADER_OVERFLOW' ? 'HEADERS_TOO_LARGE' : 'MALFORMED_REQUEST');
    socket.end(`HTTP/1.1 ${failed.status} ${STATUS_CODES[failed.status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(failed.body)}\r\nconnection: close\r\n\r\n${failed.body}`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4010, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const origin = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  return {
    origin,
    baseUrl: `${origin}${model.basePath}`,
    server,
    mock,
    counts,
    flush: () => {
      recorder?.flush();
      mock.flush();
    },
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      recorder?.flush();
      mock.flush();
      await mock.dispose();
    },
  };
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

