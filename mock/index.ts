import type { Logger } from 'pino';
import type { ApiModel } from '../spec/model.js';
import { createAdmin } from './admin.js';
import { createCors, type Cors, type CorsOptions } from './cors.js';
import { demoData, type StartingData } from './data.js';
import { createFrontDoor } from './front-door.js';
import { Stores } from './isolation.js';
import { Journal } from './journal.js';
import { deprecationWarner, requestLogger } from './logger.js';
import { loadApi, type Api } from './operations.js';
import { createPipeline, type MockRequest, type MockResponse } from './pipeline.js';
import { carryOver, carryOverStarting, describeChanges } from './reload.js';
import { serve, type RunningServer, type ServerOptions } from './server.js';
import { readStateFile, StateFile } from './state-file.js';
import { startupNotes } from './statuses.js';
import type { RecordStore, RecordValue } from './store/record-store.js';

export { apiError, ERRORS, type ApiError, type ErrorCode } from './errors.js';
export { loadApi, SPEC_PATH, type Api, type Operation } from './operations.js';
export type { Dataset, MockRequest, MockResponse } from './pipeline.js';
export type { RecordId, RecordStore, RecordValue } from './store/record-store.js';
export { MemoryRecordStore } from './store/memory-store.js';
export type { StartingData } from './data.js';
export type { RunningServer } from './server.js';
export type { JournalEntry } from './journal.js';
export { createLogger, type LogFormat, type LogLevel } from './logger.js';
export { parseLatency, type Latency } from './prefer.js';
export { startupNotes } from './statuses.js';

/** The default API key of the mock, printed at start (seed, Authentication: issuing keys is not shown). */
export const DEFAULT_API_KEY = 'petstore-dev-key';

/** How to build a mock: spec, keys, starting data and store bounds. Every field has a default. */
export interface MockOptions {
  /** Path of the OpenAPI document to serve (`--spec`); default spec/openapi.yaml. Ignored when `model` is given. */
  spec?: string;
  /** The spec, already loaded (`loadModel`/`loadApi`); default loaded from `spec`. */
  model?: ApiModel;
  /** The same as `model` (its earlier name). */
  api?: Api;
  /** Keys the operations' security schemes accept. Default `[DEFAULT_API_KEY]`. */
  apiKeys?: readonly string[];
  /** Starting records of the spec's first resource (the seed's pets); `[]` starts empty. */
  pets?: readonly RecordValue[];
  /** Starting records by resource name (README › Starting data). Default: the demo pets when they fit the spec. */
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
  /** Requests kept by the journal of `GET /__admin/requests` (default 100; 0 keeps none). */
  journalSize?: number;
  /** JSON file the records are kept in across restarts: read at start when it exists, written within 200 ms of a change and by `flush()`. */
  stateFile?: string | undefined;
  /** Logger for warnings (deprecated operations called, spec reloads) and, with `startMock`, one line per request. Default none. */
  logger?: Logger | undefined;
}

/** What {@link Mock.reload} did: what changed in the spec, and how many records no longer fit it. */
export interface ReloadReport {
  changes: string[];
  dropped: number;
}

/** A mock without a socket: its spec, its stores and the pipeline that answers a {@link MockRequest}. */
export interface Mock {
  /** The spec served now (it changes with {@link Mock.reload}). */
  readonly api: Api;
  /** The same as `api`. */
  readonly model: ApiModel;
  /** The shared store of the spec's first resource (with `isolateByKey`, each key's store starts from the same data instead). */
  readonly store: RecordStore;
  /** Every dataset, per key with `isolateByKey`. */
  readonly stores: Stores;
  /** What the start-up log should say about the spec (unmapped operations, undocumented statuses, demo data). */
  readonly notes: string[];
  /** The recent requests, newest first (`GET /__admin/requests`). */
  journal: Journal;
  /** The CORS headers `handle` adds, for answers made outside it (the HTTP adapter's 413). */
  cors: Cors;
  handle: (request: MockRequest) => MockResponse;
  /** Serves `model` from now on, keeping every record still valid against its resource's new schema (`--watch`). */
  reload(model: ApiModel): ReloadReport;
  /** Writes the state file now if it is behind (no-op without `stateFile`). Call it before the process exits. */
  flush(): void;
}

/**
 * Builds a mock from the spec (loaded once) and its starting data. Errors: a bad spec rejects, naming the
 * file or the operation; an unreadable or invalid state file rejects, naming the file and the entry; an admin
 * token equal to an API key rejects.
 */
