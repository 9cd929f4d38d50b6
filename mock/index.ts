import type { Logger } from 'pino';
import { DEFAULT_API_KEYS } from '../cli/product.js';
import type { ApiModel } from '../model/model.js';
import { createAdmin } from './admin.js';
import { createCors, type Cors, type CorsOptions } from './cors.js';
import type { StartingData } from './data.js';
import { demoData, ExampleData } from './starting-records.js';
import { createFrontDoor, describesAdminPaths, HEALTH_PATH } from './front-door.js';
import { createDataset, inMemory, Stores } from './isolation.js';
import { providedCheckCatalogue, type CheckCatalogue } from './explain.js';
import type { ReloadInfo } from './console-api.js';
import { Journal } from './journal.js';
import { journalFacts } from './journal-facts.js';
import { deprecationWarner, requestLogger } from './logger.js';
import { loadApi, type Api } from './operations.js';
import { createPipeline, type Dataset } from './pipeline.js';
import type { MockRequest, MockResponse } from './messages.js';
import { adapterError } from './refusals.js';
import type { ErrorCode } from './errors.js';
import { carryOver, carryOverStarting, describeChanges } from './reload.js';
import { serve, type RunningServer, type ServerOptions } from './server.js';
import { readStateFile, StateFile } from './state-file.js';
import { startupNotes, undocumentedSummary } from './statuses.js';
import { StoreUnavailableError, type AnyRecordStore, type AsyncRecordStore, type Maybe, type RecordStore, type RecordValue } from './store/record-store.js';
import type { RedisBackend, RedisStoreOptions } from './store/redis-dataset.js';

export { apiError, ERRORS, type ApiError, type ErrorCode } from './errors.js';
export { loadApi, SPEC_PATH, type Api, type Operation } from './operations.js';
export type { Dataset } from './pipeline.js';
export type { MockRequest, MockResponse } from './messages.js';
export type { AsyncRecordStore, Maybe, RecordId, RecordStore, RecordValue, StoreState } from './store/record-store.js';
export type { RedisStoreOptions } from './store/redis-dataset.js';
export { MemoryRecordStore } from './store/memory-store.js';
export type { StartingData } from './data.js';
export type { RunningServer } from './server.js';
export type { JournalEntry } from './journal.js';
export { createLogger, type LogFormat, type LogLevel } from './logger.js';
export { parseLatency, type Latency } from './prefer.js';
export { countsLine, startupNotes, undocumentedSummary } from './statuses.js';

/** The default API key of the mock, printed at start (seed, Authentication: issuing keys is not shown). */
export { DEFAULT_API_KEY, DEFAULT_API_KEYS } from '../cli/product.js';

/** How to build a mock: spec, keys, starting data and store bounds. Every field has a default. */
export interface MockOptions {
  /** Path of the OpenAPI document to serve (`--spec`); default spec/openapi.yaml. Ignored when `model` is given. */
  spec?: string;
  /** The spec, already loaded (`loadModel`/`loadApi`); default loaded from `spec`. */
  model?: ApiModel;
  /** The same as `model` (its earlier name). */
  api?: Api;
  /** Keys the operations' security schemes accept. Default `DEFAULT_API_KEYS` (`DEFAULT_API_KEY` and the Pet Store harness's `petstore-dev-key`). */
  apiKeys?: readonly string[];
  /** Starting records of the spec's first resource (the seed's pets); `[]` starts empty. */
  pets?: readonly RecordValue[];
  /** Starting records by resource name (README › Starting data). Default: the demo pets for the shipped spec, else the records the spec's examples show (D55). */
  data?: StartingData;
  /** Most records held per resource (default 1,000,000); beyond it a create answers 409 `STORE_FULL`. */
  maxPets?: number;
  /** Origins allowed by CORS: `'*'` (default, any), a list, or `false` for no CORS headers (README › CORS). */
  corsOrigins?: CorsOptions['origins'];
  /** Each API key sees its own records. With no `apiKeys` given, any key is accepted (README › Isolation). */
  isolateByKey?: boolean;
  /** `false` turns the admin API off (default on). */
  admin?: boolean;
  /** When set, the admin API needs `Authorization: Bearer <adminToken>`. Must differ from every API key. */
  adminToken?: string | undefined;
  /** The suite's checks of a model for the console's Explain page (`GET /__admin/explain`); default the one the CLI provided (mock/explain.ts), else none. */
  explainChecks?: CheckCatalogue | undefined;
  /** The OpenAPI Overlay files the model was read with (`--overlay`), named on the Explain page. */
  overlays?: readonly string[] | undefined;
  /** Requests kept by the journal of `GET /__admin/requests` (default 100; 0 keeps none). */
  journalSize?: number;
  /** JSON file the records are kept in across restarts: read at start when it exists, written within 200 ms of a change and by `flush()`. */
  stateFile?: string | undefined;
  /** Logger for warnings (deprecated operations called, spec reloads) and, with `startMock`, one line per request. Default none. */
  logger?: Logger | undefined;
  /**
   * Keep the records in Redis (`--store redis://…`, README › Several replicas) instead of in memory: replicas
   * given the same URL and prefix share them. `handle` then answers with a promise. Not with `stateFile`.
   */
  store?: RedisStoreOptions | undefined;
}

