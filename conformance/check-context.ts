import type fc from 'fast-check';
import type { Exchange, OutgoingRequest } from '../judge/verdict.js';
import type { ApiModel, OperationModel } from '../model/model.js';
import type { BadCredentials } from './arbitraries/credentials.js';
import type { RunState } from './run-state.js';
import type { ResolvedTarget } from './target.js';

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
}
