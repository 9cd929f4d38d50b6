import { settle } from '../consistency.js';
import type { CheckContext } from '../check-context.js';

/**
 * Read after write: reads what a write just made until `visible` holds, within the target's consistency window
 * (`--consistency-window`, default 0: exactly one read, strict read-after-write). Every read of a record the
 * suite wrote goes through here, so that an eventually consistent target (read replicas) is judged once the
 * window has passed, never before. See conformance/consistency.ts.
 */
export function settleRead<T>(context: CheckContext, read: () => Promise<T>, visible: (value: T) => boolean): Promise<T> {
  return settle(context, read, visible);
}
