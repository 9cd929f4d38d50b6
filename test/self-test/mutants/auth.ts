import { AUTH, MUTANT_KEY, always, authorized, errorBody, on, type Mutant } from '../mutant-kit.js';

/** Mutants of authentication on every operation (seed, Authentication). */
export const AUTH_MUTANTS: Mutant[] = [
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
];
