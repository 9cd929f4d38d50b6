import { parseExact } from '../model/json.js';
import type { ResourceModel } from '../model/model.js';
import { andThen, filterKey, type AnyRecordStore, type Maybe, type RecordId, type RecordValue } from './store/record-store.js';

/** The store of a resource that lives below another one (its child, its child's child...), as a delete reaches it (D292). */
export interface StoreBelow {
  resource: ResourceModel;
  store: AnyRecordStore;
}

/**
 * The resources living below `resource` with their stores, nearest first (D292): those whose parent (D53) is
 * `resource` or one of them, linked by the mock's store (not a parent known by its examples, D72). `storeOf` gives
 * a resource's store, `undefined` when it has none.
 */
export function storesBelow(resource: ResourceModel, resources: readonly ResourceModel[], storeOf: (name: string) => AnyRecordStore | undefined): StoreBelow[] {
  const found: StoreBelow[] = [];
  const names = new Set([resource.name]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const one of resources) {
      const parent = one.parent;
      if (names.has(one.name) || parent === undefined || parent.byExample !== undefined || !names.has(parent.resource)) continue;
      const store = storeOf(one.name);
      names.add(one.name);
      grew = true;
      if (store !== undefined) found.push({ resource: one, store });
    }
  }
  return found;
}

/**
 * Removes every record that lived under the deleted record `id` of `resource`, and what lived under those
 * (D292): a sub-resource's records are found by their link to the parent's store id. Afterwards a parent made
 * again with the same key starts with nothing under it, and nothing under the deleted one blocks a key.
 */
export function removeBelow(resource: ResourceModel, id: RecordId, below: readonly StoreBelow[]): Maybe<void> {
  const children = below.filter((one) => one.resource.parent?.resource === resource.name);
  return inTurn(children, ({ resource: child, store }) =>
    andThen(store.list({ keys: [...child.filters.map(() => undefined), filterKey(id)], limit: Infinity }), (page) => {
      const parsed = parseExact(page.json);
      const records = parsed.ok && Array.isArray(parsed.document.value) ? (parsed.document.value as RecordValue[]) : [];
      const ids = records.map((record) => storeId(child, record[child.idProperty])).filter((one): one is RecordId => one !== undefined);
      return inTurn(ids, (childId) => andThen(store.delete(childId), () => removeBelow(child, childId, below)));
    }),
  );
}

/** A record's id member as its store keys it: an exact integer or a string; `undefined` for anything else. */
function storeId(resource: ResourceModel, raw: unknown): RecordId | undefined {
  if (resource.idType === 'string') return typeof raw === 'string' ? raw : undefined;
  const key = filterKey(raw);
  return typeof key === 'bigint' ? key : undefined;
}

/** Runs `step` on each item in order, each after the previous one settled (at once with the in-memory store). */
function inTurn<T>(items: readonly T[], step: (item: T) => Maybe<void>): Maybe<void> {
  let done: Maybe<void> = undefined;
  for (const item of items) done = andThen(done, () => step(item));
  return done;
}
