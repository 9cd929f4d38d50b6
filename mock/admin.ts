import { createHash, timingSafeEqual } from 'node:crypto';
import type { ApiModel, ResourceModel } from '../model/model.js';
import { adminKeyOf, ADMIN_KEY_HEADER } from '../cli/product.js';
import { bearerToken } from './bearer.js';
import { dataFromValue, parseRecords, typeName } from './data.js';
import { apiError, type ErrorCode } from './errors.js';
import { datasetSizes, reloadDataset, type Stores } from './isolation.js';
import { consolePage } from './console-page.js';
import { createOne, deleteOne, generate, healthOf, journalQuery, modelOf, pageOf, readOne, replaceOne, requestStream, type ConsoleAnswer, type ConsoleStatus } from './console-api.js';
import type { Journal } from './journal.js';
import { explain, type CheckCatalogue } from './explain.js';
import { parseJsonBody } from './exact-body.js';
import type { AnyDataset } from './pipeline.js';
import type { MockRequest, MockResponse } from './messages.js';
import { singularCode } from './record-bodies.js';
import { andThen, STORE_RETRY_AFTER_SECONDS, StoreUnavailableError, type AnyRecordStore, type Maybe, type RecordValue } from './store/record-store.js';

/** Path prefix of the admin API: outside the contract's base path `/v1`, so it never shadows an operation. */
export const ADMIN_PREFIX = '/__admin';

/** Header naming the API key whose data an admin call acts on, with `--isolate-by-key` (not in the URL, so never logged). */

/** What the admin API acts on and how it is guarded. */
export interface AdminOptions {
  api: ApiModel;
  stores: Stores<AnyRecordStore>;
  journal: Journal;
  /** `false` turns the admin API off (`--no-admin`): every `/__admin` path is a 404 `ADMIN_DISABLED`. */
  enabled: boolean;
  /** When set, every admin call needs `Authorization: Bearer <token>`; an API key is never enough. */
  token: string | undefined;
  /** Called after the data changed (reset or replace), for the state file. */
  onChange: () => void;
  /** What `GET /__admin/health` reports besides the spec (README › Console › Health); default: the in-memory store, no reload. */
  status?: ConsoleStatus | undefined;
  /** The suite's checks of a model, for `GET /__admin/explain` (mock/explain.ts); without it the explanation lists no checks. */
  explainChecks?: CheckCatalogue | undefined;
  /** The OpenAPI Overlay files the model was read with, named by `GET /__admin/explain`. */
  overlays?: readonly string[] | undefined;
}

type Answer = ConsoleAnswer | { error: ErrorCode; detail?: string; headers?: Record<string, string>; code?: string };

const MEMORY_STATUS: ConsoleStatus = {
  health: () => ({ status: 200, headers: {}, body: '{"status":"ok","store":"memory"}' }),
  lastReload: () => undefined,
  sharedStore: false,
};

/**
 * The admin API (README › Admin API), outside the seed's contract:
 * - `GET /__admin`: this list of endpoints;
 * - `POST /__admin/reset`: the starting data again (all keys' data with `--isolate-by-key`, or one key's with `X-OpenAPI-Harness-Key`, or its old name `X-Petstore-Key`);
 * - `GET /__admin/<resource>`, `PUT /__admin/<resource>` (`/__admin/pets` for the seed): every record, oldest
 *   first; replace them with a JSON array of records (validated against the resource's schema);
 * - `GET /__admin/data`, `PUT /__admin/data`: every resource's records as `{"<resource>": [...]}`; replace some;
 * - `GET /__admin/requests?limit=N&operation=ID&status=4xx`, `DELETE /__admin/requests`: the journal of recent
 *   requests, newest first; clear it; `GET /__admin/requests/stream`: the journal live (Server-Sent Events);
 * - `GET /__admin/model`, `GET /__admin/health`: the spec as the console reads it; the store, last reload, undocumented statuses;
 * - `GET /__admin/<resource>/page`, `POST /__admin/<resource>`, `GET|PUT|DELETE /__admin/<resource>/<id>`,
 *   `POST /__admin/<resource>/generate?count=N`: the console's record operations (README › Console);
 * - `GET /__admin/` and its assets: the console's page, without the token (it shows nothing until signed in).
 * Errors are rows of the error table (`ADMIN_UNAUTHORIZED`, `ADMIN_DISABLED`, `ADMIN_NOT_FOUND`,
 * `INVALID_RECORDS` named after the resource: `INVALID_PETS`, ...).
 */
