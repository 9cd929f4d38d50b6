import { parseExact } from '../model/json.js';
import type { ResourceModel } from '../model/model.js';
import { validSample } from '../model/samples.js';
import { objectShape } from '../model/schema.js';
import { recordFromBody } from './record-bodies.js';
import { andThen, filterKey, isValidRecord, storeView, type AnyRecordStore, type Maybe, type RecordId, type RecordValue } from './store/record-store.js';

/**
 * How the handlers of a resource numbered per parent (spec/DECISIONS.md › D240) reach its records: a number the
 * path names is looked up under the path's parent, and a new record takes the next number under its parent, counted
 * over the resource's own store and the stores of the siblings sharing its numbers.
 */

/**
 * The filter keys of a store that ask for one parent's records (its own filters left out, its parent link given),
 * and, when given, the one numbered `number` there (the number's column, record-store.ts storedFilters).
 */
function underParent(store: AnyRecordStore, parentKey: unknown, number?: unknown): unknown[] {
  return number === undefined ? [...store.resource.filters.map(() => undefined), parentKey] : [...store.resource.filters.map(() => undefined), parentKey, filterKey(number)];
}

/**
 * The store's key (the record's global id) of the record numbered `number` under the parent whose link key is
 * `parentKey` (`undefined`: under any parent, where the path names none); `undefined` when no record holds it.
 */
