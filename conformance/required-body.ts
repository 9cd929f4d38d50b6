import type { OperationModel } from '../model/model.js';
import { validAnswer } from '../model/samples.js';

/** Methods whose request content has no generally defined semantics (RFC 9110 § 9.3.1, § 9.3.2, § 9.3.5). */
const BODILESS = new Set(['GET', 'HEAD', 'DELETE']);

const filled = new WeakMap<object, { value: unknown }>();

/**
 * The body a request of `op` carries when the check names none (spec/DECISIONS.md › D933): where `op` is a `GET`,
 * `HEAD` or `DELETE` whose description marks its request body required, the first of the body's examples its schema
 * takes, else a value made valid for the schema (model/samples.ts), as a required query parameter a check leaves
 * out is named with the description's value (D220). A server written from the same text may refuse the request
 * without it, and judging that refusal would be a false alarm; a server that ignores such content takes it. `undefined`
 * for any other operation, an optional body, or none. Kept per body: the same value each time.
 */
export function requiredBodyOf(op: OperationModel): unknown {
  const body = op.body;
  if (body === undefined || !body.required || !BODILESS.has(op.method)) return undefined;
  let found = filled.get(body);
  if (found === undefined) filled.set(body, (found = { value: validAnswer(body.schema, body.validate, body.examples ?? []).value }));
  return found.value === null || typeof found.value !== 'object' ? found.value : structuredClone(found.value);
}
