import { ADMIN_PREFIX } from './admin.js';
import type { Cors } from './cors.js';
import { apiError } from './errors.js';
import type { Stores } from './isolation.js';
import type { Journal } from './journal.js';
import type { MockRequest, MockResponse } from './messages.js';
import type { AnyRecordStore, Maybe } from './store/record-store.js';

/** Path of the health endpoint, outside the contract's base path (README › Several replicas › Health). */
export const HEALTH_PATH = '/__health';

/** The parts a mock is made of, around the contract's pipeline. */
export interface FrontDoorParts {
  cors: Cors;
  /** The admin API's handler (it answers `ADMIN_DISABLED` itself when turned off). */
  admin: (request: MockRequest) => Maybe<MockResponse>;
  /** `GET /__health`: 200 while the store answers, 503 with `Retry-After` while it does not. No key needed. */
  health: () => Maybe<MockResponse>;
  stores: Stores<AnyRecordStore>;
  journal: Journal;
  /** Called after a request that may have changed records succeeded (POST, PUT, PATCH, DELETE), for the state file. */
  onChange?: (() => void) | undefined;
  /**
   * Whether the description's own paths lie under the admin API's prefix (an API whose admin interface is itself at
   * `/__admin`, see {@link describesAdminPaths}): its requests then go to the pipeline, and the admin API is not served.
   */
  describedAdmin?: boolean | undefined;
}

/**
 * Whether some operation of `model` is served under the admin API's prefix (its base path and path template
 * together start with `/__admin`): the description's paths are the contract, so they win over the mock's own
 * controls there (spec/DECISIONS.md › D726).
 */
export function describesAdminPaths(model: { basePath: string; operations: readonly { path: string }[] }): boolean {
  return model.operations.some((op) => isAdmin(`${model.basePath.replace(/\/$/, '')}${op.path}`));
}

/**
 * The mock's single entry, in four hops: a CORS preflight is answered at once; `/__admin` goes to
 * the admin API and `/__health` to the health endpoint; any other request goes to the pipeline of its data
 * (the shared store, or its key's with `--isolate-by-key`); the answer gets the CORS headers and is recorded in
 * the journal. With a store over the network the answer is a promise; with the in-memory store it is there at once.
 */
export function createFrontDoor(parts: FrontDoorParts): (request: MockRequest) => Maybe<MockResponse> {
  const { cors, admin, health, stores, journal, onChange } = parts;
  const adminServed = parts.describedAdmin !== true;
  const recording = journal.capacity > 0;
  const finish = (request: MockRequest, answered: MockResponse, started: number): MockResponse => {
    const response = cors.decorate(request, answered);
    if (recording) journal.record(request, response, undefined, performance.now() - started);
    if (onChange !== undefined && response.status < 300 && request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS') onChange();
    return response;
  };
  return function handle(request) {
    const preflight = cors.preflight(request);
    if (preflight !== undefined) return preflight;
    if (adminServed && isAdmin(request.url)) {
      const answered = admin(request);
      return answered instanceof Promise ? answered.then((response) => decorateAdmin(cors, request, response)) : decorateAdmin(cors, request, answered);
    }
    if (isHealth(request)) {
      const answered = health();
      return answered instanceof Promise ? answered.then((response) => cors.decorate(request, response)) : cors.decorate(request, answered);
    }

    const started = recording ? performance.now() : 0;
    const handler = stores.handlerFor(request);
    const answered = handler === 'full' ? tooManyKeys() : handler(request);
    return answered instanceof Promise ? answered.then((response) => finish(request, response, started)) : finish(request, answered, started);
  };
}

/** The CORS headers on an admin answer, its stream (the journal's Server-Sent Events) kept. */
function decorateAdmin(cors: Cors, request: MockRequest, response: MockResponse): MockResponse {
  const decorated = cors.decorate(request, response);
  if (response.stream !== undefined) decorated.stream = response.stream;
  return decorated;
}

function isHealth(request: MockRequest): boolean {
  if (!request.url.startsWith(HEALTH_PATH) || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
  const next = request.url.charCodeAt(HEALTH_PATH.length);
  return Number.isNaN(next) || next === 63; /* ? */
}

function isAdmin(url: string): boolean {
  if (!url.startsWith(ADMIN_PREFIX)) return false;
  const next = url.charCodeAt(ADMIN_PREFIX.length);
  return Number.isNaN(next) || next === 47 /* / */ || next === 63; /* ? */
}

function tooManyKeys(): MockResponse {
  const error = apiError('TOO_MANY_KEYS');
  return { status: error.status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(error) };
}
