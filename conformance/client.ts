import { request as undiciRequest } from 'undici';
import type { Exchange, OutgoingRequest } from '../judge/verdict.js';
import type { ResolvedTarget } from './target.js';
import { ACCEPT_ENCODING, decodeBody, describeCertificateError, dispatcherFor, errorCode, freshDispatcherFor } from './transport/dispatcher.js';
import { backoffMs, retryAfterMs, Throttle } from './transport/throttle.js';
import { KEY_PLACEHOLDER } from '../cli/product.js';

/**
 * Most tries of one request refused with 429 or 503, and most milliseconds spent waiting between them. A
 * `Retry-After` longer than what is left of the wait ends the request at once.
 */
const RETRY_LIMITS = { maxTries: 8, maxWaitMs: 60_000 } as const;

/**
 * What this process sent: requests (tries included), retries after refusals, wall-clock time paused by
 * refusals (ms), and the final statuses per `METHOD path` (query stripped), for the end-of-run figures.
 */
export const traffic = { requests: 0, retries: 0, startedAt: performance.now(), statuses: new Map<string, Map<number, number>>() };

/**
 * The target kept refusing (429/503) beyond {@link RETRY_LIMITS}: no verdict can be given. Once thrown, every
 * later {@link send} of the process throws it again at once, so that a run (and fast-check's shrinking) ends fast.
 */
export class TargetRefusing extends Error {
  constructor(
    readonly status: number,
    readonly url: string,
    readonly tries: number,
    readonly waitedMs: number,
    /** The wait the last refusal asked for (ms), when that alone went beyond {@link RETRY_LIMITS}. */
    readonly askedMs?: number,
  ) {
    const why =
      askedMs === undefined
        ? `${tries} tries and ${(waitedMs / 1000).toFixed(1)} s of waiting, the most the suite makes`
        : `it asks to wait ${(askedMs / 1000).toFixed(0)} s, beyond the ${RETRY_LIMITS.maxWaitMs / 1000} s the suite waits for one request`;
    super(`the target kept refusing (${status} to ${url}: ${why}): no verdict; retry later, or lower --max-rps / --concurrency`);
    this.name = 'TargetRefusing';
    // Not a fault of the suite: vitest shows the sentence, not a stack.
    this.stack = `${this.name}: ${this.message}`;
  }
}

const throttle = new Throttle();
let refusing: TargetRefusing | undefined;

/** The refusal that ended this process's run, if the target kept refusing. */
export function refusedWith(): TargetRefusing | undefined {
  return refusing;
}

/** Milliseconds the suite stood still because the target asked it to wait (overlapping waits counted once). */
export function waitedMs(): number {
  return throttle.pausedMs;
}

/**
 * Sends one request to the target with undici and reads the whole body as text (parsing is the caller's, so
 * that int64 digits survive). At most `target.concurrency` requests are in flight, spaced by `maxRps`.
 * A 429 or 503 is retried (Retry-After honoured, else exponential backoff; every sender pauses and the rate
 * is lowered) within {@link RETRY_LIMITS}. A read (GET, HEAD, OPTIONS) whose connection was closed before any
 * answer is sent once more. Errors: {@link TargetRefusing} when the retry limits are exhausted; any other network
 * or TLS failure rejects with a message naming the URL (and the certificate problem).
 */
export async function send(target: ResolvedTarget, request: OutgoingRequest): Promise<Exchange> {
  const url = `${target.baseUrl}${request.path}`;
  let waited = 0;
  let reconnected = false;
  for (let tries = 1; ; tries++) {
    if (refusing !== undefined) throw refusing;
    let exchange: Exchange;
    try {
      exchange = await sendOnce(target, request, url);
    } catch (error) {
      // A kept-alive connection the server or a load balancer closed just as it was reused: a read is sent once
      // more on a fresh connection. A write is not (it may have been processed).
      if (!(error instanceof ConnectionDropped) || reconnected || !['GET', 'HEAD', 'OPTIONS'].includes(request.method)) throw error;
      reconnected = true;
      traffic.retries += 1;
      tries -= 1;
      continue;
    }
    const { status } = exchange.response;
    if (status !== 429 && status !== 503) {
      recordStatus(request, status);
      logExchange(exchange);
      return exchange;
    }
    const wait = retryAfterMs(exchange.response.headers['retry-after']) ?? backoffMs(tries);
    if (tries >= RETRY_LIMITS.maxTries || waited + wait > RETRY_LIMITS.maxWaitMs) {
      refusing ??= new TargetRefusing(status, `${request.method} ${url}`, tries, waited, tries < RETRY_LIMITS.maxTries ? wait : undefined);
      throw refusing;
    }
    traffic.retries += 1;
    waited += wait;
    throttle.refused(wait);
  }
}

