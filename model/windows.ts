import { listItemSchema, shapeOfList } from './lists.js';
import type { OperationModel, ParameterModel } from './model.js';
import { objectShape, type Schema } from './schema.js';

// A list's window (spec/DECISIONS.md › D90, D91): optional date or date-time query parameters that bound a range
// (`startDate`/`endDate`, `from`/`to`, `since`/`until`, `after`/`before`, `createdAfter`) and carry no `default`
// keyword, and the record member they range over. The mock filters by them; the suite names them on every list
// request and judges ranges asked with them.

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