export function createAdmin(options: AdminOptions): (request: MockRequest) => Maybe<MockResponse> {
  const tokenDigest = options.token === undefined ? undefined : digest(options.token);
  const routes = routesOf(options.api);
  // Every change made through the admin API also reaches the console's watchers (its `change` events).
  const onChange = (): void => {
    options.onChange();
    options.journal.changed();
  };
  const acting: AdminOptions = { ...options, onChange };

  return function admin(request) {
    if (!options.enabled) return answer({ error: 'ADMIN_DISABLED' });
    const page = consolePage(request.method, request.url, request.headers.accept);
    if (page !== undefined) return page;
    if (tokenDigest !== undefined) {
      const given = bearerToken(request.headers.authorization);
      if (given === undefined || !timingSafeEqual(digest(given), tokenDigest)) {
        return answer({ error: 'ADMIN_UNAUTHORIZED', headers: { 'www-authenticate': 'Bearer realm="admin"' } });
      }
    }
    const queryAt = request.url.indexOf('?');
    const path = (queryAt === -1 ? request.url : request.url.slice(0, queryAt)).replace(/\/+$/, '');
    const query = new URLSearchParams(queryAt === -1 ? '' : request.url.slice(queryAt + 1));
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const route = routes[path.slice(ADMIN_PREFIX.length)] ?? recordRoute(acting, path.slice(ADMIN_PREFIX.length));
    if (route === undefined) return answer({ error: 'ADMIN_NOT_FOUND', detail: `No admin endpoint is served at ${path}; see GET ${ADMIN_PREFIX}.` });
    const action = route[method];
    if (action === undefined) {
      const allow = Object.keys(route).join(', ');
      return answer({ error: 'METHOD_NOT_ALLOWED', detail: `${method} is not allowed on ${path}; allowed: ${allow}.`, headers: { allow } });
    }
    const result = action(acting, request, query);
    // A HEAD gets the head of a stream, not a stream that would never end.
    const respond = (answered: Answer): MockResponse => answer(request.method === 'HEAD' && !('error' in answered) ? { status: answered.status, body: answered.body } : answered);
    return result instanceof Promise ? result.then(respond, failed) : respond(result);
  };
}

/** A store over the network that did not answer: 503 with `Retry-After`, as the contract's operations answer. */
function failed(error: unknown): MockResponse {
  if (!(error instanceof StoreUnavailableError)) return answer({ error: 'INTERNAL_ERROR' });
  return answer({ error: 'STORE_UNAVAILABLE', detail: error.message, headers: { 'retry-after': String(STORE_RETRY_AFTER_SECONDS) } });
}

type Action = (options: AdminOptions, request: MockRequest, query: URLSearchParams) => Maybe<Answer>;

