import fc from 'fast-check';
import { ODD_QUERIES, oddListQuery, validListQuery, type OddQuery } from '../arbitraries/query.js';
import { petStatus } from '../arbitraries/new-pet.js';
import { toPet, Violation } from '../contract.js';
import { requests } from '../context.js';
import type { PetStatus } from '../../spec/exact.js';

type ListQuery = { limit?: number; status?: PetStatus };
import { ensurePopulation, expectCompletePage, listPets, type Check } from './check.js';

/** listPets rule 1 (seed, Endpoints §1): with `status`, every returned animal has that status. */
export const statusFilter: Check = {
  id: 'listPets.status-filter',
  writes: false,
  async run(context) {
    await ensurePopulation(context);
    await context.forAll(fc.record({ status: petStatus, limit: fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }) }), async ({ status, limit }) => {
      const { exchange, pets } = await listPets(context, `status=${status}${limit === undefined ? '' : `&limit=${limit}`}`);
      const stranger = pets.findIndex((pet) => pet.status !== status);
      if (stranger !== -1) throw new Violation(`item ${stranger} (id ${pets[stranger]!.id}) has status ${JSON.stringify(pets[stranger]!.status)}, but the query asks for ${status}`, exchange);
      if (pets.length === 0) context.advise(`listPets?status=${status} returned no pets, so rule 1 was not exercised for that status`);
    });
  },
};

/** listPets rule 2 (seed, Endpoints §1; Limits: default 20): without `limit`, at most 20 animals. */
export const defaultLimit: Check = {
  id: 'listPets.default-limit',
  writes: false,
  async run(context) {
    await ensurePopulation(context);
    await context.forAll(fc.option(petStatus, { nil: undefined }), async (status) => {
      const { exchange, pets } = await listPets(context, status === undefined ? '' : `status=${status}`);
      if (pets.length > 20) throw new Violation(`without limit the page holds ${pets.length} pets, more than the default 20`, exchange);
      expectCompletePage(context, pets, 20, status, exchange);
    }, { runs: 8 });
  },
};

/** listPets rule 3 (seed, Endpoints §1; Limits 1..100): never more than `limit` animals, and no id twice in a page. */
export const limit: Check = {
  id: 'listPets.limit',
  writes: false,
  async run(context) {
    await ensurePopulation(context);
    const edges = fc.constantFrom(1, 2, 99, 100).map((max): ListQuery => ({ limit: max }));
    await context.forAll(fc.oneof(validListQuery as fc.Arbitrary<ListQuery>, edges), async ({ limit: max, status }) => {
      const query = [max === undefined ? '' : `limit=${max}`, status === undefined ? '' : `status=${status}`].filter(Boolean).join('&');
      const { exchange, pets } = await listPets(context, query);
      const bound = max ?? 20;
      if (pets.length > bound) throw new Violation(`the page holds ${pets.length} pets, more than limit ${bound}`, exchange);
      const ids = new Set(pets.map((pet) => pet.id));
      if (ids.size !== pets.length) throw new Violation('the page lists the same id more than once', exchange);
      if (status !== undefined && pets.some((pet) => pet.status !== status)) throw new Violation(`a pet of another status than ${status} is listed`, exchange);
      expectCompletePage(context, pets, bound, status, exchange);
    });
  },
};

/**
 * Invalid or repeated `limit`/`status` (seed: other statuses not shown; DECISIONS.md › Invalid query): never a
 * 5xx; a 4xx must be an `Error`; a 200 must still hold at most 100 pets and honour a single valid status.
 * With `--strict` only a 400 is accepted.
 */
export const invalidQuery: Check = {
  id: 'listPets.invalid-query',
  writes: false,
  async run(context) {
    const allowed = context.target.strict ? [400] : [200, 400, 404, 422];
    await ensurePopulation(context);
    const attempt = async ({ query, status }: OddQuery): Promise<void> => {
      const { exchange, body } = await context.call('listPets', requests.listPets(query), allowed);
      if (exchange.response.status !== 200) return;
      context.advise(`listPets answered 200 to an invalid query (allowed: handling of invalid query parameters is not shown), e.g. ?${query}`);
      const pets = (body as unknown[]).map(toPet);
      if (pets.length > 100) throw new Violation(`an invalid query was answered with ${pets.length} pets, more than the maximum limit 100`, exchange);
      if (status !== undefined && pets.some((pet) => pet.status !== status)) throw new Violation(`?${query} was answered with pets of another status than ${status}`, exchange);
    };
    for (const odd of ODD_QUERIES) await attempt(odd);
    await context.forAll(oddListQuery, attempt);
  },
};
