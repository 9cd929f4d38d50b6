import { badCredentials, credentialVariants, type BadCredentials } from '../arbitraries/credentials.js';
import { ordinaryName } from '../arbitraries/new-pet.js';
import { exactJson } from '../contract.js';
import { requests, type CheckContext, type RequestSpec } from '../context.js';
import type { OperationId } from '../contract.js';
import { expectNothingCreated, listPets, type Check } from './check.js';
import fc from 'fast-check';

/**
 * Authentication (seed): the operation with a missing or invalid key (no header, empty, another scheme, the key
 * without `Bearer`, a wrong or altered key) is a 401 `Error`. Auth is not assumed to come before validation:
 * every request here is otherwise valid.
 */
function authCheck(operationId: OperationId, writes: boolean, build: (context: CheckContext) => Promise<fc.Arbitrary<{ request: RequestSpec; marker?: { name: string } }>>): Check {
  return {
    id: `auth.${operationId}` as Check['id'],
    writes,
    async run(context) {
      const requestArbitrary = await build(context);
      const attempt = async ([credentials, { request, marker }]: [BadCredentials, { request: RequestSpec; marker?: { name: string } }]): Promise<void> => {
        const { exchange } = await context.call(operationId, { ...request, headers: { ...request.headers, authorization: credentials.header ?? null } }, [401]);
        await expectNothingCreated(context, marker, exchange);
      };
      // Every fixed kind of bad credentials once, then random keys and requests.
      const [sample] = fc.sample(requestArbitrary, { numRuns: 1, ...(context.target.seed === undefined ? {} : { seed: context.target.seed }) });
      for (const credentials of credentialVariants(context.target.apiKey)) await attempt([credentials, sample!]);
      await context.forAll(fc.tuple(badCredentials(context.target.apiKey), requestArbitrary), attempt, { runs: Math.min(context.target.runs, 30) });
    },
  };
}

export const authListPets = authCheck('listPets', false, async () => fc.constantFrom('', 'limit=5', 'status=available').map((query) => ({ request: requests.listPets(query) })));

export const authCreatePet = authCheck('createPet', true, async () =>
  ordinaryName.map((name) => {
    const marker = { name: `Unauthorized ${name}` };
    return { request: requests.createPet(exactJson({ name: marker.name, categoryId: 7n })), marker };
  }),
);

export const authGetPet = authCheck('getPet', false, async (context) => {
  const { pets } = await listPets(context, 'limit=5');
  const ids = pets.length === 0 ? ['1'] : pets.map((pet) => String(pet.id));
  return fc.constantFrom(...ids).map((id) => ({ request: requests.getPet(id) }));
});
