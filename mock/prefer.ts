import type { ErrorCode } from './errors.js';
import type { OperationModel, ResponseModel } from '../model/model.js';
import { STORE_RETRY_AFTER_SECONDS } from './store/record-store.js';

/**
 * The `Prefer` request header, as Prism reads it (README › Forcing responses): `code=<status>` forces a
 * documented response of the operation, `example=<name>` one of its named examples, `delay=<ms>` holds the
 * answer back. Preferences are separated by `,` or `;` (`Prefer: code=404, delay=500`); unknown preferences
 * (Prism's `dynamic=`) are ignored.
 */
export interface Preferences {
  /** HTTP status asked for with `code=`. */
  code?: number;
  /** Name of a documented example asked for with `example=` (a key of the media type's `examples`). */
  example?: string;
  /** Milliseconds to wait before the answer is written, 0 to {@link MAX_DELAY_MS}. */
  delay?: number;
}

/** Longest `Prefer: delay` accepted, in milliseconds (one minute): a front-end spinner, not a hung socket. */
const MAX_DELAY_MS = 60_000;

/** A refusal of the error table (the pipeline's `Refusal` shape). */
export type PreferRefusal = { error: ErrorCode; detail: string; headers?: Record<string, string> };

/** Parses `Prefer` header(s). Errors: a `code` that is no 3-digit status or a `delay` outside 0..60000 ms. */
export function parsePrefer(header: string | string[]): { ok: true; value: Preferences } | { ok: false; message: string } {
  const value: Preferences = {};
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(/[,;]/)) {
    const at = part.indexOf('=');
    if (at === -1) continue;
    const name = part.slice(0, at).trim().toLowerCase();
    const text = part.slice(at + 1).trim().replace(/^"(.*)"$/, '$1');
    if (name === 'code') {
      if (!/^[1-5]\d\d$/.test(text)) return { ok: false, message: `Prefer: code must be an HTTP status from 100 to 599, got ${JSON.stringify(text)}.` };
      value.code = Number(text);
    } else if (name === 'example') {
      if (text === '') return { ok: false, message: 'Prefer: example must name one of the examples the operation documents.' };
      value.example = text;
    } else if (name === 'delay') {
      if (!/^\d{1,6}$/.test(text) || Number(text) > MAX_DELAY_MS) {
        return { ok: false, message: `Prefer: delay must be a whole number of milliseconds from 0 to ${MAX_DELAY_MS}, got ${JSON.stringify(text)}.` };
      }
      value.delay = Number(text);
    }
  }
  return { ok: true, value };
}

/** The error row that answers a forced status: the seed's documented errors (seed, Errors), and the other 4xx the mock answers. */
const FORCED: Record<number, ErrorCode> = { 400: 'INVALID_BODY', 401: 'UNAUTHORIZED', 404: 'RECORD_NOT_FOUND', 409: 'STORE_FULL', 413: 'PAYLOAD_TOO_LARGE', 415: 'UNSUPPORTED_MEDIA_TYPE', 503: 'STORE_UNAVAILABLE' };

/** A documented answer asked for with `Prefer`: the response of `status`, and the example's name when one is named. */
export type PreferExample = { example: { status: number; response: ResponseModel; name: string | undefined } };

/**
 * What the pipeline answers for a `Prefer` header on a routed, authenticated request (spec/DECISIONS.md › D56):
 * - `undefined`: no `code=` nor `example=`, or only the operation's own success status (handled as usual);
 * - an example to serve: `example=NAME` (of the success status, or of `code=`'s), or `code=` a documented 2xx
 *   other than the operation's success (its example or a valid sample, no state read or written);
 * - the documented error of that status for the operation (`Prefer: code=404` on `getPet` is a 404 `PET_NOT_FOUND`);
 * - a 400 `PREFER_CODE_UNDOCUMENTED` naming the documented statuses when the operation does not document it;
 * - a 400 `INVALID_PREFER` when the header cannot be read.
 */
export function forcedResponse(operation: OperationModel, header: string | string[]): PreferRefusal | PreferExample | undefined {
  const parsed = parsePrefer(header);
  if (!parsed.ok) return { error: 'INVALID_PREFER', detail: parsed.message };
  const { code, example } = parsed.value;
  const documented = operation.responses.map((response) => Number(response.status)).filter(Number.isInteger);
  const undocumented = (status: number): PreferRefusal => ({
    error: 'PREFER_CODE_UNDOCUMENTED',
    detail: `Prefer: code=${status} is not documented for ${operation.operationId} (${operation.method} ${operation.path}); documented: ${documented.join(', ')}.`,
  });
  if (example !== undefined) {
    const status = code ?? operation.successStatus;
    const response = operation.responses.find((r) => r.status === String(status));
    if (response === undefined) return undocumented(status);
    return { example: { status, response, name: example } };
  }
  if (code === undefined || code === operation.successStatus) return undefined;
  if (code < 300 && documented.includes(code)) return { example: { status: code, response: operation.responses.find((r) => r.status === String(code))!, name: undefined } };
  const error = FORCED[code];
  if (error === undefined || !documented.includes(code)) return undocumented(code);
  const detail = `Answer forced by "Prefer: code=${code}" for ${operation.operationId}.`;
  if (code === 401) return { error, detail, headers: { 'www-authenticate': 'Bearer' } };
  return code === 503 ? { error, detail, headers: { 'retry-after': String(STORE_RETRY_AFTER_SECONDS) } } : { error, detail };
}

/**
 * Milliseconds to hold an answer (or one event of a stream) back: `Prefer: delay=MS` when the request asks (an
 * invalid header is refused by the pipeline and not delayed), else a draw of the global `latency`, else `otherwise`
 * (0 for an answer; {@link DEFAULT_EVENT_GAP_MS} between the events of a stream, D85).
 */
export function answerDelay(header: string | string[] | undefined, latency: Latency | undefined, otherwise = 0): number {
  const parsed = header === undefined ? undefined : parsePrefer(header);
  if (parsed !== undefined && parsed.ok && parsed.value.delay !== undefined) return parsed.value.delay;
  return latency === undefined ? otherwise : drawLatency(latency);
}

/**
 * Pause between two events of a stream when neither `--latency` nor `Prefer: delay` sets one, in milliseconds
 * (spec/DECISIONS.md › D85): long enough for a page to show the pieces arriving, short enough for a suite that
 * reads many streams.
 */
export const DEFAULT_EVENT_GAP_MS = 25;

/** A global `--latency`: every answer waits a random whole number of milliseconds in `[min, max]`. */
export interface Latency {
  min: number;
  max: number;
}

/** Parses `--latency`: `MS` or `MIN-MAX` (milliseconds, each 0..60000, MIN <= MAX). Errors: throws a readable `Error`. */
export function parseLatency(text: string): Latency {
  const match = /^\s*(\d{1,6})\s*(?:-\s*(\d{1,6})\s*)?$/.exec(text);
  const min = match === null ? NaN : Number(match[1]);
  const max = match === null ? NaN : Number(match[2] ?? match[1]);
  if (!(min <= max && max <= MAX_DELAY_MS)) throw new Error(`must be MS or MIN-MAX in milliseconds (0 to ${MAX_DELAY_MS}, MIN <= MAX), got ${JSON.stringify(text)}`);
  return { min, max };
}

/** One draw of a latency: uniform whole milliseconds in `[min, max]`. */
function drawLatency(latency: Latency): number {
  return latency.min + Math.floor(Math.random() * (latency.max - latency.min + 1));
}
