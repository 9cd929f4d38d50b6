import fc from 'fast-check';
import { authHeaders, curl, send, type Exchange, type OutgoingRequest } from './client.js';
import { expectResponse, Violation, type Contract, type OperationId } from './contract.js';
import { checkProperty } from './property.js';
import type { ResolvedTarget } from './target.js';

/**
 * What a check works with: the target, the contract read from the spec, a way to send a request and check
 * its response in one step, a property runner, and a place for advice (notes on the seed's gaps, never failures).
 */
export interface CheckContext {
  target: ResolvedTarget;
  contract: Contract;
  advise(note: string): void;
  /** Sends `request` (with the target's key unless `request.headers.authorization` says otherwise) and checks the response; see {@link expectResponse}. */
  call(operationId: OperationId, request: RequestSpec, expected: readonly number[]): Promise<{ exchange: Exchange; body: unknown }>;
  /** Runs a property over `arbitrary` with the target's runs, seed and time budget. Errors: {@link PropertyFailure}. */
  forAll<T>(arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, options?: { runs?: number }): Promise<void>;
}

/** A request before the key is added: `authorization: null` sends no `Authorization` header at all. */
export type RequestSpec = Omit<OutgoingRequest, 'headers'> & { headers?: Record<string, string | null> };

/** The three operations of the seed as requests (seed, Endpoints §1-3). */
export const requests = {
  listPets: (query = ''): RequestSpec => ({ method: 'GET', path: query === '' ? '/pets' : `/pets?${query}` }),
  createPet: (body: string): RequestSpec => ({ method: 'POST', path: '/pets', body, headers: { 'content-type': 'application/json' } }),
  getPet: (petId: string): RequestSpec => ({ method: 'GET', path: `/pets/${encodeURIComponent(petId)}` }),
};

/**
 * A property that does not hold: fast-check's seed, path and shrunk counterexample, and the violation with
 * the exchange that shows it. `report()` formats all of it for a person (STYLE 8).
 */
export class PropertyFailure extends Error {
  constructor(
    readonly details: fc.RunDetails<unknown>,
    readonly violation: Violation | undefined,
    override readonly cause: unknown,
  ) {
    super(violation?.problem ?? String((cause as Error | undefined)?.message ?? cause));
    this.name = 'PropertyFailure';
  }
}

/** Builds the context of one check run against `target`. `notes` collects the advice. */
export function createContext(target: ResolvedTarget, contract: Contract, notes: string[]): CheckContext {
  const context: CheckContext = {
    target,
    contract,
    advise(note) {
      if (!notes.includes(note)) notes.push(note);
    },
    async call(operationId, request, expected) {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries({ ...authHeaders(target), ...request.headers })) if (value !== null) headers[name] = value;
      const exchange = await send(target, { ...request, headers });
      return { exchange, body: expectResponse(contract, exchange, operationId, expected) };
    },
    async forAll(arbitrary, predicate, options = {}) {
      const details = await checkProperty(target, arbitrary, predicate, options.runs ?? target.runs);
      if (!details.failed) return;
      const cause = details.errorInstance;
      const violation = cause instanceof Violation ? cause : cause instanceof PropertyFailure ? cause.violation : undefined;
      throw new PropertyFailure(details as fc.RunDetails<unknown>, violation, cause);
    },
  };
  return context;
}

/** Shortens a response body for a report: at most `max` characters. */
function excerpt(text: string, max = 600): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

/**
 * The report of a failed check: the rule and its seed section, the problem, the failing request as `curl`,
 * the response, the shrunk counterexample and the command that replays it.
 */
export function formatFailure(id: string, rule: string, failure: unknown, target: ResolvedTarget): string {
  const lines = [`✗ ${id}`, `  rule:      ${rule}`];
  const violation = failure instanceof PropertyFailure ? failure.violation : failure instanceof Violation ? failure : undefined;
  lines.push(`  problem:   ${violation?.problem ?? (failure as Error).message}`);
  const exchange = violation?.exchange;
  if (exchange !== undefined) {
    const { status, headers, text } = exchange.response;
    lines.push(`  request:   ${curl(exchange.request, target.apiKey)}`);
    lines.push(`  response:  ${status} content-type: ${headers['content-type'] ?? '(none)'}`);
    lines.push(`             ${excerpt(text)}`);
  }
  if (failure instanceof PropertyFailure) {
    const { seed, counterexamplePath, counterexample, numShrinks } = failure.details;
    lines.push(`  counterexample: ${excerpt(fc.stringify(counterexample), 800)} (shrunk ${numShrinks} times)`);
    lines.push(
      `  replay:    npm run conformance -- --base-url ${target.baseUrl} --api-key "$PETSTORE_API_KEY" --check ${id} --seed ${seed} --path "${counterexamplePath ?? ''}"`,
    );
  } else {
    // A fixed case (a catalogue run before the random ones): the same request is sent again on every run.
    lines.push(`  replay:    npm run conformance -- --base-url ${target.baseUrl} --api-key "$PETSTORE_API_KEY" --check ${id}`);
    if (!(failure instanceof Violation) && failure instanceof Error && failure.stack !== undefined) {
      lines.push(`  at:        ${failure.stack.split('\n').slice(1, 3).join(' ').trim()}`);
    }
  }
  return lines.join('\n');
}
