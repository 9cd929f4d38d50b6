/**
 * What a description says of its own version, read from its text (spec/DECISIONS.md › D600, D601): whether a call
 * without the base path's version prefix is the same call, and which documented response headers carry the version.
 */

/**
 * Whether the description's text says that a path without its version prefix is served as the current version
 * (spec/DECISIONS.md › D600): "calling `/info` is the same as calling `/v1.41/info`", "If you omit the
 * version-prefix, the current version of the API (v1.41) is used". `text` is `info.description`; `basePath` the
 * path of the local server (`/v1.41`), which must itself be a version (`/v2`, `/v1.41`, `/api/v3`). The version the
 * sentence names may be an older one than the base path's (a text written for an earlier release): what it says
 * is that the path without a prefix is the prefixed one.
 */
export function servesWithoutPrefix(text: unknown, basePath: string): boolean {
  if (typeof text !== 'string' || !VERSION.test(basePath)) return false;
  for (const match of text.matchAll(/calling\s+`(\/[^`\s]*)`\s+is\s+the\s+same\s+as\s+calling\s+`(\/[^`\s]+)`/gi)) {
    const [, bare, prefixed] = match;
    if (prefixed!.endsWith(bare!) && VERSION.test(prefixed!.slice(0, -bare!.length))) return true;
  }
  return /\bomit(?:ting)?\s+the\s+version[- ]prefix\b/i.test(text);
}

/** A path that ends in a version segment: `/v2`, `/v1.41`, `/api/v3`. */
const VERSION = /^(?:\/[^/]+)*\/v\d+(?:\.\d+)*$/;

/**
 * Whether a response header's description says it carries the version of the API (or of the protocol) the server
 * supports or used to answer (spec/DECISIONS.md › D601): "Max API Version the server supports", "The version of
 * the REST protocol used to process the request". Such a header is answered with the description's
 * `info.version`, the version the description is of.
 */
export function carriesApiVersion(description: unknown): boolean {
  if (typeof description !== 'string') return false;
  return /\b(?:api|protocol)\s+version\b.*\b(?:server|service)\b|\bversion\s+of\s+the\s+(?:rest\s+)?(?:api|protocol)\b/i.test(description);
}