export function numberedId(resource: ResourceModel, store: AnyRecordStore, parentKey: unknown, number: unknown): Maybe<RecordId | undefined> {
  const keyed = storeView(resource);
  if (filterKey(number) === undefined) return undefined;
  return andThen(store.list({ keys: underParent(store, parentKey, number), limit: 1 }), (page) => {
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
  // Numbers are given in creation order, so the newest record of each store under the parent holds the largest; the
  // number after it is checked free in every store, and only records loaded out of order cost a walk of them all.
  return andThen(newestNumber(resource, stores, parentKey), (newest) => andThen(taken(stores, parentKey, newest + 1n), (held) => (held ? largestNumber(resource, stores, parentKey) : newest + 1n)));
}

/** The largest number of the newest record under the parent in each of `stores` (0 when none). */
function newestNumber(resource: ResourceModel, stores: readonly AnyRecordStore[], parentKey: unknown): Maybe<bigint> {
  let newest = 0n;
  const from = (at: number): Maybe<bigint> => {
    if (at === stores.length) return newest;
    return andThen(stores[at]!.list({ keys: underParent(stores[at]!, parentKey), limit: 1 }), (page) => {
      const parsed = parseExact(page.json);
      const record = parsed.ok && Array.isArray(parsed.document.value) ? (parsed.document.value[0] as RecordValue | undefined) : undefined;
      const key = record === undefined ? undefined : filterKey(record[resource.idProperty]);
      if (typeof key === 'bigint' && key > newest) newest = key;
      return from(at + 1);
    });
  };
  return from(0);
}

/** Whether a record of any of `stores` holds `number` under the parent. */
function taken(stores: readonly AnyRecordStore[], parentKey: unknown, number: bigint): Maybe<boolean> {
  const from = (at: number): Maybe<boolean> => (at === stores.length ? false : andThen(stores[at]!.list({ keys: underParent(stores[at]!, parentKey, number), limit: 1 }), (page) => (page.json !== '[]' ? true : from(at + 1))));
  return from(0);
}

/** One more than the largest number held under the parent in any of `stores`: a walk of every record there. */
function largestNumber(resource: ResourceModel, stores: readonly AnyRecordStore[], parentKey: unknown): Maybe<bigint> {
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

/**
 * `base` with each member of `source` that `target`'s record also names set in turn, each kept only while the
 * record stays valid (a key put in first where `base` has none, see {@link isValidRecord}): how a record is copied
 * into its twin of a sibling resource (spec/DECISIONS.md › D244). The twin's global id, its number and the marking
 * member are never copied; the result is a new object.
 */
export function overlay(target: ResourceModel, base: RecordValue, source: RecordValue, skip: readonly string[]): RecordValue {
  const keyed = storeView(target);
  let current = { ...base };
  const probe = (record: RecordValue): RecordValue => (record[keyed.idProperty] === undefined ? { ...record, [keyed.idProperty]: keyed.idType === 'integer' ? 1 : 'id' } : record);
  for (const name of Object.keys(target.properties)) {
    if (!Object.hasOwn(source, name) || name === keyed.idProperty || name === target.idProperty || skip.includes(name)) continue;
    const next = { ...current, [name]: source[name] };
    if (isValidRecord(target, probe(next))) current = next;
  }
  return current;
}

/**
 * The record of `target` (issues) that a new record `source` of its sibling (a pull request) also is (D244): the
 * sibling's members the target's record names, its number and parent, and the marking `member` (`pull_request`)
 * made of the source's values of its members (`url`, `html_url`, `diff_url`…); what the source lacks is filled as
 * a create fills it. `undefined` when no valid record comes of it.
 */
export function twinRecord(target: ResourceModel, member: string, source: RecordValue, sourceLink: unknown): RecordValue | undefined {
  const keyed = storeView(target);
  const base = recordFromBody(target, {});
  base[target.idProperty] = source[target.idProperty];
  if (target.parent !== undefined) base[target.parent.property] = sourceLink;
  const copied = overlay(target, base, source, [member]);
  const shape = objectShape(target.properties[member] ?? {});
  const marker = Object.fromEntries(Object.keys(shape.properties).filter((name) => Object.hasOwn(source, name)).map((name) => [name, source[name]]));
  const probe = (record: RecordValue): boolean => isValidRecord(target, { ...record, [keyed.idProperty]: keyed.idType === 'integer' ? 1 : 'id' });
  const sample = validSample(target.properties[member] ?? {});
  for (const candidate of [marker, { ...(sample !== null && typeof sample === 'object' && !Array.isArray(sample) ? (sample as RecordValue) : {}), ...marker }]) {
    if (probe({ ...copied, [member]: candidate })) return { ...copied, [member]: candidate };
  }
  return undefined;
}

/**
 * Keeps the twins of a record written (spec/DECISIONS.md › D244): a new record of a resource whose records are
 * also a sibling's (a pull request, also an issue) makes its twin there, with its number and parent; a changed one
 * passes its shared members on to its twin (both ways: an issue marked as a pull request changes the pull request).
 * `record` is the record as stored (its parent link set), `parentKey` its parent's link key. A twin that cannot be
 * made valid is left out; nothing here refuses the request.
 */
export function writeTwins(resource: ResourceModel, resources: readonly ResourceModel[], stores: ReadonlyMap<string, AnyRecordStore> | undefined, record: RecordValue, parentKey: unknown, created: boolean): Maybe<void> {
  const numbering = resource.numbering;
  if (numbering === undefined || stores === undefined) return undefined;
  const { alsoIn, marks } = numbering;
  if (created) {
    const target = alsoIn === undefined ? undefined : resources.find((one) => one.name === alsoIn.resource);
    const store = alsoIn === undefined ? undefined : stores.get(alsoIn.resource);
    const twin = target === undefined ? undefined : twinRecord(target, alsoIn!.member, record, resource.parent === undefined ? undefined : record[resource.parent.property]);
    return twin === undefined || store === undefined ? undefined : andThen(store.create(twin), () => undefined);
  }
  const marked = marks !== undefined && record[marks.member] !== null && typeof record[marks.member] === 'object' ? marks : undefined;
  const links = [alsoIn, marked].filter((link) => link !== undefined);
  const next = (at: number): Maybe<void> => {
    if (at === links.length) return undefined;
    const link = links[at]!;
    const target = resources.find((one) => one.name === link.resource);
    const store = stores.get(link.resource);
    if (target === undefined || store === undefined) return next(at + 1);
    return andThen(numberedId(target, store, parentKey, record[resource.idProperty]), (id) =>
      id === undefined
        ? next(at + 1)
        : andThen(store.value(id), (held) => (held === undefined ? next(at + 1) : andThen(store.replace(id, overlay(target, held, record, [link.member])), () => next(at + 1)))),
    );
  };
  return next(0);
}
