import type { ApiModel } from '../../model/model.js';
import { ordinaryBody } from '../arbitraries/body.js';
import { Violation } from '../contract.js';
import { createContext } from '../context.js';
import type { CheckContext } from '../check-context.js';
import { idOf, type Check } from './check.js';
import { largestPageQuery } from './population.js';
import { expectReadBack } from './read.js';
import { createRecord, listRecords } from './records.js';
import { reachableResources } from './parents.js';

/** Creates sent at once per round, and lists sent beside them. */
const PARALLEL_CREATES = 16;
const PARALLEL_LISTS = 4;
const ROUNDS = 4;

/**
 * Concurrency (seed, Endpoints §2 rule 2: each create carries a new id), for every resource with a create:
 * creates sent in parallel each get a distinct id and are all found afterwards; lists sent during the creates
 * are valid pages.
 */
export function concurrencyCheck(model: ApiModel, id: string, rule: string): Check {
  return {
    id,
    rule,
    writes: true,
    async run(serial) {
      // This check alone sends its requests side by side whatever `--concurrency` says (which caps every other
      // check): a race between creates only shows when they are in flight together. `--max-rps` still applies.
      const notes: string[] = [];
      const parallel = createContext({ ...serial.target, concurrency: Math.max(serial.target.concurrency, PARALLEL_CREATES + PARALLEL_LISTS) }, serial.model, notes, serial.run);
      try {
        await parallelRounds(model, parallel);
      } finally {
        for (const note of notes) serial.advise(note);
      }
    },
  };
}

async function parallelRounds(model: ApiModel, context: CheckContext): Promise<void> {
  for (const resource of reachableResources(context, model)) {
    const create = resource.operations.create;
    // Parallel creates of a singleton (one record per parent, D53) race for one place: not distinct records.
    if (create === undefined || resource.parent?.singleton === true) continue;
    for (let round = 0; round < ROUNDS; round++) {
      // Every body is drawn before the first request leaves (drawing may give up and throw), and every request is
      // awaited, failed or not, before the round ends: no request of this check outlives it (D254).
      const bodies = Array.from({ length: PARALLEL_CREATES }, (_, i) => ordinaryBody(context, create, context.target.integers, 1000 + round * PARALLEL_CREATES + i));
      const query = largestPageQuery(resource);
      const creates = bodies.map((body) => createRecord(context, resource, body));
      const lists = resource.operations.list === undefined ? [] : Array.from({ length: PARALLEL_LISTS }, () => listRecords(context, resource, query));
      const [made, listed] = await Promise.all([Promise.allSettled(creates), Promise.allSettled(lists)]);
      const created = settledValues(made);
      settledValues(listed);
      const ids = new Set(created.map((record) => idOf(resource, record!)));
      if (ids.size !== created.length) throw new Violation(`${created.length} parallel creates of ${resource.name} returned only ${ids.size} distinct ids`);
      if (resource.operations.read === undefined) continue;
      for (const record of created) await expectReadBack(context, resource, record!, 'a read after parallel creates');
    }
  }
}

/** The values of settled promises, in order; the first rejection's reason is thrown once all have settled. */
function settledValues<T>(results: readonly PromiseSettledResult<T>[]): T[] {
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
  return results.map((result) => (result as PromiseFulfilledResult<T>).value);
}
