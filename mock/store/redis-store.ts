import { parseExact } from '../../model/json.js';
import type { ResourceModel } from '../../model/model.js';
import { compileRecordWriter, type Writer } from '../serializer.js';
import type { RedisConnection } from './redis-connection.js';
import { CREATE_SCRIPT, DELETE_SCRIPT, LIST_SCRIPT, LOAD_SCRIPT, RANGE_SCRIPT, REPLACE_SCRIPT } from './redis-scripts.js';
import { filterKey, idDrawer, storedFilters, storedSchema, type AsyncRecordStore, type CreateResult, type ListPage, type ListQuery, type RecordId, type RecordValue } from './record-store.js';

/** Records per script when a large load is sent in chunks (each chunk one round trip, pipelined). */
const LOAD_CHUNK = 5_000;

/** Who wrote a namespace: kept in Redis beside the records, compared by a replica at start (README › Several replicas). */
export interface NamespaceMeta {
  title: string;
  version: string;
  /** SHA-256 of the resource's record schema and filters: a replica of another spec says so at start. */
  fingerprint: string;
}

/**
 * An {@link AsyncRecordStore} kept in Redis (README › Several replicas): the same contract as the in-memory
 * store, for several mock replicas sharing one state. Each operation is one Lua script (mock/store/redis-scripts.ts),
 * so one round trip and atomic; integer ids come from `INCR` (replicas never collide) and travel as decimal
 * text (int64 exact); records are kept as the JSON text of the resource's serializer; indexed filters (enum,
 * boolean) are sorted sets per value, so a filtered page is O(limit) at any size.
 *
 * `base` is the key prefix of this resource in its namespace (`<prefix>:<resource>:`). Before its first
 * operation the store initialises its namespace once ({@link RedisRecordStore.initialize}): the starting
 * records are written only when no replica did so before.
 */
export class RedisRecordStore implements AsyncRecordStore {
  private readonly write: Writer;
  private readonly idName: string;
  private readonly idKind: 'int' | 'text' | 'given';
  /** How a new string id in a format is drawn (a UUID, an address); `undefined` for a counter. */
  private readonly draw: (() => string) | undefined;
  /** Per filter: its property (escaped for a key name), whether it is indexed, and its indexed values' keys. */
  private readonly filters: { property: string; escaped: string; indexed: boolean; values: string[] }[];
  private initialized: Promise<NamespaceMeta | undefined> | undefined;
  /** Set once {@link initialize} resolved: later operations skip the wait. */
  private done = false;

  /**
   * @param base key prefix of the resource, ending with `:`.
   * @param maxRecords most records held (`--max-records`); `create` refuses with `'full'` beyond it.
   * @param starting records written by {@link initialize} into a namespace no replica initialised yet (none
   *   with `--empty`: the namespace is then marked as started, with no record).
   * @param examples whether the records this store loads are the description's own examples, which no client
   *   wrote: their keys are kept in the set `<base>made` until written, and a client's create may take them (D780).
   */
  constructor(
    readonly resource: ResourceModel,
    private readonly connection: RedisConnection,
    readonly base: string,
    readonly maxRecords: number,
    private readonly starting: readonly RecordValue[],
    private readonly meta: NamespaceMeta,
    private readonly examples = false,
  ) {
    this.write = compileRecordWriter(storedSchema(resource), resource.idProperty);
    this.idName = JSON.stringify(resource.idProperty);
    this.draw = idDrawer(resource);
    this.idKind = resource.idType === 'integer' ? 'int' : this.draw !== undefined ? 'given' : 'text';
    this.filters = storedFilters(resource).map((filter) => ({
      property: filter.property,
      escaped: encodeURIComponent(filter.property),
      indexed: filter.values !== undefined,
      values: (filter.values ?? []).map((value) => encodeKey(filterKey(value))).filter((key) => key !== ''),
    }));
  }

  /**
   * Writes the starting records when the namespace holds none of this resource yet (no replica initialised it),
   * once per store. Resolves to the meta another replica wrote, or `undefined` when this one wrote it.
   * Errors: {@link StoreUnavailableError} when Redis does not answer.
   */
  initialize(): Promise<NamespaceMeta | undefined> {
    if (this.initialized !== undefined) return this.initialized;
    this.initialized = this.loadRecords(this.starting, 'init').then(
      (meta) => {
        this.done = true;
        return meta;
      },
      (error: unknown) => {
        this.initialized = undefined;
        throw error;
      },
    );
    return this.initialized;
  }

  async size(): Promise<number> {
    if (!this.done) await this.initialize();
    return Number(await this.connection.run(() => this.connection.client.hlen(`${this.base}rec`)));
  }