/** What {@link Mock.reload} did: what changed in the spec, and how many records no longer fit it. */
export interface ReloadReport {
  changes: string[];
  dropped: number;
}

/**
 * A mock without a socket: its spec, its stores and the pipeline that answers a {@link MockRequest}. With the
 * in-memory store (the default) `handle` answers at once; with Redis ({@link RedisMock}) it answers a promise.
 */
export interface Mock<Store extends AnyRecordStore = RecordStore, Answer extends Maybe<MockResponse> = MockResponse> {
  /** The spec served now (it changes with {@link Mock.reload}). */
  readonly api: Api;
  /** The same as `api`. */
  readonly model: ApiModel;
  /** The shared store of the spec's first resource (with `isolateByKey`, each key's store starts from the same data instead). */
  readonly store: Store;
  /** Every dataset, per key with `isolateByKey`. */
  readonly stores: Stores<Store>;
  /**
   * Everything the start-up log may say about the spec (unmapped operations, each operation's undocumented statuses, demo data): the details, at `debug`.
   * Put together when first read (D644): reading it (or {@link Mock.summary}) finds every resource's example records, which the stores otherwise find when first used (D640).
   */
  readonly notes: string[];
  /**
   * What the start-up log says at its default level (spec/DECISIONS.md › D84): a bounded number of lines whatever
   * the spec (the model's notes, one line for all undocumented statuses, the starting data, the store), each a
   * subset or summary of {@link Mock.notes}.
   */
  readonly summary: string[];
  /** The recent requests, newest first (`GET /__admin/requests`). */
  journal: Journal;
  /** The CORS headers `handle` adds, for answers made outside it (the HTTP adapter's 413). */
  cors: Cors;
  handle: (request: MockRequest) => Answer;
  /**
   * Serves `model` from now on, keeping every record still valid against its resource's new schema (`--watch`).
   * With Redis the records stay where they are, unchecked.
   */
  reload(model: ApiModel): ReloadReport;
  /** Writes the state file now if it is behind (no-op without `stateFile`). Call it before the process exits. */
  flush(): void;
  /** Where the store stands (`GET /__health`): `ok`, or `unavailable` with the store's state. */
  health(): Maybe<MockResponse>;
  /** Closes the connection to the store (no-op in memory). */
  dispose(): Promise<void>;
  /** Notes a reload under `--watch` that kept the previous spec (its reason), for `GET /__admin/health`. */
  reloadRefused(message: string): void;
}

/** A mock keeping its records in Redis: its stores answer promises, and so does `handle`. */
export type RedisMock = Mock<AsyncRecordStore, Maybe<MockResponse>>;

/**
 * Builds a mock from the spec (loaded once) and its starting data. Errors: a bad spec rejects, naming the
 * file or the operation; an unreadable or invalid state file rejects, naming the file and the entry; an admin
 * token equal to an API key rejects.
 */
