import { parseExact } from '../../model/json.js';
import type { ResourceModel } from '../../model/model.js';
import { INT64_MAX } from '../../model/schema.js';
import { compileRecordWriter, type Writer } from '../serializer.js';
import { filterKey, idDrawer, storedFilters, storedSchema, type CreateRefusal, type ListPage, type ListQuery, type RecordId, type RecordStore, type RecordValue, type StoredFilter } from './record-store.js';

/** Largest `limit` whose pages are kept written between two changes (the seed's maximum page). */
const MAX_CACHED_LIMIT = 100;

/**
 * The in-memory {@link RecordStore}: each record kept as its JSON text in a row, rows in creation order.
 * - ids map to rows (int64 ids as exact keys, see {@link idKey});
 * - a filter whose property has an `enum` or is boolean has an index: per value, the sorted live rows, so a
 *   filtered page is O(limit) at any size; every filter also has a column of per-row keys, so any combination
 *   of filters is answered exactly (by a scan for filters without an index);
 * - `delete` leaves a tombstone (`undefined`) in the row and takes the row out of the indexes;
 * - pages already written are cached by query until the next change (a list asked again costs a lookup).
 */
export class MemoryRecordStore implements RecordStore {
  private rows: (string | undefined)[] = [];
  private rowById = new Map<number | string, number>();
  private live = 0;
  private readonly columns: unknown[][];
  private readonly indexes: (Map<unknown, number[]> | undefined)[];
  private pages = new Map<string, ListPage>();
  /** Pages of a list with one filter given (the common filtered case), by filter, key and `2 * limit + countAll`: no key text to build. */
  private single: (Map<unknown, (ListPage | undefined)[]> | undefined)[] = [];
  private unfiltered: (ListPage | undefined)[] = [];
  private changes = 0;
  private nextId = 1n;
  private readonly write: Writer;
  private readonly idProperty: string;
  private readonly draw: (() => string) | undefined;
  private readonly filters: readonly StoredFilter[];
  /** The starting records when given as a function: loaded by the first call that reads or writes the store (D640). */
  private pending: (() => readonly RecordValue[]) | undefined;
  /**
   * Keys of the records loaded from the description's own examples and not written since, when the starting records
   * are those examples: a client's create naming one takes its place (spec/DECISIONS.md › D780).
   */
  private madeUp: Set<number | string> | undefined;

  /**
   * @param maxRecords most records held at once; `create` refuses with `'full'` beyond it.
   * @param initial the starting records, or a function of them called once, when the store is first used (a
   * description's example records are found resource by resource, spec/DECISIONS.md › D640). Errors: as {@link load}.
   * @param examples whether the starting records (and those of every later `load`) are the description's own
   * examples, which no client wrote: a create naming one's key then replaces it instead of being refused (D780).
   */
  constructor(
    readonly resource: ResourceModel,
    readonly maxRecords = 1_000_000,
    initial: readonly RecordValue[] | (() => readonly RecordValue[]) = [],
    examples = false,
  ) {
    if (examples) this.madeUp = new Set();
    this.write = compileRecordWriter(storedSchema(resource), resource.idProperty);
    this.idProperty = resource.idProperty;
    this.draw = idDrawer(resource);
    this.filters = storedFilters(resource);
    this.columns = this.filters.map(() => []);
    this.indexes = this.filters.map(() => undefined);
    this.load(typeof initial === 'function' ? [] : initial);
    if (typeof initial === 'function') this.pending = initial;
  }

  get size(): number {
    this.settle();
    return this.live;
  }

  get version(): number {
    this.settle();
    return this.changes;
  }

