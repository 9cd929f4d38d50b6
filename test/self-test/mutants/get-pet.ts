import { parse } from 'lossless-json';
import { ERRORS, GET, LIST, editJson, errorBody, isInteger, on, operationOf, petIdOf, withPetId, type JsonObject, type Mutant } from '../mutant-kit.js';

/** Mutants of getPet and persistence (seed, Endpoints §3; Errors). */
export const GET_PET_MUTANTS: Mutant[] = [
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
    name: 'create-not-stored',
    fault: 'createPet answers 201 with a fresh id but stores the pet under another id, so it is never found by its id.',
    seedRule: `${GET}; Endpoints §2 (the animal was added)`,
    caughtBy: ['getPet.found', 'stateful.model'],
    wrap: on('createPet', (r, inner) => {
      const response = inner(r);
      return response.status === 201 ? editJson(response, (pet) => ({ ...(pet as JsonObject), id: BigInt(String((pet as JsonObject)['id'])) + 1_000_000_000n })) : response;
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
];
