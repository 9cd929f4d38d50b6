import { LosslessNumber } from 'lossless-json';
import { filterMapTest } from '../model/json-filters.js';
import { exactJson, parseExact } from '../model/json.js';
import type { ResourceModel } from '../model/model.js';
import type { PruneModel } from '../model/prune.js';
import type { Handler, HandlerContext, OperationResult } from './handler.js';
import { andThen, filterKey, type AnyRecordStore, type Maybe, type RecordId, type RecordValue } from './store/record-store.js';

/** A record's JSON text as a value (int64 exact), or `undefined` when it is no JSON object. */
function parsed(json: string): RecordValue | undefined {
  const read = parseExact(json);
  return read.ok && read.document.value !== null && typeof read.document.value === 'object' && !Array.isArray(read.document.value) ? (read.document.value as RecordValue) : undefined;
}

/** A scalar as the text another record would name it by (a key `data`, an id `42`); `undefined` for others. */
function keyText(value: unknown): string | undefined {
  const key = filterKey(value);
  return typeof key === 'string' || typeof key === 'bigint' ? String(key) : undefined;
}

/** Every string and integer a value holds, at any depth, as text, into `into`. */
function collectTexts(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) collectTexts(item, into);
  else if (value !== null && typeof value === 'object' && !(value instanceof LosslessNumber)) for (const member of Object.values(value)) collectTexts(member, into);
  else {
    const text = keyText(value);
    if (text !== undefined) into.add(text);
  }
}

/**
 * What the records of the other collections name: every string and integer they hold, at any depth, but each
 * record's own key (a container named `data` does not use the volume `data` by its name alone).
 */
function namedElsewhere(resource: ResourceModel, context: HandlerContext, storeOf: (name: string) => AnyRecordStore | undefined): Maybe<Set<string>> {
  const names = new Set<string>();
  const others = context.resources.filter((one) => one.name !== resource.name);
  const from = (i: number): Maybe<Set<string>> => {
    if (i >= others.length) return names;
    const other = others[i]!;
    const store = storeOf(other.name);
    if (store === undefined) return from(i + 1);
    return andThen(store.all(), (texts) => {
      for (const text of texts) {
        const record = parsed(text);
        if (record === undefined) continue;
        for (const [member, value] of Object.entries(record)) if (member !== other.idProperty) collectTexts(value, names);
      }
      return from(i + 1);
    });
  };
  return from(0);
}

/** The store's key of a record: its key member as a string or an exact integer. */
function storeKey(resource: ResourceModel, record: RecordValue): RecordId | undefined {
  const key = filterKey(record[resource.idProperty]);
  return typeof key === 'string' || typeof key === 'bigint' ? key : undefined;
}

/**
 * The handler of a prune action (spec/DECISIONS.md › D702): deletes the collection's records that the filters sent
 * keep (those its text lists and the mock applies, D604) and that no record of another collection names, and
 * answers the keys deleted in the answer's array member, the count in its counting members and 0 in its other
 * integer members (`SpaceReclaimed`: the mock holds no sizes). Nothing deleted is answered as an empty list.
 */
export function pruneHandler(prune: PruneModel, status: number, context: HandlerContext): Handler {
  const { resource } = prune;
  return ({ query, storeOf }): Maybe<OperationResult> => {
    const store = storeOf?.(resource.name);
    const answer = (keys: readonly string[]): OperationResult => {
      if (prune.deleted === undefined) return { status, json: '' };
      const body: Record<string, unknown> = { [prune.deleted]: keys };
      for (const name of prune.counted) body[name] = keys.length;
      for (const name of prune.zeroed) body[name] = 0;
      return { status, json: exactJson(body) };
    };
    if (store === undefined || storeOf === undefined) return answer([]);
    const tests = prune.filters.flatMap((filter) => {
      const sent = query[filter.parameter.name];
      return sent === undefined ? [] : [filterMapTest(filter, String(sent), resource)];
    });
    return andThen(namedElsewhere(resource, context, storeOf), (used) =>
      andThen(store.all(), (texts) => {
        const doomed: RecordId[] = [];
        for (const text of texts) {
          const record = parsed(text);
          const id = record === undefined ? undefined : storeKey(resource, record);
          if (record === undefined || id === undefined || used.has(String(id)) || !tests.every((test) => test(record))) continue;
          doomed.push(id);
        }
        const removed: string[] = [];
        const next = (i: number): Maybe<OperationResult> => {
          if (i >= doomed.length) return answer(removed);
          return andThen(store.delete(doomed[i]!), (gone) => {
            // Another request may have deleted it meanwhile: only what this prune removed is answered.
            if (gone !== undefined) removed.push(String(doomed[i]!));
            return next(i + 1);
          });
        };
        return next(0);
      }),
    );
  };
}
