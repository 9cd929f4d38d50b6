import { STATUS_NAMES } from '../spec/error-shape.js';
import { parseExact } from '../spec/json.js';
import { loadModel, SPEC_PATH, type ApiModel, type OperationModel, type ResponseModel } from '../spec/model.js';
import { isJsonMediaType, mainType, objectShape } from '../spec/schema.js';
import type { Exchange } from './client.js';

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

const models = new Map<string, Promise<ApiModel>>();

/**
 * The model of the spec a target implements (`target.spec`, default `spec/openapi.yaml`), loaded once per
 * process and path (the suite reads the same model as the mock, never the mock's code: a judge sharing the defendant's code would share its bugs).
 * Errors: rejects with the loader's message when the spec is invalid.
 */
export function modelOf(specPath: string | undefined): Promise<ApiModel> {
  const path = specPath ?? SPEC_PATH;
  let model = models.get(path);
  if (model === undefined) models.set(path, (model = loadModel(path)));
  return model;
}

/**
 * The response the spec documents for `status` on `op`: exactly, by its range (`4XX`), or `default`; for an
 * error status the spec does not document (a gap such as 422 for a malformed id), the first documented error
 * response with a body, so that the body is still held to the spec's error shape.
 */
export function documentedResponse(op: OperationModel, status: number): { response: ResponseModel | undefined; documented: boolean } {
  const exact = op.responses.find((r) => r.status === String(status)) ?? op.responses.find((r) => r.status === `${String(status)[0]}XX`) ?? op.responses.find((r) => r.status === 'DEFAULT');
  if (exact !== undefined) return { response: exact, documented: true };
  const error = status >= 400 ? op.responses.find((r) => /^[45]/.test(r.status) && r.schema !== undefined) : undefined;
  return { response: error, documented: false };
}

/** The integer field of an error schema that must equal the HTTP status (seed, Errors: `Error.status`), if it has one. */
export function statusFieldOf(response: ResponseModel | undefined): string | undefined {
  if (response?.schema === undefined) return undefined;
  const { properties } = objectShape(response.schema);
  return Object.keys(properties).find((name) => STATUS_NAMES.includes(name) && (mainType(properties[name]!) === 'integer' || mainType(properties[name]!) === 'number'));
}

/** The media type without parameters, lower-cased: `application/json; charset=utf-8` → `application/json`. */
function essence(mediaType: string | undefined): string {
  return (mediaType ?? '').split(';')[0]!.trim().toLowerCase();
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
  const { status, headers, text } = exchange.response;
  if (status >= 500) throw new Violation(`server error ${status} (never acceptable for a valid or invalid request)`, exchange);
  if (!expected.includes(status)) throw new Violation(`expected status ${expected.join(' or ')}, got ${status}`, exchange);
  const { response, documented } = documentedResponse(op, status);
  const bodyless = response !== undefined && response.mediaType === undefined;
  // An operation that documents no response at all says nothing of a body: an empty one is as good as any.
  if (bodyless || (status === 204 && text === '') || (op.responses.length === 0 && text === '')) return undefined;
  const wanted = essence(response?.mediaType ?? 'application/json');
  if (documented ? essence(headers['content-type']) !== wanted : !isJsonMediaType(essence(headers['content-type']))) {
    throw new Violation(`expected Content-Type ${wanted}, got ${JSON.stringify(headers['content-type'] ?? '(none)')}`, exchange);
  }
  const parsed = parseExact(text);
  if (!parsed.ok) throw new Violation(`the body is not JSON: ${parsed.message}`, exchange);
  const { value, view } = parsed.document;
  const validate = response?.validate;
  // A status the operation does not document has no shape in the spec (D59): only its status field, when it has one, is judged.
  if (validate !== undefined && documented && !validate(view)) {
    throw new Violation(`the ${status} body does not match the spec's schema for ${status}: ${validate.errors()}`, exchange);
  }
  const statusField = status >= 400 ? statusFieldOf(response) : undefined;
  const said = statusField === undefined ? undefined : (view as Record<string, unknown> | null)?.[statusField];
  if (statusField !== undefined && (documented || said !== undefined) && said !== status) {
    throw new Violation(`the error body's ${statusField} is ${JSON.stringify(said)} but the HTTP status is ${status}`, exchange);
  }
  return value;
}
