import type { MockRequest, MockResponse } from './messages.js';
import { ADMIN_KEY_HEADER, envName, LEGACY } from '../cli/product.js';

/** Request headers never kept in the journal: credentials (seed, Authentication: keys are secrets), incl. the admin's `x-openapi-harness-key` (and its old name). */
const SECRET_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization', ADMIN_KEY_HEADER, LEGACY.adminKeyHeader]);
/** Characters of a request or answer body kept per entry; the rest is dropped and `bodyTruncated` says so. */
const BODY_BYTES_KEPT = 4096;
/** Milliseconds between two batches of the live stream: at most this often are entries turned into JSON for watchers. */
const STREAM_INTERVAL_MS = 100;
/** Newest entries sent per batch; under a flood the older ones of the batch are only counted (`skipped`). */
const STREAM_BATCH_MAX = 25;

/**
 * How the mock judged a request against the spec (README › Console): `valid` when it reached its handler,
 * `refused` with the mock's error code and message and, for a body, the JSON pointer of the first failing
 * value (`/name`); `unrouted` when no operation answers its path or method.
 */
export type Validation = { outcome: 'valid' } | { outcome: 'refused'; code: string; message: string; pointer?: string } | { outcome: 'unrouted'; code: string };

/** A rule an exchange through the validating proxy broke (`--proxy`): which side, where, what was expected and got. */
export interface JournalViolation {
  operationId: string;
  rule: string;
  side: 'request' | 'response';
  pointer: string;
  expected: string;
  got: string;
}

/**
 * Where the mock's answer to an exchange differs from the upstream's (`proxy --shadow`, DECISIONS D471): `status`,
 * a member the mock lacks (`missing`) or adds (`added`), an array's length (`items`), a value of another type (`type`:
 * a container on one side only, text against a number, a date-time against other text; D532), a value the client
 * wrote that the upstream gives back and the mock does not (`written`). `pointer` is
 * the JSON pointer in the answer; `upstream` and `mock` what each side has there (`absent` when nothing).
 */
export interface ShadowDifference {
  kind: 'status' | 'missing' | 'added' | 'items' | 'type' | 'written';
  pointer: string;
  upstream: string;
  mock: string;
}

/** What a recorder may add to a row besides the exchange (the validating proxy: who answered, what it broke, how the shadow differed). */
export interface JournalExtra {
  answeredBy?: 'upstream' | 'mock' | undefined;
  violations?: JournalViolation[] | undefined;
  /** `proxy --shadow`: the mock's answer to the same request, and where it differs (empty: it agrees). */
  shadow?: { status: number; body: string; differences: ShadowDifference[] } | undefined;
}

/** An answer as the journal keeps it: only `status` is required (a proxied answer may come without a text body). */
export type JournalResponse = Pick<MockResponse, 'status'> & Partial<MockResponse>;

/** What a journal reader works out for a row, from the spec served now (`operationId`, the validation outcome). */
export interface EntryFacts {
  operationId?: string | undefined;
  validation: Validation;
}

/**
 * One answered request as `GET /__admin/requests` shows it. Never holds a credential header. Other parts of the
 * mock may add fields (a proxy's `answeredBy`, `violations`): readers must ignore fields they do not know.
 */
export interface JournalEntry {
  /** Sequence number, increasing for the life of the process (the stream's event id). */
  seq: number;
  /** When the answer was made, ISO 8601 UTC. */
  time: string;
  method: string;
  /** Path and query as sent (`/v1/pets?limit=5`). */
  url: string;
  status: number;
  /** The spec's operation the request was routed to, when one was. */
  operationId?: string | undefined;
  /** Milliseconds the mock took to answer (without a `Prefer: delay` or `--latency` wait). */
  durationMs: number;
  validation: Validation;
  /** Request headers, without `authorization`, `cookie`, `proxy-authorization` and the admin key header. */
  headers: Record<string, string | string[] | undefined>;
  /** The request body as UTF-8 text (first 4 KiB), when one was sent. */
  body?: string;
  bodyTruncated?: boolean;
  /** The answer as sent: its headers and body (first 4 KiB). */
  response: { headers: Record<string, string>; body: string; bodyTruncated?: boolean };
  /** A shell command replaying the request; the key appears as `$OPENAPI_HARNESS_API_KEY`, never in clear. */
  curl: string;
  /** Through the validating proxy: who answered. */
  answeredBy?: 'upstream' | 'mock';
  /** Through the validating proxy: the rules the exchange broke. */
  violations?: JournalViolation[];
  /** Through `proxy --shadow`: the mock's answer to the same request (body's first 4 KiB) and where it differs. */
  shadow?: { status: number; body: string; differences: ShadowDifference[] };
  [extra: string]: unknown;
}

/** Which entries `entries()` returns: the newest `limit`, of one operation, of one status (`404`) or class (`4xx`). */
export interface JournalFilter {
  limit?: number | undefined;
  operationId?: string | undefined;
  status?: string | undefined;
}