  load(records: readonly RecordValue[]): void {
    this.pending = undefined;
    this.rows = [];
    this.rowById.clear();
    this.live = 0;
    for (let i = 0; i < this.columns.length; i++) this.columns[i] = [];
    this.resetIndexes();
    this.forgetPages();
    this.nextId = 1n;
    this.madeUp?.clear();
    for (const record of records) {
      const id = record[this.idProperty];
      const exact = this.resource.idType === 'integer' ? filterKey(id) : id;
      if (exact === undefined || (this.resource.idType === 'integer' ? typeof exact !== 'bigint' : typeof exact !== 'string')) {
        throw new Error(`a record has no valid ${this.idProperty}`);
      }
      this.insert(exact as RecordId, record);
      this.madeUp?.add(idKey(exact as RecordId));
    }
  }

  create(fields: RecordValue, given?: RecordId): { ok: true; id: RecordId; json: string } | { ok: false; reason: CreateRefusal } {
    this.settle();
    // A record the examples made up gives its place to the client's record of the same key (D780), counted as one.
    if (given !== undefined && this.madeUp?.has(idKey(given)) === true) this.delete(given);
    if (this.live >= this.maxRecords) return { ok: false, reason: 'full' };
    let id: RecordId;
    if (given !== undefined) {
      if (this.rowById.has(idKey(given))) return { ok: false, reason: 'taken' };
      fields[this.idProperty] = given;
      return { ok: true, id: given, json: this.insert(given, fields, false) };
    }
    if (this.resource.idType === 'integer') {
      // Ids a client chose do not move the counter: it steps over them.
      while (this.nextId <= INT64_MAX && this.rowById.has(idKey(this.nextId))) this.nextId++;
      if (this.nextId > INT64_MAX) return { ok: false, reason: 'ids-exhausted' };
      id = this.nextId;
    } else {
      // A counter as text skips ids loaded as text digits (`insert` moves the counter above them); a drawn id (a UUID, an address) is drawn again on the (unlikely) clash.
      do id = this.draw === undefined ? String(this.nextId++) : this.draw();
      while (this.rowById.has(id));
    }
    // `fields` is the caller's fresh record (records.ts): the id is set on it rather than on a copy.
    fields[this.idProperty] = id;
    return { ok: true, id, json: this.insert(id, fields) };
  }

  get(id: RecordId): string | undefined {
    this.settle();
    const row = this.rowById.get(idKey(id));
    return row === undefined ? undefined : this.rows[row];
  }

  value(id: RecordId): RecordValue | undefined {
    const json = this.get(id);
    if (json === undefined) return undefined;
    const parsed = parseExact(json);
    return parsed.ok ? (parsed.document.value as RecordValue) : undefined;
  }

  replace(id: RecordId, record: RecordValue): string | undefined {
    this.settle();
    const row = this.rowById.get(idKey(id));
    if (row === undefined) return undefined;
    this.madeUp?.delete(idKey(id));
    const json = this.write({ ...record, [this.idProperty]: id });
    this.rows[row] = json;
    this.unindex(row);
    this.index(row, record);
    this.forgetPages();
    return json;
  }

  delete(id: RecordId): string | undefined {
    this.settle();
    const key = idKey(id);
    const row = this.rowById.get(key);
    if (row === undefined) return undefined;
    const json = this.rows[row];
    this.rows[row] = undefined;
    this.rowById.delete(key);
    this.madeUp?.delete(key);
    this.unindex(row);
    for (const column of this.columns) column[row] = undefined;
    this.live--;
    this.forgetPages();
    return json;
  }

