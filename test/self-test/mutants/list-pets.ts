import { parse, stringify } from 'lossless-json';
import type { AsyncHandler } from '../serve-handler.js';
import { ERRORS, LIST, MUTANT_KEY, STATUS_SHIFT, editJson, editQuery, errorBody, on, operationOf, type Handler, type JsonObject, type Mutant } from '../mutant-kit.js';

/** Mutants of listPets: status filter, limits, invalid queries, the shape of the page (seed, Endpoints §1). */
export const LIST_PETS_MUTANTS: Mutant[] = [
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
    name: 'filter-after-limit',
    fault: 'listPets takes the first `limit` pets of all, then filters them by `status`, so a filtered page is short though more pets match.',
    seedRule: `${LIST}, rules 1 and 3 (limit bounds the matching animals)`,
    caughtBy: ['listPets.limit'],
    wrap: on('listPets', (r, inner) => {
      const status = new URLSearchParams(r.url.split('?')[1]).get('status');
      if (status === null || !(status in STATUS_SHIFT)) return inner(r);
      const response = inner(editQuery(r, (q) => q.delete('status')));
      return response.status === 200 ? editJson(response, (pets) => (pets as JsonObject[]).filter((pet) => pet['status'] === status)) : response;
    }),
  },
  {
    name: 'limit-capped-at-20',
    fault: 'listPets never returns more than 20 pets, whatever the `limit` (a page of 20 for limit=50 though more pets exist).',
    seedRule: `${LIST}, Limits (maximum 100); rule 3`,
    caughtBy: ['listPets.limit'],
    wrap: on('listPets', (r, inner) => inner(editQuery(r, (q) => Number(q.get('limit')) > 20 && q.getAll('limit').length === 1 && q.set('limit', '20')))),
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
    fault: 'listPets honours any integer `limit` above the maximum 100 (limit=150 returns up to 150 pets) instead of refusing or capping it.',
    seedRule: `${LIST}, Limits (maximum 100)`,
    caughtBy: ['listPets.invalid-query'],
    wrap: (inner) => honourLimitsUpTo(inner, Infinity),
  },
  {
    name: 'limit-max-1000',
    fault: 'listPets takes 1000 as the maximum `limit` instead of 100 (limit=101..1000 returns up to that many pets; above, 400).',
    seedRule: `${LIST}, Limits (maximum 100)`,
    caughtBy: ['listPets.invalid-query'],
    wrap: (inner) => honourLimitsUpTo(inner, 1000),
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
];

/**
 * A server whose maximum `limit` is `max` instead of 100: it keeps every pet (the up to 100 it starts with, then
 * each one created) to serve pages above 100.
 */
function honourLimitsUpTo(inner: Handler, max: number): AsyncHandler {
  const created: { status: unknown; json: string }[] = [];
  const keep = (json: string): void => {
    created.push({ status: (JSON.parse(json) as JsonObject)['status'], json });
  };
  const start = inner({ method: 'GET', url: '/v1/pets?limit=100', headers: { authorization: `Bearer ${MUTANT_KEY}` } });
  for (const pet of (parse(start.body) as unknown[]).reverse()) keep(stringify(pet) ?? '');
  return (r) => {
    const operation = operationOf(r);
    const query = new URLSearchParams(r.url.split('?')[1]);
    const limit = Number(query.get('limit'));
    const status = query.get('status');
    if (operation === 'listPets' && query.getAll('limit').length === 1 && /^\d+$/.test(query.get('limit')!) && limit > 100 && limit <= max) {
      const pets = created.filter((pet) => status === null || pet.status === status).slice(-limit).reverse();
      return { status: 200, headers: { 'content-type': 'application/json' }, body: `[${pets.map((pet) => pet.json).join(',')}]` };
    }
    const response = inner(r);
    if (operation === 'createPet' && response.status === 201) keep(response.body);
    return response;
  };
}
