import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { concreteType, mediaKind, serialize } from './media.js';
import type { ContentModel, ErrorFacts, ErrorShape, ResponseModel } from './model.js';
import { validAnswer, validSample } from './samples.js';
import { mainType, objectShape, type Schema } from './schema.js';

/** Names an error schema gives the integer field that repeats the HTTP status (seed, Errors: `Error.status`). */
export const STATUS_NAMES = ['status', 'statusCode', 'status_code', 'httpStatus', 'http_status', 'httpStatusCode', 'httpCode'];
const MESSAGE_NAMES = ['message', 'detail', 'details', 'error_description', 'errorMessage', 'error_message', 'description', 'msg', 'reason'];
const CODE_NAMES = ['code', 'errorCode', 'error_code', 'error', 'type', 'kind'];
/** Names an error schema gives the id of the request it answers, for support tickets (DigitalOcean's `request_id`, D357). */
const REQUEST_ID_NAMES = ['request_id', 'requestId', 'x_request_id', 'trace_id', 'traceId', 'correlation_id', 'correlationId'];

/** Words of a response description that name a refused body's validation ("Validation failed", "Unprocessable Entity"). */
const VALIDATION_WORDS = /\bvalidat|\bunprocessable\b/i;

/** Words of a 400's description that claim refused input for it ("Invalid input", "Invalid ID supplied", "Malformed body"). */
const INPUT_WORDS = /\bvalidat|\binvalid\b|\bmalformed\b|\bunprocessable\b/i;

/**
 * Whether an operation documents 422 as its validation failure (D143): the 422's description speaks of validation
 * while the 400's, where there is one, claims no refused input (GitHub's "Validation failed" beside a plain "Bad
 * Request"; Swagger Petstore's "Invalid input" beside "Validation exception" keeps its 400).
 */
function validationStatus(responses: readonly ResponseModel[]): boolean {
  const unprocessable = responses.find((r) => r.status === '422');
  const bad = responses.find((r) => r.status === '400');
  return unprocessable !== undefined && VALIDATION_WORDS.test(unprocessable.description ?? '') && !INPUT_WORDS.test(bad?.description ?? '');
}

/**
 * Builds an operation's error shapes from its documented responses. For each status the response documented
 * for it is found (exact, then `4XX`, then `default`; one with a body first, spec/DECISIONS.md › D58) and its
 * content chosen (a JSON media type first, then XML, then text; bytes where the status documents only bytes, D550). The JSON schema is filled field by field: the
 * HTTP status goes to an integer field named like `status` (or an integer `code`), the message to `message`/
 * `detail`/…, the code to a string `code`/`error`/…, `title` gets the status's reason phrase, a list of error
 * objects (`{errors: [...]}`) or one error object under a member (`{error: {...}}`) is filled the same way, and any other
 * required field a schema-valid sample. A filled body the schema still rejects is replaced by the facts laid
 * over a valid example or sample, else by that example or sample alone. With no documented body, the seed's
 * `Error` (`{code, message, status}`) is sent as `application/json`. A status the operation does not document
 * takes the shape of its first documented error response (spec/DECISIONS.md › D58).
 */
export function createErrorShape(responses: readonly ResponseModel[]): ErrorShape {
  const documented = (status: number): ResponseModel | undefined =>
    responses.find((r) => r.status === String(status)) ?? responses.find((r) => r.status === `${String(status)[0]}XX`) ?? responses.find((r) => r.status === 'DEFAULT');
  // An error status the operation does not document takes the shape of its first documented error (as the suite
  // holds it, D39): a spec that writes its errors as problem+json for 400 and 404 means them for 401 too.
  const firstError = responses.find((r) => (/^[45]/.test(r.status) || r.status === 'DEFAULT') && r.contents.some(writable));
  const withBody = (status: number): ResponseModel | undefined => {
    const names = [String(status), `${String(status)[0]}XX`, 'DEFAULT'];
    // The response that documents this status with a body is answered in its own media type, even when that is
    // only bytes (`image/png`, `application/octet-stream`): its client reads nothing else there (D550).
    const own = names.map((name) => responses.find((r) => r.status === name && r.contents.length > 0)).find((r) => r !== undefined);
    if (own !== undefined && !own.contents.some(writable)) return own;
    return names.map((name) => responses.find((r) => r.status === name && r.contents.some(writable))).find((r) => r !== undefined) ?? firstError;
  };
  const cache = new Map<number, (facts: ErrorFacts) => { value: unknown; content: ContentModel | undefined }>();
  const made = (facts: ErrorFacts) => {
    let make = cache.get(facts.status);
    if (make === undefined) cache.set(facts.status, (make = maker(withBody(facts.status))));
    return make(facts);
  };
  const invalidRequestStatus = !responses.some((r) => r.status === '400' || r.status === '4XX') && responses.some((r) => r.status === '422') ? 422 : 400;
  return {
    documents: (status) => documented(status) !== undefined,
    invalidBodyStatus: invalidRequestStatus === 422 || validationStatus(responses) ? 422 : 400,
    // A catch-all `default` does not outweigh an explicit 422: DigitalOcean documents both on every operation.
    invalidRequestStatus,
    body(facts) {
      const { value, content } = made(facts);
      const object = value !== null && typeof value === 'object' && !Array.isArray(value);
      return object ? { value: value as Record<string, unknown>, mediaType: content?.mediaType ?? 'application/json' } : { value: { ...facts }, mediaType: 'application/json' };
    },
    write(facts) {
      const { value, content } = made(facts);
      if (content === undefined) return { text: JSON.stringify(value), mediaType: 'application/json' };
      // Bytes documented for an error carry its message, or its filled object as JSON text where the schema is one.
      if (!writable(content)) return { text: typeof value === 'string' ? value : JSON.stringify(value), mediaType: concreteType(content.mediaType) };
      return { text: serialize(value, content.mediaType, content.schema).text ?? '', mediaType: concreteType(content.mediaType) };
    },
  };
}

