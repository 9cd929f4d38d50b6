import { ADMIN_PREFIX } from './admin.js';
import type { Cors } from './cors.js';
import { apiError } from './errors.js';
import type { Stores } from './isolation.js';
import type { Journal } from './journal.js';
import type { MockRequest, MockResponse } from './pipeline.js';

/** The parts a mock is made of, around the contract's pipeline. */
export interface FrontDoorParts {
  cors: Cors;
  /** The admin API's handler (it answers `ADMIN_DISABLED` itself when turned off). */
  admin: (request: MockRequest) => MockResponse;
  stores: Stores;
  journal: Journal;
  /** Called after a request that may have changed records succeeded (POST, PUT, PATCH, DELETE), for the state file. */
  onChange?: (() => void) | undefined;
}

/**
 * The mock's single entry, in four hops (STYLE 2): a CORS preflight is answered at once; `/__admin` goes to
 * the admin API; any other request goes to the pipeline of its data (the shared store, or its key's with
 * `--isolate-by-key`); the answer gets the CORS headers and is recorded in the journal.
 */
export function createFrontDoor(parts: FrontDoorParts): (request: MockRequest) => MockResponse {
  const { cors, admin, stores, journal, onChange } = parts;
  return function handle(request) {
    const preflight = cors.preflight(request);
    if (preflight !== undefined) return preflight;
    if (isAdmin(request.url)) return cors.decorate(request, admin(request));

    const handler = stores.handlerFor(request);
    const response = cors.decorate(request, handler === 'full' ? tooManyKeys() : handler(request));
    journal.record(request, response);
    if (onChange !== undefined && response.status < 300 && request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS') onChange();
    return response;
  };
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
