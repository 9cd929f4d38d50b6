import fc from 'fast-check';
import { NotRun } from './arbitraries/bounded.js';
import { TargetRefusing } from './client.js';
import type { ResolvedTarget } from './target.js';

/** The verdict of {@link checkProperty}: fast-check's details, or a plain pass from the parallel pre-run. */
export type PropertyVerdict<T> = fc.RunDetails<[T]> | { failed: false };

/**
 * Runs `predicate` over `arbitrary` with the target's seed, path and time budget, `runs` times.
 *
 * With `target.concurrency` 1 (or a `path` to replay) this is exactly `fc.check`. With more, the values that
 * `fc.check` would generate for the same seed are drawn first (by a run of the same property whose predicate only
 * records them; generation never depends on a passing predicate), then the predicate runs on them up to
 * `concurrency` at a time. If every run passes, the verdict is the serial run's. If one fails, `fc.check` runs
 * again serially with the same seed, so the failing run, the shrinking, the counterexample and the printed
 * `--seed/--path` replay are those of a serial run.
 *
 * Errors: rejects with {@link TargetRefusing} when the target kept refusing (no verdict), and with {@link NotRun}
 * when the time budget was spent before one run ended; a failing predicate is not an error but a `failed` verdict.
 */
export async function checkProperty<T>(target: ResolvedTarget, arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, runs: number): Promise<PropertyVerdict<T>> {
  const parameters: fc.Parameters<[T]> = {
    numRuns: runs,
    // A seed of our own even when none was given: the pre-run and the serial rerun must see the same values.
    seed: target.seed ?? freshSeed(),
    ...(target.path === undefined ? {} : { path: target.path }),
    ...(target.timeBudgetMs === undefined ? {} : { interruptAfterTimeLimit: target.timeBudgetMs, markInterruptAsFailure: false }),
  };
  if (target.concurrency > 1 && target.path === undefined) {
    const values: T[] = [];
    await fc.check(fc.asyncProperty(arbitrary, async (value) => void values.push(value)), { ...parameters, interruptAfterTimeLimit: undefined });
    const deadline = target.timeBudgetMs === undefined ? Infinity : performance.now() + target.timeBudgetMs;
    if (await allPass(values, predicate, target.concurrency, deadline)) return { failed: false };
  }
  const details = await fc.check(fc.asyncProperty(arbitrary, predicate), parameters);
  // fast-check counts a property its time limit interrupted before one run ended as failed, with no counterexample:
  // nothing was shown of the target, so the check is not run (D396).
  if (details.failed && details.interrupted && details.counterexample === null) throw new NotRun('a run', `the time budget (${target.timeBudgetMs ?? 0} ms) was spent before one run of the property ended`);
  if (details.failed && refusal(details.errorInstance) !== undefined) throw refusal(details.errorInstance);
  return details;
}

/**
 * A seed for a run that was given none: from the clock and `Math.random`, the one draw that is not from a seed. A
 * check's run is given one before it starts (conformance/run-suite.ts), so every value it draws comes from it and the
 * report prints it for a replay.
 */
export function freshSeed(): number {
  return Date.now() ^ (Math.random() * 0x100000000);
}

/**
 * One value of `arbitrary` drawn from the target's seed (D275): the values a check chooses outside a property (the
 * first value of a range, the year its records are dated in) are then the same on a replay with the printed seed.
 * `salt` tells apart two draws of one check that must differ. Without a seed (a caller that resolved none), a fresh one.
 */
export function drawFromSeed<T>(target: Pick<ResolvedTarget, 'seed'>, arbitrary: fc.Arbitrary<T>, salt = 0): T {
  const [value] = fc.sample(arbitrary, { numRuns: 1, seed: ((target.seed ?? freshSeed()) + salt) | 0 });
  return value!;
}

/**
 * Runs `predicate` on every value, `concurrency` at a time, in order; stops starting new runs after the first
 * failure or past `deadline` (`performance.now()` ms). Resolves `true` when no run failed (fast-check's
 * preconditions, `fc.pre`, skip a run as they would). Errors: a {@link TargetRefusing} rejects at once.
 */
async function allPass<T>(values: readonly T[], predicate: (value: T) => Promise<void>, concurrency: number, deadline: number): Promise<boolean> {
  let next = 0;
  let failed = false;
  let refused: TargetRefusing | undefined;
  const worker = async (): Promise<void> => {
    while (!failed && refused === undefined && next < values.length && performance.now() < deadline) {
      const value = values[next++]!;
      try {
        await predicate(value);
      } catch (error) {
        if (fc.PreconditionFailure.isFailure(error)) continue;
        refused = refusal(error);
        failed = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, values.length) }, worker));
  if (refused !== undefined) throw refused;
  return !failed;
}

/** The {@link TargetRefusing} behind an error (a check may wrap it as the cause of its own). */
function refusal(error: unknown): TargetRefusing | undefined {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (current instanceof TargetRefusing) return current;
  }
  return undefined;
}
