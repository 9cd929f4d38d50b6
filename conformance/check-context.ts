import type fc from 'fast-check';
import type { Exchange, OutgoingRequest } from '../judge/verdict.js';
import type { ApiModel, OperationModel, ResourceModel } from '../model/model.js';
import type { BadCredentials } from './arbitraries/credentials.js';
import type { Narrowings } from './arbitraries/narrowed.js';
import type { ClientState } from './client.js';
import type { ObservedConsistency } from './consistency.js';
import type { ResolvedTarget } from './target.js';

// The types a check and the run it belongs to share, and nothing else: the checks, the context and the runner all
// import this module, and it imports no module of theirs, so the suite's files stand on it without a circle.

/**
 * What a check works with: the target, the model of the spec it implements, a way to send a request of an
 * operation and check its response in one step, a property runner, and a place for advice (notes on the
 * spec's gaps, never failures), and the run it belongs to (everything the run has learnt of the target).
 */
export interface CheckContext {
  target: ResolvedTarget;
  model: ApiModel;
  run: RunState;
  /** Set once the check ran past its budget (D372): every request it still sends is refused, so it stops soon. */
  stopped?: boolean;
  /**
   * Adds a note to the check's advice, once: a note equal to one already given, or given under the same `kind`
   * (`"createPet default status"`: one note however many values a server stamps), is left out.
   */
  advise(note: string, kind?: string): void;
  /**
   * Sends `request` for `op` with the target's credentials for the operation's security scheme (or the bad
   * `request.credentials` instead) and checks the response against the contract; see {@link expectResponse}.
   */
  call(op: OperationModel, request: RequestSpec, expected: readonly number[]): Promise<{ exchange: Exchange; body: unknown }>;
  /** Runs a property over `arbitrary` with the target's runs, seed and time budget. Errors: {@link PropertyFailure}. */
  forAll<T>(arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, options?: { runs?: number }): Promise<void>;
}

/**
 * A request before credentials are added: path below the base URL with its query, extra headers, raw body.
 * `credentials`: send these (bad) credentials instead of the target's key.
 */
export interface RequestSpec {
  method: OutgoingRequest['method'];
  path: string;
  headers?: Record<string, string>;
  body?: string;
  credentials?: BadCredentials;
  /** The value `body` encodes, when the suite drew it (see `requestOf`): what a documented refusal is about (D490). */
  value?: unknown;
}

/**
 * One conformance check: a stable id (derived from the spec's operationIds, see catalogue.ts), the rule it
 * verifies, whether it must write (then `--read-only` skips it, with that reason), and `run`, which resolves when
 * the target conforms and throws a `Violation` or a `PropertyFailure` otherwise.
 */
export interface Check {
  id: string;
  rule: string;
  writes: boolean;
  /** Why `--read-only` skips it, when it writes: `read-only: this check must create pets` on the seed's spec. */
  readOnlySkip?: string;
  /** Why it never runs against any target (an operation served at its own server, D78): reported as skipped. */
  skip?: string;
  run(context: CheckContext): Promise<void>;
}

/** A record as read from a response: an exact JSON object (numbers as `LosslessNumber`, int64 digit for digit). */
export type ExactRecord = Record<string, unknown>;

/**
 * What a run has learnt about one resource of its target: every id it has seen, the
 * ids it created and deleted, and how many records it is known to hold in all and per filter value (lower bounds).
 */
export interface ResourceMemory {
  /** Ids (see {@link idKey}) seen in any response, with the tick at which each was first seen. */
  knownIds: Map<string, number>;
  /** Ids carried by a create of this process: no two creates may share one. */
  createdIds: Set<string>;
  /** Records as their create acknowledged them, by id, for resources whose records never change (no replace/update). */
  created: Map<string, ExactRecord>;
  /** Ids this process deleted: they no longer count toward the population. */
  deletedIds: Set<string>;
  /** Ids created holding no value in the list's window range (D90): no list request can be held to show them. */
  outOfView: Set<string>;
  /** The id of the latest create, when ids are integers (for the id-gap search of `expectNothingCreated`). */
  lastCreatedId: bigint | undefined;
  tick: number;
  population: Promise<void> | undefined;
  /** Records held at least, by `all` or by `<parameter>=<canonical JSON value>`. */
  atLeast: Map<string, number>;
  /** Values seen per filter property (to draw filter values for filters without an enum). */
  seen: Map<string, Map<string, unknown>>;
  /**
   * Per filter property and canonical value, what the list's required filters (D570) read of the records seen
   * holding it (their values by property, a few distinct ones): whether a list asked with them shows one (D914).
   */
  scopes: Map<string, Map<string, Record<string, unknown>[]>>;
  /** How many ids the suite chose for this resource's creates (where the client chooses them), and which. */
  clientIds: number;
  chosenIds: Set<string>;
  /** The record sub-resources live under during this process (its id), once made. */
  fixture: Promise<string | undefined> | undefined;
  /** The fixture's other item-path values (`{owner}` beside its key `{repo}`, D145), read from the record itself. */
  address?: Record<string, string>;
  /** Every seen record's other item-path values by id (D236), and the last seen, for a key no record showed. */
  addresses?: Map<string, Record<string, string>>;
  lastAddress?: Record<string, string>;
  /** For a sub-resource whose parent only the spec's examples name (D72): whether the target holds it (D161), once asked. */
  exampleParent?: Promise<Error | undefined>;
}

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
 * What one run of the suite holds (conformance/run-state.ts makes it): everything it learns of its target, handed to
 * every check through its `CheckContext.run`, so that two runs in one process never share ids, parents, pins or
 * figures. Declared here, beside the context and the check, so that the checks and the runner both stand on it.
 */
export interface RunState {
  /** The model the run checks against, and its checks in catalogue order (conformance/catalogue.ts). */
  readonly model: ApiModel;
  readonly checks: readonly Check[];
  /** The client: throttle, figures, refusal, connections, exchanges kept. */
  readonly client: ClientState;
  /** Read-after-write lags observed (conformance/consistency.ts). */
  readonly consistency: ObservedConsistency;
  /** What was learnt about each resource of the target, by `<baseUrl> <resource>` (conformance/checks/check.ts). */
  readonly memories: Map<string, ResourceMemory>;
  readonly references: ReferenceState;
  readonly parents: ParentState;
  /** What documented refusals of drawn values taught the run (conformance/refusals.ts, D490). */
  readonly refusals: RefusalState;
  /** Body members pinned to a record the target holds, by operation (conformance/arbitraries/body.ts, D95). */
  readonly pins: Map<OperationModel, Map<string, unknown>>;
  /** Create bodies whose client-chosen id is fresh already (conformance/checks/identity.ts). */
  readonly chosenBodies: WeakSet<Record<string, unknown>>;
  /** A number below 10^6 that keeps the ids this run chooses apart from those of other runs on the same target. */
  readonly number: bigint;
  /** Ends the run: closes its connections. */
  close(): Promise<void>;
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

/** A reference's value on a target, and why it cannot be trusted to exist there (an id only the spec shows). */
export type Resolution = { value: unknown; unverified?: string } | { reason: string };
