import type { AuthScheme } from '../model/model.js';
import { bearerToken, headerForm, sameKey } from './bearer.js';
import type { MockRequest } from './messages.js';
import { queryPairs } from './query.js';

/**
 * Whether a request carries an accepted key in one of the operation's security schemes (README ›
 * Authentication), and the `WWW-Authenticate` challenge of its 401:
 * - `bearer` (and OAuth 2 / OpenID Connect, which the mock cannot run): `Authorization: Bearer <key>`;
 * - `apiKey`: the key as the value of the named header, query parameter or cookie;
 * - `basic`: `Authorization: Basic base64(user:password)` with the key as the password (any user name), or
 *   as the user name with an empty password.
 * An operation whose spec asks for no security needs no key (`check` is `undefined`).
 */
export interface Authenticator {
  check: ((request: MockRequest, search: string) => boolean) | undefined;
  challenge: Record<string, string> | undefined;
}

/**
 * Compiles the check of an operation's `security` alternatives against the accepted keys. Every comparison
 * is constant-time with respect to the accepted keys (bearer.ts › sameKey): every accepted key is compared,
 * without an early exit, so the time taken tells nothing of an accepted key's bytes.
 */
export function compileAuth(security: readonly AuthScheme[], apiKeys: readonly string[]): Authenticator {
  if (security.length === 0) return { check: undefined, challenge: undefined };
  const accepted = apiKeys.map(headerForm);
  const checks = security.map((scheme) => schemeCheck(scheme, accepted, apiKeys));
  const first = security[0]!;
  const challenge = first.kind === 'basic' ? { 'www-authenticate': 'Basic realm="mock"' } : first.kind === 'bearer' ? { 'www-authenticate': 'Bearer' } : undefined;
  // One scheme (the seed's bearer): its check itself, no loop per request.
  if (checks.length === 1) return { check: checks[0], challenge };
  return { check: (request, search) => checks.some((check) => check(request, search)), challenge };
}

function anyKey(given: string | undefined, accepted: readonly string[]): boolean {
  if (given === undefined) return false;
  let ok = false;
  for (const key of accepted) ok = sameKey(given, key) || ok;
  return ok;
}

function schemeCheck(scheme: AuthScheme, accepted: readonly string[], plain: readonly string[]): (request: MockRequest, search: string) => boolean {
  if (scheme.kind === 'bearer') return (request) => anyKey(bearerToken(request.headers.authorization), accepted);
  if (scheme.kind === 'basic') return (request) => anyKey(basicKey(request.headers.authorization, plain), accepted);
  const name = scheme.parameter;
  if (scheme.in === 'header') {
    const header = name.toLowerCase();
    return (request) => {
      const value = request.headers[header];
      return anyKey(typeof value === 'string' ? value : undefined, accepted);
    };
  }
  if (scheme.in === 'query') {
    return (_request, search) => {
      const pairs = queryPairs(search);
      let given: string | undefined;
      for (let i = 0; i < pairs.length; i += 2) if (pairs[i] === name) given ??= headerForm(pairs[i + 1]!);
      return anyKey(given, accepted);
    };
  }
  return (request) => anyKey(cookie(request.headers.cookie, name), accepted);
}

/**
 * The key a request presents in the spec's main security scheme (the first an operation declares), in header
 * form: how `--isolate-by-key` tells callers apart whatever the scheme. `undefined` when none is presented.
 */
export function presentedKey(schemes: readonly AuthScheme[], request: MockRequest, search: string): string | undefined {
  for (const scheme of schemes) {
    let key: string | undefined;
    if (scheme.kind === 'bearer') key = bearerToken(request.headers.authorization);
    else if (scheme.kind === 'basic') key = basicKey(request.headers.authorization, ['any']);
    else if (scheme.in === 'header') {
      const value = request.headers[scheme.parameter.toLowerCase()];
      key = typeof value === 'string' ? value : undefined;
    } else if (scheme.in === 'query') {
      const pairs = queryPairs(search);
      for (let i = 0; i < pairs.length && key === undefined; i += 2) if (pairs[i] === scheme.parameter) key = headerForm(pairs[i + 1]!);
    } else key = cookie(request.headers.cookie, scheme.parameter);
    if (key !== undefined && key !== '') return key;
  }
  return undefined;
}

/** The key of a Basic credential in header form: the password, or the user name when the password is empty. */
function basicKey(header: string | undefined, keys: readonly string[]): string | undefined {
  if (header === undefined || !/^basic +/i.test(header)) return undefined;
  const decoded = Buffer.from(header.replace(/^basic +/i, '').trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1 || keys.length === 0) return undefined;
  const user = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  return headerForm(password === '' ? user : password);
}

function cookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at !== -1 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}