  list(query: ListQuery): ListPage {
    this.settle();
    if (query.offset !== undefined || query.before !== undefined || query.test !== undefined) return this.walk(query);
    const { keys, limit } = query;
    const countAll = query.countAll === true;
    let given = -1;
    let count = 0;
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] !== undefined) {
        given = i;
        count++;
      }
    }
    const cacheable = limit <= MAX_CACHED_LIMIT;
    if (count === 1 && cacheable) {
      const slot = 2 * limit + (countAll ? 1 : 0);
      let byKey = this.single[given];
      if (byKey === undefined) this.single[given] = byKey = new Map();
      let pages = byKey.get(keys[given]);
      if (pages === undefined) byKey.set(keys[given], (pages = []));
      const cached = pages[slot];
      if (cached !== undefined) return cached;
      const index = this.indexes[given];
      const page = this.page(index === undefined ? undefined : (index.get(keys[given]) ?? []), keys, limit, undefined, countAll);
      pages[slot] = page;
      return page;
    }
    if (given === -1) {
      const cached = cacheable ? this.unfiltered[limit] : undefined;
      if (cached !== undefined) return cached;
      const page = this.page(undefined, keys, limit, this.live, false);
      if (cacheable) this.unfiltered[limit] = page;
      return page;
    }
    const cacheKey = cacheable ? `${limit}|${countAll ? 'n' : ''}|${keys.map((key) => (key === undefined ? '' : `${typeof key}:${String(key)}`)).join('|')}` : undefined;
    const cached = cacheKey === undefined ? undefined : this.pages.get(cacheKey);
    if (cached !== undefined) return cached;
    // The smallest index among the given filters drives the walk; the other filters are checked row by row.
    let driver: number[] | undefined;
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === undefined || this.indexes[i] === undefined) continue;
      const rows = this.indexes[i]!.get(keys[i]) ?? [];
      if (driver === undefined || rows.length < driver.length) driver = rows;
    }
    const page = this.page(driver, keys, limit, undefined, countAll);
    if (cacheKey !== undefined) this.pages.set(cacheKey, page);
    return page;
  }

  all(): readonly string[] {
    this.settle();
    return this.live === this.rows.length ? (this.rows as string[]) : this.rows.filter((row): row is string => row !== undefined);
  }

  /**
   * Walks `driver` (or every row) newest first, keeping rows every given key matches. With `countAll` and no
   * known `total`, the walk goes on past the page to count every match; otherwise it stops at the page's end.
   */
  private page(driver: readonly number[] | undefined, keys: readonly unknown[], limit: number, total: number | undefined, countAll: boolean): ListPage {
    const parts: string[] = [];
    let matched = 0;
    let last = -1;
    const count = driver === undefined ? this.rows.length : driver.length;
    for (let i = count - 1; i >= 0; i--) {
      const row = driver === undefined ? i : driver[i]!;
      const json = this.rows[row];
      if (json === undefined || !this.matches(row, keys)) continue;
      matched++;
      if (parts.length < limit) {
        parts.push(json);
        last = row;
      } else if (!countAll || total !== undefined || (driver !== undefined && this.onlyIndexed(keys))) break;
    }
    if (total === undefined) total = driver !== undefined && this.onlyIndexed(keys) ? driver.length : matched;
    return { json: `[${parts.join(',')}]`, total, more: matched > parts.length, last: last === -1 ? undefined : String(last) };
  }

  /**
   * A page with an offset, a position to start below (cursors: rows are positions, newest first) or a further
   * test: a walk newest first over the smallest index of the given filters, else every row. Not cached. Without
   * `countAll` it starts at the position and stops one match past the page.
   */
  private walk(query: ListQuery): ListPage {
    const { keys, limit, test } = query;
    const countAll = query.countAll === true;
    const before = query.before === undefined ? Infinity : Number(query.before);
    let driver: number[] | undefined;
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === undefined || this.indexes[i] === undefined) continue;
      const rows = this.indexes[i]!.get(keys[i]) ?? [];
      if (driver === undefined || rows.length < driver.length) driver = rows;
    }
    const count = driver === undefined ? this.rows.length : driver.length;
    let start = count - 1;
    if (!countAll && before !== Infinity) start = driver === undefined ? Math.min(start, before - 1) : lowerBound(driver, before) - 1;
    const parts: string[] = [];
    let skip = query.offset ?? 0;
    let total = 0;
    let more = false;
    let last = -1;
    for (let i = start; i >= 0; i--) {
      const row = driver === undefined ? i : driver[i]!;
      const json = this.rows[row];
      if (json === undefined || !this.matches(row, keys)) continue;
      if (test !== undefined) {
        const parsed = parseExact(json);
        if (!parsed.ok || !test(parsed.document.value as RecordValue)) continue;
      }
      total++;
      if (row >= before) continue;
      if (skip > 0) {
        skip--;
        continue;
      }
      if (parts.length < limit) {
        parts.push(json);
        last = row;
      } else {
        more = true;
        if (!countAll) break;
      }
    }
    return { json: `[${parts.join(',')}]`, total, more, last: last === -1 ? undefined : String(last) };
  }

  /** Whether the given keys are exactly one indexed filter (then the driving index's length is the total). */
  private onlyIndexed(keys: readonly unknown[]): boolean {
    let given = 0;
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === undefined) continue;
      if (this.indexes[i] === undefined) return false;
      given++;
    }
    return given === 1;
  }

  private matches(row: number, keys: readonly unknown[]): boolean {
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] !== undefined && this.columns[i]![row] !== keys[i]) return false;
    }
    return true;
  }

  /** Stores a record under a new row; `advance` moves the id counter above `id` (not for an id a client chose). */
  private insert(id: RecordId, record: RecordValue, advance = true): string {
    const key = idKey(id);
    if (this.rowById.has(key)) throw new Error(`the ${this.idProperty} ${String(id)} is repeated`);
    const json = this.write(record);
    const row = this.rows.length;
    this.rows.push(json);
    this.rowById.set(key, row);
    this.live++;
    this.index(row, record);
    this.forgetPages();
    if (!advance) return json;
    if (typeof id === 'bigint' && id >= this.nextId) this.nextId = id + 1n;
    else if (typeof id === 'string' && /^\d{1,15}$/.test(id) && BigInt(id) >= this.nextId) this.nextId = BigInt(id) + 1n;
    return json;
  }

  private index(row: number, record: RecordValue): void {
    const filters = this.filters;
    for (let i = 0; i < filters.length; i++) {
      const key = filterKey(record[filters[i]!.property]);
      this.columns[i]![row] = key;
      const index = this.indexes[i];
      if (index === undefined || key === undefined) continue;
      let rows = index.get(key);
      if (rows === undefined) index.set(key, (rows = []));
      // Rows are appended in creation order, so the array stays sorted; a replaced row goes back to its place.
      if (rows.length === 0 || rows[rows.length - 1]! < row) rows.push(row);
      else rows.splice(lowerBound(rows, row), 0, row);
    }
  }

  private unindex(row: number): void {
    for (let i = 0; i < this.indexes.length; i++) {
      const rows = this.indexes[i]?.get(this.columns[i]![row]);
      if (rows === undefined) continue;
      const at = lowerBound(rows, row);
      if (rows[at] === row) rows.splice(at, 1);
    }
  }

  /** Loads the starting records given as a function, once, before anything reads or writes the store. */
  private settle(): void {
    const pending = this.pending;
    if (pending !== undefined) this.load(pending());
  }

  private resetIndexes(): void {
    this.filters.forEach((filter, i) => {
      this.indexes[i] = filter.values === undefined ? undefined : new Map(filter.values.map((value) => [filterKey(value), []]));
    });
  }

  private forgetPages(): void {
    this.changes++;
    if (this.pages.size > 0) this.pages = new Map();
    if (this.single.length > 0) this.single = [];
    if (this.unfiltered.length > 0) this.unfiltered = [];
  }
}

/** First index of a sorted array whose value is at least `row`. */
function lowerBound(rows: readonly number[], row: number): number {
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (rows[middle]! < row) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Map key of an id: a plain number when exact (no allocation for small ids), its decimal text otherwise; strings as they are. */
export function idKey(id: RecordId): number | string {
  if (typeof id === 'string') return id;
  return id >= -9007199254740991n && id <= 9007199254740991n ? Number(id) : id.toString();
}
