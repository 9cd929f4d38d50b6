import type { components } from '../model/openapi.js';

/** The seed's `Error` shape (seed, Resources and their fields › Error): `{ code, message, status }`. */
export type ApiError = components['schemas']['Error'];

/**
 * Every error the mock can send: one row each, a stable `code`, its HTTP status and a default message.
 * Codes are the mock's choice (the seed does not list them, see spec/DECISIONS.md › Error codes); nothing
 * branches on message text. The statuses follow the seed's Errors section where it speaks (400, 401, 404) and
 * DECISIONS.md where it is silent (405, 406, 408, 409, 413, 415, 431, 503 while a shared store is unreachable; 500
 * only as a last resort that keeps the process up, never expected).
 */
export const ERRORS = {
  UNAUTHORIZED: { status: 401, message: 'Missing or invalid API key: send "Authorization: Bearer <API_KEY>".' },
  INVALID_BODY: { status: 400, message: 'The request body is missing required fields or holds invalid values.' },
  MALFORMED_JSON: { status: 400, message: 'The request body is not valid JSON.' },
  BODY_REQUIRED: { status: 400, message: 'A JSON request body is required.' },
  INVALID_QUERY: { status: 400, message: 'A query parameter is invalid.' },
  INVALID_HEADER: { status: 400, message: 'A header parameter is missing or invalid.' },
  PET_NOT_FOUND: { status: 404, message: 'No animal has this id.' },
  // Any resource's 404: the body's code names the resource (`PET_NOT_FOUND` for `pets`, see handlers.ts).
  RECORD_NOT_FOUND: { status: 404, message: 'No record has this id.' },
  ROUTE_NOT_FOUND: { status: 404, message: 'No operation of the Animals interface is served at this path.' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'This method is not allowed on this path.' },
  STORE_FULL: { status: 409, message: 'The mock holds its maximum number of records.' },
  // A create naming an id (a natural key, or a writable id) already held (spec/DECISIONS.md › D50); the body's code names the resource (`USER_EXISTS`).
  RECORD_EXISTS: { status: 409, message: 'A record with this id exists already.' },
  // The same refusal for a create that documents 400 but not 409 (D50).
  RECORD_EXISTS_INVALID: { status: 400, message: 'A record with this id exists already.' },
  MALFORMED_FORM: { status: 400, message: 'The form body is malformed.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is larger than the mock accepts.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'The request body must be sent as Content-Type: application/json.' },
  // The request's Accept admits none of the media types the answer is documented in (spec/DECISIONS.md › D57).
  NOT_ACCEPTABLE: { status: 406, message: 'The Accept header admits none of the media types this answer is documented in.' },
  MALFORMED_REQUEST: { status: 400, message: 'The HTTP request is malformed.' },
  HEADERS_TOO_LARGE: { status: 431, message: 'The request headers or URL are too large.' },
  // Mock controls outside the contract (README › Forcing responses, Admin API); not part of the seed.
  INVALID_PREFER: { status: 400, message: 'The Prefer header is invalid: use "Prefer: code=<status>" and/or "Prefer: delay=<ms>".' },
  PREFER_CODE_UNDOCUMENTED: { status: 400, message: 'The status asked for with "Prefer: code=" is not documented for this operation.' },
  PREFER_EXAMPLE_UNKNOWN: { status: 400, message: 'The example asked for with "Prefer: example=" is not one this answer documents.' },
  TOO_MANY_KEYS: { status: 429, message: 'The mock holds separate data for its maximum number of API keys (--isolate-by-key); reset it.' },
  ADMIN_UNAUTHORIZED: { status: 401, message: 'The admin API needs "Authorization: Bearer <admin token>" (--admin-token); an API key is not enough.' },
  ADMIN_DISABLED: { status: 404, message: 'The admin API is turned off (--no-admin).' },
  ADMIN_NOT_FOUND: { status: 404, message: 'No admin endpoint is served at this path.' },
  INVALID_PETS: { status: 400, message: 'The body must be a JSON array of Pet objects with distinct ids.' },
  // Any resource's admin load; the body's code names the resource (`INVALID_PETS` for `pets`, see admin.ts).
  INVALID_RECORDS: { status: 400, message: 'The body must hold records of the resource schema with distinct ids.' },
  ADMIN_KEY_REQUIRED: { status: 400, message: 'With --isolate-by-key, name the API key whose pets to use in the X-OpenAPI-Harness-Key header (one the mock accepts).' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request was not received in full within the time the mock allows.' },
  // An answer the spec does not let the mock build (a schema no sample satisfies in time, D83): in the operation's error shape.
  ANSWER_FAILED: { status: 500, message: 'The mock could not build this answer from the spec; the start-up log (--log-level debug) says why.' },
  INTERNAL_ERROR: { status: 500, message: 'The mock failed to answer this request; this is a bug of the mock.' },
  // The shared store (`--store redis://…`) did not answer within `--store-timeout`: sent with `Retry-After` (README › Several replicas).
  STORE_UNAVAILABLE: { status: 503, message: 'The mock cannot reach its shared store for now; retry after Retry-After seconds.' },
  // The validating proxy (`--proxy`, README › Proxy) could not reach its upstream and had no fallback (`--fallback`) for it.
  UPSTREAM_UNREACHABLE: { status: 502, message: 'The proxy could not reach the upstream service.' },
  // The upstream sent an answer the proxy could not read in full (a broken connection mid-body, a timeout).
  UPSTREAM_FAILED: { status: 502, message: 'The upstream service did not answer in full.' },
} as const satisfies Record<string, { status: number; message: string }>;

/** One of the stable error codes of {@link ERRORS}. */
export type ErrorCode = keyof typeof ERRORS;

/**
 * Builds the wire `Error` for a code: `status` always equals the HTTP status of the row (seed, Errors:
 * "The `status` field equals the HTTP status code"). `detail`, when given, replaces the default message and
 * should say what was wrong and where (for example `body/name must be string`); `name` replaces the row's
 * name in the body (a resource's `PET_NOT_FOUND` for the row `RECORD_NOT_FOUND`).
 */
export function apiError(code: ErrorCode, detail?: string, name: string = code): ApiError {
  const row = ERRORS[code];
  return { code: name, message: detail ?? row.message, status: row.status };
}