interface Row {
  seq: number;
  at: number;
  request: MockRequest;
  response: JournalResponse;
  duration: number;
  hadCredentials: boolean;
  extra: JournalExtra | undefined;
}

/** A watcher of the live journal: new entries (newest last) and how many were left out of the batch. */
export type JournalListener = (batch: { entries: JournalEntry[]; skipped: number }) => void;

/**
 * A bounded journal of the requests the mock answered (README › Admin API), newest first. A ring of
 * `capacity` rows: recording costs one small object and keeps references only (headers and bodies are turned
 * into an entry when read), so the hot path does no copying. Watchers get new entries in batches at most every
 * 100 ms, so a flood of requests costs them one timer and at most 25 entries per batch. Capacity 0 records nothing.
 */
export class Journal {
  private rows: (Row | undefined)[];
  private next = 0;
  private count = 0;
  private seq = 0;
  private sent = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<JournalListener>();
  private readonly changeListeners = new Set<() => void>();
  /** Works out a row's operation and validation outcome when it is read (the spec may have been reloaded since). */
  facts: (request: MockRequest, response: JournalResponse) => EntryFacts = () => ({ validation: { outcome: 'valid' } });

  constructor(readonly capacity = 100) {
    this.rows = new Array<Row | undefined>(capacity);
  }

  /** Records an answered request, what a recorder adds to it (`extra`) and the ms it took; drops the oldest when full. */
  record(request: MockRequest, response: JournalResponse, extra?: JournalExtra, duration = 0): void {
    if (this.capacity === 0) return;
    const body = request.body;
    // Keep at most BODY_BYTES_KEPT (+1 to know it was cut) so that a 1 MiB body is not held 100 times.
    const kept = body !== undefined && body.length > BODY_BYTES_KEPT ? { ...request, body: Buffer.from(body.subarray(0, BODY_BYTES_KEPT + 1)) } : request;
    const headers = request.headers;
    const hadCredentials = headers.authorization !== undefined;
    this.rows[this.next] = { seq: ++this.seq, at: Date.now(), request: kept, response: keptAnswer(response), duration, hadCredentials, extra: keptExtra(extra) };
    this.next = (this.next + 1) % this.capacity;
    if (this.count < this.capacity) this.count++;
    if (this.listeners.size > 0 && this.timer === undefined) this.timer = setTimeout(() => this.flush(), STREAM_INTERVAL_MS);
  }

  /** Number of entries held (at most `capacity`). */
  get size(): number {
    return this.count;
  }

  /** The newest entries (default all), newest first, of one operation and/or status when asked. */
  entries(filter: number | JournalFilter = {}): JournalEntry[] {
    const { limit = this.count, operationId, status } = typeof filter === 'number' ? { limit: filter } : filter;
    const out: JournalEntry[] = [];
    for (let i = 1; i <= this.count && out.length < limit; i++) {
      const row = this.rows[(this.next - i + this.capacity) % this.capacity]!;
      if (status !== undefined && !statusMatches(row.response.status, status)) continue;
      const entry = this.toEntry(row);
      if (operationId !== undefined && entry.operationId !== operationId) continue;
      out.push(entry);
    }
    return out;
  }

  /** Forgets every entry. */
  clear(): void {
    this.rows = new Array<Row | undefined>(this.capacity);
    this.next = 0;
    this.count = 0;
    this.sent = this.seq;
    this.changed();
  }

  /** Calls `listener` with each batch of new entries until the returned function is called. */
  subscribe(listener: JournalListener): () => void {
    this.listeners.add(listener);
    this.sent = Math.max(this.sent, this.seq);
    return () => this.listeners.delete(listener);
  }