/** The admin routes of a spec: the fixed ones, then `/<resource>` and `/data` for the records. */
function routesOf(api: ApiModel): Record<string, Record<string, Action>> {
  const routes: Record<string, Record<string, Action>> = {
    '': {
      GET: () =>
        json(200, {
          endpoints: ['POST /__admin/reset', ...api.resources.flatMap((r) => [`GET /__admin/${r.name}`, `PUT /__admin/${r.name}`]), 'GET /__admin/data', 'PUT /__admin/data', 'GET /__admin/requests?limit=N&operation=ID&status=4xx', 'DELETE /__admin/requests', 'GET /__admin/requests/stream', 'GET /__admin/model', 'GET /__admin/health', 'GET /__admin/explain', ...api.resources.flatMap((r) => [`GET /__admin/${r.name}/page?offset=N&limit=N`, `POST /__admin/${r.name}`, `GET|PUT|DELETE /__admin/${r.name}/<id>`, `POST /__admin/${r.name}/generate?count=N`]), 'GET /__admin/ (the console)'],
        }),
    },
    '/reset': {
      POST({ stores, onChange }, request) {
        const key = adminKeyOf(request.headers);
        if (typeof key === 'string' && stores.isolated) {
          const data = keyData(stores, key);
          if ('error' in data) return data;
          return andThen(reloadDataset(data, stores.starting), () => {
            onChange();
            return andThen(datasetSizes(data), (sizes) => json(200, sizes));
          });
        }
        return andThen(stores.reset(), () => {
          onChange();
          return andThen(datasetSizes(stores.sharedData), (sizes) => json(200, sizes));
        });
      },
    },
    '/data': {
      GET({ stores }, request) {
        const data = targetData(stores, request);
        if ('error' in data) return data;
        const names = [...data.keys()];
        return andThen(allOf([...data.values()]), (texts) => ({ status: 200, body: `{${names.map((name, i) => `${JSON.stringify(name)}:[${texts[i]!.join(',')}]`).join(',')}}` }));
      },
      PUT: (options, request) => load(options, request, undefined),
    },
    '/requests': {
      GET: ({ journal }, _request, query) => journalQuery(journal, query),
      DELETE({ journal }) {
        journal.clear();
        return { status: 204, body: '' };
      },
    },
    '/requests/stream': {
      GET: ({ journal }) => requestStream(journal),
    },
    '/model': {
      GET: ({ status }) => ({ status: 200, body: modelOf(api, (status ?? MEMORY_STATUS).sharedStore) }),
    },
    '/health': {
      GET: ({ status, journal }) => healthOf(api, status ?? MEMORY_STATUS, journal),
    },
    '/explain': {
      GET: ({ explainChecks, overlays }) => andThen(explainChecks === undefined ? undefined : explainChecks(api), (checks) => json(200, explain(api, checks, overlays))),
    },
  };
  for (const resource of api.resources) {
    if (routes[`/${resource.name}`] !== undefined) continue;
    routes[`/${resource.name}`] = {
      GET({ stores }, request) {
        const data = targetData(stores, request);
        if ('error' in data) return data;
        return andThen(data.get(resource.name)!.all(), (texts) => ({ status: 200, body: `[${texts.join(',')}]` }));
      },
      PUT: (options, request) => load(options, request, resource),
      POST: (options, request) => withStore(options, request, resource, (store) => changing(options, createOne(store.resource, store, bodyText(request)))),
    };
    routes[`/${resource.name}/page`] = { GET: (options, request, query) => withStore(options, request, resource, (store) => pageOf(resource, store, query)) };
    routes[`/${resource.name}/generate`] = { POST: (options, request, query) => withStore(options, request, resource, (store) => changing(options, generate(resource, store, query))) };
  }
  return routes;
}

/** `/<resource>/<id>`: one record, read, replaced or deleted (the console's edit form). */
function recordRoute({ api }: AdminOptions, path: string): Record<string, Action> | undefined {
  const slash = path.indexOf('/', 1);
  if (slash === -1 || path.indexOf('/', slash + 1) !== -1) return undefined;
  const resource = api.resources.find((r) => r.name === path.slice(1, slash));
  if (resource === undefined) return undefined;
  const id = path.slice(slash + 1);
  // The console names a record by its store's key: a number counted per parent repeats, its global id does not (D240).
  return {
    GET: (options, request) => withStore(options, request, resource, (store) => readOne(store.resource, store, id)),
    PUT: (options, request) => withStore(options, request, resource, (store) => changing(options, replaceOne(store.resource, store, id, bodyText(request)))),
    DELETE: (options, request) => withStore(options, request, resource, (store) => changing(options, deleteOne(store.resource, store, id))),
  };
}

/** Runs `act` on the resource's store of the data the call acts on (the shared data, or a key's with `X-OpenAPI-Harness-Key`). */
function withStore({ stores }: AdminOptions, request: MockRequest, resource: ResourceModel, act: (store: AnyRecordStore) => Maybe<Answer>): Maybe<Answer> {
  const data = targetData(stores, request);
  if ('error' in data) return data;
  return act(data.get(resource.name)!);
}

/** Tells the state file and the console's watchers about a change once it succeeded. */
function changing({ onChange }: AdminOptions, result: Maybe<Answer>): Maybe<Answer> {
  return andThen(result, (answered) => {
    if (!('error' in answered)) onChange();
    return answered;
  });
}

