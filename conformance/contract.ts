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
  if (status >= 500) throw new Violation(`server error ${status} (never acceptable for a valid or invalid request)`, exchange);
  if (!expected.includes(status)) throw new Violation(`expected status ${expected.join(' or ')}, got ${status}`, exchange);
  // The same judge as the proxy and --from-har (conformance/exchange.ts): the first rule broken is the report.
  const accept = Object.entries(exchange.request.headers).find(([name]) => name.toLowerCase() === 'accept')?.[1];
  const { violations, body } = judgeResponseBody(op, exchange.response, exchange.request.method, false, accept);
  const first = violations[0];
  if (first === undefined) return body;
  if (first.rule !== 'body.schema') throw new Violation(first.message, exchange);
  const issues = violations.filter((violation) => violation.rule === 'body.schema').map((violation) => violation.message.slice(violation.message.indexOf(': ') + 2));
  throw new Violation(`${first.message.slice(0, first.message.indexOf(': '))}: ${issues.join('; ')}`, exchange);
}
