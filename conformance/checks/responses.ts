import fc from 'fast-check';
import { absentId, newPet } from '../arbitraries/new-pet.js';
import { validListQuery } from '../arbitraries/query.js';
import { exactJson, toPet, type OperationId } from '../contract.js';
import { requests, type RequestSpec } from '../context.js';
import { createPet, isKnownId, listPets, rememberIds, type Check } from './check.js';

/** One request of any operation with the one status the seed gives it, for `responses.conformance`. */
interface Probe {
  operationId: OperationId;
  request: RequestSpec;
  status: number;
}

/**
 * Every operation, every documented status (seed, Endpoints; Errors; What the service does): listPets 200 and
 * 401, createPet 201, 400 and 401, getPet 200, 401 and 404. Each response must have exactly the status the seed
 * gives, `Content-Type: application/json`, a body valid against the spec, and `Error.status` equal to the status.
 */
export const responseConformance: Check = {
  id: 'responses.conformance',
  writes: false,
  async run(context) {
    const { pets } = await listPets(context, 'limit=10');
    const existing = pets.length > 0 ? pets.map((pet) => String(pet.id)) : context.target.readOnly ? [] : [String((await createPet(context, { name: 'Probe', categoryId: 1n }))!.id)];
    const probes: fc.Arbitrary<Probe>[] = [
      validListQuery.map((query) => ({ operationId: 'listPets', request: requests.listPets(new URLSearchParams(query as Record<string, string>).toString()), status: 200 })),
      fc.constant({ operationId: 'listPets', request: { ...requests.listPets(), headers: { authorization: null } }, status: 401 }),
      absentId(context.target.integers).filter((id) => !isKnownId(context, id)).map((id) => ({ operationId: 'getPet', request: requests.getPet(String(id)), status: 404 })),
      fc.constant({ operationId: 'getPet', request: { ...requests.getPet('1'), headers: { authorization: null } }, status: 401 }),
    ];
    if (existing.length > 0) probes.push(fc.constantFrom(...existing).map((id) => ({ operationId: 'getPet', request: requests.getPet(id), status: 200 })));
    if (!context.target.readOnly) {
      probes.push(
        newPet({ integers: context.target.integers }).map((pet) => ({ operationId: 'createPet', request: requests.createPet(exactJson(pet)), status: 201 })),
        fc.constant({ operationId: 'createPet', request: requests.createPet('{"status":"sold"}'), status: 400 }),
        fc.constant({ operationId: 'createPet', request: { ...requests.createPet('{"name":"Probe","categoryId":1}'), headers: { 'content-type': 'application/json', authorization: null } }, status: 401 }),
      );
    }
    await context.forAll(fc.oneof(...probes), async ({ operationId, request, status }) => {
      const { exchange, body } = await context.call(operationId, request, [status]);
      if (exchange.response.status === 201) rememberIds(context, [toPet(body)]);
    });
  },
};
