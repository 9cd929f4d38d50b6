import { randomInt } from 'node:crypto';
import type { ApiModel, OperationModel, ResourceModel } from '../model/model.js';
import type { Check, ResourceMemory } from './checks/check.js';
import { ClientState } from './client.js';
import type { ObservedConsistency } from './consistency.js';
import type { Resolution } from './references.js';
import type { Narrowings } from './arbitraries/narrowed.js';

/** What a run learnt from documented refusals of values it drew (conformance/refusals.ts, D490, D491). */
export interface RefusalState {
  /** Per operation, whether the target took the description's own example after refusing a drawn value (once asked). */
  readonly examples: Map<OperationModel, 'taken' | 'none'>;
  /** The members refusals named, drawn as the description's example from then on. */
  readonly narrowings: Narrowings;
  /** How many drawn values were refused, by `<operationId> <status>`, with the first answer's text (for the advice). */
  readonly counts: Map<string, { count: number; text: string }>;
}

/**
 * What a run learnt of the records other collections name (conformance/references.ts, D95), keyed by
 * `<baseUrl> <operationId> <member>` (`resolved`, `unresolved`), `<baseUrl>` (`served`) or `<baseUrl> <operationId>`
 * (`heldQueries`).
 */
export interface ReferenceState {
  /** A reference the run could not fill on its target, and why (its checks are then skipped, never failed). */
  readonly unresolved: Map<string, string>;
  /** What each reference resolved to: the value pinned, or the reason none was found. */
  readonly resolved: Map<string, Promise<Resolution>>;
  /** The ids the parameterless lists showed, by the kind of their id. */
  readonly served: Map<string, Promise<Map<string, unknown[]>>>;
  /** The query each served list is asked with. */
  readonly heldQueries: Map<string, Promise<string | undefined>>;
}

/** The parent records a run's sub-resource requests are sent under (conformance/context.ts, D53, D72). */
export interface ParentState {
  /** The parent record's id, by sub-resource. */
  readonly ids: Map<ResourceModel, string>;
  /** The path values of a parent known only by its read's examples (`{owner: 'ada', repo: 'compiler'}`). */
  readonly examples: Map<ResourceModel, Record<string, string>>;
  /** Sub-resources whose parent record could not be made, and why. */
  readonly unprepared: Map<ResourceModel, Error>;
  /** The resources each sub-resource's parent is found among. */
  readonly resources: Map<ResourceModel, ResourceModel[]>;
}

/**
 * One run of the suite against one target: everything it learns lives here, created when the run starts and handed
 * to every check through its `CheckContext.run`, so that two runs in one process (one after the other, or side by
 * side) never share ids, parents, pins or figures, and nothing is reset by hand. Caches of what a schema or the
 * model alone determines (compiled validators, canonical forms) stay with the modules that derive them: they hold
 * nothing a run learns.
 */
export class RunState {
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
