import { createHash, timingSafeEqual } from 'node:crypto';
import { bearerToken } from './bearer.js';
import { parsePets } from './data.js';
import { apiError, type ErrorCode } from './errors.js';
import type { Journal } from './journal.js';
import type { Api } from './operations.js';
import type { MockRequest, MockResponse } from './pipeline.js';
import type { Stores } from './isolation.js';
import type { PetStore } from './store.js';

/** Path prefix of the admin API: outside the contract's base path `/v1`, so it never shadows an operation. */
export const ADMIN_PREFIX = '/__admin';

/** Header naming the API key whose data an admin call acts on, with `--isolate-by-key` (not in the URL, so never logged). */
export const ADMIN_KEY_HEADER = 'x-petstore-key';

/** What the admin API acts on and how it is guarded. */
export interface AdminOptions {
  api: Api;
  stores: Stores;
  journal: Journal;
  /** `false` turns the admin API off (`--no-admin`): every `/__admin` path is a 404 `ADMIN_DISABLED`. */
  enabled: boolean;
  /** When set, every admin call needs `Authorization: Bearer <token>`; an API key is never enough. */
  token: string | undefined;
  /** Called after the data changed (reset or replace), for the state file. */
  onChange: () => void;
}

type Answer = { status: number; body: string } | { error: ErrorCode; detail?: string; headers?: Record<string, string> };

/**
 * The admin API (README › Admin API), outside the seed's contract:
 * - `GET /__admin`: this list of endpoints;
 * - `POST /__admin/reset`: the starting data again (all keys' data with `--isolate-by-key`, or one key's with `X-Petstore-Key`);
 * - `GET /__admin/pets`, `PUT /__admin/pets`: every pet, oldest first; replace them with a JSON array of `Pet`;
 * - `GET /__admin/requests?limit=N`, `DELETE /__admin/requests`: the journal of recent requests, newest first; clear it.
 * Errors are rows of the error table (`ADMIN_UNAUTHORIZED`, `ADMIN_DISABLED`, `ADMIN_NOT_FOUND`, `INVALID_PETS`, ...).
 */
export function createAdmin(options: AdminOptions): (request: MockRequest) => MockResponse {
  const tokenDigest = options.token === undefined ? undefined : digest(options.token);

  return function admin(request) {
    if (!options.enabled) return answer({ error: 'ADMIN_DISABLED' });
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
    const route = ROUTES[path.slice(ADMIN_PREFIX.length)];
    if (route === undefined) return answer({ error: 'ADMIN_NOT_FOUND', detail: `No admin endpoint is served at ${path}; see GET ${ADMIN_PREFIX}.` });
    const action = route[method];
    if (action === undefined) {
      const allow = Object.keys(route).join(', ');
      return answer({ error: 'METHOD_NOT_ALLOWED', detail: `${method} is not allowed on ${path}; allowed: ${allow}.`, headers: { allow } });
    }
    return answer(action(options, request, query));
  };
}

type Action = (options: AdminOptions, request: MockRequest, query: URLSearchParams) => Answer;

const ROUTES: Record<string, Record<string, Action>> = {
  '': {
    GET: () => json(200, { endpoints: ['POST /__admin/reset', 'GET /__admin/pets', 'PUT /__admin/pets', 'GET /__admin/requests?limit=N', 'DELETE /__admin/requests'] }),
  },
  '/reset': {
    POST({ stores, onChange }, request) {
      const key = request.headers[ADMIN_KEY_HEADER];
      if (typeof key === 'string' && stores.isolated) {
        const store = keyStore(stores, key);
        if ('error' in store) return store;
        store.replace(stores.starting);
        onChange();
        return json(200, { pets: store.size });
      }
      stores.reset();
      onChange();
      return json(200, { pets: stores.starting.length });
    },
  },
  '/pets': {
    GET({ stores }, request) {
      const store = targetStore(stores, request);
      if ('error' in store) return store;
      return { status: 200, body: `[${store.all().join(',')}]` };
    },
    PUT({ api, stores, onChange }, request) {
      const store = targetStore(stores, request);
      if ('error' in store) return store;
      let pets;
      try {
        pets = parsePets(api, request.body === undefined ? '' : request.body.toString('utf8'), 'body');
      } catch (error) {
        return { error: 'INVALID_PETS', detail: (error as Error).message };
      }
      if (pets.length > store.maxPets) return { error: 'STORE_FULL', detail: `The body holds ${pets.length} pets; the mock holds at most ${store.maxPets} (--max-pets). Nothing was replaced.` };
      store.replace(pets);
      onChange();
      return json(200, { pets: store.size });
    },
  },
  '/requests': {
    GET({ journal }, _request, query) {
      const limit = query.get('limit');
      if (limit !== null && !/^\d{1,9}$/.test(limit)) return { error: 'INVALID_QUERY', detail: `limit must be a whole number, got ${JSON.stringify(limit)}.` };
      return json(200, journal.entries(limit === null ? undefined : Number(limit)));
    },
    DELETE({ journal }) {
      journal.clear();
      return { status: 204, body: '' };
    },
  },
};

/** The store an admin call acts on: the shared one, or with `--isolate-by-key` the one `X-Petstore-Key` names. */
function targetStore(stores: Stores, request: MockRequest): PetStore | { error: ErrorCode; detail?: string } {
  const key = request.headers[ADMIN_KEY_HEADER];
  if (!stores.isolated) return stores.shared;
  if (typeof key !== 'string') return { error: 'ADMIN_KEY_REQUIRED' };
  return keyStore(stores, key);
}

function keyStore(stores: Stores, key: string): PetStore | { error: ErrorCode; detail: string } {
  const tenant = stores.tenant(key);
  if (tenant === 'full') return { error: 'TOO_MANY_KEYS', detail: 'The mock holds data for its maximum number of API keys; POST /__admin/reset first.' };
  if (tenant === undefined) return { error: 'ADMIN_KEY_REQUIRED', detail: `The ${ADMIN_KEY_HEADER} header names a key the mock does not accept (--api-key).` };
  return tenant.store;
}

function answer(result: Answer): MockResponse {
  if ('error' in result) {
    const error = apiError(result.error, result.detail);
    return { status: error.status, headers: { 'content-type': 'application/json', ...result.headers }, body: JSON.stringify(error) };
  }
  return { status: result.status, headers: result.status === 204 ? {} : { 'content-type': 'application/json' }, body: result.body };
}

function json(status: number, value: unknown): Answer {
  return { status, body: JSON.stringify(value) };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
