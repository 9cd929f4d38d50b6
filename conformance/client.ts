import { request as undiciRequest } from 'undici';
import type { Exchange, OutgoingRequest } from '../judge/verdict.js';
import type { ResolvedTarget } from './target.js';
import type { Dispatcher } from 'undici';
import { ACCEPT_ENCODING, decodeBody, describeCertificateError, dispatcherFor, errorCode, freshDispatcherFor } from './transport/dispatcher.js';
import { backoffMs, retryAfterMs, Throttle } from './transport/throttle.js';
import { KEY_PLACEHOLDER } from '../cli/product.js';

/**
 * Most tries of one request refused with 429 or 503, and most milliseconds spent waiting between them. A
 * `Retry-After` longer than what is left of the wait ends the request at once.
 */
const RETRY_LIMITS = { maxTries: 8, maxWaitMs: 60_000 } as const;

/**
 * The target kept refusing (429/503) beyond {@link RETRY_LIMITS}: no verdict can be given. Once thrown, every
 * later {@link send} of the run throws it again at once, so that a run (and fast-check's shrinking) ends fast.
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

/**
 * What one run's client holds: what it sent (requests with tries, retries after refusals, the final statuses per
 * `METHOD path` with the query stripped, when it started), its throttle, the refusal that ended it, when its last
 * answer arrived, its pooled connections, and the exchanges kept for `--har-all`. Created by the run
 * (conformance/run-state.ts), so that two runs in one process neither share figures nor pause for each other.
 */
export class ClientState {
  requests = 0;
  retries = 0;
  readonly startedAt = performance.now();
  readonly statuses = new Map<string, Map<number, number>>();
  readonly throttle = new Throttle();
  /** The refusal that ended the run, if the target kept refusing. */
  refusing: TargetRefusing | undefined;
  /** When the last answer arrived (ms since the epoch). */
  lastAnswerAt = 0;
  /** The run's dispatchers, by TLS setting, concurrency and proxy environment (see `dispatcherFor`). */
  readonly dispatchers = new Map<string, Dispatcher>();
  /** Exchanges kept in memory for `--har-all`, in the order they were answered, and how many more may be kept. */
  readonly kept: Exchange[] = [];
  #keepLeft: number;

  /** `keepExchanges`: keep the first this many exchanges of the run (0: none). */
  constructor(keepExchanges = 0) {
    this.#keepLeft = keepExchanges;
  }

  /** Milliseconds the run stood still because the target asked it to wait (overlapping waits counted once). */
  get waitedMs(): number {
    return this.throttle.pausedMs;
  }

