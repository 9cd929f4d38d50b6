import { createHash } from 'node:crypto';
import { presentedKey } from './authenticate.js';
import type { ApiModel, AuthScheme } from '../model/model.js';
import type { StartingData } from './data.js';
import type { AnyDataset } from './pipeline.js';
import type { MockRequest, MockResponse } from './messages.js';
import { MemoryRecordStore } from './store/memory-store.js';
import { ExampleData } from './starting-records.js';
import { sizeOf, storeView, type AnyRecordStore, type Maybe, type RecordStore } from './store/record-store.js';

/** Most API keys that get their own data with `--isolate-by-key`; beyond, a 429 `TOO_MANY_KEYS` until a reset. */
export const MAX_ISOLATED_KEYS = 1000;

/** SHA-256 of an API key, hex: how keys are told apart and written to a state file (never the key itself). */
export function keyDigest(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/**
 * One store per resource of the spec, each holding its starting records; at most `maxRecords` records per resource.
 * Each store asks `starting` for its records when it is first used (D640): a description's example records are then
 * found for the resources a request reaches, not all before the first answer.
 */
export function createDataset(api: ApiModel, starting: StartingData, maxRecords: number): Map<string, RecordStore> {
  // Records the description's examples show were written by no client: a client's create may take their keys (D780).
  const examples = starting instanceof ExampleData;
  return new Map(api.resources.map((resource) => [resource.name, new MemoryRecordStore(storeView(resource), maxRecords, () => starting.get(resource.name) ?? [], examples)]));
}

/** Drops every record of a dataset and loads `starting` instead (at once in memory; a promise with a store over the network). */
export function reloadDataset(data: AnyDataset, starting: StartingData): Maybe<void> {
  const pending: Promise<void>[] = [];
  for (const [name, store] of data) {
    const loaded = store.load(starting.get(name) ?? []);
    if (loaded instanceof Promise) pending.push(loaded);
  }
  return pending.length === 0 ? undefined : Promise.all(pending).then(() => undefined);
}

/** Number of records of a dataset, by resource name (the admin API's answers: `{"pets": 8}`). */
export function datasetSizes(data: AnyDataset): Maybe<Record<string, number>> {
  const sizes: Record<string, number> = {};
  const pending: Promise<void>[] = [];
  for (const [name, store] of data) {
    const size = sizeOf(store);
    if (size instanceof Promise) pending.push(size.then((n) => void (sizes[name] = n)));
    else sizes[name] = size;
  }
  return pending.length === 0 ? sizes : Promise.all(pending).then(() => sizes);
}

/** Whether every store of a mock is in memory (answers at once): a state file and a spec reload's carry-over need that. */
export function inMemory(stores: Stores<AnyRecordStore>): stores is Stores {
  for (const [, data] of stores.all()) for (const store of data.values()) if (typeof store.size !== 'number') return false;
  return true;
}

/** One key's data and the pipeline that serves it (built on the key's first request: a state file holds digests, not keys). */
export interface Tenant<Store extends AnyRecordStore = RecordStore> {
  data: ReadonlyMap<string, Store>;
  handle?: (request: MockRequest) => Maybe<MockResponse>;
}

/** How to build the stores of a mock: in memory by default, or by `dataset` (a store over the network). */
export interface StoresOptions<Store extends AnyRecordStore = RecordStore> {
  api: ApiModel;
  /** Starting records by resource: every dataset begins with them, and a reset restores them. */
  starting: StartingData;
  /** Most records per resource (`--max-records`). */
  maxPets: number;
  /** With `isolate`, each accepted API key has its own store (README › Isolation). */
  isolate: boolean;
  /** Keys given explicitly (`--api-key`): with `isolate`, only these get data; `undefined` accepts any bearer key. */
  acceptedKeys: readonly string[] | undefined;
  /** Builds the pipeline of one store; `key` is the only key it accepts, or `undefined` for the shared store. */
  pipeline(data: ReadonlyMap<string, Store>, key: string | undefined): (request: MockRequest) => Maybe<MockResponse>;
  /** Records read from a state file: the shared dataset's, and per key digest. */
  saved?: { data?: StartingData; keys?: ReadonlyMap<string, StartingData> };
  /**
   * Builds the dataset of a namespace (the shared one, or a key's by digest) holding `starting`; the in-memory
   * the in-memory {@link createDataset}, or the namespaces of a store over the network.
   */
  dataset(digest: string | undefined, starting: StartingData): Map<string, Store>;
  /** Forgets every key's data beyond this process (a store over the network), on reset. */
  dropKeys?: () => Promise<unknown>;
}

/**
 * The mock's data: one shared store, or with `isolate` one store per API key, created on the key's first
 * request from the starting pets (or the state file), so that parallel test workers sharing one mock, each
 * with its own key, never see each other's pets. Keys are held by SHA-256 digest.
 */
export class Stores<Store extends AnyRecordStore = RecordStore> {
  /** The data of the non-isolated mock (and, with `isolate`, unused by requests). */
  readonly sharedData: ReadonlyMap<string, Store>;
  private readonly sharedHandle: (request: MockRequest) => Maybe<MockResponse>;
  private readonly tenants = new Map<string, Tenant<Store>>();
  private readonly accepted: ReadonlySet<string> | undefined;
  /** The security schemes the spec's operations use, first-declared first: where a request's key is read. */
  private readonly schemes: AuthScheme[];

  constructor(private readonly options: StoresOptions<Store>) {
    this.sharedData = options.dataset(undefined, options.saved?.data ?? options.starting);
    this.sharedHandle = options.pipeline(this.sharedData, undefined);
    this.accepted = options.acceptedKeys === undefined ? undefined : new Set(options.acceptedKeys.map(keyDigest));
    this.schemes = [...new Map(options.api.operations.flatMap((op) => op.security).map((scheme) => [scheme.name, scheme])).values()];
    // Saved keys get their store at once, so that the next write of the state file keeps them even if unused.
    for (const [digest, data] of options.saved?.keys ?? []) {
      if (this.accepted === undefined || this.accepted.has(digest)) this.tenants.set(digest, { data: options.dataset(digest, data) });
    }
  }

  /** The shared store of the spec's first resource (the seed's pets). Errors: throws when the spec has no resource. */
  get shared(): Store {
    const store = this.sharedData.values().next().value;
    if (store === undefined) throw new Error('the spec has no resource, so the mock holds no records');
    return store;
  }

  /** Whether each API key has its own data. */
  get isolated(): boolean {
    return this.options.isolate;
  }

  /** The starting records, which a reset restores. */
  get starting(): StartingData {
    return this.options.starting;
  }

  /**
   * The pipeline that answers a request: the shared one, or with `isolate` the one of the request's key
   * (the shared one answers a missing or refused key, with its 401). `'full'` when the key would need a
   * new store beyond {@link MAX_ISOLATED_KEYS} (the caller answers 429 `TOO_MANY_KEYS`).
   */
  handlerFor(request: MockRequest): ((request: MockRequest) => Maybe<MockResponse>) | 'full' {
    if (!this.options.isolate) return this.sharedHandle;
    const queryAt = request.url.indexOf('?');
    const presented = presentedKey(this.schemes, request, queryAt === -1 ? '' : request.url.slice(queryAt + 1));
    // Keys arrive in header form (one character per byte); the tenant is found by the key as configured.
    const key = presented === undefined ? undefined : Buffer.from(presented, 'latin1').toString('utf8');
    const tenant = key === undefined ? undefined : this.tenant(key);
    if (tenant === 'full') return tenant;
    if (tenant === undefined) return this.sharedHandle;
    tenant.handle ??= this.options.pipeline(tenant.data, key);
    return tenant.handle;
  }

  /**
   * The data of an API key: with `isolate`, its own (created if the key is accepted), `undefined` for a key
   * that is refused, `'full'` beyond {@link MAX_ISOLATED_KEYS}; without `isolate`, `undefined`.
   */
  tenant(key: string): Tenant<Store> | 'full' | undefined {
    if (!this.options.isolate) return undefined;
    const digest = keyDigest(key);
    let tenant = this.tenants.get(digest);
    if (tenant === undefined) {
      if (this.accepted !== undefined && !this.accepted.has(digest)) return undefined;
      if (this.tenants.size >= MAX_ISOLATED_KEYS) return 'full';
      tenant = { data: this.options.dataset(digest, this.options.starting) };
      this.tenants.set(digest, tenant);
    }
    return tenant;
  }

  /** Every dataset with its key digest (`''` for the shared one): what a state file holds. */
  *all(): Iterable<[string, ReadonlyMap<string, Store>]> {
    yield ['', this.sharedData];
    for (const [digest, tenant] of this.tenants) yield [digest, tenant.data];
  }

  /** Restores the starting records: in the shared dataset, and with `isolate` by forgetting every key's data (here and, with a store over the network, there). */
  reset(): Maybe<void> {
    this.tenants.clear();
    const reloaded = reloadDataset(this.sharedData, this.options.starting);
    const dropped = this.options.dropKeys?.();
    if (reloaded === undefined && dropped === undefined) return undefined;
    return Promise.all([reloaded, dropped]).then(() => undefined);
  }
}
