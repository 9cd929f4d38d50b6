import { expect } from 'vitest';

/** The one API key every wild-corpus mock accepts. */
export const WILD_KEY = 'wild-corpus-key';

/** An answer as a probe sees it: status, media type (without parameters), headers, raw bytes, text and JSON. */
export interface WildAnswer {
  status: number;
  /** `content-type` without parameters, lower case; `''` when absent. */
  type: string;
  headers: Headers;
  bytes: Uint8Array;
  text: string;
  /** The body parsed as JSON, `undefined` when it is empty or not JSON. */
  json: unknown;
}

/** What a request carries: a JSON value, a form (urlencoded or multipart), raw bytes, extra headers, no credentials. */
export interface WildRequest {
  json?: unknown;
  /** Sent as `application/x-www-form-urlencoded`; an array value repeats its key. */
  form?: Record<string, string | readonly string[]>;
  multipart?: FormData;
  bytes?: { contentType: string; data: Uint8Array };
  headers?: Record<string, string>;
  /** `false` sends no credentials at all. */
  auth?: boolean;
}

/**
 * How a spec asks for credentials: a bearer token (OAuth2 or HTTP bearer, plus an `api_key` header), HTTP basic,
 * an apiKey query parameter of that name, or none.
 */
export type WildAuth = 'bearer' | 'basic' | 'none' | { query: string };

/** A client for one running mock: `call(method, path)` relative to its base URL. */
export interface WildClient {
  baseUrl: string;
  call(method: string, path: string, request?: WildRequest): Promise<WildAnswer>;
}

/** A probe: one short story a front-end developer tries first, written from the spec's own descriptions. */
export type WildProbe = (client: WildClient) => Promise<void>;

function credentials(auth: WildAuth): Record<string, string> {
  if (typeof auth === 'object') return {};
  if (auth === 'bearer') return { authorization: `Bearer ${WILD_KEY}`, api_key: WILD_KEY };
  if (auth === 'basic') return { authorization: `Basic ${Buffer.from(`front-end:${WILD_KEY}`).toString('base64')}` };
  return {};
}

function formText(form: Record<string, string | readonly string[]>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) for (const one of typeof value === 'string' ? [value] : value) params.append(name, one);
  return params.toString();
}

/** A client for the mock at `baseUrl`, sending the credentials `auth` names unless a request says `auth: false`. */
export function wildClient(baseUrl: string, auth: WildAuth): WildClient {
  return {
    baseUrl,
    async call(method, path, request = {}) {
      const headers: Record<string, string> = request.auth === false ? {} : credentials(auth);
      let body: string | FormData | Uint8Array | undefined;
      if (request.json !== undefined) [headers['content-type'], body] = ['application/json', JSON.stringify(request.json)];
      if (request.form !== undefined) [headers['content-type'], body] = ['application/x-www-form-urlencoded', formText(request.form)];
      if (request.bytes !== undefined) [headers['content-type'], body] = [request.bytes.contentType, request.bytes.data];
      if (request.multipart !== undefined) body = request.multipart;
      Object.assign(headers, request.headers);
      const withKey = typeof auth === 'object' && request.auth !== false ? `${path}${path.includes('?') ? '&' : '?'}${auth.query}=${WILD_KEY}` : path;
      const response = await fetch(`${baseUrl}${withKey}`, { method, headers, ...(body === undefined ? {} : { body }) });
      const bytes = new Uint8Array(await response.arrayBuffer());
      const text = Buffer.from(bytes).toString('utf8');
      let json: unknown;
      try {
        json = text === '' ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      return { status: response.status, type, headers: response.headers, bytes, text, json };
    },
  };
}

/** A JSON object answer's members; fails the probe when the answer is not a JSON object. */
export function object(answer: WildAnswer): Record<string, unknown> {
  expect(answer.json !== null && typeof answer.json === 'object' && !Array.isArray(answer.json), `a JSON object, got ${answer.status} ${answer.text.slice(0, 300)}`).toBe(true);
  return answer.json as Record<string, unknown>;
}

/** The records of a list answer: a bare array, or the array member `member` of a wrapper object. */
export function records(answer: WildAnswer, member?: string): Record<string, unknown>[] {
  const list = member === undefined ? answer.json : object(answer)[member];
  expect(Array.isArray(list), `a list${member === undefined ? '' : ` in "${member}"`}, got ${answer.status} ${answer.text.slice(0, 300)}`).toBe(true);
  return list as Record<string, unknown>[];
}

/** Expects `answer` to have `status`, showing the body when it does not. */
export function expectStatus(answer: WildAnswer, status: number | readonly number[]): void {
  const allowed = typeof status === 'number' ? [status] : status;
  expect(allowed, `status ${answer.status}: ${answer.type} ${answer.text.slice(0, 400)}`).toContain(answer.status);
}

/** Expects a 2xx answer. */
export function expectSuccess(answer: WildAnswer): void {
  expect(answer.status >= 200 && answer.status < 300, `a 2xx, got ${answer.status}: ${answer.type} ${answer.text.slice(0, 400)}`).toBe(true);
}

/**
 * Expects `pages` (each a list of ids, in the order served, read while nothing writes) to partition `all`: no id
 * twice, none missing, none extra (page 2 is the next records; pages never repeat or skip one).
 */
export function expectPartition(pages: readonly (readonly string[])[], all: readonly string[]): void {
  const served = pages.flat();
  expect(new Set(served).size, `an id served twice across pages: ${JSON.stringify(pages)}`).toBe(served.length);
  expect([...served].sort()).toEqual([...all].sort());
}

/** The `rel="next"` target of an RFC 8288 `Link` header, or `undefined`. */
export function nextLink(header: string | null): string | undefined {
  for (const part of (header ?? '').split(',')) {
    const match = /<([^>]*)>\s*;(.*)/.exec(part.trim());
    if (match !== null && /rel="?([^";]*\s)?next(\s[^";]*)?"?/.test(match[2]!)) return match[1];
  }
  return undefined;
}
