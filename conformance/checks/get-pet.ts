import fc from 'fast-check';
import type { PetRecord } from '../../spec/exact.js';
import { absentId, newPet } from '../arbitraries/new-pet.js';
import { toPet } from '../contract.js';
import { requests } from '../context.js';
import { createPet, expectSamePet, isKnownId, listPets, type Check } from './check.js';

/**
 * getPet (seed, Endpoints §3, deprecated but working until 5 December 2030): a created pet comes back by its
 * id with the same fields. Read-only: every pet of the first page comes back as listed.
 * `Deprecation`/`Sunset` headers are advice only (the seed does not ask for them).
 */
export const found: Check = {
  id: 'getPet.found',
  writes: false,
  async run(context) {
    if (context.target.readOnly) {
      const { pets } = await listPets(context, 'limit=100');
      if (pets.length === 0) context.advise('read-only: the target lists no pets, so getPet could not be checked on an existing pet');
      for (const pet of pets.slice(0, context.target.runs)) {
        const { exchange, body } = await context.call('getPet', requests.getPet(String(pet.id)), [200]);
        expectSamePet(pet, toPet(body), exchange, 'getPet');
      }
      return;
    }
    const everyCreated: PetRecord[] = [];
    await context.forAll(newPet({ integers: context.target.integers }), async (pet) => {
      const created = (await createPet(context, pet))!;
      everyCreated.push(created);
      const { exchange, body } = await context.call('getPet', requests.getPet(String(created.id)), [200]);
      expectSamePet(created, toPet(body), exchange, 'getPet');
      if (exchange.response.headers['deprecation'] === undefined && exchange.response.headers['sunset'] === undefined) {
        context.advise('getPet is deprecated (removal 5 December 2030) but its responses carry no Deprecation or Sunset header');
      }
    }, { runs: Math.min(context.target.runs, 30) });
    // Persistence: every pet created above, the oldest first, is still there with the same fields.
    for (const pet of everyCreated) {
      const { exchange, body } = await context.call('getPet', requests.getPet(String(pet.id)), [200]);
      expectSamePet(pet, toPet(body), exchange, 'getPet of a pet created earlier in this check');
    }
  },
};

/** Path segments that are no int64 at all (DECISIONS.md › Invalid petId: any 4xx `Error`); each is sent every run. */
const NOT_AN_ID = ['abc', '1.5', '-', '1e3', '0x10', '9223372036854775808', '-9223372036854775809', '18446744073709551616', ' 1', '１', 'null', '%', '1;2', ''.padEnd(400, '9')];
const notAnId = fc.constantFrom(...NOT_AN_ID);

/**
 * getPet, Errors (seed): an id that names no animal is a 404 `Error`; a petId that is not an int64 is a 4xx
 * `Error` (400, 404 or 422; only 404 or 400 with `--strict`), never a 5xx.
 */
export const notFound: Check = {
  id: 'getPet.not-found',
  writes: false,
  async run(context) {
    const attempt = async ({ petId, valid }: { petId: string; valid: boolean }): Promise<void> => {
      if (valid && isKnownId(context, BigInt(petId))) return;
      const expected = valid ? [404] : context.target.strict ? [400, 404] : [400, 404, 422];
      await context.call('getPet', requests.getPet(petId), expected);
    };
    for (const petId of NOT_AN_ID) await attempt({ petId, valid: false });
    await context.forAll(fc.oneof(absentId(context.target.integers).map((id) => ({ petId: String(id), valid: true })), notAnId.map((petId) => ({ petId, valid: false }))), attempt);
  },
};
