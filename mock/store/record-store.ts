import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { isLosslessNumber } from 'lossless-json';
import { exactInteger, toView } from '../../model/json.js';
import { PARENT_LINK, URL_KEY, type ResourceModel } from '../../model/model.js';
import { patternRegExp, type Schema } from '../../model/schema.js';
import { validatorOf } from '../../model/samples.js';
import { stringMatching } from '../../model/string-matching.js';
import { editRecordText } from './record-text.js';

/**
 * A record as the stores take and give it: one JSON object of the resource's record schema, its numbers exact
 * (`bigint`, lossless-json's `LosslessNumber`, or a plain `number` that is exact), nested values as parsed.
 */
export type RecordValue = Record<string, unknown>;

/** A record's identifier: `bigint` for an integer id (int64 exact), `string` otherwise (README › Resources). */
export type RecordId = bigint | string;

/**
 * Why {@link RecordStore.create} refused a record: the store is at its maximum, no id is left, or the id the
 * client chose is held already (spec/DECISIONS.md › D50).
 */
export type CreateRefusal = 'full' | 'ids-exhausted' | 'taken';

/**
 * One page of a list: the JSON text of the array of matching records (newest first, at most `limit`), and the
 * number of records that match the filters in all (for a wrapper's `total`; exact when asked with `countAll`).
 */
export interface ListPage {
  json: string;
  total: number;
  /** Whether another record matches past this page (the list has a next page). */
  more: boolean;
  /**
   * The store's position of the page's last record (`undefined` for an empty page): given back as
   * {@link ListQuery.before}, it starts the next page there (spec/DECISIONS.md › D45, cursors). Decimal digits.
   */
  last: string | undefined;
}

/**
 * The values a list asks for, aligned with {@link storedFilters} (the resource's filters, then a sub-resource's
 * parent link): `undefined` where the filter is not given, else the filter key of the query value
 * ({@link filterKey}). `limit` is the page size (`Infinity`: every record).
 */
export interface ListQuery {
  keys: readonly unknown[];
  limit: number;
  /** Whether `total` must count every match (a wrapper's `total`); else it may stop at the page's end. */
  countAll?: boolean;
  /** Matching records to skip before the page (page-number and offset paging); 0 when absent. */
  offset?: number;
  /** Only records older than this position (a {@link ListPage.last} of this store): cursor paging. `total` still counts them all. */
  before?: string;
  /** A further condition on each record (membership filters, views): the record as an exact value. */
  test?: (record: RecordValue) => boolean;
}

/**
 * The records of one resource (README › Resources), kept in this process (mock/store/memory-store.ts). Every
 * method is synchronous, so that the mock's pipeline answers in-process without a promise; a store over the
 * network keeps the same contract as {@link AsyncRecordStore} (mock/store/redis-store.ts, README › Several
 * replicas), and the pipeline then answers with a promise.
 *
 * Contract, which every implementation keeps:
 * - ids are assigned by `create` and never reused, even after `delete` (integer ids count up from above the
 *   largest ever loaded or assigned, skipping ids held; string ids are a UUID when the id schema says
 *   `format: uuid`, else a counter as text); an id the client chose (`create`'s `id`) is kept as given, refused
 *   with `'taken'` when held, and does not move the counter (a client's large id never exhausts it, D50);
 * - records are returned as the JSON text of the resource's serializer (mock/serializer.ts): properties in
 *   the schema's order, id first, int64 exact, `writeOnly` properties never written;
 * - `list` orders records newest first by creation (spec/DECISIONS.md › D8); `replace` keeps a record's place;
 * - a filter keeps the records whose property's filter key equals the asked key (exact for int64);
 * - at most `maxRecords` records are held: `create` refuses with `'full'` beyond it.
 */
