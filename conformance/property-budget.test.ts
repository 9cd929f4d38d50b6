import fc from 'fast-check';
import { expect, it } from 'vitest';
import { NotRun } from './arbitraries/bounded.js';
import { checkProperty } from './property.js';
import { resolveTarget } from './target.js';

/**
 * spec/DECISIONS.md › D396: a property whose time budget is spent before one run ends says nothing of the target:
 * not run, with the reason, where fast-check alone reports a failure with no counterexample. A run that fails
 * within the budget is still a failure.
 */
it('a property interrupted before one run ended is not run; one failing in time still fails', async () => {
  const target = resolveTarget({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', seed: 1, timeBudgetMs: 20 });
  const slow = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 200));
  await expect(checkProperty(target, fc.nat(), slow, 5)).rejects.toBeInstanceOf(NotRun);
  const failing = await checkProperty(resolveTarget({ ...target, timeBudgetMs: 60_000 }), fc.nat(), () => Promise.reject(new Error('wrong answer')), 5);
  expect(failing.failed).toBe(true);
});
