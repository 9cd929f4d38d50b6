import fc from 'fast-check';
import type { AuthScheme } from '../../model/model.js';

/**
 * Credentials the target must refuse with 401 (seed, Authentication: "missing or invalid"), built from the valid
 * key for the operation's security scheme: absent, empty, another scheme, the key without its scheme, a wrong or
 * altered key. `headers` are the request's credential headers (`null`: none sent); `query` is appended to the
 * query string (an API key in the query).
 */
export interface BadCredentials {
  kind: string;
  headers: Record<string, string | null>;
  query?: string;
}

/** The credentials a request carries for `scheme` with `key` (seed: `Authorization: Bearer <key>`). */
export function validCredentials(scheme: AuthScheme | undefined, key: string): { headers: Record<string, string>; query?: string } {
  if (scheme === undefined) return { headers: {} };
  if (scheme.kind === 'bearer') return { headers: { authorization: `Bearer ${key}` } };
  if (scheme.kind === 'basic') return { headers: { authorization: `Basic ${Buffer.from(key.includes(':') ? key : `${key}:`).toString('base64')}` } };
  if (scheme.in === 'query') return { headers: {}, query: `${encodeURIComponent(scheme.parameter)}=${encodeURIComponent(key)}` };
  if (scheme.in === 'cookie') return { headers: { cookie: `${scheme.parameter}=${key}` } };
  return { headers: { [scheme.parameter.toLowerCase()]: key } };
}

/** Keys that differ from the valid one: wrong, with a suffix, a prefix, in another letter case. */
function alteredKeys(key: string): [string, string][] {
  const keys: [string, string][] = [
    ['a wrong key', 'conformance-wrong-key'],
    ['the right key with a suffix', `${key}x`],
    ['a prefix of the right key', key.slice(0, -1)],
  ];
  if (key.toUpperCase() !== key) keys.push(['the right key in upper case', key.toUpperCase()]);
  if (key.toLowerCase() !== key) keys.push(['the right key in lower case', key.toLowerCase()]);
  return keys;
}

/** Every fixed kind of bad credentials for a scheme and a valid key (run exhaustively before random keys). */
export function credentialVariants(scheme: AuthScheme, key: string): BadCredentials[] {
  const none = (): Record<string, string | null> => ({ authorization: null, ...(scheme.kind === 'apiKey' && scheme.in === 'header' ? { [scheme.parameter.toLowerCase()]: null } : {}) });
  const variants: BadCredentials[] = [{ kind: 'no credentials', headers: none() }];
  if (scheme.kind === 'apiKey') {
    if (scheme.in === 'query') variants.push({ kind: 'an empty key', headers: none(), query: `${encodeURIComponent(scheme.parameter)}=` });
    else if (scheme.in === 'header') variants.push({ kind: 'an empty key', headers: { ...none(), [scheme.parameter.toLowerCase()]: '' } });
    variants.push({ kind: 'the right key as a bearer token', headers: { ...none(), authorization: `Bearer ${key}` } });
    for (const [kind, altered] of alteredKeys(key)) {
      const sent = altering(scheme, altered);
      variants.push({ kind, ...sent, headers: { ...none(), ...sent.headers } });
    }
    return variants;
  }
  const auth = (kind: string, header: string): BadCredentials => ({ kind, headers: { authorization: header } });
  variants.push(auth('empty Authorization header', ''));
  if (scheme.kind === 'bearer') {
    variants.push(
      auth('Bearer without a key', 'Bearer'),
      auth('Bearer and a space without a key', 'Bearer '),
      auth('the right key without the Bearer scheme', key),
      auth('the right key under the Basic scheme', `Basic ${Buffer.from(`${key}:`).toString('base64')}`),
      auth('the right key under the Token scheme', `Token ${key}`),
      ...alteredKeys(key).map(([kind, altered]) => auth(kind, `Bearer ${altered}`)),
    );
  } else {
    variants.push(auth('Basic without credentials', 'Basic'), auth('the key as a bearer token', `Bearer ${key}`), ...alteredKeys(key).map(([kind, altered]) => auth(kind, `Basic ${Buffer.from(`${altered}:`).toString('base64')}`)));
  }
  return variants;
}

function altering(scheme: Extract<AuthScheme, { kind: 'apiKey' }>, key: string): Pick<BadCredentials, 'headers' | 'query'> {
  const valid = validCredentials(scheme, key);
  return { headers: valid.headers, ...(valid.query === undefined ? {} : { query: valid.query }) };
}

/**
 * Bad credentials for a scheme and a valid key: the fixed kinds, or a random key. A random Basic credential that
 * holds a colon is sent as `user:password` as drawn, so neither part may be the right key (D571): a server that
 * takes the key as the user name (Stripe's `Basic <api_key>:`) or as the password with any user name (the mock)
 * rightly accepts `x:k` when the key is `k`.
 */
export function badCredentials(scheme: AuthScheme, key: string): fc.Arbitrary<BadCredentials> {
  const random = fc
    .string({ minLength: 1, maxLength: 40 })
    .filter((candidate) => candidate !== key && /^[\x21-\x7e]+$/.test(candidate) && !(scheme.kind === 'basic' && candidate.split(':').includes(key)))
    .map((candidate): BadCredentials => {
      const valid = validCredentials(scheme, candidate);
      return { kind: 'a random key', headers: { authorization: null, ...valid.headers }, ...(valid.query === undefined ? {} : { query: valid.query }) };
    });
  return fc.oneof(fc.constantFrom(...credentialVariants(scheme, key)), random);
}
