import { toView } from '../../model/json.js';
import fc from 'fast-check';
import type { FilterModel, LimitModel } from '../../model/model.js';

/**
 * A list query the suite sends: the page size (absent: the default applies) and at most one filter value.
 * `filter.value` is the exact JSON value the listed records' property must equal.
 */
export interface ListQuery {
  limit: number | undefined;
  filter: { model: FilterModel; value: unknown } | undefined;
}

/** The query string of a {@link ListQuery} (no leading `?`; empty when it asks for nothing). */
export function queryText(limit: LimitModel | undefined, query: ListQuery): string {
  const parts: string[] = [];
  if (query.limit !== undefined && limit !== undefined) parts.push(`${encodeURIComponent(limit.parameter)}=${query.limit}`);
  if (query.filter !== undefined) parts.push(`${encodeURIComponent(query.filter.model.parameter.name)}=${encodeURIComponent(filterText(query.filter.value))}`);
  return parts.join('&');
}

/** A filter value as query text: strings as they are, numbers and booleans in their JSON spelling. */
export function filterText(value: unknown): string {
  return typeof value === 'string' ? value : String(value);
}

/**
 * The bounds of valid page sizes: `[minimum (at least 1), maximum]`; the maximum is 100 when the spec gives none.
 * A maximum past 2^53-1 (2^63 in some descriptions) is read as a double that may stand for any of the 2,048 integers
 * around it, so the largest page size asked is 2^53-1, whose text is exact and surely valid (D371).
 */
export function limitRange(limit: LimitModel): [number, number] {
  const max = Math.min(limit.maximum ?? Math.max(100, limit.default ?? 0), Number.MAX_SAFE_INTEGER);
  return [Math.min(Math.max(1, limit.minimum), max), max];
}

/**
 * The page size the list takes nearest to `size` (D903): `size` itself where any integer within the bounds is one,
 * else the smallest of the sizes the parameter lists at or above it (the largest when none is), so a walk or a draw
 * over a range never asks a size such a list refuses.
 */
export function allowedSize(limit: LimitModel, size: number): number {
  const sizes = limit.sizes?.filter((one) => one >= 1);
  if (sizes === undefined || sizes.length === 0) return size;
  return sizes.find((one) => one >= size) ?? sizes.at(-1)!;
}

/**
 * A page size the suite asks of its own choosing (`wanted`: a short first page to find ids), kept within the list's
 * documented bounds ({@link limitRange}): a list whose `page_size` has `minimum: 25` refuses `page_size=5` with the
 * 400 its description documents, and a set-up that sends it learns nothing (D724).
 */
export function pageSizeNear(limit: LimitModel, wanted: number): number {
  const [min, max] = limitRange(limit);
  return allowedSize(limit, Math.min(Math.max(wanted, min), max));
}

/**
 * The page size a list request sends for a drawn `size`: the size itself, or, where none was drawn and the
 * parameter is required (D622), the largest of {@link limitRange}, the page a client that must name a size asks to
 * see everything a page can hold. `undefined` only where the size may be left out.
 */
export function sentSize(limit: LimitModel | undefined, size: number | undefined): number | undefined {
  return size === undefined && limit?.required === true ? limitRange(limit)[1] : size;
}

/** An integer read as a double, in exact digits: `9223372036854775808` for 2^63, where `String` writes `9223372036854776000`. */
export function integerText(value: number): string {
  return Number.isInteger(value) && !Number.isSafeInteger(value) ? BigInt(value).toString() : String(value);
}

/**
 * The smallest page size surely above a maximum read from a description: the next integer for a maximum a double
 * holds exactly, else the next double up, which no literal rounding to that maximum can reach (D371).
 */
export function firstAbove(maximum: number): bigint {
  if (maximum <= Number.MAX_SAFE_INTEGER) return BigInt(Math.floor(maximum)) + 1n;
  // The spacing of doubles at `maximum`: 2^(exponent - 52).
  return BigInt(maximum) + 2n ** BigInt(Math.floor(Math.log2(maximum)) - 52);
}

/** Valid page sizes, the edges (1, 2, maximum-1, maximum) as likely as the rest (seed, Limits: 1..100). */
export function validLimit(limit: LimitModel): fc.Arbitrary<number> {
  const [min, max] = limitRange(limit);
  return fc.oneof(fc.constantFrom(...new Set([min, Math.min(max, min + 1), Math.max(min, max - 1), max].map((size) => allowedSize(limit, size)))), fc.integer({ min, max }).map((size) => allowedSize(limit, size)));
}

/** Values of a filter: its enum (or booleans) when the schema lists them, else values seen in records (`seen`). */
export function filterValue(filter: FilterModel, seen: readonly unknown[]): fc.Arbitrary<unknown> | undefined {
  // Values seen in records are asked for only where the parameter admits them (its own enum, pattern or bounds).
  const values = filter.values ?? seen.filter((value) => filter.parameter.type === 'array' || filter.parameter.validate(toView(value)));
  return values.length === 0 ? undefined : fc.constantFrom(...values);
}