export interface RecordStore {
  readonly resource: ResourceModel;
  /** Most records held at once (`--max-records`, per resource). */
  readonly maxRecords: number;
  /** Number of records held. */
  readonly size: number;
  /**
   * A number that changes with every write (create, replace, delete, load): an answer made from the store stays
   * right while it is unchanged, so the pipeline may send it again (mock/pipeline.ts, list answers).
   */
  readonly version: number;
  /**
   * Stores a new record under `id` when given (the client's choice; `'taken'` when held), else under a new id
   * (the record's own id property, if any, is overwritten). Returns its JSON text. `fields` is the caller's
   * fresh object: the store may set the id on it and keep it (no copy per create).
   */
  create(fields: RecordValue, id?: RecordId): { ok: true; id: RecordId; json: string } | { ok: false; reason: CreateRefusal };
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

/** A value at once (the in-memory store) or later (a store over the network, README › Several replicas). */
export type Maybe<T> = T | Promise<T>;

/** What `create` answers: the new record's id and JSON text, or why it was refused. */
export type CreateResult = { ok: true; id: RecordId; json: string } | { ok: false; reason: CreateRefusal };

/**
 * The {@link RecordStore} contract for a store over the network (mock/store/redis-store.ts): the same methods and
 * semantics, each answering with a promise. Errors: a store that cannot answer in time rejects with
 * {@link StoreUnavailableError}, which the mock answers with a 503 and `Retry-After`.
 */
export interface AsyncRecordStore {
  readonly resource: ResourceModel;
  /** Most records held at once (`--max-records`, per resource). */
  readonly maxRecords: number;
  /** Number of records held. */
  size(): Promise<number>;
  create(fields: RecordValue, id?: RecordId): Promise<CreateResult>;
  get(id: RecordId): Promise<string | undefined>;
  value(id: RecordId): Promise<RecordValue | undefined>;
  replace(id: RecordId, record: RecordValue): Promise<string | undefined>;
  delete(id: RecordId): Promise<string | undefined>;
  list(query: ListQuery): Promise<ListPage>;
  load(records: readonly RecordValue[]): Promise<void>;
  all(): Promise<readonly string[]>;
}

/** Either store: what handlers and the admin API work with, each answer at once or as a promise. */
export type AnyRecordStore = RecordStore | AsyncRecordStore;

/**
 * Where a store stands, for the health endpoint and the log: `ready`; `connecting` (not yet, or again after a
 * loss); `unreachable` (the connection failed or closed; it is retried by itself); `stalled` (connected, but
 * no answer within the timeout: the store paused, swapping or blocked).
 */
export type StoreState = 'connecting' | 'ready' | 'unreachable' | 'stalled';

/**
 * Thrown (rejected) by an operation of a store over the network that did not answer in time or could not be
 * sent: the mock answers 503 with `Retry-After` (README › Several replicas). A write that timed out may still
 * have been applied (it was sent); one refused while disconnected was never sent.
 */
export class StoreUnavailableError extends Error {
  constructor(
    readonly state: StoreState,
    message: string,
  ) {
    super(message);
    this.name = 'StoreUnavailableError';
  }
}

/** Seconds a client is asked to wait (`Retry-After`) after a 503 because the shared store did not answer. */
export const STORE_RETRY_AFTER_SECONDS = 1;

/** Applies `next` to a value at once when it is there, else when its promise settles (the memory path stays synchronous). */
export function andThen<T, U>(value: Maybe<T>, next: (value: T) => Maybe<U>): Maybe<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** Number of records of either store. */
export function sizeOf(store: AnyRecordStore): Maybe<number> {
  return typeof store.size === 'function' ? store.size() : store.size;
}

/** A filter as a store keeps it: the record property it reads and, for an indexed one, the values it can take. */
export interface StoredFilter {
  property: string;
  values: readonly unknown[] | undefined;
}

const storedFilterCache = new WeakMap<ResourceModel, readonly StoredFilter[]>();

/**
 * The filters a store keeps for a resource, in the order of {@link ListQuery.keys}: the list's filters, then,
 * for a sub-resource, its parent link (spec/DECISIONS.md › D53), so that a parent's records are one filtered list,
 * then, for a resource numbered per parent, its number (D240).
 */
export function storedFilters(resource: ResourceModel): readonly StoredFilter[] {
  let found = storedFilterCache.get(resource);
  if (found === undefined) {
    found = resource.filters.map((filter) => ({ property: filter.property, values: filter.values }));
    if (resource.parent !== undefined) found = [...found, { property: resource.parent.property, values: undefined }];
    // A number counted per parent (D240) is found under its parent by a column of its own, never by parsing records.
    if (resource.parent !== undefined && resource.numbering !== undefined) found = [...found, { property: resource.numbering.key, values: undefined }];
    storedFilterCache.set(resource, found);
  }
  return found;
}

/**
 * The schema a store writes a record with: the record schema, and for a sub-resource whose schema names no parent
 * property, the mock's own link member ({@link PARENT_LINK}) too, and the URL key of a record that names none
 * ({@link URL_KEY}, D502), which answers never show ({@link withoutLink}).
 */
export function storedSchema(resource: ResourceModel): Schema {
  const kept = { ...(resource.parent === undefined || resource.parent.inSchema ? {} : { [PARENT_LINK]: {} }), ...(resource.idProperty === URL_KEY ? { [URL_KEY]: { type: 'string' } } : {}) };
  if (Object.keys(kept).length === 0) return resource.recordSchema;
  return { allOf: [resource.recordSchema, { properties: kept }] };
}

/** What joins a parent's key and a record's own key in the store id of a record keyed under its parent (D290). */
const SCOPE_JOIN = '\u0000';

/**
 * Whether a resource's records are keyed under their parent (spec/DECISIONS.md › D290): a sub-resource (not a
 * singleton) whose string key only clients give (its create needs the key, or no create exists: its records come
 * from adds that name them). Two parents may then hold records of the same key (a `bug` label in two
 * repositories), so the store id joins the parent's key and the record's own ({@link scopedId}); answers show the
 * own key only ({@link withoutLink}). A key the server draws is unique in the store already and is not scoped.
 */
export function keyedUnderParent(resource: ResourceModel): boolean {
  return resource.parent !== undefined && resource.parent.singleton !== true && resource.idType === 'string' && (resource.idSource === 'client' || resource.operations.create === undefined);
}

/** The store id of the record of key `key` under the parent of key `parent` (D290). */
export function scopedId(parent: RecordId, key: RecordId): string {
  return `${String(parent)}${SCOPE_JOIN}${String(key)}`;
}

/** A record's own key from its store id: the part after the parent's key (D290); other ids as they are. */
export function ownKey(id: RecordId): RecordId {
  if (typeof id !== 'string') return id;
  const at = id.indexOf(SCOPE_JOIN);
  return at === -1 ? id : id.slice(at + 1);
}

/**
 * A record's or a page's JSON text as answered: without the mock's parent link member (D53), and for records
 * keyed under their parent, each key without its parent's part (D290).
 */
export function withoutLink(resource: ResourceModel, json: string): string {
  const link = resource.parent !== undefined && !resource.parent.inSchema;
  const urlKey = resource.idProperty === URL_KEY;
  const scoped = keyedUnderParent(resource);
  // Both the link's name and the join hold a NUL, which JSON writes escaped: a text without one has nothing to edit.
  if ((!link && !scoped && !urlKey) || !json.includes('\\u0000')) return json;
  // Only the record's own members: a nested member of the same name (a free-form body's `name`) is the client's, as sent.
  // A key kept beside a record addressed by its URL (D502) is never answered either; nor is its parent's part.
  const own = urlKey ? editRecordText(json, { drop: URL_KEY }) : json;
  if (!link && !scoped) return own;
  return editRecordText(own, { ...(link ? { drop: PARENT_LINK } : {}), ...(scoped && !urlKey ? { scoped: { member: resource.idProperty, separator: SCOPE_JOIN } } : {}) });
}

/**
 * Whether a stored record is valid against its resource's record schema, the mock's parent link aside (D53):
 * what a state file, an admin load or a spec reload checks.
 */
export function isValidRecord(resource: ResourceModel, record: RecordValue): boolean {
  // A key held under its parent (D290) is judged as answers show it: its own part.
  const key = record[resource.idProperty];
  const shown = typeof key === 'string' && keyedUnderParent(resource) ? { ...record, [resource.idProperty]: ownKey(key) } : record;
  const { [URL_KEY]: _key, ...keyless } = shown;
  const judged = resource.idProperty === URL_KEY ? keyless : shown;
  if (resource.parent === undefined || resource.parent.inSchema || !Object.hasOwn(judged, PARENT_LINK)) return resource.validateRecord(toView(judged));
  const { [PARENT_LINK]: _link, ...own } = judged;
  return resource.validateRecord(toView(own));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The string examples the spec gives of a record's id: its schema's `example`/`examples`. */
function exampleIds(resource: ResourceModel): string[] {
  const examples = [resource.idSchema['example'], ...(Array.isArray(resource.idSchema['examples']) ? (resource.idSchema['examples'] as unknown[]) : [])];
  return examples.filter((value): value is string => typeof value === 'string');
}

/**
 * How a store draws a new string id whose schema names a format a counter's digits would break (D77): `uuid`, an
 * `ipv4`/`ipv6` address (DigitalOcean's floating IPs are named by theirs), an `email`, a `hostname`, a `uri`; drawn
 * at random, drawn again on a clash. A UUID example of the id with no format declared draws UUIDs too. A `pattern` the
 * item path's parameter declares where the record's schema states none is drawn to (D842), as the record's own is
 * (D394). `undefined`: the id is a counter as text.
 */
export function idDrawer(resource: ResourceModel): (() => string) | undefined {
  if (resource.idType !== 'string') return undefined;
  const hex = (bytes: number): string => randomBytes(bytes).toString('hex');
  // The record's schema may leave the format to the item path's parameter (`/v2/volumes/{volume_id}`, a `uuid`),
  // to one operation's declaration of it only, or show it by its examples alone.
  const parameters = Object.values(resource.operations).flatMap((op) => op.pathParams).filter((param) => param.name === resource.idParameter);
  const declared = resource.idSchema['format'] ?? parameters.map((param) => param.schema['format']).find((format) => format !== undefined);
  switch (declared ?? (exampleIds(resource).some((value) => UUID.test(value)) ? 'uuid' : undefined)) {
    case 'uuid':
      return randomUUID;
    case 'ipv4':
      return () => `10.${[...randomBytes(3)].join('.')}`;
    case 'ipv6':
      return () => `fd00::${hex(2)}:${hex(2)}:${hex(2)}`;
    case 'email':
    case 'idn-email':
      return () => `user-${hex(6)}@example.com`;
    case 'hostname':
    case 'idn-hostname':
      return () => `host-${hex(6)}.example.com`;
    case 'uri':
    case 'url':
    case 'iri':
      return () => `https://example.com/${hex(8)}`;
    default: {
      // The item path's parameter may hold the key to a pattern the record's schema leaves out (D842): a key drawn
      // without it would be refused by the very path a client reads the record by. Drawn whole (anchored).
      const pattern = resource.idSchema['pattern'] === undefined ? parameters.map((param) => param.schema['pattern']).find((found): found is string => typeof found === 'string') : undefined;
      return fittingDrawer(pattern === undefined ? resource.idSchema : { ...resource.idSchema, pattern: `^(?:${pattern.replace(/^\^/, '').replace(/(?<!\\)\$$/, '')})$` });
    }
  }
}

/**
 * A drawer of string ids that fit `schema` where a counter's digits would not (D394): a `pattern`
 * (`^AC[0-9a-fA-F]{32}$`), or the first pattern of its `anyOf`/`oneOf` forms (D895), drawn with fast-check from a fresh seed, else hexadecimal digits as long as `minLength`
 * asks (and `maxLength` allows); each checked with the schema's validator, drawn again (up to 20 times) if refused.
 * `undefined` when the counter's digits fit (no pattern, no length they break), as most descriptions' ids do.
 */
function fittingDrawer(schema: Schema): (() => string) | undefined {
  const validate = validatorOf(schema);
  if (validate === undefined || ['1', '42', '1234567'].every((digits) => validate(digits))) return undefined;
  // A key that is one of several forms (`anyOf` two patterns) is drawn to the first form that states one (D895).
  const branches = (['anyOf', 'oneOf'] as const).flatMap((keyword) => (Array.isArray(schema[keyword]) ? (schema[keyword] as unknown[]) : []));
  const text = typeof schema['pattern'] === 'string' ? schema['pattern'] : branches.map((branch) => (branch !== null && typeof branch === 'object' ? (branch as Schema)['pattern'] : undefined)).find((found): found is string => typeof found === 'string');
  const pattern = text === undefined ? undefined : patternRegExp(text);
  const min = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0;
  const max = typeof schema['maxLength'] === 'number' ? schema['maxLength'] : Infinity;
  const length = Math.max(min, Math.min(12, max));
  const once = (): string => (pattern === undefined ? randomBytes(Math.ceil(length / 2)).toString('hex').slice(0, length) : fc.sample(stringMatching(pattern), { numRuns: 1, seed: randomBytes(4).readInt32LE() })[0]!);
  return () => {
    let id = once();
    for (let tries = 1; tries < 20 && !validate(id); tries++) id = once();
    return id;
  };
}

const storeViews = new WeakMap<ResourceModel, ResourceModel>();

/**
 * The resource as its store sees it: the resource itself, or for one numbered per parent (spec/DECISIONS.md ›
 * D240) the same resource keyed by its global id (`id`, server-assigned), since its own key (`number`) repeats
 * across parents. Handlers look a number up under its parent and address the store by that id.
 */
export function storeView(resource: ResourceModel): ResourceModel {
  const numbering = resource.numbering;
  if (numbering === undefined) return resource;
  let view = storeViews.get(resource);
  if (view === undefined) {
    const idSchema = resource.properties[numbering.storeKey] ?? {};
    const idType = idSchema['type'] === 'integer' || idSchema['type'] === 'number' ? 'integer' : 'string';
    view = { ...resource, idProperty: numbering.storeKey, idType, idSchema, idParameter: undefined, idSource: 'server' };
    storeViews.set(resource, view);
  }
  return view;
}
