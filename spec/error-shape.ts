import { STATUS_CODES } from 'node:http';
import { sample } from 'openapi-sampler';
import type { ResponseModel } from './model.js';
import { mainType, objectShape, type Schema } from './schema.js';

/**
 * What an error says, whatever shape carries it: a stable machine-readable `code` (one row of the mock's error
 * table), a human `message`, and the HTTP `status` (seed, Errors: "The `status` field equals the HTTP status code").
 */
export interface ErrorFacts {
  code: string;
  message: string;
  status: number;
}

/**
 * Error bodies of one operation, in the shape its spec documents for each status (README › Error bodies):
 * `body(facts)` returns the JSON value and the media type to send it as.
 */
export interface ErrorShape {
  body(facts: ErrorFacts): { value: Record<string, unknown>; mediaType: string };
  /** Whether the spec documents `status` for this operation (exactly, by its `4XX` range, or by `default`). */
  documents(status: number): boolean;
}

/** Names an error schema gives the integer field that repeats the HTTP status (seed, Errors: `Error.status`). */
export const STATUS_NAMES = ['status', 'statusCode', 'status_code', 'httpStatus', 'http_status', 'httpStatusCode', 'httpCode'];
const MESSAGE_NAMES = ['message', 'detail', 'details', 'error_description', 'errorMessage', 'error_message', 'description', 'msg', 'reason'];
const CODE_NAMES = ['code', 'errorCode', 'error_code', 'error', 'type', 'kind'];

/**
 * Builds an operation's error shapes from its documented responses. For each status the schema documented for
 * it (exact, then `4XX`, then `default`) is filled field by field: the HTTP status goes to an integer field
 * named like `status` (or an integer `code`), the message to `message`/`detail`/…, the code to a string `code`/
 * `error`/…, `title` gets the status's reason phrase, and any other required field a schema-valid sample. With no
 * documented schema, the seed's `Error` (`{code, message, status}`) is sent.
 */
export function createErrorShape(responses: readonly ResponseModel[]): ErrorShape {
  const find = (status: number): ResponseModel | undefined =>
    responses.find((r) => r.status === String(status)) ?? responses.find((r) => r.status === `${String(status)[0]}XX`) ?? responses.find((r) => r.status === 'DEFAULT');
  const cache = new Map<number, (facts: ErrorFacts) => Record<string, unknown>>();
  return {
    documents: (status) => find(status) !== undefined,
    body(facts) {
      const response = find(facts.status);
      let fill = cache.get(facts.status);
      if (fill === undefined) cache.set(facts.status, (fill = filler(response?.schema)));
      const value = fill(facts);
      const documentedValid = response?.validate === undefined || response.validate(value);
      return { value: documentedValid ? value : { code: facts.code, message: facts.message, status: facts.status }, mediaType: response?.mediaType ?? 'application/json' };
    },
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
  const messageField = names.find((n) => MESSAGE_NAMES.includes(n) && typeOf(n) !== 'integer' && typeOf(n) !== 'object' && typeOf(n) !== 'array');
  const codeField = names.find((n) => CODE_NAMES.includes(n) && n !== statusField && typeOf(n) !== 'integer' && typeOf(n) !== 'number' && typeOf(n) !== 'object' && typeOf(n) !== 'array');
  const titleField = names.includes('title') && typeOf('title') !== 'integer' ? 'title' : undefined;
  const others = required.filter((n) => properties[n] !== undefined && ![statusField, messageField, codeField, titleField].includes(n));
  const samples = Object.fromEntries(others.map((n) => [n, sampleOf(properties[n]!)]));
  return (facts) => {
    const body: Record<string, unknown> = {};
    for (const name of names) {
      if (name === statusField) body[name] = facts.status;
      else if (name === codeField) body[name] = codeValue(properties[name]!, facts);
      else if (name === messageField) body[name] = facts.message;
      else if (name === titleField) body[name] = STATUS_CODES[facts.status] ?? facts.code;
      else if (name in samples) body[name] = samples[name];
    }
    return body;
  };
}

/** The code as the field allows it: the code itself, or the enum member that names it (else the first), or `about:blank` for a URI. */
function codeValue(schema: Schema, facts: ErrorFacts): unknown {
  const allowed = schema['enum'] as unknown[] | undefined;
  if (allowed !== undefined) return allowed.find((v) => typeof v === 'string' && v.toUpperCase() === facts.code) ?? allowed[0];
  if (schema['format'] === 'uri' || schema['format'] === 'uri-reference') return 'about:blank';
  return facts.code;
}

/** A schema-valid value (openapi-sampler), used for required fields the error facts do not fill. */
export function sampleOf(schema: Schema): unknown {
  try {
    return sample(schema as never, { skipReadOnly: false, skipWriteOnly: true, quiet: true });
  } catch {
    return null;
  }
}