/** A content an error is written in by choice: JSON, XML or text (bytes only where the status documents nothing else, D550). */
function writable(content: ContentModel): boolean {
  return mediaKind(content.mediaType) !== 'binary';
}

const KIND_ORDER = ['json', 'xml', 'text'];

/** How one status's error body is made from the facts, in the content chosen for it. */
function maker(response: ResponseModel | undefined): (facts: ErrorFacts) => { value: unknown; content: ContentModel | undefined } {
  const content = response?.contents.filter(writable).sort((a, b) => KIND_ORDER.indexOf(mediaKind(a.mediaType)) - KIND_ORDER.indexOf(mediaKind(b.mediaType)))[0] ?? response?.contents[0];
  if (content === undefined) return (facts) => ({ value: { code: facts.code, message: facts.message, status: facts.status }, content: undefined });
  const validate = content.validate;
  const schema = content.schema ?? {};
  const kind = mediaKind(content.mediaType);
  const fill = (kind === 'text' || kind === 'binary') && mainType(schema) !== 'object' ? (facts: ErrorFacts) => facts.message : filler(content.schema);
  let fallback: { value: unknown } | undefined;
  return (facts) => {
    const value = fill(facts);
    if (validate === undefined || validate(value)) return { value, content };
    fallback ??= { value: validAnswer(schema, validate, content.examples.map((e) => e.value)).value };
    const base = fallback.value;
    if (base !== null && typeof base === 'object' && !Array.isArray(base) && value !== null && typeof value === 'object') {
      // The facts over a valid example keep the status and message where the schema lets them be.
      const laid = { ...(base as Record<string, unknown>), ...(value as Record<string, unknown>) };
      if (validate(laid)) return { value: laid, content };
      const kept = Object.fromEntries(Object.entries(laid).filter(([name, member]) => validate({ ...(base as Record<string, unknown>), [name]: member })));
      if (validate({ ...(base as Record<string, unknown>), ...kept })) return { value: { ...(base as Record<string, unknown>), ...kept }, content };
    }
    return { value: base, content };
  };
}

