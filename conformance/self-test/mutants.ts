import { LosslessNumber, parse, stringify } from 'lossless-json';
import type { MockRequest, MockResponse } from '../../mock/index.js';
import type { CheckId } from '../catalogue.js';
import type { AsyncHandler } from './serve-handler.js';

/** The one API key every mutant's inner mock accepts (`createMock({ pets: [], apiKeys: [MUTANT_KEY] })`). */
export const MUTANT_KEY = 'self-test-key';

/** The real mock's synchronous pipeline, which a mutant wraps. */
export type Handler = (request: MockRequest) => MockResponse;

/**
 * A deliberately broken server: the real mock with exactly one fault injected by rewriting the request before
 * it or the response after it. `caughtBy` names the checks of `conformance/catalogue.ts` that must reject it;
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

type Operation = 'listPets' | 'createPet' | 'getPet';
type JsonObject = Record<string, unknown>;

/** Which of the seed's three operations a request names (by method and path under `/v1`), if any. */
export function operationOf(request: MockRequest): Operation | undefined {
  const path = request.url.split('?')[0];
  if (path === '/v1/pets') return request.method === 'GET' ? 'listPets' : request.method === 'POST' ? 'createPet' : undefined;
  return request.method === 'GET' && /^\/v1\/pets\/[^/]+$/.test(path ?? '') ? 'getPet' : undefined;
}

/** Applies `fault` to the requests of one operation; every other request goes to the mock untouched. */
function on(operation: Operation, fault: (request: MockRequest, inner: Handler) => MockResponse | Promise<MockResponse>) {
  return (inner: Handler): AsyncHandler =>
    (request) => (operationOf(request) === operation ? fault(request, inner) : inner(request));
}

/** Applies `fault` to every request. */
function always(fault: (request: MockRequest, inner: Handler) => MockResponse | Promise<MockResponse>) {
  return (inner: Handler): AsyncHandler => (request) => fault(request, inner);
}

function editQuery(request: MockRequest, edit: (query: URLSearchParams) => void): MockRequest {
  const [path, search = ''] = request.url.split('?');
  const query = new URLSearchParams(search);
  edit(query);
  const text = query.toString();
  return { ...request, url: text === '' ? path! : `${path}?${text}` };
}

/** Rewrites a JSON object body (numbers kept exact); a body that is no JSON object passes unchanged. */
function editBody(request: MockRequest, edit: (body: JsonObject) => void): MockRequest {
  const body = parseOrUndefined(request.body?.toString('utf8') ?? '');
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return request;
  edit(body as JsonObject);
  return { ...request, body: Buffer.from(stringify(body) ?? '') };
}

/** Rewrites a JSON response body (numbers kept exact). */
function editJson(response: MockResponse, edit: (body: unknown) => unknown): MockResponse {
  return { ...response, body: stringify(edit(parse(response.body))) ?? '' };
}

function parseOrUndefined(text: string): unknown {
  try {
    return parse(text);
  } catch {
    return undefined;
  }
}

function errorBody(status: number, code: string, message: string): MockResponse {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code, message, status }) };
}

function authorized(request: MockRequest): MockRequest {
  return { ...request, headers: { ...request.headers, authorization: `Bearer ${MUTANT_KEY}` } };
}

function petIdOf(request: MockRequest): string {
  return decodeURIComponent(request.url.split('?')[0]!.split('/').pop()!);
}

function withPetId(request: MockRequest, id: string): MockRequest {
  const [path, search] = request.url.split('?');
  const url = `${path!.slice(0, path!.lastIndexOf('/') + 1)}${id}`;
  return { ...request, url: search === undefined ? url : `${url}?${search}` };
}

function isInteger(text: string): boolean {
  return /^-?\d+$/.test(text);
}

/**
 * Ids as the client sees them (`outer`) against the mock's own ids (`inner`), for mutants that assign ids
 * wrongly but keep getPet consistent with what they answered: an outer id names the last pet it was given to.
 */
