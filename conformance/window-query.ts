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

/** Days either side of today in the second window {@link narrowWindows} tries, before the widest. */
const NEAR_DAYS = 366;
/** Days after today the first window {@link narrowWindows} tries ends on: a week, as "upcoming" lists default to. */
const WEEK_DAYS = 7;

/** `day` (midnight UTC) moved by `days`, written in a window parameter's format. */
function boundValue(day: Date, days: number, format: WindowParameter['format'], bound: WindowParameter['bound']): string {
  const moved = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + days));
  const date = moved.toISOString().slice(0, 10);
  if (format === 'date') return date;
  return bound === 'lower' ? `${date}T00:00:00Z` : `${date}T23:59:59Z`;
}

/**
 * The windows to try, narrowest first, on a list whose records the suite cannot write (D186): as query text naming
 * every window parameter `query` leaves out, first today to a week later, then a year either side of today; the
 * widest window (D90) is what is left when neither holds a record. A lower bound alone is today, then a year before.
 * Empty when the operation has no window or `query` names all of it. `today` is the run's clock.
 */
export function narrowWindows(op: OperationModel, query: string, today: Date): string[] {
  const window = windowOf(op);
  if (window === undefined) return [];
  const asked = new URLSearchParams(query);
  const open = window.parameters.filter((one) => !asked.has(one.parameter.name));
  if (open.length === 0) return [];
  const spans: [number, number][] = [
    [0, WEEK_DAYS],
    [-NEAR_DAYS, NEAR_DAYS],
  ];
  return spans.map(([from, to]) =>
    open.map((one) => `${encodeURIComponent(one.parameter.name)}=${encodeURIComponent(boundValue(today, one.bound === 'lower' ? from : to, one.format, one.bound))}`).join('&'),
  );
}

/**
 * The narrowest window that holds `record` on its resource's main list (D186): query text naming each window
 * parameter at the record's own first (lower bounds) or last (upper bounds) ranged value, so the record meets the
 * range and few others do. `undefined` when the list has no window, the ranged member is unknown, or the record
 * holds no value in it (then no window brings it into view).
 */
export function recordWindowQuery(resource: ResourceModel, record: Record<string, unknown>): string | undefined {
  const op = resource.operations.list;
  const window = op === undefined ? undefined : windowOf(op);
  if (window?.property === undefined) return undefined;
  const held = record[window.property];
  const values = (Array.isArray(held) ? held : [held]).filter((value): value is string => typeof value === 'string' && !Number.isNaN(Date.parse(value)));
  if (values.length === 0) return undefined;
  const ordered = [...values].sort((one, other) => Date.parse(one) - Date.parse(other));
  return window.parameters.map((one) => `${encodeURIComponent(one.parameter.name)}=${encodeURIComponent(one.bound === 'lower' ? ordered[0]! : ordered.at(-1)!)}`).join('&');
}