  async create(fields: RecordValue, given?: RecordId): Promise<CreateResult> {
    if (!this.done) await this.initialize();
    const { [this.resource.idProperty]: _ignored, ...rest } = fields;
    const kind = given === undefined ? this.idKind : 'client';
    const text = given === undefined ? '' : typeof given === 'bigint' ? String(given) : JSON.stringify(given);
    const args = [this.base, this.maxRecords, kind, given === undefined ? '' : String(given), this.idName, this.write(rest), text, ...this.descriptors(rest)];
    for (;;) {
      if (kind === 'given') args[3] = this.draw!();
      const reply = (await this.connection.run(() => this.connection.script(CREATE_SCRIPT, args))) as string[];
      // A drawn UUID met a held one: draw again; an id the client chose is refused.
      if (reply[0] === 'taken' && kind === 'given') continue;
      if (reply[0] !== 'ok') return { ok: false, reason: reply[0] === 'full' ? 'full' : reply[0] === 'taken' ? 'taken' : 'ids-exhausted' };
      const id: RecordId = given ?? (this.idKind === 'int' ? BigInt(reply[1]!) : reply[1]!);
      // `fields` is the caller's fresh record, as with the in-memory store: the id is set on it.
      fields[this.resource.idProperty] = id;
      return { ok: true, id, json: reply[2]! };
    }
  }

  async get(id: RecordId): Promise<string | undefined> {
    if (!this.done) await this.initialize();
    const json = await this.connection.run(() => this.connection.client.hget(`${this.base}rec`, String(id)));
    return json ?? undefined;
  }

  async value(id: RecordId): Promise<RecordValue | undefined> {
    const json = await this.get(id);
    if (json === undefined) return undefined;
    const parsed = parseExact(json);
    return parsed.ok ? (parsed.document.value as RecordValue) : undefined;
  }

  async replace(id: RecordId, record: RecordValue): Promise<string | undefined> {
    if (!this.done) await this.initialize();
    const full = { ...record, [this.resource.idProperty]: id };
    const json = this.write(full);
    const replaced = await this.connection.run(() => this.connection.script(REPLACE_SCRIPT, [this.base, String(id), json, ...this.descriptors(full)]));
    return replaced === 1 ? json : undefined;
  }

  async delete(id: RecordId): Promise<string | undefined> {
    if (!this.done) await this.initialize();
    const json = await this.connection.run(() => this.connection.script(DELETE_SCRIPT, [this.base, String(id), ...this.descriptors({})]));
    return typeof json === 'string' ? json : undefined;
  }

  async list(query: ListQuery): Promise<ListPage> {
    if (!this.done) await this.initialize();
    const given: (string | number)[] = [];
    let count = 0;
    for (let i = 0; i < query.keys.length; i++) {
      if (query.keys[i] === undefined) continue;
      const filter = this.filters[i]!;
      const key = encodeKey(query.keys[i]);
      // A value no record can hold (an object) matches nothing; an indexed filter's unknown value has an empty set.
      if (key === '') return { json: '[]', total: 0, more: false, last: undefined };
      given.push(filter.escaped, filter.indexed ? 'i' : 'c', key, 0);
      count++;
    }
    if (query.test !== undefined) return this.listTested(query, query.test, count, given);
    const limit = query.limit === Infinity ? -1 : query.limit;
    const args = [this.base, limit, query.countAll === true ? '1' : '0', query.offset ?? 0, query.before ?? '', '0', count, ...given];
    const reply = (await this.connection.run(() => this.connection.script(LIST_SCRIPT, args))) as [string, number, number, string];
    return { json: reply[0], total: Number(reply[1]), more: Number(reply[2]) === 1, last: reply[3] === '' ? undefined : reply[3] };
  }

  /**
   * A list with a further test on each record (membership filters, views): the filters' candidates in chunks of
   * the list script, newest first, tested here. With `countAll` the walk covers every record (to count them all);
   * else it starts below `before` and stops one match past the page. Several round trips: not atomic across
   * chunks (a write between two chunks may move a record across the page's edge).
   */
  private async listTested(query: ListQuery, test: (record: RecordValue) => boolean, count: number, given: (string | number)[]): Promise<ListPage> {
    const countAll = query.countAll === true;
    const before = query.before === undefined ? undefined : BigInt(query.before);
    let from = countAll ? '' : (query.before ?? '');
    const parts: string[] = [];
    let skip = query.offset ?? 0;
    let total = 0;
    let more = false;
    let last: string | undefined;
    for (;;) {
      const args = [this.base, 256, '0', 0, from, '1', count, ...given];
      const reply = (await this.connection.run(() => this.connection.script(LIST_SCRIPT, args))) as [string, number, number, string, string[], string[]];
      const scores = reply[4] ?? [];
      const jsons = reply[5] ?? [];
      for (let i = 0; i < jsons.length; i++) {
        const parsed = parseExact(jsons[i]!);
        if (!parsed.ok || !test(parsed.document.value as RecordValue)) continue;
        total++;
        if (before !== undefined && BigInt(scores[i]!) >= before) continue;
        if (skip > 0) {
          skip--;
          continue;
        }
        if (parts.length < query.limit) {
          parts.push(jsons[i]!);
          last = scores[i];
        } else {
          more = true;
          if (!countAll) return { json: `[${parts.join(',')}]`, total, more, last };
        }
      }
      if (Number(reply[2]) !== 1 || reply[3] === '') break;
      from = reply[3];
    }
    return { json: `[${parts.join(',')}]`, total, more, last };
  }

