import type { Logger } from 'pino';
import { createAdmin } from './admin.js';
import { createCors, type Cors, type CorsOptions } from './cors.js';
import { DEMO_DATA_PATH, readPetsFile } from './data.js';
import { createFrontDoor } from './front-door.js';
import { Stores } from './isolation.js';
import { Journal } from './journal.js';
import { deprecationWarner, requestLogger } from './logger.js';
import { loadApi, type Api } from './operations.js';
import { createPipeline, type MockRequest, type MockResponse } from './pipeline.js';
import { serve, type RunningServer, type ServerOptions } from './server.js';
import { readStateFile, StateFile } from './state-file.js';
import type { PetRecord, PetStore } from './store.js';

export { apiError, ERRORS, type ApiError, type ErrorCode } from './errors.js';
export { loadApi, SPEC_PATH, type Api, type Operation } from './operations.js';
export type { MockRequest, MockResponse } from './pipeline.js';
export { PetStore, type PetRecord, type PetStatus } from './store.js';
export type { RunningServer } from './server.js';
export type { JournalEntry } from './journal.js';
export { createLogger, type LogFormat, type LogLevel } from './logger.js';
export { parseLatency, type Latency } from './prefer.js';

/** The default API key of the mock, printed at start (seed, Authentication: issuing keys is not shown). */
export const DEFAULT_API_KEY = 'petstore-dev-key';

/** How to build a mock: keys, starting data and store bounds. Every field has a default. */
export interface MockOptions {
  /** Keys accepted as `Authorization: Bearer <key>`. Default `[DEFAULT_API_KEY]`. */
  apiKeys?: readonly string[];
  /** Starting pets; default the embedded demo set. `[]` starts empty. */
  pets?: readonly PetRecord[];
  /** Most pets held at once (default 1,000,000); beyond it `createPet` answers 409 `STORE_FULL`. */
  maxPets?: number;
  /** The spec, already loaded; default `loadApi()` of `spec/openapi.yaml`. */
  api?: Api;
  /** Origins allowed by CORS: `'*'` (default, any), a list, or `false` for no CORS headers (README › CORS). */
  corsOrigins?: CorsOptions['origins'];
  /** Each API key sees its own pets. With no `apiKeys` given, any bearer key is accepted (README › Isolation). */
  isolateByKey?: boolean;
  /** `false` turns the admin API off (default on). */
  admin?: boolean;
  /** When set, the admin API needs `Authorization: Bearer <adminToken>`. Must differ from every API key. */
  adminToken?: string | undefined;
  /** Requests kept by the journal of `GET /__admin/requests` (default 100; 0 keeps none). */
  journalSize?: number;
  /** JSON file the pets are kept in across restarts: read at start when it exists, written within 200 ms of a change and by `flush()`. */
  stateFile?: string | undefined;
  /** Logger for warnings (deprecated operations called) and, with `startMock`, one line per request. Default none. */
  logger?: Logger | undefined;
}

/** A mock without a socket: its spec, its store and the pipeline that answers a {@link MockRequest}. */
export interface Mock {
  api: Api;
  /** The shared store (with `isolateByKey`, each key's store starts from the same data instead). */
  store: PetStore;
  /** Every store, per key with `isolateByKey`. */
  stores: Stores;
  /** The recent requests, newest first (`GET /__admin/requests`). */
  journal: Journal;
  /** The CORS headers `handle` adds, for answers made outside it (the HTTP adapter's 413). */
  cors: Cors;
  handle: (request: MockRequest) => MockResponse;
  /** Writes the state file now if it is behind (no-op without `stateFile`). Call it before the process exits. */
  flush(): void;
}

/**
 * Builds a mock from the spec (loaded once) and its starting data. Errors: a bad spec rejects, naming the
 * operation; an unreadable or invalid state file rejects, naming the file and the entry; an admin token equal
 * to an API key rejects.
 */
export async function createMock(options: MockOptions = {}): Promise<Mock> {
  const api = options.api ?? (await loadApi());
  const starting = options.pets ?? readPetsFile(api, DEMO_DATA_PATH);
  const apiKeys = options.apiKeys ?? (options.isolateByKey === true ? undefined : [DEFAULT_API_KEY]);
  if (options.adminToken !== undefined && apiKeys?.includes(options.adminToken) === true) throw new Error('the admin token must differ from every API key');
  const saved = options.stateFile === undefined ? undefined : readStateFile(api, options.stateFile);
  const onDeprecated = options.logger === undefined ? undefined : deprecationWarner(options.logger);
  const stores = new Stores({
    starting,
    maxPets: options.maxPets ?? 1_000_000,
    isolate: options.isolateByKey === true,
    acceptedKeys: apiKeys,
    // With isolation, each key's pipeline accepts that key only; the shared one answers refused keys with 401.
    pipeline: (store, key) => createPipeline(api, { apiKeys: key === undefined ? (apiKeys ?? []) : [key], store, onDeprecated }),
    ...(saved === undefined ? {} : { saved }),
  });
  const stateFile = options.stateFile === undefined ? undefined : new StateFile(options.stateFile, stores);
  if (stateFile !== undefined && saved === undefined) stateFile.changed();
  const onChange = (): void => stateFile?.changed();
  const journal = new Journal(options.journalSize ?? 100);
  const admin = createAdmin({ api, stores, journal, enabled: options.admin !== false, token: options.adminToken, onChange });
  const cors = createCors({ origins: options.corsOrigins ?? '*' });
  const handle = createFrontDoor({ cors, admin, stores, journal, onCreate: stateFile === undefined ? undefined : onChange });
  return { api, store: stores.shared, stores, journal, cors, handle, flush: () => stateFile?.flush() };
}

/** A mock listening on a socket; `baseUrl` ends with the version segment, for example `http://127.0.0.1:4010/v1`. */
export interface StartedMock extends Mock, RunningServer {
  baseUrl: string;
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
  return { ...mock, ...running, close, baseUrl: `${running.origin}${mock.api.basePath}` };
}
