import type { OperationModel, ResponseModel } from '../model/model.js';
import { STATUS_NAMES } from '../model/error-shape.js';
import { mainType, objectShape } from '../model/schema.js';

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

/** The statuses an operation documents, as numbers below 500: exact ones, the hundred of a range, every 4xx under `default`, and every 2xx when no 1xx-3xx is listed (D344, D397). */
export function documentedStatuses(op: OperationModel): number[] {
  const statuses = new Set<number>();
  for (const response of op.responses) {
    const exact = Number(response.status);
    if (Number.isInteger(exact)) statuses.add(exact);
    // A range (`4XX`) covers its hundred; `default` every status not listed, here the 4xx a valid request may
    // still get (D94): the OpenAPI meaning of both, never a 5xx.
    const range = /^([1-4])XX$/.exec(response.status);
    const from = range !== null ? Number(range[1]) * 100 : response.status === 'DEFAULT' ? 400 : undefined;
    if (from !== undefined) for (let status = from; status < from + 100; status++) statuses.add(status);
  }
  // With no 1xx-3xx listed, `default` is the only answer a success can have: it covers the 2xx too (D344). With
  // errors alone listed, the description says nothing of a success, which any 2xx may then be, as the mock's is (D397).
  if (![...statuses].some((status) => status < 400)) for (let status = 200; status < 300; status++) statuses.add(status);
  return [...statuses].filter((status) => status < 500).sort((a, b) => a - b);
}