  /** Keeps `exchange` while the run may keep more. */
  keep(exchange: Exchange): void {
    if (this.#keepLeft <= 0) return;
    this.#keepLeft -= 1;
    this.kept.push(exchange);
  }

  /** Closes the run's pooled connections (the run is over). */
  async close(): Promise<void> {
    const pools = [...this.dispatchers.values()];
    this.dispatchers.clear();
    await Promise.all(pools.map((pool) => pool.close()));
  }
}

/**
 * Sends one request to the target with undici and reads the whole body as text (parsing is the caller's, so
 * that int64 digits survive). At most `target.concurrency` requests are in flight, spaced by `maxRps`.
 * A 429 or 503 is retried (Retry-After honoured, else exponential backoff; every sender pauses and the rate
 * is lowered) within {@link RETRY_LIMITS}. A request whose kept-alive connection was closed before any answer is
 * sent once more on a connection of its own: a read always, a write only where that connection came from the pool
 * (the server closed it idle; it processed nothing on it, D860). Errors: {@link TargetRefusing} when the retry
 * limits are exhausted; any other network or TLS failure rejects with a message naming the URL (and the certificate
 * problem). `client`: the run's (its throttle, figures and connections).
 */
export async function send(client: ClientState, target: ResolvedTarget, request: OutgoingRequest): Promise<Exchange> {
  const url = `${target.baseUrl}${request.path}`;
  let waited = 0;
  let reconnected = false;
  for (let tries = 1; ; tries++) {
    if (client.refusing !== undefined) throw client.refusing;
    let exchange: Exchange;
    try {
      exchange = await sendOnce(client, target, request, url, reconnected);
    } catch (error) {
      // A kept-alive connection the server or a load balancer closed just as it was reused: the request is sent once
      // more on a connection of its own. A write is sent again only where it went on a pooled connection, which a
      // server closes idle without reading what arrives on it; on a connection of its own, a write dropped before
      // its answer may have been processed, and a drop there is the server's (D860).
      if (!(error instanceof ConnectionDropped) || reconnected || (!READS.has(request.method) && !error.pooled)) throw error;
      reconnected = true;
      client.retries += 1;
      tries -= 1;
      continue;
    }
    const { status } = exchange.response;
    if (status !== 429 && status !== 503) {
      recordStatus(client, request, status);
      client.keep(exchange);
      return exchange;
    }
    const wait = retryAfterMs(exchange.response.headers['retry-after']) ?? backoffMs(tries);
    if (tries >= RETRY_LIMITS.maxTries || waited + wait > RETRY_LIMITS.maxWaitMs) {
      client.refusing ??= new TargetRefusing(status, `${request.method} ${url}`, tries, waited, tries < RETRY_LIMITS.maxTries ? wait : undefined);
      throw client.refusing;
    }
    client.retries += 1;
    waited += wait;
    client.throttle.refused(wait);
  }
}

async function sendOnce(client: ClientState, target: ResolvedTarget, request: OutgoingRequest, url: string, ownConnection: boolean): Promise<Exchange> {
  await client.throttle.acquire(target.concurrency, target.maxRps);
  const started = Date.now();
  const clock = performance.now();
  // A write after the suite stood still (drawing a large body, a slow machine) goes on a connection of its own.
  const fresh = ownConnection || (!READS.has(request.method) && started - client.lastAnswerAt > STILL_MS) ? freshDispatcherFor(target) : undefined;
  try {
    client.requests += 1;
    const response = await undiciRequest(url, {
      method: request.method,
      headers: { 'accept-encoding': ACCEPT_ENCODING, ...usersHeaders(target, request.headers), ...request.headers },
      ...(request.body === undefined ? {} : { body: request.body }),
      dispatcher: fresh ?? dispatcherFor(client.dispatchers, target),
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    }).catch((error: unknown) => {
      const certificate = describeCertificateError(error);
      const code = errorCode(error);
      const message = `cannot reach ${request.method} ${url}: ${certificate ?? `${(error as Error).message}${code === undefined ? '' : ` (${code})`}`}`;
      throw certificate === undefined && DROPPED_CODES.has(code ?? '') ? new ConnectionDropped(message, error, fresh === undefined) : new Error(message, { cause: error });
    });
    const bytes = Buffer.from(await response.body.arrayBuffer());
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    const text = decodeBody(bytes, headers['content-encoding']);
    client.lastAnswerAt = Date.now();
    return {
      request: { ...request, url },
      response: { status: response.statusCode, headers, text },
      timing: { startedDateTime: new Date(started).toISOString(), totalMs: performance.now() - clock },
    };
  } finally {
    client.throttle.release();
    if (fresh !== undefined) void fresh.close();
  }
}

/**
 * The user's own headers of `target` (`--header`, D496) that the request does not name itself (names compared case
 * aside): sent on the wire, never kept in the exchange a report shows.
 */
function usersHeaders(target: ResolvedTarget, own: Record<string, string>): Record<string, string> {
  if (target.headers === undefined) return {};
  const named = new Set(Object.keys(own).map((name) => name.toLowerCase()));
  return Object.fromEntries(Object.entries(target.headers).filter(([name]) => !named.has(name.toLowerCase())));
}

/** Methods sent again on a dropped connection (no state changes); the others are writes. */
const READS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'QUERY']);
/** Milliseconds without an answer after which a write does not trust the pooled connections (a server's keep-alive is often 5 s). */
const STILL_MS = 2_000;
/** Codes of a connection closed under a request before its answer (not a refusal to connect). */
const DROPPED_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/** The connection was closed before an answer came: the target is reachable, the socket was not. */
class ConnectionDropped extends Error {
  /** `pooled`: the request went on a connection of the run's pool, which may have stood idle before it. */
  constructor(message: string, cause: unknown, readonly pooled: boolean) {
    super(message, { cause });
    this.name = 'ConnectionDropped';
  }
}

function recordStatus(client: ClientState, request: OutgoingRequest, status: number): void {
  const key = `${request.method} ${request.path.split('?')[0]}`;
  let counts = client.statuses.get(key);
  if (counts === undefined) client.statuses.set(key, (counts = new Map()));
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
