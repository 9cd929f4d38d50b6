import { LosslessNumber } from 'lossless-json';
import { CREATE, IdMap, editBody, editJson, errorBody, on, parseOrUndefined, type JsonObject, type Mutant } from '../mutant-kit.js';

/** Mutants of createPet answers: the echo, ids, int64 (seed, Endpoints §2 rule 2; Resources › NewPet, Pet). */
export const CREATE_PET_ECHO_MUTANTS: Mutant[] = [
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
];
