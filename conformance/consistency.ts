import { TargetRefusing } from './client.js';
import { Violation } from './contract.js';
import type { ResolvedTarget } from './target.js';

/**
 * Read-after-write on an eventually consistent target (read replicas): lags observed in one run, in ms from the
 * first read to the first read that showed the write, and how many writes stayed invisible. Held by the run
 * (conformance/run-state.ts).
 */
export interface ObservedConsistency {
  lags: number[];
  invisible: number;
}

/**
 * Reads what a write just made (call it right after the write's 2xx) until `visible(value)` holds or the
 * target's `consistencyWindowMs` has passed, sleeping 20 ms, 30 ms, 45 ms, … (at most 250 ms) between reads.
 *
 * - Window 0 (the default, strict): exactly one read, returned as is.
 * - A read that throws a {@link Violation} (e.g. a 404 where the contract expects 200) counts as "not visible
 *   yet" while the window lasts; after it, the last violation is thrown, so the caller's verdict is unchanged.
 * - Any other error (unreachable target, {@link TargetRefusing}) is thrown at once.
 *
 * `visible` must be true whenever the read is conclusive (e.g. a full page that may rightly not show the new
 * record), or the window is spent re-reading for nothing.
 *
 * Returns the first visible value, or the last value read when the window passed without it (the caller then
 * reports the violation on it). Records the lag in the run's `observed`, for {@link consistencySummary}.
 */
export async function settle<T>(context: { target: Pick<ResolvedTarget, 'consistencyWindowMs'>; run: { consistency: ObservedConsistency } }, read: () => Promise<T>, visible: (value: T) => boolean): Promise<T> {
  const { target, run } = context;
  const observed = run.consistency;
  const started = performance.now();
  let pause = 20;
  for (let first = true; ; first = false) {
    let outcome: { value: T } | { error: Violation };
    try {
      outcome = { value: await read() };
    } catch (error) {
      if (!(error instanceof Violation) || error instanceof TargetRefusing) throw error;
      outcome = { error };
    }
    const elapsed = performance.now() - started;
    if ('value' in outcome && visible(outcome.value)) {
      observed.lags.push(first ? 0 : elapsed);
      return outcome.value;
    }
    if (elapsed + pause > target.consistencyWindowMs) {
      observed.invisible += 1;
      if ('error' in outcome) throw outcome.error;
      return outcome.value;
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(250, Math.round(pause * 1.5));
  }
}

/** Read-after-write figures of a run: reads settled, lag percentiles in ms, writes never seen in the window. */
export interface ConsistencySummary {
  settled: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  invisible: number;
}

/** The lags {@link settle} recorded in `observed` (a run's), as percentiles (nearest rank). All zero when nothing was settled. */
export function consistencySummary(observed: ObservedConsistency): ConsistencySummary {
  const sorted = [...observed.lags].sort((a, b) => a - b);
  const rank = (p: number): number => (sorted.length === 0 ? 0 : Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!));
  return { settled: sorted.length, p50Ms: rank(50), p95Ms: rank(95), maxMs: rank(100), invisible: observed.invisible };
}
