import type { AltOptions } from './alt-server.js';

/** The one API key every variant accepts. */
export const VARIANT_KEY = 'variant-key';

/**
 * A correct implementation that chose differently from the mock on the seed's "not shown" points: the
 * conformance suite (default profile) must pass it on every check. `gaps` says which choices it makes.
 */
export interface Variant {
  name: string;
  gaps: string;
  options: AltOptions;
}

/** Several variants; together they flip every knob of {@link AltOptions} away from the mock's choice at least once. */
export const VARIANTS: Variant[] = [
  {
    name: 'plain',
    gaps: 'Like the mock on every gap (newest first, no default status, 400 on invalid query, 404 on /pets/abc), but written independently.',
    options: { apiKeys: [VARIANT_KEY] },
  },
  {
    name: 'oldest-first-422',
    gaps: 'Ordering: oldest first. Invalid query: 422. Error codes in kebab-case. Content-Type with `; charset=utf-8`. /pets/abc: 400.',
    options: { apiKeys: [VARIANT_KEY], order: 'oldest-first', invalidQuery: 422, codes: 'kebab', charset: true, badPetId: 400 },
  },
  {
    name: 'default-available-clamp',
    gaps: 'Status omitted on create: stored and echoed as `available`. Invalid limit clamped into 1..100; unknown status filters nothing. Error codes `E<status>`.',
    options: { apiKeys: [VARIANT_KEY], defaultStatus: 'available', invalidQuery: 'clamp', codes: 'numeric' },
  },
  {
    name: 'strict-names-ignore-query',
    gaps: 'Names: at most 100 code points, no empty or blank name, no control characters (400). Unknown body fields: 400. Invalid query ignored (defaults apply). /pets/abc: 422.',
    options: { apiKeys: [VARIANT_KEY], maxNameLength: 100, strictNames: true, unknownFields: 'reject', invalidQuery: 'ignore', badPetId: 422 },
  },
  {
    name: 'huge-ids-by-name',
    gaps: 'Ids from 2^62 up (beyond exact doubles). Ordering: by name.',
    options: { apiKeys: [VARIANT_KEY], ids: 'huge', order: 'by-name' },
  },
  {
    name: 'random-ids',
    gaps: 'Ids random over the whole int64 range, negative ones included. Ordering: oldest first. Status omitted: `available`.',
    options: { apiKeys: [VARIANT_KEY], ids: 'random', order: 'oldest-first', defaultStatus: 'available' },
  },
  {
    name: 'preloaded-slow',
    gaps: 'Holds 150 pets before the run (some without status), lists oldest first, and answers after a random 0-3 ms, so parallel answers arrive out of order.',
    options: { apiKeys: [VARIANT_KEY], preload: 150, order: 'oldest-first', latencyMs: 3 },
  },
];