function filler(schema: Schema | undefined): (facts: ErrorFacts) => Record<string, unknown> {
  if (schema === undefined || (mainType(schema) !== 'object' && objectShape(schema).properties === undefined)) {
    return ({ code, message, status }) => ({ code, message, status });
  }
  const { properties, required } = objectShape(schema);
  const names = Object.keys(properties);
  if (names.length === 0) return ({ code, message, status }) => ({ code, message, status });
  const typeOf = (name: string): string | undefined => mainType(properties[name]!);
  const statusField = names.find((n) => STATUS_NAMES.includes(n) && (typeOf(n) === 'integer' || typeOf(n) === 'number'))
    ?? names.find((n) => n === 'code' && typeOf(n) === 'integer');
  // JSON:API writes the status as a string (`"status": "422"`).
  const statusText = statusField === undefined ? names.find((n) => STATUS_NAMES.includes(n) && typeOf(n) === 'string' && properties[n]!['enum'] === undefined) : undefined;
  const messageField = names.find((n) => MESSAGE_NAMES.includes(n) && typeOf(n) !== 'integer' && typeOf(n) !== 'object' && typeOf(n) !== 'array');
  const codeField =
    names.find((n) => CODE_NAMES.includes(n) && n !== statusField && typeOf(n) !== 'integer' && typeOf(n) !== 'number' && typeOf(n) !== 'object' && typeOf(n) !== 'array') ??
    // An error whose only name for its kind is a plain string `id` (`{"id": "not_found", "message": …}`, DigitalOcean's shape).
    names.find((n) => n === 'id' && typeOf(n) === 'string' && properties[n]!['format'] === undefined && properties[n]!['pattern'] === undefined && properties[n]!['enum'] === undefined);
  const titleField = names.includes('title') && typeOf('title') !== 'integer' ? 'title' : undefined;
  // A code its description calls an identifier of the HTTP status code ("the ID for a 404 would be not_found") is
  // that status's reason in snake case (D358), as the description says, not the mock's own code.
  const codeDescription = codeField === undefined ? '' : String(properties[codeField]!['description'] ?? '');
  const statusNamed = codeField !== undefined && properties[codeField]!['enum'] === undefined && /\bidentifier\b/i.test(codeDescription) && /\bstatus code\b/i.test(codeDescription);
  // A list of error objects and nothing at the top that says what went wrong (JSON:API's `{"errors": [{status, detail}]}`): one item, filled.
  const listField = messageField === undefined && codeField === undefined ? names.find((n) => typeOf(n) === 'array' && isErrorItem(properties[n]!['items'])) : undefined;
  const item = listField === undefined ? undefined : filler(properties[listField]!['items'] as Schema);
  // One error object under a member and nothing at the top that says what went wrong (`{"error": {code, message}}`): filled in place.
  const nestedField = messageField === undefined && codeField === undefined && listField === undefined ? names.find((n) => typeOf(n) === 'object' && isErrorItem(properties[n])) : undefined;
  const nested = nestedField === undefined ? undefined : filler(properties[nestedField]!);
  // A request id, required or not, is each answer's own (D357): a fresh UUID, so a report can name the failed call.
  const requestIdField = names.find((n) => REQUEST_ID_NAMES.includes(n) && typeOf(n) === 'string' && properties[n]!['enum'] === undefined && properties[n]!['pattern'] === undefined && [undefined, 'uuid'].includes(properties[n]!['format'] as string | undefined));
  const others = required.filter((n) => properties[n] !== undefined && ![statusField, statusText, messageField, codeField, titleField, listField, nestedField, requestIdField].includes(n));
  const samples = Object.fromEntries(others.map((n) => [n, sampleOf(properties[n]!)]));
  return (facts) => {
    const body: Record<string, unknown> = {};
    for (const name of names) {
      if (name === statusField) body[name] = facts.status;
      else if (name === statusText) body[name] = String(facts.status);
      else if (name === listField) body[name] = [item!(facts)];
      else if (name === nestedField) body[name] = nested!(facts);
      else if (name === codeField) body[name] = (statusNamed ? statusWord(facts.status) : undefined) ?? codeValue(properties[name]!, facts);
      else if (name === messageField) body[name] = facts.message;
      else if (name === titleField) body[name] = STATUS_CODES[facts.status] ?? facts.code;
      else if (name === requestIdField) body[name] = randomUUID();
      else if (name in samples) body[name] = samples[name];
    }
    return body;
  };
}

/** Whether a list's items are error objects: an object schema naming a message, a code or a status. */
function isErrorItem(items: unknown): boolean {
  if (items === null || typeof items !== 'object' || Array.isArray(items)) return false;
  const names = Object.keys(objectShape(items as Schema).properties);
  return names.some((n) => MESSAGE_NAMES.includes(n) || CODE_NAMES.includes(n) || STATUS_NAMES.includes(n));
}

/** A status's reason phrase in snake case (`404` → `not_found`), `undefined` for a status without one. */
function statusWord(status: number): string | undefined {
  const reason = STATUS_CODES[status];
  return reason === undefined ? undefined : reason.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
}

/** The code as the field allows it: the code itself, or the enum member that names it (else the first), or `about:blank` for a URI. */
function codeValue(schema: Schema, facts: ErrorFacts): unknown {
  const allowed = schema['enum'] as unknown[] | undefined;
  if (allowed !== undefined) return allowed.find((v) => typeof v === 'string' && v.toUpperCase() === facts.code) ?? allowed[0];
  if (schema['format'] === 'uri' || schema['format'] === 'uri-reference') return 'about:blank';
  return facts.code;
}

/**
 * A schema-valid value for a schema (model/samples.ts: the schema's examples, openapi-sampler's sample, or a value
 * built from its keywords, each checked with its validator), used for members no fact or request fills.
 */
export function sampleOf(schema: Schema): unknown {
  return validSample(schema);
}
