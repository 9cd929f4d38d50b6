import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { violationLabel } from '../judge/exchange.js';
import type { ExchangeViolation } from '../judge/verdict.js';
import { bearerToken } from '../mock/bearer.js';
import { apiError, type ErrorCode } from '../mock/errors.js';
import type { JournalViolation } from '../mock/journal.js';
import type { MockRequest, MockResponse } from '../mock/index.js';
import { headerText } from './upstream.js';
import { ANSWERED_BY_HEADER, LEGACY, VIOLATIONS_HEADER } from '../cli/product.js';

/** What the proxy writes: its own headers, answers and errors, the same for both sides (README › The validating proxy). */

/** Response header naming the violations of an exchange (`--no-violation-header` leaves it out), and the one saying
 * which side answered: `upstream` or `mock` (with the reason of a fallback). Each is sent under its old name too. */
export { ANSWERED_BY_HEADER, VIOLATIONS_HEADER };
/** Longest value of {@link VIOLATIONS_HEADER}, in characters: the count comes first, the list is cut beyond. */
const HEADER_MAX = 1024;

/** One answer on its way to the client: status, headers, the body bytes as they go on the wire, and who made it. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[]>;
  bytes: Buffer;
  answeredBy: 'upstream' | 'mock';
  /** Already sent to the client piece by piece as it came (a stream, D89): only judged and reported after. */
  streamed?: boolean;
  /** Why the mock answered: `--mock-operations`, a fallback (`404`, `501`, `unreachable`), a record the mock holds, `--errors`. */
  reason?: string;
}

/** Headers as one lower-case text per name (a repeated header joined with `, `). */
export function flatHeaders(headers: IncomingHttpHeaders | Record<string, string | string[]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  return out;
}

/** The value of {@link VIOLATIONS_HEADER}: the count, then `operation rule pointer` items, ASCII, cut at {@link HEADER_MAX}. */
export function violationsHeader(violations: readonly ExchangeViolation[]): string {
  const text = `${violations.length}; ${violations.map(violationLabel).join(', ')}`.replace(/[^\x20-\x7e]/g, (c) => encodeURIComponent(c));
  return text.length > HEADER_MAX ? `${text.slice(0, HEADER_MAX - 3)}...` : text;
}

/** Writes an answer with its bytes unchanged, adding who answered and the violations (exposed to pages when CORS is on). */
export function write(res: ServerResponse, answer: Answer | MockResponse, violations: readonly ExchangeViolation[] | undefined, streamed = false): void {
  // A mock's binary answer carries its bytes too (D57); its other answers carry text.
  const bytes = answer.bytes ?? Buffer.from('body' in answer ? answer.body : '');
  const flat: string[] = [];
  let sized = false;
  for (const name in answer.headers) {
    const value = answer.headers[name]!;
    if (name === 'access-control-expose-headers') continue;
    if (name === 'content-length') sized = true;
    if (typeof value === 'string') flat.push(name, value);
    else for (const item of value) flat.push(name, item);
  }
  const added: string[] = [];
  if ('answeredBy' in answer) {
    const answeredBy = answer.reason === undefined ? answer.answeredBy : `${answer.answeredBy}; ${answer.reason}`;
    flat.push(ANSWERED_BY_HEADER, answeredBy, LEGACY.answeredByHeader, answeredBy);
    added.push(ANSWERED_BY_HEADER, LEGACY.answeredByHeader);
  }
  if (violations !== undefined && violations.length > 0) {
    const listed = violationsHeader(violations);
    flat.push(VIOLATIONS_HEADER, listed, LEGACY.violationsHeader, listed);
    added.push(VIOLATIONS_HEADER, LEGACY.violationsHeader);
  }
  const expose = headerText(answer.headers['access-control-expose-headers']);
  if (answer.headers['access-control-allow-origin'] !== undefined) flat.push('access-control-expose-headers', [expose, ...added].filter((item) => item !== undefined && item !== '').join(', '));
  else if (expose !== undefined) flat.push('access-control-expose-headers', expose);
  if (!sized && answer.status !== 204 && answer.status !== 304 && !streamed) flat.push('content-length', String(bytes.length));
  res.writeHead(answer.status, flat);
  if (streamed) res.flushHeaders();
  else res.end(bytes);
}

/**
 * Sends the head of a streamed answer (D85: no `Content-Length`, no violations header, since they are known only
 * at its end), then each piece of `stream` as it arrives, and returns every byte passed on once it ends or the
 * client leaves (then the upstream's stream is dropped). Errors: rejects with the stream's error after ending
 * the answer, so the client sees the stream stop.
 */
export async function relayStream(res: ServerResponse, answer: Answer, stream: AsyncIterable<Buffer> & { destroy(): void }): Promise<Buffer> {
  write(res, answer, undefined, true);
  const pieces: Buffer[] = [];
  const left = (): void => stream.destroy();
  res.on('close', left);
  try {
    for await (const piece of stream) {
      if (res.destroyed) break;
      pieces.push(piece);
      res.write(piece);
    }
  } finally {
    res.off('close', left);
    if (!res.writableEnded) res.end();
  }
  return Buffer.concat(pieces);
}

export function journalViolation(violation: ExchangeViolation): JournalViolation {
  const { operationId, rule, side, pointer, expected, got } = violation;
  return { operationId, rule, side, pointer, expected, got };
}

export function errorResponse(code: ErrorCode, detail?: string, headers: Record<string, string> = {}): MockResponse {
  const error = apiError(code, detail);
  return { status: error.status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(error) };
}

export function errorAnswer(code: ErrorCode, detail?: string, headers: Record<string, string> = {}): Answer {
  const response = errorResponse(code, detail, headers);
  return { status: response.status, headers: response.headers, bytes: Buffer.from(response.body), answeredBy: 'mock' };
}

/** The admin API's guard, for the proxy's own admin endpoint: off with `--no-admin`, a token when one is set. */
export function adminRefusal(enabled: boolean, tokenDigest: Buffer | undefined, request: MockRequest): Answer | undefined {
  if (!enabled) return errorAnswer('ADMIN_DISABLED');
  if (tokenDigest === undefined) return undefined;
  const given = bearerToken(request.headers.authorization);
  if (given === undefined || !timingSafeEqual(digest(given), tokenDigest)) return errorAnswer('ADMIN_UNAUTHORIZED', undefined, { 'www-authenticate': 'Bearer realm="admin"' });
  return undefined;
}

export function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
