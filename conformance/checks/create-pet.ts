import fc from 'fast-check';
import { INT64_EDGES, int64, isOrdinaryName, newPet, ordinaryName, petStatus } from '../arbitraries/new-pet.js';
import { invalidValue, missingRequiredField, notAnObject, type InvalidBody } from '../arbitraries/invalid-body.js';
import { requests, type CheckContext } from '../context.js';
import { createPet, expectNothingCreated, type Check } from './check.js';

/** createPet rule 1 (seed, Endpoints §2): without `name` or `categoryId`, a 400 `Error`, and nothing created. */
export const requiredFields: Check = {
  id: 'createPet.required-fields',
  writes: true,
  run: (context) => context.forAll(missingRequiredField, (body) => expectRefused(context, body), { runs: Math.min(context.target.runs, 30) }),
};

/** createPet, Errors (seed): invalid values, non-objects, malformed JSON and empty bodies are a 400 `Error`; nothing created. */
export const invalidBody: Check = {
  id: 'createPet.invalid-body',
  writes: true,
  run: (context) => context.forAll(fc.oneof(invalidValue, notAnObject), (body) => expectRefused(context, body)),
};

async function expectRefused(context: CheckContext, body: InvalidBody): Promise<void> {
  const { exchange } = await context.call('createPet', requests.createPet(body.text), [400]);
  await expectNothingCreated(context, body.marker, exchange);
}

/**
 * createPet rule 2 (seed, Endpoints §2), positive data: every valid NewPet is a 201 that repeats the submitted
 * fields exactly and carries an id no pet had. Ordinary names must be accepted; names at the corners of
 * Unicode and size may be refused with 400 (name constraints are not shown) unless `--strict`.
 */
export const echo: Check = {
  id: 'createPet.echo',
  writes: true,
  run: (context) =>
    context.forAll(newPet({ names: 'any' }), async (pet) => {
      await createPet(context, pet, !isOrdinaryName(pet.name));
    }),
};

/**
 * int64 (seed, Resources › NewPet, Pet): every int64 `categoryId`, the edges first, comes back digit for digit
 * in the 201, and the `id` is an int64 (checked by the contract on every response).
 */
export const int64RoundTrip: Check = {
  id: 'createPet.int64',
  writes: true,
  async run(context) {
    for (const categoryId of INT64_EDGES) await createPet(context, { name: 'Edge', categoryId });
    await context.forAll(fc.record({ name: ordinaryName, categoryId: int64, status: petStatus }), async (pet) => {
      await createPet(context, pet);
    }, { runs: Math.min(context.target.runs, 30) });
  },
};
