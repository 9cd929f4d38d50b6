import { LosslessNumber } from 'lossless-json';
import { CREATE, ERRORS, STATUS_SHIFT, editBody, errorBody, isInteger, on, parseOrUndefined, type JsonObject, type Mutant } from '../mutant-kit.js';

/** Mutants of createPet refusals: required fields, invalid values, malformed and non-object bodies (seed, Endpoints §2 rule 1; Errors). */
export const CREATE_PET_REFUSALS_MUTANTS: Mutant[] = [
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
    name: 'fractional-category-truncated',
    fault: 'createPet accepts a non-integer categoryId and truncates it (1.5 becomes 1, -0.25 becomes 0).',
    seedRule: 'Resources › NewPet: categoryId is an integer (int64)',
    caughtBy: ['createPet.invalid-body'],
    wrap: on('createPet', (r, inner) =>
      inner(editBody(r, (b) => {
        const id = b['categoryId'];
        if (id instanceof LosslessNumber && /^-?\d+\.\d*[1-9]/.test(id.value)) b['categoryId'] = new LosslessNumber(String(BigInt(id.value.split('.')[0]!)));
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
];
