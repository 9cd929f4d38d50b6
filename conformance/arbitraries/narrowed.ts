import type { OperationModel } from '../../model/model.js';
import { toView } from '../../model/json.js';

// What a run learnt from a server's documented refusal of a value it drew (D491): the member the refusal named
// is drawn as the description's own example from then on, everywhere the run draws a body of that operation.

/** One member a refusal named: where it sits in the body, the example it is drawn as, and which drawn values it replaces. */
export interface Narrowing {
  /** The member's path from the body's top (`['source', 'sort_code']`). */
  path: readonly string[];
  /** The description's own value for it (a member example, or the body example's value at that path). */
  value: unknown;
  /**
   * `empty`: only an empty value drawn (`""`, `[]`, `{}`) is replaced, as the refused one was; `always`: every one;
   * `absent`: the member is left out (an id that names no record on an operation that creates or updates, D492).
   */
  replaces: 'empty' | 'always' | 'absent';
}

/** The narrowings of a run, by operation, each under its path joined by `/`. */
export type Narrowings = Map<OperationModel, Map<string, Narrowing>>;

/** Records `narrowing` for the bodies of `op`; `true` when it is new (not already known at that path). */
export function narrow(narrowings: Narrowings, op: OperationModel, narrowing: Narrowing): boolean {
  let known = narrowings.get(op);
  if (known === undefined) narrowings.set(op, (known = new Map()));
  const key = narrowing.path.join('/');
  const before = known.get(key);
  if (before !== undefined && (before.replaces !== 'empty' || narrowing.replaces === 'empty')) return false;
  known.set(key, narrowing);
  return true;
}

/** Whether a drawn value is empty: `""`, `[]` or an object without members. */
export function isEmptyValue(value: unknown): boolean {
  if (value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype && Object.keys(value).length === 0;
}

/**
 * `body` with the narrowings of `op` applied (a copy along each path changed): a member a body holds at a narrowed
 * path is set to the example where the narrowing replaces it. A body the change would make invalid by the
 * operation's own validator (a cross-member rule) is kept as drawn. Bodies that are not objects are kept.
 */
export function withNarrowings<T>(narrowings: Narrowings | undefined, op: OperationModel, body: T): T {
  const known = narrowings?.get(op);
  if (known === undefined || known.size === 0 || body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  let changed = body as Record<string, unknown>;
  for (const narrowing of known.values()) {
    const current = valueAt(changed, narrowing.path);
    if (current === undefined || (narrowing.replaces === 'empty' && !isEmptyValue(current))) continue;
    changed = narrowing.replaces === 'absent' ? withoutAt(changed, narrowing.path) : setAt(changed, narrowing.path, structuredClone(narrowing.value));
  }
  if (changed === body) return body;
  return op.body === undefined || op.body.validate(toView(changed)) ? (changed as T) : body;
}

/** The value at `path` inside `value`, or `undefined` when a step is missing or not an object. */
export function valueAt(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const step of path) {
    if (current === null || typeof current !== 'object' || Array.isArray(current) || !Object.hasOwn(current, step)) return undefined;
    current = (current as Record<string, unknown>)[step];
  }
  return current;
}

/** `body` without the member at `path`, copied along the path. */
function withoutAt(body: Record<string, unknown>, path: readonly string[]): Record<string, unknown> {
  const [head, ...rest] = path;
  if (head === undefined || !Object.hasOwn(body, head)) return body;
  if (rest.length === 0) return Object.fromEntries(Object.entries(body).filter(([name]) => name !== head));
  const inner = body[head];
  return inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? { ...body, [head]: withoutAt(inner as Record<string, unknown>, rest) } : body;
}

/** `body` with the member at `path` set to `value`, copied along the path (the path's objects exist). */
export function setAt(body: Record<string, unknown>, path: readonly string[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = path;
  if (head === undefined) return body;
  const inner = body[head];
  return { ...body, [head]: rest.length === 0 ? value : setAt((inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? inner : {}) as Record<string, unknown>, rest, value) };
}
