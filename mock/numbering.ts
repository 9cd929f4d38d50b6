import { parseExact } from '../model/json.js';
import type { ResourceModel } from '../model/model.js';
import { andThen, filterKey, storeView, type AnyRecordStore, type Maybe, type RecordId, type RecordValue } from './store/record-store.js';

/**
 * How the handlers of a resource numbered per parent (spec/DECISIONS.md › D240) reach its records: a number the
 * path names is looked up under the path's parent, and a new record takes the next number under its parent, counted
 * over the resource's own store and the stores of the siblings sharing its numbers.
 */

/** The filter keys of a store that ask for one parent's records: its own filters left out, its parent link given. */
function underParent(store: AnyRecordStore, parentKey: unknown): unknown[] {
  return [...store.resource.filters.map(() => undefined), parentKey];
}

/**
 * The store's key (the record's global id) of the record numbered `number` under the parent whose link key is
 * `parentKey` (`undefined`: under any parent, where the path names none); `undefined` when no record holds it.
 */
export function numberedId(resource: ResourceModel, store: AnyRecordStore, parentKey: unknown, number: unknown): Maybe<RecordId | undefined> {
  const wanted = filterKey(number);
  const keyed = storeView(resource);
  return andThen(store.list({ keys: underParent(store, parentKey), limit: 1, test: (record) => filterKey(record[resource.idProperty]) === wanted }), (page) => {
    const parsed = parseExact(page.json);
    const found = parsed.ok && Array.isArray(parsed.document.value) ? (parsed.document.value[0] as RecordValue | undefined) : undefined;
    const raw = found?.[keyed.idProperty];
    if (raw === undefined) return undefined;
    if (keyed.idType === 'string') return typeof raw === 'string' ? raw : undefined;
    const key = filterKey(raw);
    return typeof key === 'bigint' ? key : undefined;
  });
}

/**
 * The number a new record under the parent whose link key is `parentKey` takes: one more than the largest number
 * held under that parent in any of `stores` (the resource's own and its sharing siblings'), 1 for a parent's first.
 * A number freed by deleting the newest record may be given again (a server that never deletes such records, as
 * GitHub's issues, never meets it).
 */
export function nextNumber(resource: ResourceModel, stores: readonly AnyRecordStore[], parentKey: unknown): Maybe<bigint> {
  let largest = 0n;
  const from = (at: number): Maybe<bigint> => {
    if (at === stores.length) return largest + 1n;
    const store = stores[at]!;
    return andThen(store.list({ keys: underParent(store, parentKey), limit: Infinity }), (page) => {
      const parsed = parseExact(page.json);
      const records = parsed.ok && Array.isArray(parsed.document.value) ? (parsed.document.value as unknown[]) : [];
      for (const record of records) {
        const key = record !== null && typeof record === 'object' ? filterKey((record as RecordValue)[resource.idProperty]) : undefined;
        if (typeof key === 'bigint' && key > largest) largest = key;
      }
      return from(at + 1);
    });
  };
  return from(0);
}
