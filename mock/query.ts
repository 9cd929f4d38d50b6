/**
 * The name/value pairs of a query string, as `new URLSearchParams(search)` gives them
 * (application/x-www-form-urlencoded parsing), flat: `[name0, value0, name1, value1, ...]`, in order.
 * A string that needs no decoding (no `%`, `+`, UTF-16 surrogate or leading `?`) is split by hand: the common
 * case, several times cheaper. Any other goes through `URLSearchParams`, so decoding is the platform's.
 * `search` is the part of the URL after its first `?`.
 */
export function queryPairs(search: string): string[] {
  const pairs: string[] = [];
  if (search.length === 0) return pairs;
  if (needsDecoding(search)) {
    for (const [name, value] of new URLSearchParams(search)) pairs.push(name, value);
    return pairs;
  }
  let start = 0;
  while (start <= search.length) {
    let end = search.indexOf('&', start);
    if (end === -1) end = search.length;
    if (end > start) {
      const equals = search.indexOf('=', start);
      if (equals === -1 || equals > end) pairs.push(search.slice(start, end), '');
      else pairs.push(search.slice(start, equals), search.slice(equals + 1, end));
    }
    start = end + 1;
  }
  return pairs;
}

function needsDecoding(search: string): boolean {
  if (search.charCodeAt(0) === 63 /* ? */) return true;
  for (let i = 0; i < search.length; i++) {
    const code = search.charCodeAt(i);
    if (code === 37 /* % */ || code === 43 /* + */ || (code >= 0xd800 && code <= 0xdfff)) return true;
  }
  return false;
}
