import fc from 'fast-check';
import { CORNER_NAMES, INT64_EDGES, int64, isOrdinaryName, newPet, ordinaryName, petStatus } from '../arbitraries/new-pet.js';
import { anyInvalidBody, invalidBodies, missingFieldBodies, missingRequiredField, type InvalidBody, type Marker } from '../arbitraries/invalid-body.js';
import { PET_STATUSES } from '../../spec/exact.js';
import { requests, type CheckContext } from '../context.js';
import { createPet, expectNothingCreated, type Check } from './check.js';

/** createPet rule 1 (seed, Endpoints §2): without `name` or `categoryId`, a 400 `Error`, and nothing created. */
export const requiredFields: Check = {
  id: 'createPet.required-fields',
  writes: true,
  async run(context) {
    for (const status of [undefined, ...PET_STATUSES]) await everyCase(context, (marker) => missingFieldBodies(marker, status));
    await context.forAll(missingRequiredField, (body) => expectRefused(context, body), { runs: Math.min(context.target.runs, 30) });
  },
};

/** createPet, Errors (seed): invalid values, non-objects, malformed JSON and empty bodies are a 400 `Error`; nothing created. */
export const invalidBody: Check = {
  id: 'createPet.invalid-body',
  writes: true,
  async run(context) {
    await everyCase(context, invalidBodies);
    await context.forAll(anyInvalidBody, (body) => expectRefused(context, body));
  },
};

/** Sends every case of a finite family once, each with its own marker (so a body created by mistake is named). */
async function everyCase(context: CheckContext, family: (marker: Marker) => InvalidBody[]): Promise<void> {
  const count = family({ name: '', categoryId: 0n }).length;
  const run = Date.now() % 1_000_000;
  for (let index = 0; index < count; index++) {
    const marker = { name: `conformance case ${run} ${index}`, categoryId: 10n ** 16n + BigInt(run * 1000 + index) };
    await expectRefused(context, family(marker)[index]!);
  }
}

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
  async run(context) {
    for (const name of CORNER_NAMES) await createPet(context, { name, categoryId: 3n, status: 'pending' }, true);
    await context.forAll(newPet({ names: 'any', integers: context.target.integers }), async (pet) => {
      await createPet(context, pet, !isOrdinaryName(pet.name));
    });
  },
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
    await context.forAll(fc.record({ name: ordinaryName, categoryId: int64(), status: petStatus }), async (pet) => {
      await createPet(context, pet);
    }, { runs: Math.min(context.target.runs, 30) });
  },
};
