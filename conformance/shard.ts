import { readFileSync, writeFileSync } from 'node:fs';
import type { CheckRecord, SummaryRecord } from './report/results.js';

/**
 * Splitting a run across machines (spec/DECISIONS.md › D373): `--shard i/n` runs the i-th of n parts of the
 * catalogue, the parts chosen from the check ids alone, so that every machine computes the same split; each shard
 * writes its results (`--results FILE`), and `--merge-reports` joins them into one JUnit, HTML and verdict.
 */

/** One part of a split run: the `index`-th (from 1) of `count` parts. */
export interface Shard {
  index: number;
  count: number;
}

/** Reads `i/n` (1 ≤ i ≤ n). Errors: throws with the reason for any other text. */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || !Number.isSafeInteger(index) || !Number.isSafeInteger(count) || count < 1 || index < 1 || index > count) {
    throw new Error(`must be i/n with 1 <= i <= n (1/4 is the first of four shards), got ${JSON.stringify(text)}`);
  }
  return { index, count };
}

/** FNV-1a, 32 bits, of a text's UTF-16 code units: the same number for the same id on every machine and run. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * The ids of `ids` that shard `shard` runs, in their given order (the catalogue's: a shard runs its checks in the
 * order a whole run would). The ids are ordered by a hash of the id (ties by the id), then dealt out in turn, so the
 * shards differ in size by one at most, a check's shard depends on the set of ids only (not on their order, not on
 * the machine), and every id falls in exactly one shard. A check is the unit: a stateful sequence is one check, never split.
 */
export function shardIds(ids: readonly string[], shard: Shard): string[] {
  const dealt = [...new Set(ids)].sort((a, b) => fnv1a(a) - fnv1a(b) || (a < b ? -1 : a > b ? 1 : 0));
  const mine = new Set(dealt.filter((_id, position) => position % shard.count === shard.index - 1));
  return ids.filter((id) => mine.has(id));
}

/** The format name of a results file: a reader refuses any other. */
export const RESULTS_FORMAT = 'openapi-harness-results/1';

/** What one run (or shard) writes with `--results FILE`: every check it ran, its figures, and what it was run on. */
export interface ResultsFile {
  format: typeof RESULTS_FORMAT;
  /** The description's path as given to the run. */
  spec: string;
  baseUrl: string;
  /** `i/n` when the run was a shard. */
  shard?: string;
  finishedAt: string;
  checks: CheckRecord[];
  summary: SummaryRecord;
}

/** Writes `results` to `file` as JSON. */
export function writeResults(file: string, results: Omit<ResultsFile, 'format'>): void {
  writeFileSync(file, `${JSON.stringify({ format: RESULTS_FORMAT, ...results })}\n`);
}

/** Reads a results file. Errors: throws naming the file when it cannot be read or is not a results file. */
export function readResults(file: string): ResultsFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: cannot read the results (${(error as Error).message})`);
  }
  const results = parsed as Partial<ResultsFile> | null;
  if (results === null || typeof results !== 'object' || results.format !== RESULTS_FORMAT || !Array.isArray(results.checks) || typeof results.summary !== 'object') {
    throw new Error(`${file}: not a results file of this version (written by ${'`'}openapi-harness test --results FILE${'`'}, format ${RESULTS_FORMAT})`);
  }
  return results as ResultsFile;
}

/**
 * The results of several shards as those of one run: the checks of all (in `order`, the catalogue's, those not in
 * it after), the figures added up (requests, retries, waiting, statuses; the longest elapsed time, as shards run
 * side by side; the largest read-after-write lags). Errors: throws when the files are of different descriptions or
 * targets, or when a check appears in two of them (shards of different splits).
 */
export function mergeResults(all: readonly ResultsFile[], order: readonly string[]): { checks: CheckRecord[]; summary: SummaryRecord; spec: string; baseUrl: string } {
  const first = all[0];
  if (first === undefined) throw new Error('give at least one results file to merge');
  for (const other of all) {
    if (other.spec !== first.spec) throw new Error(`the results are of different descriptions: ${first.spec} and ${other.spec}`);
  }
  const byId = new Map<string, CheckRecord>();
  for (const results of all) {
    for (const check of results.checks) {
      if (byId.has(check.id)) throw new Error(`the check ${check.id} is in two results files: were they written by shards of one split (--shard i/n with the same n)?`);
      byId.set(check.id, check);
    }
  }
  const position = new Map(order.map((id, index) => [id, index]));
  const checks = [...byId.values()].sort((a, b) => (position.get(a.id) ?? order.length) - (position.get(b.id) ?? order.length));
  const statuses = new Map<string, Map<number, number>>();
  for (const results of all) {
    for (const [key, counts] of results.summary.statuses) {
      const merged = statuses.get(key) ?? new Map<number, number>();
      for (const [status, count] of counts) merged.set(status, (merged.get(status) ?? 0) + count);
      statuses.set(key, merged);
    }
  }
  const summaries = all.map((results) => results.summary);
  const sum = (pick: (summary: SummaryRecord) => number): number => summaries.reduce((total, summary) => total + pick(summary), 0);
  const most = (pick: (summary: SummaryRecord) => number): number => Math.max(...summaries.map(pick));
  const refused = summaries.find((summary) => summary.refused !== undefined)?.refused;
  const summary: SummaryRecord = {
    type: 'summary',
    baseUrl: first.baseUrl,
    requests: sum((one) => one.requests),
    retries: sum((one) => one.retries),
    waitedMs: sum((one) => one.waitedMs),
    elapsedMs: most((one) => one.elapsedMs),
    statuses: [...statuses].map(([key, counts]) => [key, [...counts]]),
    consistency: {
      settled: sum((one) => one.consistency.settled),
      p50Ms: most((one) => one.consistency.p50Ms),
      p95Ms: most((one) => one.consistency.p95Ms),
      maxMs: most((one) => one.consistency.maxMs),
      invisible: sum((one) => one.consistency.invisible),
    },
    ...(refused === undefined ? {} : { refused }),
  };
  return { checks, summary, spec: first.spec, baseUrl: first.baseUrl };
}

/**
 * The exit code of a run's checks (docs/suite.md): 1 when a check found a violation; else 2 when a check was not
 * run for an error of the suite (no verdict); else 0.
 */
export function exitCodeOf(checks: readonly CheckRecord[]): 0 | 1 | 2 {
  if (checks.some((check) => check.state === 'failed')) return 1;
  return checks.some((check) => check.error !== undefined) ? 2 : 0;
}
