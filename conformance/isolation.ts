import type { Check } from './checks/check.js';
import { Violation } from './contract.js';
import { PropertyFailure } from './context.js';

/**
 * Each check in isolation (spec/DECISIONS.md › D372): a check that cannot be built, that throws an error of the
 * suite's own while it runs, or that outlasts its time budget ends as "not run" with the reason, an error of the
 * suite, and every other check still runs. Errors of the suite give the run no verdict (exit 2), never a violation
 * (exit 1) and never a pass.
 */

/** An error of the suite itself: a check it could not build, or a check that ran past its budget. `cause`: the error behind it. */
export class SuiteFault extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SuiteFault';
  }
}

/** What the reports show of an error of the suite: its reason in one line, and the stack behind it (shown with `--verbose`). */
export interface SuiteError {
  message: string;
  stack?: string;
}

/**
 * The error of the suite behind a check's failure, if it is one: a {@link SuiteFault}, or a programming error
 * (`TypeError`, `RangeError`, `ReferenceError`, fast-check refusing its own constraints) with no violation of the
 * target attached, followed down `cause` (a property wraps what its predicate threw). `undefined` for a violation
 * and for every other failure, which stays the target's.
 */
export function suiteErrorOf(failure: unknown): SuiteError | undefined {
  if (failure instanceof Violation || (failure instanceof PropertyFailure && failure.violation !== undefined)) return undefined;
  for (let current: unknown = failure, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (current instanceof Violation) return undefined;
    const ours = current instanceof SuiteFault || current instanceof TypeError || current instanceof RangeError || current instanceof ReferenceError || /^fc\.\w+ /.test(current.message);
    if (ours) return { message: `${current.name}: ${current.message}`, ...(current.stack === undefined ? {} : { stack: current.stack }) };
  }
  return undefined;
}

/**
 * The check `build` makes, or when building it throws, a check of the same id that reports the error of the suite
 * instead of running (its other checks are built and run as ever).
 */
export function isolated(id: string, build: () => Check): Check {
  try {
    return build();
  } catch (error) {
    return brokenCheck(id, error);
  }
}

/**
 * The checks `build` makes, or when building them throws, one check named `id` that reports the error of the suite
 * (a family whose members' ids cannot be known before it is built).
 */
export function isolatedAll(id: string, build: () => Check[]): Check[] {
  try {
    return build();
  } catch (error) {
    return [brokenCheck(id, error)];
  }
}

/** A check that could not be built: running it throws the {@link SuiteFault} that says why. */
function brokenCheck(id: string, error: unknown): Check {
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return {
    id,
    rule: `(the suite could not build this check: ${reason})`,
    writes: false,
    run: () => Promise.reject(new SuiteFault(`the suite could not build this check: ${reason}`, { cause: error })),
  };
}

/**
 * `work`, or a {@link SuiteFault} once `ms` milliseconds have passed without it settling (a check over its time
 * budget ends as not run, never as a pass). `onLate` is called at that moment, so the caller can stop what the check
 * still sends. `ms` undefined or infinite: no budget.
 */
export async function withinBudget<T>(work: Promise<T>, ms: number | undefined, onLate?: () => void): Promise<T> {
  if (ms === undefined || !Number.isFinite(ms)) return work;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      onLate?.();
      reject(new SuiteFault(`not run: the check did not end within its budget of ${ms / 1000} s (--check-timeout)`));
    }, ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