  /** Calls `listener` after each change of the records made outside the contract (admin reset, loads, edits). */
  onChanged(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Tells the watchers that the records or the journal changed other than through a journaled request. */
  changed(): void {
    for (const listener of this.changeListeners) listener();
  }

  private flush(): void {
    this.timer = undefined;
    const fresh = Math.min(this.seq - this.sent, this.count);
    const skipped = this.seq - this.sent - Math.min(fresh, STREAM_BATCH_MAX);
    this.sent = this.seq;
    if (fresh <= 0 || this.listeners.size === 0) return;
    const entries: JournalEntry[] = [];
    for (let i = Math.min(fresh, STREAM_BATCH_MAX); i >= 1; i--) entries.push(this.toEntry(this.rows[(this.next - i + this.capacity) % this.capacity]!));
    for (const listener of this.listeners) listener({ entries, skipped });
  }

  private toEntry({ seq, at, request, response, duration, hadCredentials, extra }: Row): JournalEntry {
    const headers: JournalEntry['headers'] = {};
    for (const [name, value] of Object.entries(request.headers)) if (!SECRET_HEADERS.has(name)) headers[name] = value;
    const facts = this.facts(request, response);
    const entry: JournalEntry = {
      seq,
      time: new Date(at).toISOString(),
      method: request.method,
      url: request.url,
      status: response.status,
      operationId: facts.operationId,
      durationMs: Math.round(duration * 1000) / 1000,
      validation: facts.validation,
      headers,
      response: answerOf(response),
      curl: '',
    };
    if (extra?.answeredBy !== undefined) entry.answeredBy = extra.answeredBy;
    if (extra?.violations !== undefined) entry.violations = extra.violations;
    if (extra?.shadow !== undefined) entry.shadow = { ...extra.shadow, body: extra.shadow.body.slice(0, BODY_BYTES_KEPT) };
    let text: string | undefined;
    if (request.body !== undefined && request.body.length > 0) {
      text = request.body.subarray(0, BODY_BYTES_KEPT).toString('utf8');
      entry.body = text;
      if (request.body.length > BODY_BYTES_KEPT) entry.bodyTruncated = true;
    }
    entry.curl = curlLine(request, headers, hadCredentials, entry.bodyTruncated === true ? undefined : text);
    return entry;
  }
}

/**
 * The answer as a row keeps it (D581): a success body longer than an entry shows is cut to what an entry shows (and
 * one character more, so that `bodyTruncated` is still said), a stream's events joined first. A row would otherwise
 * hold the whole text of every answer it saw: a hundred pages of a large description's records are hundreds of MB,
 * kept alive by the ring. An error answer is kept whole: its code and message are read back from it (journal-facts.ts),
 * and the mock's own refusals are small.
 */
function keptAnswer(response: JournalResponse): JournalResponse {
  if (response.status >= 400) return response;
  const body = response.chunks === undefined ? response.body : response.chunks.join('');
  if (body === undefined || (body.length <= BODY_BYTES_KEPT && response.chunks === undefined && response.bytes === undefined)) return response;
  const { chunks: _chunks, bytes: _bytes, ...rest } = response;
  return { ...rest, body: body.length <= BODY_BYTES_KEPT ? body : detached(body.slice(0, BODY_BYTES_KEPT + 1)) };
}

/** What a recorder added, with the shadow's body cut as {@link keptAnswer} cuts an answer's (only its first 4 KiB is shown). */
function keptExtra(extra: JournalExtra | undefined): JournalExtra | undefined {
  if (extra?.shadow === undefined || extra.shadow.body.length <= BODY_BYTES_KEPT) return extra;
  return { ...extra, shadow: { ...extra.shadow, body: detached(extra.shadow.body.slice(0, BODY_BYTES_KEPT)) } };
}

/**
 * A copy of `text` that holds no reference to a longer string: V8 makes a slice of a long string a view into it, so
 * a kept slice would keep the whole answer alive. JSON text of a string is read back to the same string, lone
 * surrogates included.
 */
function detached(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

function answerOf(response: JournalResponse): JournalEntry['response'] {
  // A stream's events are all known when it is answered (D85): the journal keeps them as the body the client reads.
  const body = response.chunks === undefined ? (response.body ?? '') : response.chunks.join('');
  return { headers: response.headers ?? {}, body: body.slice(0, BODY_BYTES_KEPT), ...(body.length > BODY_BYTES_KEPT ? { bodyTruncated: true } : {}) };
}

/** `404` matches 404 only; `4xx` (or `4XX`) any 4xx. */
function statusMatches(status: number, wanted: string): boolean {
  if (/^[1-5]xx$/i.test(wanted)) return Math.floor(status / 100) === Number(wanted[0]);
  return String(status) === wanted;
}

/** Headers a replay needs; the others (`host`, `content-length`, `connection`, …) curl sets itself. */
const REPLAYED_HEADERS = new Set(['content-type', 'accept', 'prefer', 'origin', 'if-match', 'if-none-match']);

function curlLine(request: MockRequest, headers: JournalEntry['headers'], hadCredentials: boolean, body: string | undefined): string {
  const host = typeof request.headers.host === 'string' ? request.headers.host : '127.0.0.1:4010';
  const parts = ['curl', '-sS', '-i'];
  if (request.method !== 'GET' || body !== undefined) parts.push('-X', request.method);
  parts.push(quote(`http://${host}${request.url}`));
  // The key is a secret (seed, Authentication): the line names it by the variable a user sets, never in clear.
  if (hadCredentials) parts.push('-H', `"Authorization: Bearer $${envName('API_KEY')}"`);
  for (const [name, value] of Object.entries(headers)) {
    if (REPLAYED_HEADERS.has(name) && value !== undefined) parts.push('-H', quote(`${name}: ${Array.isArray(value) ? value.join(', ') : value}`));
  }
  if (body !== undefined) parts.push('--data-raw', quote(body));
  return parts.join(' ');
}

/** A POSIX shell single-quoted word. */
function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
