import type { Exchange } from '../../judge/verdict.js';
import { consistencySummary, type ConsistencySummary } from '../consistency.js';
import type { RunState } from '../check-context.js';

/** One check's result as the reports need it. `exchange`: the failing request and response, when there was one. */
export interface CheckRecord {
  type: 'check';
  id: string;
  rule: string;
  state: 'passed' | 'failed' | 'skipped';
  durationMs: number;
  advice: string[];
  skipped?: string;
  /**
   * Set on a check not run because of an error of the suite itself (D372: it could not be built, it threw, it ran
   * past its budget): the reason, and the stack behind it. The run then has no verdict (exit 2). `skipped` holds the reason too.
   */
  error?: { message: string; stack?: string };
  report?: string;
  exchange?: Exchange;
}

/** The end-of-run figures of a run. `statuses`: final statuses per `METHOD path` (query stripped). */
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

/** The figures of `run` so far (since it started), as the reports show them at its end. */
export function summary(run: Pick<RunState, 'client' | 'consistency'>, baseUrl: string): SummaryRecord {
  const { client } = run;
  const refused = client.refusing;
  return {
    type: 'summary',
    baseUrl,
    requests: client.requests,
    retries: client.retries,
    waitedMs: Math.round(client.waitedMs),
    elapsedMs: Math.round(performance.now() - client.startedAt),
    statuses: [...client.statuses].map(([key, counts]) => [key, [...counts]]),
    consistency: consistencySummary(run.consistency),
    ...(refused === undefined ? {} : { refused: refused.message }),
  };
}

/** The console line of a run's figures: requests and their rate, retries and waits, read-after-write lag. */
export function summaryLine(figures: SummaryRecord): string {
  const seconds = figures.elapsedMs / 1000;
  const lag = figures.consistency;
  return [
    `conformance: ${figures.requests} requests in ${seconds.toFixed(1)} s (${Math.round(figures.requests / Math.max(seconds, 0.001))} requests/s) to ${figures.baseUrl}`,
    `${figures.retries} retries after 429/503, ${(figures.waitedMs / 1000).toFixed(1)} s waiting`,
    ...(lag.settled === 0 ? [] : [`read-after-write lag p50 ${lag.p50Ms} ms, p95 ${lag.p95Ms} ms, max ${lag.maxMs} ms over ${lag.settled} reads`]),
  ].join('; ');
}