function bodyText(request: MockRequest): string {
  return request.body === undefined ? '' : request.body.toString('utf8');
}

/**
 * Replaces records: one resource's with a JSON array (`PUT /__admin/<resource>`), or several with an object of
 * arrays by resource name (`PUT /__admin/data`; resources it does not name keep their records). Nothing is
 * replaced when any record is invalid or a collection exceeds `--max-records`.
 */
function load({ api, stores, onChange }: AdminOptions, request: MockRequest, resource: ResourceModel | undefined): Maybe<Answer> {
  const data = targetData(stores, request);
  if ('error' in data) return data;
  const text = request.body === undefined ? '' : request.body.toString('utf8');
  const invalid = `INVALID_${resource === undefined ? 'RECORDS' : singularCode(resource.name) + 'S'}`;
  let loaded: Map<string, RecordValue[]>;
  try {
    const parsed = parseJsonBody(text);
    if (!parsed.ok) throw new Error(`body: ${parsed.message}`);
    if (resource !== undefined && !Array.isArray(parsed.body.value)) throw new Error(`body: expected a JSON array of ${typeName(resource)} objects`);
    loaded = resource === undefined ? dataFromValue(api, parsed.body.value, 'body') : new Map([[resource.name, parseRecords(resource, parsed.body.value as unknown[], 'body')]]);
  } catch (error) {
    return { error: 'INVALID_RECORDS', code: invalid, detail: (error as Error).message };
  }
  for (const [name, records] of loaded) {
    const store = data.get(name)!;
    if (records.length > store.maxRecords) return { error: 'STORE_FULL', detail: `The body holds ${records.length} ${name}; the mock holds at most ${store.maxRecords} (--max-records). Nothing was replaced.` };
  }
  return andThen(reloadDataset(new Map([...loaded.keys()].map((name) => [name, data.get(name)!])), loaded), () => {
    onChange();
    return andThen(datasetSizes(new Map([...loaded.keys()].map((name) => [name, data.get(name)!]))), (sizes) => json(200, sizes));
  });
}

/** Every record's JSON text of each store, oldest first, at once or once every store answered. */
function allOf(stores: readonly AnyRecordStore[]): Maybe<(readonly string[])[]> {
  const texts = stores.map((store) => store.all());
  return texts.some((text) => text instanceof Promise) ? Promise.all(texts) : (texts as (readonly string[])[]);
}

/** The data an admin call acts on: the shared one, or with `--isolate-by-key` the one `X-OpenAPI-Harness-Key` names. */
function targetData(stores: Stores<AnyRecordStore>, request: MockRequest): AnyDataset | { error: ErrorCode; detail?: string } {
  const key = adminKeyOf(request.headers);
  if (!stores.isolated) return stores.sharedData;
  if (typeof key !== 'string') return { error: 'ADMIN_KEY_REQUIRED' };
  return keyData(stores, key);
}

function keyData(stores: Stores<AnyRecordStore>, key: string): AnyDataset | { error: ErrorCode; detail: string } {
  const tenant = stores.tenant(key);
  if (tenant === 'full') return { error: 'TOO_MANY_KEYS', detail: 'The mock holds data for its maximum number of API keys; POST /__admin/reset first.' };
  if (tenant === undefined) return { error: 'ADMIN_KEY_REQUIRED', detail: `The ${ADMIN_KEY_HEADER} header names a key the mock does not accept (--api-key).` };
  return tenant.data;
}

function answer(result: Answer): MockResponse {
  if ('error' in result) {
    const error = apiError(result.error, result.detail, result.code);
    return { status: error.status, headers: { 'content-type': 'application/json', ...('headers' in result ? result.headers : {}) }, body: JSON.stringify(error) };
  }
  if (result.stream !== undefined) return { status: result.status, headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' }, body: result.body, stream: result.stream };
  return { status: result.status, headers: result.status === 204 ? {} : { 'content-type': 'application/json' }, body: result.body };
}

function json(status: number, value: unknown): Answer {
  return { status, body: JSON.stringify(value) };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