export async function createMock(options: MockOptions = {}): Promise<Mock> {
  let api = options.model ?? options.api ?? (await loadApi(options.spec));
  const notes = startupNotes(api);
  let starting: StartingData;
  if (options.data !== undefined) starting = options.data;
  else if (options.pets !== undefined) starting = api.resources[0] === undefined ? new Map() : new Map([[api.resources[0].name, [...options.pets]]]);
  else {
    const demo = demoData(api);
    starting = demo.data;
    if (demo.note !== undefined) notes.push(demo.note);
  }
  const apiKeys = options.apiKeys ?? (options.isolateByKey === true ? undefined : [DEFAULT_API_KEY]);
  if (options.adminToken !== undefined && apiKeys?.includes(options.adminToken) === true) throw new Error('the admin token must differ from every API key');
  const saved = options.stateFile === undefined ? undefined : readStateFile(api, options.stateFile);
  const onDeprecated = options.logger === undefined ? undefined : deprecationWarner(options.logger);
  const journal = new Journal(options.journalSize ?? 100);
  const cors = createCors({ origins: options.corsOrigins ?? '*' });
  const stateFile: StateFile | undefined = options.stateFile === undefined ? undefined : new StateFile(options.stateFile, (): Stores => engine.stores);
  const onChange = (): void => stateFile?.changed();

  type Engine = { stores: Stores; handle: (request: MockRequest) => MockResponse };
  const build = (model: ApiModel, data: StartingData, savedData: { data?: StartingData; keys?: ReadonlyMap<string, StartingData> } | undefined): Engine => {
    const stores = new Stores({
      api: model,
      starting: data,
      maxPets: options.maxPets ?? 1_000_000,
      isolate: options.isolateByKey === true,
      acceptedKeys: apiKeys,
      // With isolation, each key's pipeline accepts that key only; the shared one answers refused keys with 401.
      pipeline: (dataset, key) => createPipeline(model, { apiKeys: key === undefined ? (apiKeys ?? []) : [key], data: dataset, onDeprecated }),
      ...(savedData === undefined ? {} : { saved: savedData }),
    });
    const admin = createAdmin({ api: model, stores, journal, enabled: options.admin !== false, token: options.adminToken, onChange });
    return { stores, handle: createFrontDoor({ cors, admin, stores, journal, onChange: stateFile === undefined ? undefined : onChange }) };
  };
  let engine: Engine = build(api, starting, saved);
  if (stateFile !== undefined && saved === undefined) stateFile.changed();

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
    notes,
    journal,
    cors,
    handle: (request) => engine.handle(request),
    reload(model) {
      const shared = carryOver(api, model, engine.stores.sharedData);
      let dropped = shared.dropped;
      const keys = new Map<string, StartingData>();
      for (const [digest, data] of engine.stores.all()) {
        if (digest === '') continue;
        const carried = carryOver(api, model, data);
        dropped += carried.dropped;
        keys.set(digest, carried.data);
      }
      const changes = describeChanges(api, model);
      const carriedStarting = carryOverStarting(api, model, engine.stores.starting);
      engine = build(model, carriedStarting, { data: shared.data, keys });
      api = model;
      onChange();
      return { changes, dropped };
    },
    flush: () => stateFile?.flush(),
  };
}

/** A mock listening on a socket; `baseUrl` ends with the spec's base path, for example `http://127.0.0.1:4010/v1`. */
export interface StartedMock extends Mock, RunningServer {
  readonly baseUrl: string;
}

/** Builds a mock and serves it (default `127.0.0.1:4010`; port `0` picks a free one). */
export async function startMock(options: MockOptions & ServerOptions = {}): Promise<StartedMock> {
  const mock = await createMock(options);
  const onResponse = options.onResponse ?? (options.logger === undefined ? undefined : requestLogger(options.logger));
  const running = await serve(mock.handle, { ...options, onResponse, decorate: mock.cors.decorate });
  // Closing also writes the state file, so that a test or a shutdown never loses the last changes.
  const close = async (): Promise<void> => {
    await running.close();
    mock.flush();
  };
  // Getters, not a spread: the spec and the stores change with a reload (`--watch`).
  return {
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
    notes: mock.notes,
    journal: mock.journal,
    cors: mock.cors,
    handle: mock.handle,
    reload: (model) => mock.reload(model),
    flush: () => mock.flush(),
    origin: running.origin,
    server: running.server,
    close,
  };
}
