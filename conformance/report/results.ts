import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { refusedWith, traffic, waitedMs } from '../client.js';
import type { Exchange } from '../../judge/verdict.js';
import { consistencySummary, type ConsistencySummary } from '../consistency.js';

/**
 * Results travel from the vitest worker that runs the checks to the CLI process as JSON lines appended to
 * the file named by this variable (one `appendFileSync` per line: whole lines even if the worker dies).
 * Unset (plain `npm test`): nothing is written.
 */
export const RESULTS_FILE_ENV = 'CONFORMANCE_RESULTS_FILE';

/** One check's result as the reports need it. `exchange`: the failing request and response, when there was one. */
export interface CheckRecord {
  type: 'check';
  id: string;
  rule: string;
  state: 'passed' | 'failed' | 'skipped';
  durationMs: number;
  advice: string[];
  skipped?: string;
  report?: string;
  exchange?: Exchange;
}

/** The end-of-run figures of the worker. `statuses`: final statuses per `METHOD path` (query stripped). */
export interface SummaryRecord {
  type: 'summary';
  baseUrl: string;
  requests: number;
  retries: number;
  waitedMs: number;
  elapsedMs: number;
  statuses: [string, [number, number][]][];
  consistency: ConsistencySummary;
  /** Set when the target kept refusing: the run has no verdict. */
  refused?: string;
}

export type ResultRecord = CheckRecord | SummaryRecord;

function append(record: ResultRecord): void {
  const file = process.env[RESULTS_FILE_ENV];
  if (file === undefined || file === '') return;
  appendFileSync(file, `${JSON.stringify(record)}\n`);
}

/** Writes one check's result to the results file (when the CLI asked for one). */
export function recordCheck(record: Omit<CheckRecord, 'type'>): void {
  append({ type: 'check', ...record });
}

/** The failing exchange behind a check's failure (a `Violation` or a property failure carrying one), if any. */
export function failingExchange(failure: unknown): Exchange | undefined {
  const holder = failure as { exchange?: unknown; violation?: { exchange?: unknown } } | undefined;
  const exchange = holder?.exchange ?? holder?.violation?.exchange;
  return isExchange(exchange) ? exchange : undefined;
}

function isExchange(value: unknown): value is Exchange {
  const candidate = value as Exchange | undefined;
  return typeof candidate === 'object' && candidate !== null && typeof candidate.request?.url === 'string' && typeof candidate.response?.status === 'number';
}

/** The figures of this process so far, as written at the end of a run. */
export function summary(baseUrl: string): SummaryRecord {
  const refused = refusedWith();
  return {
    type: 'summary',
    baseUrl,
    requests: traffic.requests,
    retries: traffic.retries,
    waitedMs: Math.round(waitedMs()),
    elapsedMs: Math.round(performance.now() - traffic.startedAt),
    statuses: [...traffic.statuses].map(([key, counts]) => [key, [...counts]]),
    consistency: consistencySummary(),
    ...(refused === undefined ? {} : { refused: refused.message }),
  };
}

/** Writes the summary of this process to the results file, and returns the console line of the figures. */
export function recordSummary(baseUrl: string): string {
  const figures = summary(baseUrl);
  append(figures);
  const seconds = figures.elapsedMs / 1000;
  const lag = figures.consistency;
  return [
    `conformance: ${figures.requests} requests in ${seconds.toFixed(1)} s (${Math.round(figures.requests / Math.max(seconds, 0.001))} requests/s) to ${baseUrl}`,
    `${figures.retries} retries after 429/503, ${(figures.waitedMs / 1000).toFixed(1)} s waiting`,
    ...(lag.settled === 0 ? [] : [`read-after-write lag p50 ${lag.p50Ms} ms, p95 ${lag.p95Ms} ms, max ${lag.maxMs} ms over ${lag.settled} reads`]),
  ].join('; ');
}

/** Everything the worker wrote: each check's last record (by id) and the last summary. Missing file: empty. */
export function readResults(file: string): { checks: CheckRecord[]; summary: SummaryRecord | undefined } {
  if (!existsSync(file)) return { checks: [], summary: undefined };
  const checks = new Map<string, CheckRecord>();
  let last: SummaryRecord | undefined;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    let record: ResultRecord;
    try {
      record = JSON.parse(line) as ResultRecord;
    } catch {
      continue; // a line cut short by a killed worker
    }
    if (record.type === 'check') checks.set(record.id, record);
    else last = record;
  }
  return { checks: [...checks.values()], summary: last };
}