export async function createMock(options?: MockOptions & { store?: undefined }): Promise<Mock>;
export async function createMock(options: MockOptions & { store: RedisStoreOptions }): Promise<RedisMock>;
export async function createMock(options: MockOptions): Promise<Mock | RedisMock>;
export async function createMock(options: MockOptions = {}): Promise<Mock | RedisMock> {
  let api = options.model ?? options.api ?? (await loadApi(options.spec));
  if (options.store !== undefined && options.stateFile !== undefined) throw new Error('a state file (--state-file) cannot be used with a Redis store (--store): the records live in Redis');
  let starting: StartingData;
  let startingNote = (): string | undefined => undefined;
  if (options.data !== undefined) starting = options.data;
  else if (options.pets !== undefined) starting = api.resources[0] === undefined ? new Map() : new Map([[api.resources[0].name, [...options.pets]]]);
  else {
    const demo = demoData(api);
    starting = demo.data;
    startingNote = demo.note;
  }
  // What the start-up log says is put together when first read, from the description the mock started with: the line
  // on the starting data finds every resource's example records, which otherwise wait for the first store that needs
  // them (D640), and the lines on undocumented statuses look at every operation (D644).
  const notes: string[] = [];
  const summary: string[] = [];
  const started = api;
  let settleNotes = (): void => {
    settleNotes = () => undefined;
    notes.push(...startupNotes(started, options.store !== undefined));
    const undocumented = undocumentedSummary(started, options.store !== undefined);
    summary.push(...started.notes, ...(undocumented === undefined ? [] : [undocumented]));
    const note = startingNote();
    if (note !== undefined) {
      notes.push(note);
      summary.push(note);
    }
  };
  const apiKeys = options.apiKeys ?? (options.isolateByKey === true ? undefined : DEFAULT_API_KEYS);
  if (options.adminToken !== undefined && apiKeys?.includes(options.adminToken) === true) throw new Error('the admin token must differ from every API key');
  const saved = options.stateFile === undefined ? undefined : readStateFile(api, options.stateFile);
  const onDeprecated = options.logger === undefined ? undefined : deprecationWarner(options.logger);
  const journal = new Journal(options.journalSize ?? 100);
  journal.facts = journalFacts(() => api);
  let lastReload: ReloadInfo | undefined;
  const cors = createCors({ origins: options.corsOrigins ?? '*' });
  const maxPets = options.maxPets ?? 1_000_000;
  // Loaded only when asked for: the in-memory mock never loads the Redis client (start-up time).
  const redis: RedisBackend | undefined = options.store === undefined ? undefined : await (await import('./store/redis-dataset.js')).RedisBackend.connect(api, options.store);
  const dataset = (model: ApiModel) => (digest: string | undefined, data: StartingData): Map<string, AnyRecordStore> =>
    redis === undefined ? createDataset(model, data, maxPets) : redis.dataset(model, digest, data, maxPets, data instanceof ExampleData);
  // The state file is refused with Redis above: the stores it writes are in memory.
  const memoryStores = (): Stores => {
    if (!inMemory(engine.stores)) throw new Error('the records are not in memory');
    return engine.stores;
  };
  const stateFile: StateFile | undefined = options.stateFile === undefined ? undefined : new StateFile(options.stateFile, memoryStores);
  const onChange = (): void => stateFile?.changed();

  type Engine = { stores: Stores<AnyRecordStore>; handle: (request: MockRequest) => Maybe<MockResponse> };
  const build = (model: ApiModel, data: StartingData, savedData: { data?: StartingData; keys?: ReadonlyMap<string, StartingData> } | undefined): Engine => {
    const stores = new Stores<AnyRecordStore>({
      api: model,
      starting: data,
      maxPets,
      isolate: options.isolateByKey === true,
      acceptedKeys: apiKeys,
      // With isolation, each key's pipeline accepts that key only; the shared one answers refused keys with 401.
      pipeline: (dataset, key) => createPipeline(model, { apiKeys: key === undefined ? (apiKeys ?? []) : [key], data: dataset, onDeprecated }),
      dataset: dataset(model),
      ...(redis === undefined ? {} : { dropKeys: () => redis.dropKeyNamespaces() }),
      ...(savedData === undefined ? {} : { saved: savedData }),
    });
    const health = redis === undefined ? () => MEMORY_HEALTH : () => redis.health();
    const status = { health, lastReload: () => lastReload, sharedStore: redis !== undefined };
    const admin = createAdmin({ api: model, stores, journal, enabled: options.admin !== false, token: options.adminToken, onChange, status, explainChecks: options.explainChecks ?? providedCheckCatalogue(), overlays: options.overlays });
    return { stores, handle: createFrontDoor({ cors, admin, health, stores, journal, onChange: stateFile === undefined ? undefined : onChange, describedAdmin: describesAdminPaths(model) }) };
  };
  let engine: Engine = build(api, starting, saved);
  if (stateFile !== undefined && saved === undefined) stateFile.changed();
  // A replica writes its starting data only into a namespace no replica started yet, and says where it found another spec's.
  if (redis !== undefined) {
    settleNotes();
    try {
      const said = await redis.initialize(api, engine.stores.sharedData);
      notes.push(...said);
      summary.push(...said);
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      // Each store initialises its namespace on its first request once Redis answers (starting data into an empty one only).
      const said = `the store ${redis.connection.where} is not reachable yet: answering 503 with Retry-After until it is (${error.message})`;
      notes.push(said);
      summary.push(said);
    }
  }

  return {
    get api() {
      return api;
    },
    get model() {
      return api;
    },
    get store() {
      return engine.stores.shared;
    },
    get stores() {
      return engine.stores;
    },
    get notes() {
      settleNotes();
      return notes;
    },
    get summary() {
      settleNotes();
      return summary;
    },
    journal,
    cors,
    handle: (request) => engine.handle(request),
    reload(model) {
      const changes = describeChanges(api, model);
      if (redis !== undefined) {
        // The records stay in Redis, shared with other replicas: served as they are under the new spec.
        engine = build(model, carryOverStarting(api, model, engine.stores.starting), undefined);
        api = model;
        lastReload = { time: new Date().toISOString(), ok: true, changes, dropped: 0 };
        journal.changed();
        return { changes, dropped: 0 };
      }
      const stores = memoryStores();
      const shared = carryOver(api, model, stores.sharedData);
      let dropped = shared.dropped;
      const keys = new Map<string, StartingData>();
      for (const [digest, data] of stores.all()) {
        if (digest === '') continue;
        const carried = carryOver(api, model, data as Dataset);
        dropped += carried.dropped;
        keys.set(digest, carried.data);
      }
      const carriedStarting = carryOverStarting(api, model, engine.stores.starting);
      engine = build(model, carriedStarting, { data: shared.data, keys });
      api = model;
      onChange();
      lastReload = { time: new Date().toISOString(), ok: true, changes, dropped };
      journal.changed();
      return { changes, dropped };
    },
    reloadRefused(message) {
      lastReload = { time: new Date().toISOString(), ok: false, changes: [], dropped: 0, message };
      journal.changed();
    },
    flush: () => stateFile?.flush(),
    health: () => engine.handle({ method: 'GET', url: HEALTH_PATH, headers: {} }),
    dispose: async () => {
      await redis?.close();
    },
  } as Mock | RedisMock;
}