class IdMap {
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

const LIST = 'Endpoints §1 listPets';
const CREATE = 'Endpoints §2 createPet';
const GET = 'Endpoints §3 getPet';
const AUTH = 'Authentication';
const ERRORS = 'Errors';
const STATUS_SHIFT: Record<string, string> = { available: 'pending', pending: 'sold', sold: 'available' };

/** Every mutant: at least one per check id of the catalogue (the self-test verifies it). */
export const MUTANTS: Mutant[] = [
  // listPets
  {
    name: 'status-filter-ignored',
    fault: 'listPets drops the `status` query parameter and lists pets of every status.',
    seedRule: `${LIST}, rule 1`,
    caughtBy: ['listPets.status-filter'],
    wrap: on('listPets', (r, inner) => inner(editQuery(r, (q) => q.delete('status')))),
  },
  {
    name: 'status-filter-shifted',
    fault: 'listPets filters on the next status (`available` lists `pending` pets, and so on).',
    seedRule: `${LIST}, rule 1`,
    caughtBy: ['listPets.status-filter'],
    wrap: on('listPets', (r, inner) => inner(editQuery(r, (q) => q.has('status') && q.set('status', STATUS_SHIFT[q.get('status')!] ?? q.get('status')!)))),
  },
  {
    name: 'status-filter-empty',
    fault: 'listPets with any `status` answers an empty page, though matching pets exist.',
    seedRule: `${LIST}, rule 1 (the page holds the matching animals)`,
    caughtBy: ['stateful.model'],
    wrap: on('listPets', (r, inner) => {
      const response = inner(r);
      return response.status === 200 && new URLSearchParams(r.url.split('?')[1]).has('status') ? { ...response, body: '[]' } : response;
    }),
  },
  {
    name: 'default-limit-50',
    fault: 'listPets without `limit` returns up to 50 pets instead of 20.',
    seedRule: `${LIST}, rule 2; Limits`,
    caughtBy: ['listPets.default-limit'],
    wrap: on('listPets', (r, inner) => inner(editQuery(r, (q) => q.has('limit') || q.set('limit', '50')))),
  },
  {
    name: 'status-wildcard',
    fault: 'listPets with `status` also lists the pets that have no status.',
    seedRule: `${LIST}, rule 1`,
    caughtBy: ['listPets.status-filter'],
    wrap: (inner) => {
      const statusless: string[] = [];
      return (r) => {
        const operation = operationOf(r);
        const response = inner(r);
        if (operation === 'createPet' && response.status === 201 && !('status' in (JSON.parse(response.body) as JsonObject))) statusless.unshift(response.body);
        const query = new URLSearchParams(r.url.split('?')[1]);
        if (operation !== 'listPets' || response.status !== 200 || !query.has('status')) return response;
        const limit = query.has('limit') ? Number(query.get('limit')) : 20;
        const pets = [...statusless, ...(JSON.parse(response.body) as unknown[]).map((pet) => stringify(pet))].slice(0, limit);
        return { ...response, body: `[${pets.join(',')}]` };
      };
    },
  },
  {
    name: 'default-limit-100-with-status',
    fault: 'listPets with `status` and without `limit` returns up to 100 pets (the default 20 applies only without status).',
    seedRule: `${LIST}, rule 2`,
    caughtBy: ['listPets.default-limit'],
    wrap: on('listPets', (r, inner) => inner(editQuery(r, (q) => q.has('status') && !q.has('limit') && q.set('limit', '100')))),
  },
  {
    name: 'limit-plus-one',
    fault: 'listPets returns `limit + 1` pets (off by one) for a limit from 1 to 99.',
    seedRule: `${LIST}, rule 3`,
    caughtBy: ['listPets.limit'],
    wrap: on('listPets', (r, inner) =>
      inner(editQuery(r, (q) => {
        const limit = Number(q.get('limit'));
        if (q.getAll('limit').length === 1 && Number.isInteger(limit) && limit >= 1 && limit <= 99) q.set('limit', String(limit + 1));
      })),
    ),
  },
  {
    name: 'limit-ignored',
    fault: 'listPets ignores a given `limit` and returns up to 100 pets.',
    seedRule: `${LIST}, rule 3`,
    caughtBy: ['listPets.limit'],
    wrap: on('listPets', (r, inner) => inner(editQuery(r, (q) => q.has('limit') && q.set('limit', '100')))),
  },
  {
    name: 'limit-minus-one',
    fault: 'listPets returns `limit - 1` pets for a limit from 2 to 100, so a short page is incomplete.',
    seedRule: `${LIST}, rules 1-3 (a page holds the animals, up to limit)`,
    caughtBy: ['stateful.model'],
    wrap: on('listPets', (r, inner) =>
      inner(editQuery(r, (q) => {
        const limit = Number(q.get('limit'));
        if (q.getAll('limit').length === 1 && Number.isInteger(limit) && limit >= 2 && limit <= 100) q.set('limit', String(limit - 1));
      })),
    ),
  },
  {
    name: 'invalid-limit-500',
    fault: 'listPets answers 500 when `limit` is not an integer from 1 to 100 or is repeated.',
    seedRule: `${LIST}, Limits; ${ERRORS}`,
    caughtBy: ['listPets.invalid-query'],
    wrap: on('listPets', (r, inner) => {
      const limits = new URLSearchParams(r.url.split('?')[1]).getAll('limit');
      const valid = limits.length === 0 || (limits.length === 1 && /^\d{1,3}$/.test(limits[0]!) && Number(limits[0]) >= 1 && Number(limits[0]) <= 100);
      return valid ? inner(r) : errorBody(500, 'INTERNAL_ERROR', 'limit out of range');
    }),
  },
  {
    name: 'limit-above-100',
    fault: 'listPets honours a `limit` above the maximum 100 (limit=150 returns up to 150 pets) instead of refusing or capping it.',
    seedRule: `${LIST}, Limits (maximum 100)`,
    caughtBy: ['listPets.invalid-query'],
    wrap: (inner) => {
      const created: { status: unknown; json: string }[] = [];
      return (r) => {
        const operation = operationOf(r);
        const query = new URLSearchParams(r.url.split('?')[1]);
        const limit = Number(query.get('limit'));
        const status = query.get('status');
        if (operation === 'listPets' && query.getAll('limit').length === 1 && Number.isInteger(limit) && limit > 100 && limit <= 10_000) {
          const pets = created.filter((pet) => status === null || pet.status === status).slice(-limit).reverse();
          return { status: 200, headers: { 'content-type': 'application/json' }, body: `[${pets.map((pet) => pet.json).join(',')}]` };
        }
        const response = inner(r);
        if (operation === 'createPet' && response.status === 201) created.push({ status: (JSON.parse(response.body) as JsonObject)['status'], json: response.body });
        return response;
      };
    },
  },
  {
    name: 'invalid-status-500',
    fault: 'listPets answers 500 when `status` is not one of the PetStatus values.',
    seedRule: `${LIST}, query parameter status (PetStatus); ${ERRORS}`,
    caughtBy: ['listPets.invalid-query'],
    wrap: on('listPets', (r, inner) => {
      const statuses = new URLSearchParams(r.url.split('?')[1]).getAll('status');
      return statuses.every((status) => status in STATUS_SHIFT) ? inner(r) : errorBody(500, 'INTERNAL_ERROR', 'Unknown status');
    }),
  },
  {
    name: 'list-wrapped',
    fault: 'listPets wraps the page in an object `{ "pets": [...] }`.',
    seedRule: 'Resources › Pets: a bare array with no wrapper object',
    caughtBy: ['responses.conformance'],
    wrap: on('listPets', (r, inner) => {
      const response = inner(r);
      return response.status === 200 ? { ...response, body: `{"pets":${response.body}}` } : response;
    }),
  },
  {
    name: 'never-listed',
    fault: 'listPets always answers an empty page: created pets are never listed.',
    seedRule: `${LIST}; What the service does`,
    caughtBy: ['stateful.model'],
    wrap: on('listPets', (r, inner) => {
      const response = inner(r);
      return response.status === 200 ? { ...response, body: '[]' } : response;
    }),
  },

  // createPet: required fields and invalid bodies
  {
    name: 'missing-name-accepted',
    fault: 'createPet without `name` creates a pet named "Unnamed" (201).',
    seedRule: `${CREATE}, rule 1`,
    caughtBy: ['createPet.required-fields'],
    wrap: on('createPet', (r, inner) => inner(editBody(r, (b) => Object.hasOwn(b, 'name') || (b['name'] = 'Unnamed')))),
  },
  {
    name: 'missing-category-accepted',
    fault: 'createPet without `categoryId` creates a pet with categoryId 0 (201).',
    seedRule: `${CREATE}, rule 1`,
    caughtBy: ['createPet.required-fields'],
    wrap: on('createPet', (r, inner) => inner(editBody(r, (b) => Object.hasOwn(b, 'categoryId') || (b['categoryId'] = new LosslessNumber('0'))))),
  },
  {
    name: 'refused-but-created',
    fault: 'createPet answers 400 to an invalid JSON object body but first stores a pet from its usable fields (the rest defaulted).',
    seedRule: `${CREATE}, rule 1; ${ERRORS} (400)`,
    caughtBy: ['createPet.required-fields', 'createPet.invalid-body'],
    wrap: on('createPet', (r, inner) => {
      const response = inner(r);
      if (response.status !== 400) return response;
      const ghost = editBody(r, (b) => {
        const id = b['categoryId'];
        b['name'] = typeof b['name'] === 'string' ? b['name'] : 'ghost';
        b['categoryId'] = id instanceof LosslessNumber && /^-?\d{1,18}$/.test(id.value) ? id : new LosslessNumber('0');
        delete b['status'];
      });
      if (ghost !== r) inner({ ...ghost, headers: { ...r.headers, 'content-type': 'application/json' } });
      return response;
    }),
  },
  {
    name: 'string-category-accepted',
    fault: 'createPet accepts a string `categoryId`, coercing digits to a number and anything else to 0.',
    seedRule: 'Resources › NewPet: categoryId is an integer (int64)',
    caughtBy: ['createPet.invalid-body'],
    wrap: on('createPet', (r, inner) =>
      inner(editBody(r, (b) => {
        const id = b['categoryId'];
        if (typeof id === 'string') b['categoryId'] = new LosslessNumber(isInteger(id.trim()) ? String(BigInt(id.trim())) : '0');
      })),
    ),
  },
  {
    name: 'unknown-status-accepted',
    fault: 'createPet accepts a `status` outside the PetStatus values and drops it (201).',
    seedRule: 'Resources › PetStatus: allowed values, exactly available, pending, sold',
    caughtBy: ['createPet.invalid-body'],
    wrap: on('createPet', (r, inner) =>
      inner(editBody(r, (b) => typeof b['status'] === 'string' && !(b['status'] in STATUS_SHIFT) && delete b['status'])),
    ),
  },
  {
    name: 'malformed-json-500',
    fault: 'createPet answers 500 to a body that is not JSON.',
    seedRule: `${CREATE}; ${ERRORS} (400 for invalid bodies)`,
    caughtBy: ['createPet.invalid-body'],
    wrap: on('createPet', (r, inner) => {
      const text = r.body?.toString('utf8') ?? '';
      if (text.trim() === '') return inner(r);
      try {
        JSON.parse(text);
      } catch {
        return errorBody(500, 'INTERNAL_ERROR', 'Unexpected token');
      }
      return inner(r);
    }),
  },
  {
    name: 'non-object-crash',
    fault: 'createPet crashes (500, plain text) on a JSON body that is not an object (array, null, number, string).',
    seedRule: `${CREATE}; ${ERRORS} (400 for invalid bodies)`,
    caughtBy: ['createPet.invalid-body'],
    wrap: on('createPet', (r, inner) => {
      const body = parseOrUndefined(r.body?.toString('utf8') ?? '');
      if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body))) throw new TypeError("Cannot read properties of null (reading 'name')");
      return inner(r);
    }),
  },

  {
    name: 'empty-body-500',
    fault: 'createPet crashes (500, plain text) on an empty or blank body.',
    seedRule: `${CREATE} (body is required); ${ERRORS} (400 for invalid bodies)`,
    caughtBy: ['createPet.invalid-body'],
    wrap: on('createPet', (r, inner) => {
      if ((r.body?.toString('utf8') ?? '').trim() === '') throw new SyntaxError('Unexpected end of JSON input');
      return inner(r);
    }),
  },
  {
    name: 'zero-category-refused',
    fault: 'createPet tests `categoryId` for truthiness, so categoryId 0 is refused as missing (400).',
    seedRule: 'Resources › NewPet: categoryId is int64 (0 included); createPet rule 1',
    caughtBy: ['createPet.int64'],
    wrap: on('createPet', (r, inner) => {
      const body = parseOrUndefined(r.body?.toString('utf8') ?? '') as JsonObject | undefined;
      const id = body !== null && typeof body === 'object' ? body['categoryId'] : undefined;
      return id instanceof LosslessNumber && Number(id.value) === 0 ? errorBody(400, 'INVALID_BODY', 'categoryId is required') : inner(r);
    }),
  },

  // createPet: the echo and ids
  {
    name: 'name-trimmed',
    fault: 'createPet trims leading and trailing spaces of `name` before storing and echoing it.',
    seedRule: `${CREATE}, rule 2 (the Pet repeats the submitted fields)`,
    caughtBy: ['createPet.echo'],
    wrap: on('createPet', (r, inner) => inner(editBody(r, (b) => typeof b['name'] === 'string' && (b['name'] = b['name'].trim())))),
  },
  {
    name: 'name-truncated',
    fault: 'createPet truncates `name` to 24 characters.',
    seedRule: `${CREATE}, rule 2 (the Pet repeats the submitted fields)`,
    caughtBy: ['createPet.echo'],
    wrap: on('createPet', (r, inner) => inner(editBody(r, (b) => typeof b['name'] === 'string' && (b['name'] = [...b['name']].slice(0, 24).join(''))))),
  },
  {
    name: 'name-nfc',
    fault: 'createPet stores and echoes `name` NFC-normalised (e + U+0301 becomes é).',
    seedRule: `${CREATE}, rule 2 (the Pet repeats the submitted fields)`,
    caughtBy: ['createPet.echo'],
    wrap: on('createPet', (r, inner) => inner(editBody(r, (b) => typeof b['name'] === 'string' && (b['name'] = b['name'].normalize('NFC'))))),
  },
  {
    name: 'status-dropped',
    fault: 'createPet stores `status` but leaves it out of the 201 echo.',
    seedRule: `${CREATE}, rule 2 (the Pet repeats the submitted fields)`,
    caughtBy: ['createPet.echo'],
    wrap: on('createPet', (r, inner) => {
      const response = inner(r);
      return response.status === 201 ? editJson(response, (pet) => ({ ...(pet as JsonObject), status: undefined })) : response;
    }),
  },
  {
    name: 'category-echoed-as-string',
    fault: 'createPet echoes `categoryId` as a JSON string ("42" for 42).',
    seedRule: 'Resources › Pet: categoryId is an integer (int64)',
    caughtBy: ['createPet.echo'],
    wrap: on('createPet', (r, inner) => {
      const response = inner(r);
      return response.status === 201 ? editJson(response, (pet) => ({ ...(pet as JsonObject), categoryId: String((pet as JsonObject)['categoryId']) })) : response;
    }),
  },
  {
    name: 'created-200',
    fault: 'createPet answers 200 instead of 201.',
    seedRule: `${CREATE}, Responses (201)`,
    caughtBy: ['responses.conformance'],
    wrap: on('createPet', (r, inner) => {
      const response = inner(r);
      return response.status === 201 ? { ...response, status: 200 } : response;
    }),
  },
  {
    name: 'id-repeated',
    fault: 'Every second createPet answers the id of the create before it (ids are not unique).',
    seedRule: `${CREATE}, rule 2 (a new id); Resources › Pet (unique identifier)`,
    caughtBy: ['createPet.echo', 'stateful.model', 'concurrency.create'],
    wrap: (inner) => {
      let count = 0;
      let last = '';
      const ids = new IdMap();
      return ids.wrap(inner, (innerId) => {
        count += 1;
        last = count % 2 === 0 ? last : innerId;
        return last;
      });
    },
  },
  {
    name: 'racy-ids',
    fault: 'createPet reads an id counter, awaits, then writes it back: concurrent creates get the same id.',
    seedRule: `${CREATE}, rule 2 (each create carries a new id)`,
    caughtBy: ['concurrency.create'],
    wrap: (inner) => {
      let next = 1n;
      const ids = new IdMap();
      return ids.wrap(inner, async () => {
        const id = next;
        await new Promise((resolve) => setTimeout(resolve, 5));
        next = id + 1n;
        return String(id);
      });
    },
  },
  {
    name: 'int64-through-double',
    fault: 'createPet parses the body with JSON.parse, so categoryId loses digits beyond 2^53 (and 2^63-1 overflows).',
    seedRule: 'Resources › NewPet, Pet: categoryId is int64',
    caughtBy: ['createPet.int64'],
    wrap: on('createPet', (r, inner) => {
      try {
        return inner({ ...r, body: Buffer.from(JSON.stringify(JSON.parse(r.body?.toString('utf8') ?? ''))) });
      } catch {
        return inner(r);
      }
    }),
  },
  {
    name: 'negative-category-refused',
    fault: 'createPet refuses a negative categoryId with 400 (an unsigned id).',
    seedRule: 'Resources › NewPet: categoryId is int64 (signed)',
    caughtBy: ['createPet.int64'],
    wrap: on('createPet', (r, inner) => {
      const body = parseOrUndefined(r.body?.toString('utf8') ?? '') as JsonObject | undefined;
      const id = body !== null && typeof body === 'object' ? body['categoryId'] : undefined;
      return id instanceof LosslessNumber && id.value.startsWith('-') ? errorBody(400, 'INVALID_BODY', 'categoryId must be >= 0') : inner(r);
    }),
  },
  {
    name: 'category-int32',
    fault: 'createPet refuses a categoryId outside int32 with 400.',
    seedRule: 'Resources › NewPet: categoryId is int64',
    caughtBy: ['createPet.int64'],
    wrap: on('createPet', (r, inner) => {
      const body = parseOrUndefined(r.body?.toString('utf8') ?? '') as JsonObject | undefined;
      const id = body !== null && typeof body === 'object' ? body['categoryId'] : undefined;
      const outside = id instanceof LosslessNumber && Math.abs(Number(id.value)) > 2 ** 31;
      return outside ? errorBody(400, 'INVALID_BODY', 'categoryId must be int32') : inner(r);
    }),
  },

  // getPet and persistence
  {
    name: 'get-never-found',
    fault: 'getPet answers 404 for every id: created pets are never found.',
    seedRule: `${GET}`,
    caughtBy: ['getPet.found'],
    wrap: on('getPet', () => errorBody(404, 'PET_NOT_FOUND', 'No animal has this id.')),
  },
  {
    name: 'get-previous-pet',
    fault: 'getPet returns the pet whose id is one less than asked, when there is one.',
    seedRule: `${GET} (the requested animal)`,
    caughtBy: ['getPet.found'],
    wrap: on('getPet', (r, inner) => {
      const id = petIdOf(r);
      if (!isInteger(id)) return inner(r);
      const previous = inner(withPetId(r, String(BigInt(id) - 1n)));
      return previous.status === 200 ? previous : inner(r);
    }),
  },
  {
    name: 'forgets-old-pets',
    fault: 'Only the 3 most recently created pets are kept: older ones vanish from getPet and listPets.',
    seedRule: `${GET}; ${LIST}; What the service does (persistence)`,
    caughtBy: ['stateful.model', 'concurrency.create'],
    wrap: (inner) => {
      const recent: string[] = [];
      const kept = (pet: unknown) => recent.includes(String((pet as JsonObject)['id']));
      return (r) => {
        const operation = operationOf(r);
        const response = inner(r);
        if (operation === 'createPet' && response.status === 201) {
          recent.push(String((parse(response.body) as JsonObject)['id']));
          if (recent.length > 3) recent.shift();
        }
        if (operation === 'getPet' && response.status === 200 && !kept(parse(response.body))) return errorBody(404, 'PET_NOT_FOUND', 'No animal has this id.');
        if (operation === 'listPets' && response.status === 200) return editJson(response, (pets) => (pets as unknown[]).filter(kept));
        return response;
      };
    },
  },
  {
    name: 'reads-lose-int64',
    fault: 'getPet and listPets serialise through JSON.parse/JSON.stringify, so categoryId beyond 2^53 comes back rounded on reads (the 201 is exact).',
    seedRule: 'Resources › Pet: categoryId is int64; Endpoints §1, §3',
    caughtBy: ['getPet.found', 'stateful.model'],
    wrap: (inner) => (r) => {
      const response = inner(r);
      const operation = operationOf(r);
      return (operation === 'getPet' || operation === 'listPets') && response.status === 200 ? { ...response, body: JSON.stringify(JSON.parse(response.body)) } : response;
    },
  },
  {
    name: 'absent-200',
    fault: 'getPet answers 200 with a placeholder pet for an integer id that names no animal.',
    seedRule: `${GET}, Responses (404); ${ERRORS}`,
    caughtBy: ['getPet.not-found'],
    wrap: on('getPet', (r, inner) => {
      const response = inner(r);
      const id = petIdOf(r);
      if (response.status !== 404 || !isInteger(id)) return response;
      return { status: 200, headers: { 'content-type': 'application/json' }, body: `{"id":${BigInt(id)},"name":"Unknown","categoryId":0}` };
    }),
  },
  {
    name: 'absent-500',
    fault: 'getPet answers 500 for an id that names no animal.',
    seedRule: `${GET}, Responses (404); ${ERRORS}`,
    caughtBy: ['getPet.not-found'],
    wrap: on('getPet', (r, inner) => {
      const response = inner(r);
      return response.status === 404 ? errorBody(500, 'INTERNAL_ERROR', 'Pet lookup failed.') : response;
    }),
  },
  {
    name: 'non-integer-id-500',
    fault: 'getPet crashes (500) when petId is not an integer (`/pets/abc`).',
    seedRule: `${GET}, Path parameter petId (int64); ${ERRORS}`,
    caughtBy: ['getPet.not-found'],
    wrap: on('getPet', (r, inner) => (isInteger(petIdOf(r)) ? inner(r) : errorBody(500, 'INTERNAL_ERROR', 'Cannot convert to BigInt'))),
  },

  {
    name: 'overflow-id-500',
    fault: 'getPet crashes (500) on an integer petId outside int64 (9223372036854775808).',
    seedRule: `${GET}, Path parameter petId (int64); ${ERRORS}`,
    caughtBy: ['getPet.not-found'],
    wrap: on('getPet', (r, inner) => {
      const id = petIdOf(r);
      const outside = isInteger(id) && (BigInt(id) > 2n ** 63n - 1n || BigInt(id) < -(2n ** 63n));
      return outside ? errorBody(500, 'INTERNAL_ERROR', 'value out of range for type bigint') : inner(r);
    }),
  },
  {
    name: 'not-found-wrong-shape',
    fault: 'getPet answers 404 with `{ "error": "not found" }` instead of an Error object.',
    seedRule: `${ERRORS} (every error response is an Error object)`,
    caughtBy: ['getPet.not-found'],
    wrap: on('getPet', (r, inner) => {
      const response = inner(r);
      return response.status === 404 ? { ...response, body: '{"error":"not found"}' } : response;
    }),
  },

  // Authentication
  {
    name: 'no-auth-list',
    fault: 'listPets answers without checking the API key.',
    seedRule: `${AUTH} (applies to every operation)`,
    caughtBy: ['auth.listPets'],
    wrap: on('listPets', (r, inner) => inner(authorized(r))),
  },
  {
    name: 'no-auth-create',
    fault: 'createPet answers (and creates) without checking the API key.',
    seedRule: `${AUTH} (applies to every operation)`,
    caughtBy: ['auth.createPet'],
    wrap: on('createPet', (r, inner) => inner(authorized(r))),
  },
  {
    name: 'no-auth-get',
    fault: 'getPet answers without checking the API key.',
    seedRule: `${AUTH} (applies to every operation)`,
    caughtBy: ['auth.getPet'],
    wrap: on('getPet', (r, inner) => inner(authorized(r))),
  },
  {
    name: 'any-bearer-key',
    fault: 'Any non-empty bearer key is accepted on every operation.',
    seedRule: `${AUTH} (401 when the key is invalid)`,
    caughtBy: ['auth.listPets', 'auth.createPet', 'auth.getPet'],
    wrap: always((r, inner) => inner(/^Bearer +\S+ *$/i.test(r.headers.authorization ?? '') ? authorized(r) : r)),
  },
  {
    name: 'scheme-optional',
    fault: 'The valid key is accepted without the `Bearer` scheme (bare, or after another scheme such as `Basic`/`Token`).',
    seedRule: `${AUTH} (header \`Authorization: Bearer <API_KEY>\`)`,
    caughtBy: ['auth.listPets', 'auth.createPet', 'auth.getPet'],
    wrap: always((r, inner) => {
      const header = (r.headers.authorization ?? '').trim();
      return inner(header === MUTANT_KEY || new RegExp(`^\\S+ +${MUTANT_KEY}$`).test(header) ? authorized(r) : r);
    }),
  },
  {
    name: 'unauthorized-403',
    fault: 'A missing or invalid key is answered 403 (an Error with status 403) instead of 401.',
    seedRule: `${AUTH} (failure: status 401)`,
    caughtBy: ['auth.listPets', 'auth.createPet', 'auth.getPet'],
    wrap: always((r, inner) => {
      const response = inner(r);
      return response.status === 401 ? errorBody(403, 'FORBIDDEN', 'Invalid API key.') : response;
    }),
  },

  {
    name: 'key-case-insensitive',
    fault: 'The API key is compared without regard to letter case.',
    seedRule: `${AUTH} (401 when the key is invalid)`,
    caughtBy: ['auth.listPets', 'auth.createPet', 'auth.getPet'],
    wrap: always((r, inner) => {
      const key = /^Bearer +(\S+) *$/i.exec(r.headers.authorization ?? '')?.[1];
      return inner(key !== undefined && key.toLowerCase() === MUTANT_KEY.toLowerCase() ? authorized(r) : r);
    }),
  },
  {
    name: 'key-prefix-accepted',
    fault: 'The API key is compared by prefix: a bearer key that the valid key starts with, or that starts with it, is accepted.',
    seedRule: `${AUTH} (401 when the key is invalid)`,
    caughtBy: ['auth.listPets', 'auth.createPet', 'auth.getPet'],
    wrap: always((r, inner) => {
      const key = /^Bearer +(\S+) *$/i.exec(r.headers.authorization ?? '')?.[1];
      return inner(key !== undefined && (MUTANT_KEY.startsWith(key) || key.startsWith(MUTANT_KEY)) ? authorized(r) : r);
    }),
  },
  {
    name: 'unauthorized-empty-body',
    fault: 'A 401 carries an empty body instead of an Error.',
    seedRule: `${AUTH} (failure: 401 with an Error body)`,
    caughtBy: ['auth.listPets', 'auth.createPet', 'auth.getPet', 'responses.conformance'],
    wrap: always((r, inner) => {
      const response = inner(r);
      return response.status === 401 ? { ...response, body: '' } : response;
    }),
  },

  // Every response
  {
    name: 'error-status-400',
    fault: 'Every Error body says `status: 400`, whatever the HTTP status (401, 404, ...).',
    seedRule: `${ERRORS} (the status field equals the HTTP status code)`,
    caughtBy: ['responses.conformance', 'auth.listPets', 'getPet.not-found'],
    wrap: always((r, inner) => {
      const response = inner(r);
      return response.status >= 400 ? editJson(response, (error) => ({ ...(error as JsonObject), status: 400 })) : response;
    }),
  },
  {
    name: 'error-without-code',
    fault: 'Error bodies carry no `code`.',
    seedRule: 'Resources › Error (code is required)',
    caughtBy: ['responses.conformance'],
    wrap: always((r, inner) => {
      const response = inner(r);
      return response.status >= 400 ? editJson(response, (error) => ({ ...(error as JsonObject), code: undefined })) : response;
    }),
  },
  {
    name: 'text-plain',
    fault: 'Every response is sent as `Content-Type: text/plain`.',
    seedRule: `What the service does; ${ERRORS} (content type application/json)`,
    caughtBy: ['responses.conformance'],
    wrap: always((r, inner) => {
      const response = inner(r);
      return { ...response, headers: { ...response.headers, 'content-type': 'text/plain' } };
    }),
  },
  {
    name: 'problem-json-errors',
    fault: 'Error responses are sent as `Content-Type: application/problem+json`.',
    seedRule: `${ERRORS} (content type application/json)`,
    caughtBy: ['responses.conformance'],
    wrap: always((r, inner) => {
      const response = inner(r);
      return response.status >= 400 ? { ...response, headers: { ...response.headers, 'content-type': 'application/problem+json' } } : response;
    }),
  },
];
