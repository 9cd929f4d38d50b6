import type { MockRequest, MockResponse } from './messages.js';

/**
 * Cross-origin access for browsers (README › CORS): on by default, so that a front-end served from another
 * origin (`http://localhost:5173`) can call the mock with `Authorization: Bearer <key>` and a JSON body.
 * The seed does not speak of browsers; this is the mock's choice (spec/DECISIONS.md › CORS).
 */
export interface CorsOptions {
  /** Origins allowed: `'*'` (default) allows any origin; a list allows exactly those (`http://localhost:5173`). `false` turns CORS off. */
  origins?: '*' | readonly string[] | false;
}

/** Request headers a page may send: the seed's bearer key and JSON body, and the mock's `Prefer`. */
const ALLOW_HEADERS = 'Authorization, Content-Type, Prefer';
/** Response headers a page may read: the deprecation signals of `getPet` and the 401 challenge. */
// Retry-After: a page reads how long to wait after a 503 of a mock whose shared store is away.
// Link and X-Total-Count: a page reads the next page and the count of a list that declares them (DECISIONS D46).
// Location: where a create without an answer body put its record (spec/DECISIONS.md › D52).
const EXPOSE_HEADERS = 'Deprecation, Sunset, WWW-Authenticate, Allow, Retry-After, Link, X-Total-Count, Location';
/** Methods of the interface and of the admin API. */
const ALLOW_METHODS = 'GET, HEAD, POST, PUT, DELETE, OPTIONS';
/** A preflight is cached by the browser for 10 minutes (Chromium caps it at 2 hours). */
const MAX_AGE = '600';

/**
 * CORS for a handler: `preflight` answers an `OPTIONS` request that carries `Access-Control-Request-Method`
 * (204, no key needed, for any path: browsers never send credentials on a preflight), and `decorate` adds the
 * CORS headers to every other answer, errors included, so that a page can read a 401 or 404 `Error` body.
 */
export interface Cors {
  preflight(request: MockRequest): MockResponse | undefined;
  decorate(request: MockRequest, response: MockResponse): MockResponse;
}

/** Builds {@link Cors} once: with `'*'` the headers are one constant object; with a list they depend on `Origin`. */
export function createCors(options: CorsOptions = {}): Cors {
  const origins = options.origins ?? '*';
  if (origins === false) return { preflight: () => undefined, decorate: (_request, response) => response };

  const anyOrigin = origins === '*';
  const allowed = new Set(anyOrigin ? [] : origins);
  const fixed = { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSE_HEADERS };
  /** With `'*'`: a frozen header object of an answer, with the CORS headers added (frozen too). */
  const merged = new WeakMap<Record<string, string>, Record<string, string>>();
  /** The last answer decorated with the fixed headers, and its decorated copy (answers are never changed once made). */
  let lastIn: MockResponse | undefined;
  let lastOut: MockResponse | undefined;
  /** Headers for this request's origin, or only `Vary` when the origin is not on the list (the browser then blocks the read). */
  const corsHeaders = (origin: string | undefined): Record<string, string> => {
    if (anyOrigin) return fixed;
    if (origin === undefined || !allowed.has(origin)) return { vary: 'Origin' };
    return { 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSE_HEADERS, vary: 'Origin' };
  };

  return {
    preflight(request) {
      if (request.method !== 'OPTIONS' || request.headers['access-control-request-method'] === undefined) return undefined;
      const headers = corsHeaders(request.headers.origin);
      if (!anyOrigin && headers['access-control-allow-origin'] === undefined) return { status: 204, headers, body: '' };
      const allow: Record<string, string> = {
        ...headers,
        'access-control-allow-methods': allowMethods(request.headers['access-control-request-method']),
        // The headers the page asked for (an app's own `X-Request-Id` too), else the seed's two and `Prefer`.
        'access-control-allow-headers': request.headers['access-control-request-headers'] ?? ALLOW_HEADERS,
        'access-control-max-age': MAX_AGE,
      };
      // Chrome's Private Network Access: a page on a public origin may call the mock on localhost.
      if (request.headers['access-control-request-private-network'] === 'true') allow['access-control-allow-private-network'] = 'true';
      return { status: 204, headers: allow, body: '' };
    },
    decorate(request, response) {
      if (anyOrigin && Object.isFrozen(response.headers)) {
        // The same headers for every origin: merged once per shared (frozen) header object of the pipeline.
        let headers = merged.get(response.headers);
        if (headers === undefined) {
          headers = Object.freeze(withHeaders(response.headers, fixed));
          merged.set(response.headers, headers);
        }
        // A list answered again from the pipeline's memo is the same object: so is its decorated copy.
        if (response === lastIn) return lastOut!;
        lastIn = response;
        lastOut = response.bytes === undefined ? { status: response.status, headers, body: response.body } : { ...response, headers };
        return lastOut;
      }
      return { ...response, headers: withHeaders(response.headers, corsHeaders(request.headers.origin)) };
    },
  };
}

/**
 * The methods a preflight allows: the usual ones, and the one the page asks for when it is another method token
 * (`PATCH`, OpenAPI 3.2's `QUERY`, an `additionalOperations` method such as `PURGE`; D87): the pipeline answers it
 * as the spec says, a 405 for a method the path does not document.
 */
function allowMethods(requested: string | undefined): string {
  const method = requested?.trim().toUpperCase() ?? '';
  return /^[A-Z][A-Z-]{0,30}$/.test(method) && !ALLOW_METHODS.split(', ').includes(method) ? `${ALLOW_METHODS}, ${method}` : ALLOW_METHODS;
}

/** A new header object: `base`, then `extra`. A loop, not `{ ...a, ...b }`: V8 spreads objects with dashed keys some 20 times slower (~2 µs). */
function withHeaders(base: Record<string, string>, extra: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name in base) headers[name] = base[name]!;
  for (const name in extra) headers[name] = extra[name]!;
  return headers;
}