async function sendOnce(target: ResolvedTarget, request: OutgoingRequest, url: string): Promise<Exchange> {
  await throttle.acquire(target.concurrency, target.maxRps);
  const started = Date.now();
  const clock = performance.now();
  // A write after the suite stood still (drawing a large body, a slow machine) goes on a connection of its own.
  const fresh = !READS.has(request.method) && started - lastAnswerAt > STILL_MS ? freshDispatcherFor(target) : undefined;
  try {
    traffic.requests += 1;
    const response = await undiciRequest(url, {
      method: request.method,
      headers: { 'accept-encoding': ACCEPT_ENCODING, ...request.headers },
      ...(request.body === undefined ? {} : { body: request.body }),
      dispatcher: fresh ?? dispatcherFor(target),
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    }).catch((error: unknown) => {
      const certificate = describeCertificateError(error);
      const code = errorCode(error);
      const message = `cannot reach ${request.method} ${url}: ${certificate ?? `${(error as Error).message}${code === undefined ? '' : ` (${code})`}`}`;
      throw certificate === undefined && DROPPED_CODES.has(code ?? '') ? new ConnectionDropped(message, error) : new Error(message, { cause: error });
    });
    const bytes = Buffer.from(await response.body.arrayBuffer());
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    const text = decodeBody(bytes, headers['content-encoding']);
    lastAnswerAt = Date.now();
    return {
      request: { ...request, url },
      response: { status: response.statusCode, headers, text },
      timing: { startedDateTime: new Date(started).toISOString(), totalMs: performance.now() - clock },
    };
  } finally {
    throttle.release();
    if (fresh !== undefined) void fresh.close();
  }
}

/** Methods sent again on a dropped connection (no state changes); the others are writes. */
const READS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'QUERY']);
/** Milliseconds without an answer after which a write does not trust the pooled connections (a server's keep-alive is often 5 s). */
const STILL_MS = 2_000;
/** When the last answer of the process arrived (ms since the epoch). */
let lastAnswerAt = 0;

/** Exchanges kept in memory for `--har-all`, and how many more may be kept. */
let kept: Exchange[] = [];
let keepLeft = 0;

/**
 * Starts a run's figures afresh: the request and retry counts, the statuses per operation, the refusal that ended
 * an earlier run, and the exchanges kept (the first `keepExchanges` of this run, for `--har-all`; 0: none).
 */
export function beginRun(keepExchanges: number): void {
  traffic.requests = 0;
  traffic.retries = 0;
  traffic.startedAt = performance.now();
  traffic.statuses.clear();
  refusing = undefined;
  kept = [];
  keepLeft = keepExchanges;
}

/** The exchanges kept since {@link beginRun}, in the order they were answered. */
export function keptExchanges(): Exchange[] {
  return kept;
}

function logExchange(exchange: Exchange): void {
  if (keepLeft <= 0) return;
  keepLeft -= 1;
  kept.push(exchange);
}

/** Codes of a connection closed under a request before its answer (not a refusal to connect). */
const DROPPED_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/** The connection was closed before an answer came: the target is reachable, the socket was not. */
class ConnectionDropped extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'ConnectionDropped';
  }
}

function recordStatus(request: OutgoingRequest, status: number): void {
  const key = `${request.method} ${request.path.split('?')[0]}`;
  let counts = traffic.statuses.get(key);
  if (counts === undefined) traffic.statuses.set(key, (counts = new Map()));
  counts.set(status, (counts.get(status) ?? 0) + 1);
}

/**
 * The request as a `curl` command a person can paste, so every failure can be replayed by hand. The target's own key is written as
 * `$OPENAPI_HARNESS_API_KEY`, so that reports never print a secret; deliberately wrong keys are printed as sent.
 */
export function curl(request: Exchange['request'], apiKey: string): string {
  const quote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;
  const parts = ['curl -sS -i', '-X', request.method, quote(request.url)];
  for (const [name, value] of Object.entries(request.headers)) {
    const shown = apiKey !== '' && value.includes(apiKey) ? `"${name}: ${value.replaceAll(apiKey, KEY_PLACEHOLDER)}"` : quote(`${name}: ${value}`);
    parts.push('-H', shown);
  }
  if (request.body !== undefined) parts.push('--data-binary', quote(request.body));
  return parts.join(' ');
}
