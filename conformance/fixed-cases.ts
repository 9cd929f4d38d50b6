import type { CheckContext } from './check-context.js';

/**
 * Sends a check's fixed cases in order, each made only when its turn comes, within the target's time budget
 * (spec/DECISIONS.md › D910).
 *
 * `cases`: makers, in the order they are sent; a maker that returns `undefined` (a case the description's own
 * validator accepts, say) is passed over. `send`: sends and judges one case; a violation rejects, and the list ends
 * there. `what`: the cases' name in the advice (`"invalid bodies"`).
 *
 * Without a time budget (`context.target.timeBudgetMs`, the `--time-budget` of one property, which a `--run-budget`
 * narrows to what is left of the run) every case is sent, as on every run before. With one, the list is a property's
 * runs under the same budget: the first case is always sent, no case starts once the budget (in milliseconds, from
 * the first case) is spent, and the check's advice then says how many of the cases were made, of how many. What was
 * sent is judged as always. Resolves to the number of cases made.
 */
export async function sendFixedCases<T>(context: CheckContext, cases: readonly (() => T | undefined)[], send: (value: T) => Promise<unknown>, what: string): Promise<number> {
  const budget = context.target.timeBudgetMs;
  const deadline = budget === undefined ? Infinity : performance.now() + budget;
  let made = 0;
  for (const make of cases) {
    if (made > 0 && performance.now() >= deadline) {
      context.advise(`not fully tested: the time budget (${budget ?? 0} ms) was spent after ${made} of the ${cases.length} ${what}; the rest were not sent`);
      break;
    }
    made += 1;
    const value = make();
    if (value !== undefined) await send(value);
  }
  return made;
}