/** The health answer of the in-memory store: always up while the process is. */
const MEMORY_HEALTH: MockResponse = Object.freeze({ status: 200, headers: Object.freeze({ 'content-type': 'application/json' }), body: '{"status":"ok","store":"memory"}' });

/** A mock listening on a socket; `baseUrl` ends with the spec's base path, for example `http://127.0.0.1:4010/v1`. */
export interface StartedMock<Store extends AnyRecordStore = RecordStore, Answer extends Maybe<MockResponse> = MockResponse> extends Mock<Store, Answer>, RunningServer {
  readonly baseUrl: string;
}

/** A listening mock keeping its records in Redis (README › Several replicas). */
export type StartedRedisMock = StartedMock<AsyncRecordStore, Maybe<MockResponse>>;

/**
 * Builds a mock and serves it (default `127.0.0.1:4010`; port `0` picks a free one). `close()` stops listening,
 * writes the state file and closes the connection to Redis.
 */
export async function startMock(options?: MockOptions & ServerOptions & { store?: undefined }): Promise<StartedMock>;
export async function startMock(options: MockOptions & ServerOptions & { store: RedisStoreOptions }): Promise<StartedRedisMock>;
export async function startMock(options: MockOptions & ServerOptions): Promise<StartedMock | StartedRedisMock>;
export async function startMock(options: MockOptions & ServerOptions = {}): Promise<StartedMock | StartedRedisMock> {
  const mock: Mock<AnyRecordStore, Maybe<MockResponse>> = await createMock(options);
  const onResponse = options.onResponse ?? (options.logger === undefined ? undefined : requestLogger(options.logger));
  const errorAnswer = (request: Pick<MockRequest, 'method' | 'url'>, code: ErrorCode, detail?: string) => adapterError(mock.api, request, code, detail);
  const running = await serve(mock.handle, { ...options, onResponse, decorate: mock.cors.decorate, errorAnswer });
  // Closing also writes the state file, so that a test or a shutdown never loses the last changes.
  const close = async (): Promise<void> => {
    await running.close();
    mock.flush();
    await mock.dispose();
  };
  // Getters, not a spread: the spec and the stores change with a reload (`--watch`).
  const started: StartedMock<AnyRecordStore, Maybe<MockResponse>> = {
    get api() {
      return mock.api;
    },
    get model() {
      return mock.model;
    },
    get store() {
      return mock.store;
    },
    get stores() {
      return mock.stores;
    },
    get baseUrl() {
      return `${running.origin}${mock.api.basePath}`;
    },
    get notes() {
      return mock.notes;
    },
    get summary() {
      return mock.summary;
    },
    journal: mock.journal,
    cors: mock.cors,
    handle: mock.handle,
    reload: (model) => mock.reload(model),
    flush: () => mock.flush(),
    health: () => mock.health(),
    dispose: () => mock.dispose(),
    reloadRefused: (message) => mock.reloadRefused(message),
    origin: running.origin,
    server: running.server,
    close,
  };
  return started as StartedMock | StartedRedisMock;
}
