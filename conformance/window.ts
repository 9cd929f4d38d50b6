import { listItemSchema, shapeOfList } from '../model/lists.js';
import type { OperationModel, ParameterModel, ResourceModel } from '../model/model.js';
import { objectShape, type Schema } from '../model/schema.js';

// A list's window (spec/DECISIONS.md › D90): optional date or date-time query parameters that bound a range
// (`startDate`/`endDate`, `from`/`to`, `since`/`until`, `after`/`before`, `createdAfter`) and carry no `default`
// keyword. Left out, a server may apply a default the spec states only in prose ("Defaults to today's date") or
// none; the suite cannot read which, so it never leaves them out: every list request it sends names them, spanning
// every value it can generate, and only records whose ranged member holds a value are expected on the list.

/** Which end of a range a parameter bounds. */
export type Bound = 'lower' | 'upper';

/** A window parameter: its end of the range, its format, and the value sent when a check does not choose one. */
export interface WindowParameter {
  parameter: ParameterModel;
  bound: Bound;
  format: 'date' | 'date-time';
  widest: string;
}

/** The window of a list operation: its parameters, and the record member they range over, when one is found. */
export interface ListWindow {
  parameters: WindowParameter[];
  /** The record member holding the ranged value (a date, or an array of them); `undefined` when none is found. */
  property: string | undefined;
  /** Whether that member is an array of values (a record then falls in the window through any of them). */
  many: boolean;
}

/** The earliest and latest values the suite generates for these formats (conformance/arbitraries/strings.ts). */
const WIDEST: Record<WindowParameter['format'], Record<Bound, string>> = {
  date: { lower: '1970-01-01', upper: '2999-12-31' },
  'date-time': { lower: '1970-01-01T00:00:00Z', upper: '2999-12-31T23:59:59Z' },
};

const LOWER = /^(start|from|since|after|begin|min|earliest|created_?after|updated_?after)|(start|from|since|after|begin|_gte|_gt|min)$/i;
const UPPER = /^(end|to|until|before|max|latest|created_?before|updated_?before)|(end|to|until|before|_lte|_lt|max)$/i;

/** Which end of a range a parameter's name says it bounds (`startDate`, `date_gte`, `createdAfter`…), if any. */
export function boundOf(name: string): Bound | undefined {
  const lower = LOWER.test(name);
  const upper = UPPER.test(name);
  return lower === upper ? undefined : lower ? 'lower' : 'upper';
}

function formatOf(schema: Schema): WindowParameter['format'] | undefined {
  const format = schema['format'];
  return format === 'date' || format === 'date-time' ? format : undefined;
}

const windows = new WeakMap<OperationModel, ListWindow | null>();

/**
 * The window of a list operation (D90), `undefined` when it has none: its optional date/date-time range
 * parameters without a `default`, and the record member they range over (the one top-level member of the same
 * format, or an array of them).
 */
export function windowOf(op: OperationModel): ListWindow | undefined {
  let found = windows.get(op);
  if (found === undefined) windows.set(op, (found = computeWindow(op) ?? null));
  return found ?? undefined;
}

function computeWindow(op: OperationModel): ListWindow | undefined {
  if (op.method !== 'GET') return undefined;
  const parameters: WindowParameter[] = [];
  for (const parameter of op.queryParams) {
    const format = formatOf(parameter.schema);
    const bound = boundOf(parameter.name);
    if (parameter.required || format === undefined || bound === undefined || parameter.schema['default'] !== undefined) continue;
    parameters.push({ parameter, bound, format, widest: WIDEST[format][bound] });
  }
  if (parameters.length === 0) return undefined;
  const success = op.responses.find((response) => response.status.startsWith('2') && response.schema !== undefined)?.schema;
  const shape = success === undefined ? undefined : shapeOfList(success);
  const item = success === undefined || shape === undefined ? undefined : listItemSchema(success, shape);
  const formats = new Set(parameters.map((one) => one.format));
  const ranged = Object.entries(item === undefined ? {} : objectShape(item).properties).filter(([, schema]) => {
    const items = schema['items'];
    const single = typeof items === 'object' && items !== null && !Array.isArray(items) ? (items as Schema) : schema;
    const format = formatOf(single);
    return format !== undefined && formats.has(format);
  });
  const one = ranged.length === 1 ? ranged[0] : undefined;
  return { parameters, property: one?.[0], many: one !== undefined && typeof one[1]['items'] === 'object' };
}

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
