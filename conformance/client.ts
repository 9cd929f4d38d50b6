import { Agent, request as undiciRequest } from 'undici';
import type { ResolvedTarget } from './target.js';

/** A request the suite sends: method, path below the base URL (with its query), headers, raw body text. */
export interface OutgoingRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD' | 'OPTIONS';
  /** Path relative to the base URL, starting with `/`, query included: `/pets?limit=5`. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** One request and what came back; `text` is the body exactly as received. */
export interface Exchange {
  request: OutgoingRequest & { url: string };
  response: { status: number; headers: Record<string, string>; text: string };
}

/** Requests sent so far by this process, and since when (for the end-of-run figures). */
export const traffic = { requests: 0, startedAt: performance.now() };

const agent = new Agent({ connections: 16, keepAliveTimeout: 10_000, pipelining: 1 });

/**
 * Sends one request to the target with undici and reads the whole body as text (parsing is the caller's,
 * so that int64 digits survive). Honours `maxRps`. Errors: a network failure rejects with a message naming
 * the URL (the target is down or unreachable), never a silent retry.
 */
export async function send(target: ResolvedTarget, request: OutgoingRequest): Promise<Exchange> {
  await pace(target.maxRps);
  const url = `${target.baseUrl}${request.path}`;
  traffic.requests += 1;
  let response;
  try {
    response = await undiciRequest(url, {
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      dispatcher: agent,
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
  } catch (error) {
    throw new Error(`cannot reach ${request.method} ${url}: ${(error as Error).message}`);
  }
  const text = await response.body.text();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { request: { ...request, url }, response: { status: response.statusCode, headers, text } };
}

/** Headers of an authenticated JSON request with the target's key. */
export function authHeaders(target: ResolvedTarget, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${target.apiKey}`, accept: 'application/json', ...extra };
}

/**
 * The request as a `curl` command a person can paste (STYLE 8). The target's own key is written as
 * `$PETSTORE_API_KEY`, so that reports never print a secret; deliberately wrong keys are printed as sent.
 */
export function curl(request: Exchange['request'], apiKey: string): string {
  const quote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;
  const parts = ['curl -sS -i', '-X', request.method, quote(request.url)];
  for (const [name, value] of Object.entries(request.headers)) {
    const shown = apiKey !== '' && value.includes(apiKey) ? `"${name}: ${value.replaceAll(apiKey, '$PETSTORE_API_KEY')}"` : quote(`${name}: ${value}`);
    parts.push('-H', shown);
  }
  if (request.body !== undefined) parts.push('--data-binary', quote(request.body));
  return parts.join(' ');
}

let nextSlot = 0;
async function pace(maxRps: number | undefined): Promise<void> {
  if (maxRps === undefined || maxRps <= 0) return;
  const now = performance.now();
  const slot = Math.max(now, nextSlot);
  nextSlot = slot + 1000 / maxRps;
  if (slot > now) await new Promise((resolve) => setTimeout(resolve, slot - now));
}
