import type { OperationModel, ResourceModel } from '../model/model.js';
import { windowOf, type WindowParameter } from '../model/windows.js';

export { windowOf, type ListWindow, type WindowParameter } from '../model/windows.js';

// A list's window (spec/DECISIONS.md › D90): optional date or date-time query parameters that bound a range
// (`startDate`/`endDate`, `from`/`to`, `since`/`until`, `after`/`before`, `createdAfter`) and carry no `default`
// keyword. Left out, a server may apply a default the spec states only in prose ("Defaults to today's date") or
// none; the suite cannot read which, so it never leaves them out: every list request it sends names them, spanning
// every value it can generate, and only records whose ranged member holds a value are expected on the list.

/** The query text a list request must carry besides `query` (no leading `&`): each window parameter it does not name. */
export function windowQuery(op: OperationModel, query: string): string {
  const window = windowOf(op);
  if (window === undefined) return '';
  const asked = new URLSearchParams(query);
  return window.parameters
    .filter((one) => !asked.has(one.parameter.name))
    .map((one) => `${encodeURIComponent(one.parameter.name)}=${encodeURIComponent(one.widest)}`)
    .join('&');
}

/**
 * Whether a record of `resource` can be on its main list asked with the widest window (D90): always without a
 * window or a ranged member found; otherwise only when the member holds a value (a non-empty array).
 */
export function inWindow(resource: ResourceModel, record: Record<string, unknown>): boolean {
  const op = resource.operations.list;
  const window = op === undefined ? undefined : windowOf(op);
  if (window?.property === undefined) return true;
  const value = record[window.property];
  return value !== undefined && value !== null && (!Array.isArray(value) || value.length > 0);
}

/** A value inside every window the suite asks with, by format (a day of 2000, as a date or an instant). */
const INSIDE: Record<WindowParameter['format'], string> = { date: '2000-01-01', 'date-time': '2000-01-01T00:00:00Z' };

/**
 * The member and value that bring a record of `resource` into its list's window (D90): the ranged member set to
 * one value inside it (an array of one when the member is an array); `undefined` when the list has no such member.
 */
export function valueInView(resource: ResourceModel, record: Record<string, unknown>): { property: string; value: unknown } | undefined {
  const op = resource.operations.list;
  const window = op === undefined ? undefined : windowOf(op);
  if (window?.property === undefined || inWindow(resource, record)) return undefined;
  const inside = INSIDE[window.parameters[0]!.format];
  return { property: window.property, value: window.many ? [inside] : inside };
}
