import { loadModel, SPEC_PATH } from '../model/loader.js';
import type { ApiModel, OperationModel } from '../model/model.js';
import type { Exchange } from '../judge/verdict.js';
import { judgeResponseBody } from '../judge/exchange.js';

/** A broken rule, with the exchange that shows it. Thrown by properties; formatted by the report. */
export class Violation extends Error {
  constructor(
    readonly problem: string,
    readonly exchange?: Exchange,
  ) {
    super(problem);
    this.name = 'Violation';
  }
}

/**
 * A documented 501 or 503 (D493): the description says the server may not offer the operation (a feature not
 * built, a service not available), and the answer is in the documented shape. No verdict on the check that needed
 * another answer; unhandled, a {@link Violation}.
 */
export class DocumentedUnavailable extends Violation {
  constructor(problem: string, exchange: Exchange) {
    super(problem, exchange);
    this.name = 'DocumentedUnavailable';
  }
}

/** The models read from each spec file: a cache of what the file alone determines (no run learns anything here). */
const models = new Map<string, Promise<ApiModel>>();

/**
 * The model of the spec a target implements (`target.spec`, default `spec/openapi.yaml`) with its `overlays`
 * (OpenAPI Overlay files, `target.overlays`) applied, loaded once per process, path and overlays (the suite reads the same model as the mock, never the mock's code: a judge sharing the defendant's code would share its bugs).
 * Errors: rejects with the loader's message when the spec is invalid.
 */
export function modelOf(specPath: string | undefined, overlays: readonly string[] = []): Promise<ApiModel> {
  const path = specPath ?? SPEC_PATH;
  // The same description under other overlays is another model.
  const key = overlays.length === 0 ? path : JSON.stringify([path, ...overlays]);
  let model = models.get(key);
  if (model === undefined) models.set(key, (model = loadModel(path, { overlays })));
  return model;
}

/**
 * Checks one response of `op` against the contract and returns its body parsed exactly (numbers as
 * `LosslessNumber`, so int64 digits survive), or `undefined` when the response has no body.
 * - The status must be one of `expected` (the statuses the rule allows here); a 5xx is always a violation.
 * - The `Content-Type` must be the one the spec documents for that status (parameters such as `charset`
 *   allowed), `application/json` when it documents none (seed, What the service does; DECISIONS D15).
 * - The body must be JSON (lossless-json), valid against the documented schema (int64 formats exact), and an
 *   error schema's status field must equal the HTTP status (seed, Errors).
 * Errors: throws a {@link Violation} naming the first broken rule, carrying the exchange.
 */
export function expectResponse(op: OperationModel, exchange: Exchange, expected: readonly number[]): unknown {
  const { status } = exchange.response;
  // The same judge as the proxy and --from-har (conformance/exchange.ts): the first rule broken is the report.
  const accept = Object.entries(exchange.request.headers).find(([name]) => name.toLowerCase() === 'accept')?.[1];
  const judged = (): ReturnType<typeof judgeResponseBody> => judgeResponseBody(op, exchange.response, exchange.request.method, false, accept);
  if (status >= 500) {
    // "Not implemented" and "not available" are answers a description may promise (D493); every other 5xx, and
    // one it does not list, is a server error.
    const listed = (status === 501 || status === 503) && op.responses.some((response) => response.status === String(status) || response.status === '5XX');
    if (listed && judged().violations.length === 0) throw new DocumentedUnavailable(`${op.operationId} answered its documented ${status}: ${exchange.response.text.slice(0, 160)}`, exchange);
    throw new Violation(`server error ${status} (${listed ? 'documented, but its body is outside the documented shape' : 'never acceptable for a valid or invalid request unless the operation documents a 501 or 503'})`, exchange);
  }
  if (!expected.includes(status)) throw new Violation(`expected status ${expected.join(' or ')}, got ${status}`, exchange);
  const { violations, body } = judged();
  const first = violations[0];
  if (first === undefined) return body;
  if (first.rule !== 'body.schema') throw new Violation(first.message, exchange);
  const issues = violations.filter((violation) => violation.rule === 'body.schema').map((violation) => violation.message.slice(violation.message.indexOf(': ') + 2));
  throw new Violation(`${first.message.slice(0, first.message.indexOf(': '))}: ${issues.join('; ')}`, exchange);
}
