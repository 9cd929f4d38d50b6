import { randomInt } from 'node:crypto';
import type { ApiModel, OperationModel } from '../model/model.js';
import type { Check, ParentState, ReferenceState, RefusalState, ResourceMemory, RunState as Run } from './check-context.js';
import { ClientState } from './client.js';
import type { ObservedConsistency } from './consistency.js';
/**
 * One run of the suite against one target: everything it learns lives here, created when the run starts and handed
 * to every check through its `CheckContext.run`, so that two runs in one process (one after the other, or side by
 * side) never share ids, parents, pins or figures, and nothing is reset by hand. Caches of what a schema or the
 * model alone determines (compiled validators, canonical forms) stay with the modules that derive them: they hold
 * nothing a run learns. Its shape is declared in conformance/check-context.ts, where the checks stand on it.
 */
export class RunState implements Run {
  /** The model the run checks against, and its checks in catalogue order (conformance/catalogue.ts). */
  readonly model: ApiModel;
  readonly checks: readonly Check[];
  /** The client: throttle, figures, refusal, connections, exchanges kept. */
  readonly client: ClientState;
  /** Read-after-write lags observed (conformance/consistency.ts). */
  readonly consistency: ObservedConsistency = { lags: [], invisible: 0 };
  /** What was learnt about each resource of the target, by `<baseUrl> <resource>` (conformance/checks/check.ts). */
  readonly memories = new Map<string, ResourceMemory>();
  readonly references: ReferenceState = { unresolved: new Map(), resolved: new Map(), served: new Map(), heldQueries: new Map() };
  readonly parents: ParentState = { ids: new Map(), examples: new Map(), unprepared: new Map(), resources: new Map() };
  /** Body members pinned to a record the target holds, by operation (conformance/arbitraries/body.ts, D95). */
  readonly pins = new Map<OperationModel, Map<string, unknown>>();
  /** What documented refusals of drawn values taught the run (conformance/refusals.ts, D490). */
  readonly refusals: RefusalState = { examples: new Map(), narrowings: new Map(), counts: new Map() };
  /** Create bodies whose client-chosen id is fresh already (conformance/checks/identity.ts). */
  readonly chosenBodies = new WeakSet<Record<string, unknown>>();
  /**
   * A number below 10^6 that keeps the ids this run chooses apart from those of other runs on the same target (an
   * earlier run, a run side by side, another process): random, so runs started in the same millisecond differ.
   */
  readonly number: bigint = BigInt(randomInt(1_000_000));

  /** `keepExchanges`: keep the first this many exchanges in memory (`--har-all`); default none. */
  constructor(model: ApiModel, checks: readonly Check[], options: { keepExchanges?: number } = {}) {
    this.model = model;
    this.checks = checks;
    this.client = new ClientState(options.keepExchanges ?? 0);
  }

  /** Ends the run: closes its connections. */
  close(): Promise<void> {
    return this.client.close();
  }
}
