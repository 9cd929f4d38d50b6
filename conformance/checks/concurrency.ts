import { Violation } from '../contract.js';
import { createPet, listPets, type Check } from './check.js';
import { requests } from '../context.js';
import { toPet } from '../contract.js';
import { expectSamePet } from './check.js';

/** Creates sent at once per round, and lists sent beside them. */
const PARALLEL_CREATES = 16;
const PARALLEL_LISTS = 4;
const ROUNDS = 4;

/**
 * Concurrency (seed, Endpoints §2 rule 2: each 201 carries a new id): creates sent in parallel each get a
 * distinct id and are all found afterwards; lists sent during the creates are valid pages.
 */
export const concurrentCreates: Check = {
  id: 'concurrency.create',
  writes: true,
  async run(context) {
    for (let round = 0; round < ROUNDS; round++) {
      const creates = Array.from({ length: PARALLEL_CREATES }, (_, i) => createPet(context, { name: `Parallel ${round} ${i}`, categoryId: BigInt(1000 + i) }));
      const lists = Array.from({ length: PARALLEL_LISTS }, () => listPets(context, 'limit=100'));
      const [created] = await Promise.all([Promise.all(creates), Promise.all(lists)]);
      const ids = new Set(created.map((pet) => pet!.id));
      if (ids.size !== created.length) throw new Violation(`${created.length} parallel creates returned only ${ids.size} distinct ids`);
      for (const pet of created) {
        const { exchange, body } = await context.call('getPet', requests.getPet(String(pet!.id)), [200]);
        expectSamePet(pet!, toPet(body), exchange, 'getPet after parallel creates');
      }
    }
  },
};
