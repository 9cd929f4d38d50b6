import type { MockRequest, MockResponse } from './pipeline.js';

/** Request headers never kept in the journal: credentials (seed, Authentication: keys are secrets), incl. the admin's `x-petstore-key`. */
const SECRET_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization', 'x-petstore-key']);
/** Bytes of a request body kept per entry; the rest is dropped and `bodyTruncated` says so. */
const BODY_BYTES_KEPT = 4096;

/** One answered request as `GET /__admin/requests` shows it. Never holds the `Authorization` header. */
export interface JournalEntry {
  /** When the answer was made, ISO 8601 UTC. */
  time: string;
  method: string;
  /** Path and query as sent (`/v1/pets?limit=5`). */
  url: string;
  status: number;
  /** Request headers, without `authorization`, `cookie`, `proxy-authorization` and `x-petstore-key`. */
  headers: Record<string, string | string[] | undefined>;
  /** The request body as UTF-8 text (first 4 KiB), when one was sent. */
  body?: string;
  bodyTruncated?: boolean;
  /** Behind the validating proxy (`--proxy`, README › Proxy): which side answered. */
  answeredBy?: 'upstream' | 'mock';
  /** Behind the validating proxy: the spec's rules the exchange broke (none: an empty list). */
  violations?: JournalViolation[];
}

/** A broken rule as the proxy's judge names it (conformance/exchange.ts): operation, rule, JSON pointer, expected, got. */
export interface JournalViolation {
  operationId: string;
  rule: string;
  side: 'request' | 'response';
  pointer: string;
  expected: string;
  got: string;
}

/** What the proxy adds to an entry besides the request and its status. */
export interface JournalExtra {
  answeredBy: 'upstream' | 'mock';
  violations: JournalViolation[];
}

interface Row {
  at: number;
  request: MockRequest;
  status: number;
  extra?: JournalExtra | undefined;
}

/**
 * A bounded journal of the requests the mock answered (README › Admin API), newest first. A ring of
 * `capacity` rows: recording costs one small object and keeps references only (headers and body are
 * turned into an entry when read), so the hot path does no copying. Capacity 0 records nothing.
 */
export class Journal {
  private rows: (Row | undefined)[];
  private next = 0;
  private count = 0;

  constructor(readonly capacity = 100) {
    this.rows = new Array<Row | undefined>(capacity);
  }

  /** Records an answered request; drops the oldest when full. */
  record(request: MockRequest, response: Pick<MockResponse, 'status'> & Partial<MockResponse>, extra?: JournalExtra): void {
    if (this.capacity === 0) return;
    const body = request.body;
    // Keep at most BODY_BYTES_KEPT (+1 to know it was cut) so that a 1 MiB body is not held 100 times.
    const kept = body !== undefined && body.length > BODY_BYTES_KEPT ? { ...request, body: Buffer.from(body.subarray(0, BODY_BYTES_KEPT + 1)) } : request;
    this.rows[this.next] = { at: Date.now(), request: kept, status: response.status, extra };
    this.next = (this.next + 1) % this.capacity;
    if (this.count < this.capacity) this.count++;
  }

  /** Number of entries held (at most `capacity`). */
  get size(): number {
    return this.count;
  }

  /** The newest `limit` entries (default all), newest first. */
  entries(limit = this.count): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (let i = 1; i <= Math.min(limit, this.count); i++) {
      out.push(toEntry(this.rows[(this.next - i + this.capacity) % this.capacity]!));
    }
    return out;
  }

  /** Forgets every entry. */
  clear(): void {
    this.rows = new Array<Row | undefined>(this.capacity);
    this.next = 0;
    this.count = 0;
  }
}

function toEntry({ at, request, status, extra }: Row): JournalEntry {
  const headers: JournalEntry['headers'] = {};
  for (const [name, value] of Object.entries(request.headers)) if (!SECRET_HEADERS.has(name)) headers[name] = value;
  const entry: JournalEntry = { time: new Date(at).toISOString(), method: request.method, url: request.url, status, headers };
  if (request.body !== undefined && request.body.length > 0) {
    entry.body = request.body.subarray(0, BODY_BYTES_KEPT).toString('utf8');
    if (request.body.length > BODY_BYTES_KEPT) entry.bodyTruncated = true;
  }
  if (extra !== undefined) {
    entry.answeredBy = extra.answeredBy;
    entry.violations = extra.violations;
  }
  return entry;
}
