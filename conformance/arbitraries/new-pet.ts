import fc from 'fast-check';
import { PET_STATUSES, type NewPetRecord, type PetStatus } from '../../spec/exact.js';
import { INT64_MAX, INT64_MIN } from '../../mock/json.js';

/** A `PetStatus` value (seed, Resources › PetStatus). */
export const petStatus: fc.Arbitrary<PetStatus> = fc.constantFrom(...PET_STATUSES);

/** int64 values where implementations break: the ends of int64, the edge of exact doubles (2^53), 0, ±1. */
export const INT64_EDGES: readonly bigint[] = [INT64_MAX, INT64_MIN, INT64_MAX - 1n, INT64_MIN + 1n, 2n ** 53n, 2n ** 53n + 1n, -(2n ** 53n) - 1n, 2n ** 31n, 0n, 1n, -1n];

/** Which integers to draw: all of int64 (the seed's type), or only those a double holds exactly. */
export type IntegerRange = 'int64' | 'safe';

const SAFE = 2n ** 53n - 1n;

/** Any int64 as a `bigint`, edges first (seed, Resources: `categoryId` is int64); within ±(2^53-1) when `safe`. */
export function int64(range: IntegerRange = 'int64'): fc.Arbitrary<bigint> {
  if (range === 'safe') return fc.oneof(fc.constantFrom(SAFE, -SAFE, 0n, 1n, -1n), fc.bigInt({ min: -SAFE, max: SAFE }));
  return fc.oneof(fc.constantFrom(...INT64_EDGES), fc.bigInt({ min: INT64_MIN, max: INT64_MAX }));
}

/**
 * A name every implementation must accept: ASCII letters and digits in words separated by single spaces,
 * 1 to 40 characters. (Name constraints are not shown in the seed: see DECISIONS.md › Names.)
 */
export const ordinaryName: fc.Arbitrary<string> = fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,9}( [A-Za-z0-9]{1,9}){0,3}$/);

/**
 * A name at the corners of Unicode and size: any code point (astral, combining marks, NUL, controls),
 * empty, surrounding spaces, up to 5,000 characters. An implementation may refuse these with a 400 `Error`
 * (default profile) but must echo them exactly when it accepts them.
 */
/** Names where implementations slip (trimming, truncation, normalisation, escaping): each is sent every run. */
export const CORNER_NAMES: readonly string[] = [
  '', ' ', ' Rex ', '\tRex\t', 'Rex\u0000', 'e\u0301', 'Ｒｅｘ', '🐕‍🦺', '𝒳', '\u202Eabc', 'a\r\nb', '"quoted"\\', '<script>', '\u2028',
  'Rex'.padEnd(41, 'x'), 'y'.repeat(255), 'y'.repeat(256), 'x'.repeat(5000),
];

export const unusualName: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
  fc.constantFrom(...CORNER_NAMES),
  fc.tuple(fc.constantFrom(' ', '\t', '\u00a0'), ordinaryName).map(([space, name]) => `${space}${name}${space}`),
);

/** Options of {@link newPet}: which names to draw. */
export interface NewPetOptions {
  names?: 'ordinary' | 'any';
  integers?: IntegerRange;
}

/**
 * A valid `NewPet` (seed, Resources › NewPet): `name`, `categoryId` over all of int64, and `status` present or
 * absent. With `names: 'ordinary'` (default) every implementation must answer 201.
 */
export function newPet(options: NewPetOptions = {}): fc.Arbitrary<NewPetRecord> {
  const name = options.names === 'any' ? fc.oneof(ordinaryName, unusualName) : ordinaryName;
  return fc.record({ name, categoryId: int64(options.integers), status: petStatus }, { requiredKeys: ['name', 'categoryId'] });
}

/** Whether a name is one every implementation must accept (see {@link ordinaryName}). */
export function isOrdinaryName(name: string): boolean {
  return /^[A-Za-z][A-Za-z0-9]*( [A-Za-z0-9]+)*$/.test(name) && name.length <= 40;
}

/**
 * An id that names no animal with overwhelming likelihood: uniform in [2^62, 2^63-1], without fast-check's bias
 * toward the bounds (an implementation may well start its ids at 2^62). Callers also skip ids seen in the run.
 */
export function absentId(range: IntegerRange = 'int64'): fc.Arbitrary<bigint> {
  return range === 'safe' ? fc.noBias(fc.bigInt({ min: 2n ** 52n, max: SAFE })) : fc.noBias(fc.bigInt({ min: 2n ** 62n + 1n, max: INT64_MAX - 1n }));
}