/**
 * Page-size texts outside the bounds or not integers (seed, Limits; handling not shown: DECISIONS D10), the
 * fixed ones first. `isValid` says whether a text is a valid page size (`07` and `+7` included: a server may
 * read them so), so random texts exclude valid ones.
 */
export function invalidLimits(limit: LimitModel): { fixed: string[]; random: fc.Arbitrary<string>; isValid: (text: string) => boolean } {
  const [min, max] = limitRange(limit);
  // Without a maximum in the spec, any integer from the minimum up is a valid page size.
  const bounded = limit.maximum !== undefined;
  // Compared as exact integers (D371): a text past 2^53 is never rounded into the bounds or out of them.
  const low = BigInt(min);
  const above = limit.maximum === undefined ? undefined : firstAbove(limit.maximum);
  const listed = limit.sizes === undefined ? undefined : new Set(limit.sizes.map(String));
  // Where the parameter lists its sizes (D903), only those are valid: a size between two of them is not.
  const isValid = (text: string): boolean => /^\+?\d+$/.test(text) && BigInt(text) >= low && (above === undefined || BigInt(text) < above) && (listed === undefined || listed.has(String(BigInt(text))));
  const exact = limit.maximum === undefined || limit.maximum <= Number.MAX_SAFE_INTEGER;
  const far = exact ? [String(max + 1), String(Math.round(max * 1.5)), String(max * 10)] : [above!, (above! * 3n) / 2n, above! * 10n].map(String);
  const fixed = [String(low - 1n), '-1', ...(listed === undefined ? [] : [String(min + 1)]), ...far, '99999999999999999999', 'abc', '1.5', '', '1e1', '0x10', 'null'].filter((text, i, all) => !isValid(text) && all.indexOf(text) === i);
  const upTo = (from: bigint, to: bigint): fc.Arbitrary<string> => fc.bigInt({ min: from, max: to < from ? from : to }).map(String);
  const higher = bounded && above !== undefined ? [upTo(above, above * 10n), upTo(above, 2n ** 31n)] : [];
  const random = fc.oneof(fc.constantFrom(...fixed, ' 5', '5 ', '١٠', '[]', '%00'), ...higher, upTo(-(2n ** 31n), low - 1n), fc.string({ maxLength: 12 })).filter((text) => !isValid(text));
  return { fixed, random, isValid };
}

/** Filter texts outside a filter's enum (or not of its type): the fixed ones, then random ones. */
export function invalidFilterValues(filter: FilterModel): { fixed: string[]; random: fc.Arbitrary<string> } | undefined {
  const type = filter.parameter.type;
  const allowed = (text: string): boolean => (filter.values !== undefined ? filter.values.some((v) => filterText(v) === text) : type === 'integer' ? /^-?\d+$/.test(text) : type === 'number' ? Number.isFinite(Number(text)) && text.trim() !== '' : type === 'boolean' ? text === 'true' || text === 'false' : true);
  const first = filter.values?.find((v) => typeof v === 'string') as string | undefined;
  const candidates = [first?.toUpperCase(), first === undefined ? undefined : first.charAt(0).toUpperCase() + first.slice(1), 'lost', '', first === undefined ? undefined : `${first} `, '1.5', 'abc', 'null', '*'].filter((text): text is string => text !== undefined && !allowed(text));
  if (candidates.length === 0) return undefined;
  const fixed = [...new Set(candidates)];
  return { fixed, random: fc.oneof(fc.constantFrom(...fixed), fc.string({ unit: anyCodePoint, maxLength: 12 })).filter((text) => !allowed(text)) };
}

/** Code points below the surrogates; those above them follow at the same index shifted by the surrogates' 2,048. */
const SURROGATES_START = 0xd800;
const SURROGATES = 0x800;

/**
 * Any Unicode scalar value (every code point but the surrogates) as a one-character string: the very draws of
 * fast-check's `unit: 'binary'` (the same integer index, mapped the same way), and its unmapping (a value not of
 * the unit is refused). fast-check's own unit answers its unmapping from a table of all 1,112,064 characters,
 * built at the first shrink and kept by fast-check for the rest of the process (about 90 MB of heap, a third of a
 * run's live set on a large description, D310); here the index is computed from the code point instead.
 */
const anyCodePoint: fc.Arbitrary<string> = fc.nat({ max: 0x10ffff - SURROGATES }).map(
  (index) => String.fromCodePoint(index < SURROGATES_START ? index : index + SURROGATES),
  (value) => {
    const codePoint = typeof value === 'string' ? value.codePointAt(0) : undefined;
    if (codePoint === undefined || String.fromCodePoint(codePoint) !== value || (codePoint >= SURROGATES_START && codePoint < SURROGATES_START + SURROGATES)) throw new Error('not a single Unicode scalar value');
    return codePoint < SURROGATES_START ? codePoint : codePoint - SURROGATES;
  },
);
