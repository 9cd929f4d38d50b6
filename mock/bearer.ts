/**
 * The bearer credential of a request (seed, Authentication: `Authorization: Bearer <key>`), read and checked
 * without a regular expression, a `Buffer` or a native call: this runs on every request.
 */

/** Whether a character code ends a token: the characters JavaScript's `\s` matches among one-byte codes. */
function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 160;
}

/**
 * The key of an `Authorization` header value, or `undefined` when it is absent or not a bearer credential.
 * Accepted form, as the regular expression `/^Bearer +(\S+) *$/i` would: the scheme `Bearer` in any case,
 * one or more spaces, the key (no white space), then only spaces. Header values arrive from node as one
 * character per byte (latin1), so a key's non-ASCII bytes stay one character each.
 */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined || header.length < 8) return undefined;
  // "Bearer" case-insensitively: setting bit 0x20 lower-cases ASCII letters, and no other byte becomes one.
  if (
    (header.charCodeAt(0) | 32) !== 98 /* b */ ||
    (header.charCodeAt(1) | 32) !== 101 /* e */ ||
    (header.charCodeAt(2) | 32) !== 97 /* a */ ||
    (header.charCodeAt(3) | 32) !== 114 /* r */ ||
    (header.charCodeAt(4) | 32) !== 101 /* e */ ||
    (header.charCodeAt(5) | 32) !== 114 /* r */ ||
    header.charCodeAt(6) !== 32
  ) {
    return undefined;
  }
  let start = 7;
  while (start < header.length && header.charCodeAt(start) === 32) start++;
  let end = start;
  while (end < header.length && !isSpace(header.charCodeAt(end))) end++;
  if (end === start) return undefined;
  for (let i = end; i < header.length; i++) if (header.charCodeAt(i) !== 32) return undefined;
  return start === 7 && end === header.length ? header.slice(7) : header.slice(start, end);
}

/**
 * A key as it arrives in a header: its UTF-8 bytes, one character per byte (how node decodes header values),
 * so that {@link sameKey} compares bytes.
 */
export function headerForm(key: string): string {
  return Buffer.from(key, 'utf8').toString('latin1');
}

/**
 * Whether `given` equals `accepted`, in time that depends on the length of `accepted` only: every
 * character of the accepted key is compared, differences are accumulated with `|` and `^` without an early
 * exit, and a `given` of another length does the same work (its missing characters read as 0). So the time
 * taken tells an attacker nothing of the accepted key's bytes, nor whether a guess shares a prefix with it.
 * Both arguments in {@link headerForm} (one character per byte).
 */
export function sameKey(given: string, accepted: string): boolean {
  let difference = given.length ^ accepted.length;
  for (let i = 0; i < accepted.length; i++) difference |= (given.charCodeAt(i) | 0) ^ accepted.charCodeAt(i);
  return difference === 0;
}
