import { isLosslessNumber } from 'lossless-json';
import { exactInteger } from '../../spec/json.js';
import type { ResourceModel } from '../../spec/model.js';

/**
 * A record as the stores take and give it: one JSON object of the resource's record schema, its numbers exact
 * (`bigint`, lossless-json's `LosslessNumber`, or a plain `number` that is exact), nested values as parsed.
 */
export type RecordValue = Record<string, unknown>;

/** A record's identifier: `bigint` for an integer id (int64 exact), `string` otherwise (README › Resources). */
export type RecordId = bigint | string;

/** Why {@link RecordStore.create} refused a record: the store is at its maximum, or no id is left. */
export type CreateRefusal = 'full' | 'ids-exhausted';

/**
 * One page of a list: the JSON text of the array of matching records (newest first, at most `limit`), and the
 * number of records that match the filters in all (for a wrapper's `total`; exact when asked with `countAll`).
 */
export interface ListPage {
  json: string;
  total: number;
}

/**
 * The values a list asks for, aligned with `resource.filters`: `undefined` where the filter is not given, else
 * the filter key of the query value ({@link filterKey}). `limit` is the page size (`Infinity`: every record).
 */
export interface ListQuery {
  keys: readonly unknown[];
  limit: number;
  /** Whether `total` must count every match (a wrapper's `total`); else it may stop at the page's end. */
  countAll?: boolean;
}

/**
 * The records of one resource (README › Resources), whatever keeps them: the in-memory store today
 * (mock/store/memory-store.ts), another one (Redis…) later. Every method is synchronous, so that the mock's
 * pipeline answers in-process without a promise; a store over the network would implement the same contract
 * behind a cache or change the pipeline's `handle` to return a promise.
 *
 * Contract, which every implementation keeps:
 * - ids are assigned by `create` and never reused, even after `delete` (integer ids count up from above the
 *   largest ever held; string ids are a UUID when the id schema says `format: uuid`, else a counter as text);
 * - records are returned as the JSON text of the resource's serializer (mock/serializer.ts): properties in
 *   the schema's order, id first, int64 exact, `writeOnly` properties never written;
 * - `list` orders records newest first by creation (spec/DECISIONS.md › D8); `replace` keeps a record's place;
 * - a filter keeps the records whose property's filter key equals the asked key (exact for int64);
 * - at most `maxRecords` records are held: `create` refuses with `'full'` beyond it.
 */
export interface RecordStore {
  readonly resource: ResourceModel;
  /** Most records held at once (`--max-pets`, per resource). */
  readonly maxRecords: number;
  /** Number of records held. */
  readonly size: number;
  /**
   * Stores a new record with a new id (the record's own id property, if any, is overwritten). Returns its JSON
   * text. `fields` is the caller's fresh object: the store may set the id on it and keep it (no copy per create).
   */
  create(fields: RecordValue): { ok: true; id: RecordId; json: string } | { ok: false; reason: CreateRefusal };
  /** The JSON text of the record with this id, or `undefined`. */
  get(id: RecordId): string | undefined;
  /** The record with this id as an exact value (numbers as `LosslessNumber`), or `undefined`. */
  value(id: RecordId): RecordValue | undefined;
  /** Replaces the record with this id (its id is kept, its place in the order too). The new JSON text, or `undefined` when absent. */
  replace(id: RecordId, record: RecordValue): string | undefined;
  /** Removes the record with this id. Its last JSON text, or `undefined` when absent. */
  delete(id: RecordId): string | undefined;
  /** A page of the records that match `query`, newest first. */
  list(query: ListQuery): ListPage;
  /** Drops every record and holds `records` instead (ids kept as given, oldest first). Errors: throws on a repeated or missing id. */
  load(records: readonly RecordValue[]): void;
  /** Every record's JSON text, oldest first (snapshots, the admin API, the state file). */
  all(): readonly string[];
}

/**
 * The key a filter compares: strings and booleans as they are, `null`, integers as `bigint` (int64 exact),
 * other numbers as doubles; `undefined` for an absent value or one no filter can equal (objects, arrays).
 * Values of different JSON types never share a key.
 */
export function filterKey(value: unknown): unknown {
  if (typeof value === 'string' || typeof value === 'boolean' || value === null || typeof value === 'bigint') return value;
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (isLosslessNumber(value)) {
    const literal = value.value;
    // `1.0` and `1e3` are integers (JSON Schema compares values): the same key as `1` and `1000`.
    return exactInteger(literal) ?? Number(literal);
  }
  return undefined;
}