  async load(records: readonly RecordValue[]): Promise<void> {
    await this.loadRecords(records, 'replace');
    this.initialized = Promise.resolve(undefined);
    this.done = true;
  }

  /**
   * Adds records to those held, in chunks pipelined to Redis, without dropping any (bulk loads for benchmarks).
   * Errors: as {@link load}; ids must not be held already.
   */
  async append(records: readonly RecordValue[]): Promise<void> {
    if (!this.done) await this.initialize();
    await this.loadRecords(records, 'append');
  }

  async all(): Promise<readonly string[]> {
    if (!this.done) await this.initialize();
    const out: string[] = [];
    for (let start = 0; ; start += LOAD_CHUNK) {
      const chunk = (await this.connection.run(() => this.connection.script(RANGE_SCRIPT, [this.base, start, start + LOAD_CHUNK - 1]))) as string[];
      out.push(...chunk);
      if (chunk.length < LOAD_CHUNK) return out;
    }
  }

  /** The filter descriptors of a record for the scripts (redis-scripts.ts): per filter, its key in this record. */
  private descriptors(record: RecordValue): (string | number)[] {
    const out: (string | number)[] = [this.filters.length];
    for (const filter of this.filters) out.push(filter.escaped, filter.indexed ? 'i' : 'c', encodeKey(filterKey(record[filter.property])), filter.values.length, ...filter.values);
    return out;
  }

  /**
   * Writes records with the load script: `init` only into a namespace no replica initialised (resolves to the meta
   * found otherwise), `replace` over the resource's records, `append` beside them. Large loads go in pipelined
   * chunks (the first one replacing). Errors: throws on a missing or repeated id, before anything is written.
   */
  private async loadRecords(records: readonly RecordValue[], mode: 'init' | 'replace' | 'append'): Promise<NamespaceMeta | undefined> {
    const rows: (string | number)[][] = [];
    const seen = new Set<string>();
    let seq = 0n;
    for (const record of records) {
      const raw = record[this.resource.idProperty];
      const exact = this.resource.idType === 'integer' ? filterKey(raw) : raw;
      if (this.resource.idType === 'integer' ? typeof exact !== 'bigint' : typeof exact !== 'string') throw new Error(`a record has no valid ${this.resource.idProperty}`);
      const id = String(exact);
      if (seen.has(id)) throw new Error(`the ${this.resource.idProperty} ${id} is repeated`);
      seen.add(id);
      // Ids as text digits move the text counter above them, as integer ids move `INCR`'s (ids never collide).
      if (typeof exact === 'bigint' && exact > seq) seq = exact;
      else if (typeof exact === 'string' && /^\d{1,15}$/.test(exact) && BigInt(exact) > seq) seq = BigInt(exact);
      const row: (string | number)[] = [id, this.write(record)];
      for (const filter of this.filters) row.push(encodeKey(filterKey(record[filter.property])));
      rows.push(row);
    }
    const head = (chunkMode: string): (string | number)[] => [this.base, chunkMode, String(seq), JSON.stringify(this.meta), ...this.descriptors({})];
    const chunks: (string | number)[][][] = [];
    for (let at = 0; at < rows.length || chunks.length === 0; at += LOAD_CHUNK) chunks.push(rows.slice(at, at + LOAD_CHUNK));
    const send = (chunk: (string | number)[][], chunkMode: string) => this.connection.run(() => this.connection.script(LOAD_SCRIPT, [...head(chunkMode), chunk.length, ...chunk.flat()])) as Promise<[number, string]>;
    const first = await send(chunks[0]!, mode);
    if (Number(first[0]) === 0) return parseMeta(first[1]);
    await Promise.all(chunks.slice(1).map((chunk) => send(chunk, 'append')));
    // Written by this replica: the keys of the examples it loaded may be taken by a client's create (D780).
    if (this.examples && mode !== 'append') {
      for (let at = 0; at < rows.length; at += LOAD_CHUNK) {
        const ids = rows.slice(at, at + LOAD_CHUNK).map((row) => String(row[0]));
        await this.connection.run(() => this.connection.client.sadd(`${this.base}made`, ...ids));
      }
    }
    return undefined;
  }
}

/** The meta a namespace holds, or one that says it is unreadable (written by something else). */
function parseMeta(text: string): NamespaceMeta {
  try {
    const value = JSON.parse(text) as Partial<NamespaceMeta>;
    return { title: String(value.title ?? ''), version: String(value.version ?? ''), fingerprint: String(value.fingerprint ?? '') };
  } catch {
    return { title: '', version: '', fingerprint: '' };
  }
}

/**
 * A filter key ({@link filterKey}) as text for Redis, its JSON type first so that values of different types
 * never share a key: `s<text>`, `t`/`f`, `z` (null), `i<digits>` (int64 exact), `n<double>`; `''` for none.
 */
export function encodeKey(key: unknown): string {
  switch (typeof key) {
    case 'string':
      return `s${key}`;
    case 'boolean':
      return key ? 't' : 'f';
    case 'bigint':
      return `i${key}`;
    case 'number':
      return `n${String(key)}`;
    default:
      return key === null ? 'z' : '';
  }
}
