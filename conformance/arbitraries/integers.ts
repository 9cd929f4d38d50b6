import fc from 'fast-check';
import { INT64_MAX, INT64_MIN } from '../../model/schema.js';

/** Which integers to draw: all of int64 (the seed's type), or only those a double holds exactly (`target.integers`). */
export type IntegerRange = 'int64' | 'safe';

/** The largest integer a double holds exactly, 2^53-1. */
const SAFE_MAX = 2n ** 53n - 1n;

/** int64 values where implementations break: the ends of int64, the edge of exact doubles (2^53), int32, 0, ±1. */
const INT64_EDGES: readonly bigint[] = [INT64_MAX, INT64_MIN, INT64_MAX - 1n, INT64_MIN + 1n, 2n ** 53n, 2n ** 53n + 1n, -(2n ** 53n) - 1n, 2n ** 31n, 0n, 1n, -1n];

/** Integer literals just outside int64 and far beyond (for invalid data: a 400, never a wrapped value). */
export const OUT_OF_INT64 = ['9223372036854775808', '-9223372036854775809', '18446744073709551616', '1e400', '-1e400', '99999999999999999999999999'];

/** Bounds `[min, max]` of the integers to draw for a schema's bounds, narrowed to the target's range. */
export function integerBounds(min: bigint | undefined, max: bigint | undefined, range: IntegerRange, int64: boolean): [bigint, bigint] {
  const wide = int64 && range === 'int64';
  const low = wide ? INT64_MIN : -SAFE_MAX;
  const high = wide ? INT64_MAX : SAFE_MAX;
  return [min === undefined || min < low ? low : min, max === undefined || max > high ? high : max];
}

/** The edges of int64 that lie within `[min, max]` (all when unbounded), the first values every property tries. */
export function edgesWithin(min: bigint, max: bigint): bigint[] {
  return [min, max, ...INT64_EDGES.filter((edge) => edge > min && edge < max)];
}

/**
 * Integers in `[min, max]`, edges first (fast-check biases toward them too), as `bigint` so every int64 is
 * exact on the wire (`exactJson`).
 */
export function integerIn(min: bigint, max: bigint): fc.Arbitrary<bigint> {
  return fc.oneof(fc.constantFrom(...edgesWithin(min, max)), fc.bigInt({ min, max }));
}

/**
 * An id that names no record with overwhelming likelihood: uniform in the top quarter of the id's range,
 * without fast-check's bias toward the bounds (an implementation may well start its ids at 2^62). Callers also
 * skip ids seen in the run.
 */
export function absentInteger(min: bigint, max: bigint): fc.Arbitrary<bigint> {
  const span = max - min;
  const low = span > 16n ? max - span / 4n : min;
  return fc.noBias(fc.bigInt({ min: low + 1n > max ? low : low + 1n, max: max - 1n < low ? max : max - 1n }));
}
