import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import type { TargetTls } from '../conformance/target.js';
import { dispatcherFor } from '../conformance/transport/dispatcher.js';

/**
 * Headers that belong to one connection, not to the message (RFC 9110 §7.6.1): never forwarded either way.
 * `host` is the upstream's own; `content-length` of a request is recomputed by undici from the bytes sent.
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** An upstream's answer as received: status, headers (hop-by-hop ones dropped) and the body bytes exactly as sent. */
export interface UpstreamAnswer {
  status: number;
  headers: Record<string, string | string[]>;
  bytes: Buffer;
  /**
   * A streamed answer's body, not read yet (`bytes` then empty): its pieces as they arrive, for the proxy to pass
   * on one by one (D85). Set only when `forward`'s `streams` said so for the answer's headers.
   */
  stream?: AsyncIterable<Buffer> & { destroy(): void };
}

/** The upstream could not be reached (`reachable: false`, e.g. connection refused) or broke off its answer. */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly reachable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'UpstreamError';
  }
}

/** Error codes of an upstream that is not there at all (nothing was sent): a fallback may answer instead. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** Where and how to reach the upstream: its base URL (`https://staging.example.com/v1`), TLS files, connections. */
export interface UpstreamOptions {
  baseUrl: string;
  tls?: TargetTls | undefined;
  /** Connections kept to the upstream (undici pool); default 64. */
  connections?: number;
  /** Milliseconds to wait for the upstream's headers, then its body; default 30,000. */
  timeoutMs?: number;
}

/** A client of one upstream: its origin and base path, and `forward`. */
export interface Upstream {
  /** `https://staging.example.com` */
  origin: string;
  /** The base URL's path without a trailing slash: `/v1`, or `` */
  basePath: string;
  /**
   * Sends a request to `path` on the upstream's origin (query included) and reads the whole answer, unless
   * `streams` says, from its headers, that it is a stream: then its body is handed on unread (`stream`).
   */
  forward(method: string, path: string, headers: IncomingHttpHeaders, body: Buffer | undefined, streams?: (headers: Record<string, string | string[]>) => boolean): Promise<UpstreamAnswer>;
}

/**
 * A client of the upstream: `forward(method, path, headers, body)` sends a request to a path of the upstream's
 * origin (the proxy puts the upstream's base path before what follows the spec's: `/v1/pets?limit=5`) through an undici pool, with the
 * suite's transport (conformance/transport/dispatcher.ts: `HTTPS_PROXY`/`NO_PROXY`, private CA, client
 * certificate), and reads the answer's bytes as they came (compressed bodies stay compressed, int64 digits
 * untouched). Errors: rejects with {@link UpstreamError}.
 */
export function createUpstream(options: UpstreamOptions): Upstream {
  const url = new URL(options.baseUrl);
  const origin = url.origin;
  const basePath = url.pathname.replace(/\/+$/, '');
  // A pool of the upstream's own: the proxy shares no connection with a suite run in the same process.
  const dispatcher: Dispatcher = dispatcherFor(new Map(), { ...(options.tls === undefined ? {} : { tls: options.tls }), concurrency: Math.ceil((options.connections ?? 64) / 2) });
  const timeout = options.timeoutMs ?? 30_000;
  return {
    origin,
    basePath,
    async forward(method, path, headers, body, streams) {
      const sent = forwardedHeaders(headers);
      let answer: Dispatcher.ResponseData;
      try {
        answer = await dispatcher.request({ origin, path, method: method as Dispatcher.HttpMethod, headers: sent, body: body === undefined || body.length === 0 ? null : body, headersTimeout: timeout, bodyTimeout: timeout });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? ((error as Error).cause as NodeJS.ErrnoException | undefined)?.code;
        throw new UpstreamError(`cannot reach ${origin}: ${(error as Error).message}${code === undefined ? '' : ` (${code})`}`, !UNREACHABLE.has(code ?? ''), { cause: error });
      }
      const returned = answeredHeaders(answer.headers);
      if (answer.statusCode < 300 && streams?.(returned) === true) return { status: answer.statusCode, headers: returned, bytes: Buffer.alloc(0), stream: answer.body };
      let bytes: Buffer;
      try {
        bytes = Buffer.from(await answer.body.arrayBuffer());
      } catch (error) {
        throw new UpstreamError(`the upstream broke off its answer: ${(error as Error).message}`, true, { cause: error });
      }
      return { status: answer.statusCode, headers: returned, bytes };
    },
  };
}

/** Names a `Connection` header lists: hop-by-hop for this message too. */
function connectionNames(value: string | string[] | undefined): string[] {
  // The usual values name no other header (and are hop-by-hop themselves).
  if (value === undefined || value === 'keep-alive' || value === 'close' || value === 'Keep-Alive') return [];
  return (Array.isArray(value) ? value.join(',') : value).split(',').map((name) => name.trim().toLowerCase()).filter(Boolean);
}

/** The client's headers as forwarded: without hop-by-hop ones, `host` and `content-length` (undici sets both). */
function forwardedHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const dropped = connectionNames(headers.connection);
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || name === 'host' || name === 'content-length' || dropped.includes(name)) continue;
    out[name] = value;
  }
  return out;
}

/** The upstream's headers as returned to the client: without hop-by-hop ones (node frames the body itself). */
function answeredHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const dropped = connectionNames(headers.connection);
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || dropped.includes(name)) continue;
    out[name] = value;
  }
  return out;
}

/** One header value as text (`a, b` for a repeated header other than `set-cookie`). */
export function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
