import fc from 'fast-check';
import { petStatus } from './new-pet.js';

/** Query of a valid `listPets` call: `limit` 1..100 or absent, `status` or absent (seed, Endpoints §1). */
export const validListQuery = fc.record({ limit: fc.integer({ min: 1, max: 100 }), status: petStatus }, { requiredKeys: [] });

/** `limit` values outside 1..100 or not integers (seed, Limits; handling not shown: DECISIONS.md › Invalid query). */
export const invalidLimit: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('0', '-1', '101', '1000', '99999999999999999999', 'abc', '1.5', '', ' 5', '5 ', '1e1', '0x10', '١٠', 'null', '[]', '%00'),
  fc.integer({ min: 101, max: 1000 }).map(String),
  fc.integer({ min: 101, max: 2 ** 31 }).map(String),
  fc.integer({ min: -(2 ** 31), max: 0 }).map(String),
  fc.string({ maxLength: 12 }).filter((text) => !isValidLimit(text)),
);

/** Whether a `limit` text is a valid limit, 1..100 in decimal digits (`07` and `+7` included: a server may read them so). */
export function isValidLimit(text: string): boolean {
  return /^\+?\d+$/.test(text) && Number(text) >= 1 && Number(text) <= 100;
}

/** `status` values outside the enum (seed, PetStatus: exactly `available`, `pending`, `sold`). */
export const invalidStatus: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('AVAILABLE', 'Available', 'lost', '', 'sold ', ' available', 'pending,sold', 'null', '*'),
  fc.string({ unit: 'binary', maxLength: 12 }).filter((s) => !['available', 'pending', 'sold'].includes(s)),
);

/** A raw query string for `listPets` with at least one invalid or repeated parameter; `status` says which single valid status (if any) it filters on. */
export interface OddQuery {
  query: string;
  /** The one valid status the query asks for, when it asks for exactly one; the 200 must honour it. */
  status: string | undefined;
}

/** Odd queries sent every run: every fixed invalid `limit` alone and with a status, limits just above 100, repeats. */
export const ODD_QUERIES: readonly OddQuery[] = [
  ...['0', '-1', '101', '150', '1000', '99999999999999999999', 'abc', '1.5', '', '1e1', '0x10', 'null'].flatMap((limit) => [
    { query: `limit=${encodeURIComponent(limit)}`, status: undefined },
    { query: `limit=${encodeURIComponent(limit)}&status=available`, status: 'available' },
  ]),
  ...['AVAILABLE', 'lost', '', 'sold '].map((status) => ({ query: `status=${encodeURIComponent(status)}`, status: undefined })),
  { query: 'limit=5&limit=500', status: undefined },
  { query: 'limit=500&limit=5', status: undefined },
  { query: 'status=sold&status=pending', status: undefined },
];

/** Odd `listPets` queries: invalid `limit`, invalid `status`, repeated parameters, unknown parameters. */
export const oddListQuery: fc.Arbitrary<OddQuery> = fc.oneof(
  fc.tuple(invalidLimit, fc.option(petStatus, { nil: undefined })).map(([limit, status]) => ({
    query: `limit=${encodeURIComponent(limit)}${status === undefined ? '' : `&status=${status}`}`,
    status,
  })),
  fc.tuple(invalidStatus, fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined })).map(([status, limit]) => ({
    query: `status=${encodeURIComponent(status)}${limit === undefined ? '' : `&limit=${limit}`}`,
    status: undefined,
  })),
  fc.tuple(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 100 })).map(([a, b]) => ({ query: `limit=${a}&limit=${b}`, status: undefined })),
  fc.tuple(petStatus, petStatus).map(([a, b]) => ({ query: `status=${a}&status=${b}`, status: a === b ? a : undefined })),
);
