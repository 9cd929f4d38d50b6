import type { Method, OperationModel } from '../model/model.js';

/** The rules one exchange can break, as logs, headers and counts name them. */
export type ExchangeRule =
  | 'route'
  | 'method'
  | 'request.parameter'
  | 'request.body'
  | 'request.credentials'
  | 'status'
  | 'media-type'
  | 'body.json'
  | 'stream.framing'
  | 'stream.event'
  | 'body.schema'
  | 'error.status'
  | 'auth.accepted'
  | 'body.accepted'
  | 'list.filter'
  | 'list.limit'
  | 'list.default-limit'
  | 'create.echo'
  | 'read.id'
  | 'sequence.read-after-create'
  | 'sequence.delete-gone'
  | 'sequence.pages-overlap';

/**
 * One broken rule. `operationId` is the spec's (or `METHOD path` when the spec describes none); `side` says
 * whose fault it is (`request`: the client sent what the spec does not allow; `response`: the server answered
 * what it does not allow); `pointer` is a JSON pointer into that side (`/query/limit`, `/body/0/status`,
 * `/headers/content-type`, `/status`); `expected` and `got` are short texts; `message` one readable sentence.
 */
export interface ExchangeViolation {
  operationId: string;
  rule: ExchangeRule;
  side: 'request' | 'response';
  pointer: string;
  expected: string;
  got: string;
  message: string;
}

/**
 * An exchange as the judge reads it. `path` is below the spec's base path, query included (`/pets?limit=5`);
 * header names are lower case; bodies are text as sent and received (decoded when compressed).
 */
export interface ObservedExchange {
  request: { method: string; path: string; headers: Readonly<Record<string, string>>; body?: string | undefined };
  /** `bodyMissing`: the recording kept no body (a HAR exported without content): nothing about it is judged. */
  response: { status: number; headers: Readonly<Record<string, string>>; text: string; bodyMissing?: boolean };
}

/** The operation a request addresses, with its path parameters as sent (decoded), or why none does. */
export type Routed = { op: OperationModel; pathValues: Record<string, string> } | { op: undefined; pathKnown: boolean };

/** What {@link judgeExchange} found: the operation, the violations, and the bodies read exactly (for sequence rules). */
export interface ExchangeVerdict {
  op: OperationModel | undefined;
  /** Whether the spec describes this route and method. */
  described: boolean;
  violations: ExchangeViolation[];
  /** Whether the request obeyed the spec (parameters, body, credentials). */
  requestValid: boolean;
  /** The request body as exact JSON (numbers as `LosslessNumber`), when it was JSON. */
  sent: unknown;
  /** The response body as exact JSON, when it was JSON. */
  body: unknown;
  pathValues: Record<string, string>;
}

/** A request as sent (by the suite, or recorded by the proxy): method, path below the base URL (with its query), headers, raw body text. */
export interface OutgoingRequest {
  /** Any method the spec documents: the fixed ones, 3.2's `QUERY`, or one of its `additionalOperations`. */
  method: Method;
  /** Path relative to the base URL, starting with `/`, query included: `/pets?limit=5`. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** One request and what came back; `text` is the body exactly as received (decoded when it was compressed). */
export interface Exchange {
  request: OutgoingRequest & { url: string };
  response: { status: number; headers: Record<string, string>; text: string };
  /** When the (last, answered) try was sent, as an ISO date, and how long it took in ms: for HAR files. */
  timing?: { startedDateTime: string; totalMs: number };
}
