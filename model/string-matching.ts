import fc from 'fast-check';

/** Each pattern's arbitrary, or the error fast-check gave for it, by the pattern's source and flags. */
const built = new Map<string, fc.Arbitrary<string> | Error>();

/**
 * fast-check's `stringMatching(regex)`, built once per pattern. Building one reads the pattern and precomputes
 * the arbitrary's shrinking slices: 10-70 ms of CPU, where a draw from it takes well under a millisecond. Drawing a
 * body per record (a page's population of 1,001 records, an id per created record) built it per value, and that
 * cost more than everything else such a check did. An arbitrary holds no state of a run, so one serves every draw.
 * Throws what fast-check throws for a pattern it cannot read (lookarounds, back-references), every time.
 */
export function stringMatching(regex: RegExp): fc.Arbitrary<string> {
  const key = `/${regex.source}/${regex.flags}`;
  let found = built.get(key);
  if (found === undefined) {
    try {
      found = fc.stringMatching(regex);
    } catch (error) {
      found = error instanceof Error ? error : new Error(String(error));
    }
    built.set(key, found);
  }
  if (found instanceof Error) throw found;
  return found;
}
