import { LosslessNumber, parse, stringify } from 'lossless-json';
import type { MockRequest, MockResponse } from '../../mock/index.js';
import type { CheckId } from '../../conformance/run-suite.js';
import type { AsyncHandler } from './serve-handler.js';

// The pieces mutants are made of: the Mutant shape, and small rewrites of a request before the mock or of a
// response after it. Bodies are parsed with lossless-json so that a rewrite never loses an int64 digit by itself.

/** The one API key every mutant's inner mock accepts (`createMock({ pets: [], apiKeys: [MUTANT_KEY] })`). */
export const MUTANT_KEY = 'self-test-key';

/** The real mock's synchronous pipeline, which a mutant wraps. */
export type Handler = (request: MockRequest) => MockResponse;

/**
 * A deliberately broken server: the real mock with exactly one fault injected by rewriting the request before
 * it or the response after it. `caughtBy` names the checks the catalogue (`conformance/catalogue.ts`) derives from the seed's spec that must reject it;
 * `seedRule` is the seed section the fault breaks. `wrap` is called once per server, so state kept in its
 * closure (counters, id maps) belongs to that server alone.
 */
export interface Mutant {
  name: string;
  fault: string;
  seedRule: string;
  caughtBy: CheckId[];
  wrap(inner: Handler): AsyncHandler;
}

/** The seed's three operations (seed, Endpoints §1-3). */
export type Operation = 'listPets' | 'createPet' | 'getPet';
/** A JSON object body, numbers as `LosslessNumber`. */
export type JsonObject = Record<string, unknown>;

/** Which of the seed's three operations a request names (by method and path under `/v1`), if any. */
export function operationOf(request: MockRequest): Operation | undefined {
  const path = request.url.split('?')[0];
  if (path === '/v1/pets') return request.method === 'GET' ? 'listPets' : request.method === 'POST' ? 'createPet' : undefined;
  return request.method === 'GET' && /^\/v1\/pets\/[^/]+$/.test(path ?? '') ? 'getPet' : undefined;
}

/** Applies `fault` to the requests of one operation; every other request goes to the mock untouched. */
export function on(operation: Operation, fault: (request: MockRequest, inner: Handler) => MockResponse | Promise<MockResponse>) {
  return (inner: Handler): AsyncHandler =>
    (request) => (operationOf(request) === operation ? fault(request, inner) : inner(request));
}

/** Applies `fault` to every request. */
export function always(fault: (request: MockRequest, inner: Handler) => MockResponse | Promise<MockResponse>) {
  return (inner: Handler): AsyncHandler => (request) => fault(request, inner);
}

/** Rewrites the query string of a request. */
export function editQuery(request: MockRequest, edit: (query: URLSearchParams) => void): MockRequest {
  const [path, search = ''] = request.url.split('?');
  const query = new URLSearchParams(search);
  edit(query);
  const text = query.toString();
  return { ...request, url: text === '' ? path! : `${path}?${text}` };
}

/** Rewrites a JSON object body (numbers kept exact); a body that is no JSON object passes unchanged. */
export function editBody(request: MockRequest, edit: (body: JsonObject) => void): MockRequest {
  const body = parseOrUndefined(request.body?.toString('utf8') ?? '');
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return request;
  edit(body as JsonObject);
  return { ...request, body: Buffer.from(stringify(body) ?? '') };
}

/** Rewrites a JSON response body (numbers kept exact). */
export function editJson(response: MockResponse, edit: (body: unknown) => unknown): MockResponse {
  return { ...response, body: stringify(edit(parse(response.body))) ?? '' };
}

/** The JSON document of a text, numbers kept exact, or `undefined` when it is not JSON. */
export function parseOrUndefined(text: string): unknown {
  try {
    return parse(text);
  } catch {
    return undefined;
  }
}

/** A seed-shaped `Error` response (`{ code, message, status }`, application/json) with any status. */
export function errorBody(status: number, code: string, message: string): MockResponse {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code, message, status }) };
}

/** The request with the valid key in `Authorization: Bearer <key>`. */
export function authorized(request: MockRequest): MockRequest {
  return { ...request, headers: { ...request.headers, authorization: `Bearer ${MUTANT_KEY}` } };
}

/** The decoded last path segment of a getPet request. */
export function petIdOf(request: MockRequest): string {
  return decodeURIComponent(request.url.split('?')[0]!.split('/').pop()!);
}

/** The request with another last path segment (query kept). */
export function withPetId(request: MockRequest, id: string): MockRequest {
  const [path, search] = request.url.split('?');
  const url = `${path!.slice(0, path!.lastIndexOf('/') + 1)}${id}`;
  return { ...request, url: search === undefined ? url : `${url}?${search}` };
}

/** Whether a text is a decimal integer literal (`-12`, `007`), whatever its size. */
export function isInteger(text: string): boolean {
  return /^-?\d+$/.test(text);
}

/**
 * Ids as the client sees them (`outer`) against the mock's own ids (`inner`), for mutants that assign ids
 * wrongly but keep getPet consistent with what they answered: an outer id names the last pet it was given to.
 */
export class IdMap {
  private inner = new Map<string, string>();
  private outer = new Map<string, string>();

  set(outer: string, inner: string): void {
    this.inner.set(outer, inner);
    this.outer.set(inner, outer);
  }

  /** The mock id behind an outer id; `0` (never assigned by the mock) when the outer id was never answered. */
  innerOf(outer: string): string {
    return this.inner.get(outer) ?? '0';
  }

  outerOf(inner: string): string {
    return this.outer.get(inner) ?? inner;
  }

  /** A handler that answers createPet with `assign(innerId)` as the id and maps ids everywhere else. */
  wrap(inner: Handler, assign: (innerId: string) => string | Promise<string>): AsyncHandler {
    const renamePet = (pet: unknown): unknown => {
      const record = pet as JsonObject;
      return { ...record, id: new LosslessNumber(this.outerOf(String(record['id']))) };
    };
    return async (request) => {
      const operation = operationOf(request);
      if (operation === 'getPet') {
        const id = petIdOf(request);
        const response = inner(isInteger(id) ? withPetId(request, this.innerOf(String(BigInt(id)))) : request);
        return response.status === 200 ? editJson(response, renamePet) : response;
      }
      const response = inner(request);
      if (operation === 'listPets' && response.status === 200) return editJson(response, (pets) => (pets as unknown[]).map(renamePet));
      if (operation !== 'createPet' || response.status !== 201) return response;
      const innerId = String((parse(response.body) as JsonObject)['id']);
      const outerId = await assign(innerId);
      this.set(outerId, innerId);
      return editJson(response, renamePet);
    };
  }
}

/** Seed sections the mutants cite. */
export const LIST = 'Endpoints §1 listPets';
export const CREATE = 'Endpoints §2 createPet';
export const GET = 'Endpoints §3 getPet';
export const AUTH = 'Authentication';
export const ERRORS = 'Errors';
export const STATUS_SHIFT: Record<string, string> = { available: 'pending', pending: 'sold', sold: 'available' };
