import { DEMO_DATA_PATH, readPetsFile } from './data.js';
import { loadApi, type Api } from './operations.js';
import { createPipeline, type MockRequest, type MockResponse } from './pipeline.js';
import { serve, type RunningServer, type ServerOptions } from './server.js';
import { PetStore, type PetRecord } from './store.js';

export { apiError, ERRORS, type ApiError, type ErrorCode } from './errors.js';
export { loadApi, SPEC_PATH, type Api, type Operation } from './operations.js';
export type { MockRequest, MockResponse } from './pipeline.js';
export { PetStore, type PetRecord, type PetStatus } from './store.js';
export type { RunningServer } from './server.js';

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
}

/** A mock without a socket: its spec, its store and the pipeline that answers a {@link MockRequest}. */
export interface Mock {
  api: Api;
  store: PetStore;
  handle: (request: MockRequest) => MockResponse;
}

/** Builds a mock from the spec (loaded once) and its starting data. Errors: a bad spec rejects, naming the operation. */
export async function createMock(options: MockOptions = {}): Promise<Mock> {
  const api = options.api ?? (await loadApi());
  const pets = options.pets ?? readPetsFile(api, DEMO_DATA_PATH);
  const store = new PetStore(options.maxPets, pets);
  const handle = createPipeline(api, { apiKeys: options.apiKeys ?? [DEFAULT_API_KEY], store });
  return { api, store, handle };
}

/** A mock listening on a socket; `baseUrl` ends with the version segment, for example `http://127.0.0.1:4010/v1`. */
export interface StartedMock extends Mock, RunningServer {
  baseUrl: string;
}

/** Builds a mock and serves it (default `127.0.0.1:4010`; port `0` picks a free one). */
export async function startMock(options: MockOptions & ServerOptions = {}): Promise<StartedMock> {
  const mock = await createMock(options);
  const running = await serve(mock.handle, options);
  return { ...mock, ...running, baseUrl: `${running.origin}${mock.api.basePath}` };
}
