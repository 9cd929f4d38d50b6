import { isLosslessNumber } from 'lossless-json';
import { listItemSchema, shapeOfList } from './lists.js';
import type { ListModel, OperationModel, ParameterModel } from './model.js';
import { mainType, objectShape, type Schema } from './schema.js';

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
  /**
   * The default an upper bound's description states as a span after the lower bound ("Defaults to 7 days after
   * `startDate`", D187): its length in days and the lower parameter's name; `undefined` when none is stated.
   */
  defaultAfter?: { days: number; from: string } | undefined;
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

const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, fourteen: 14, thirty: 30 };
const DEFAULT_SPAN = /\bdefaults?\s+to\s+(\d+|[a-z]+)\s+(day|week)s?\s+(?:after|from)\s+`?([A-Za-z_$][\w$.-]*?)`?(?=[\s.,;)]|$)/i;

/**
 * The span a bound's description states as its default after another parameter (D187): "Defaults to 7 days after
 * `startDate`" is `{ days: 7, from: 'startDate' }`; weeks count 7 days; `undefined` when the text states none.
 */
export function defaultSpanOf(description: string | undefined): { days: number; from: string } | undefined {
  const found = DEFAULT_SPAN.exec(description ?? '');
  if (found === null) return undefined;
  const count = /^\d+$/.test(found[1]!) ? Number(found[1]) : NUMBER_WORDS[found[1]!.toLowerCase()];
  if (count === undefined || count <= 0) return undefined;
  return { days: found[2]!.toLowerCase() === 'week' ? count * 7 : count, from: found[3]! };
}

/**
 * `list` without the equality filters its window's parameters were also read as (D907): `start` and `end`, date-times
 * that bound a range, are named like members (`start`, `end`) of the records, but a window parameter is named on
 * every list request with the widest range (D90), which no record equals; it bounds the list instead. `list` itself
 * when no filter is a window's.
 */
export function withoutWindowFilters<T extends ListModel | undefined>(list: T): T {
  if (list === undefined) return list;
  const window = windowOf(list.operation);
  if (window === undefined || !list.filters.some((filter) => window.parameters.some((one) => one.parameter === filter.parameter))) return list;
  return { ...list, filters: list.filters.filter((filter) => !window.parameters.some((one) => one.parameter === filter.parameter)) };
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
  for (const one of parameters) {
    const stated = one.bound === 'upper' ? defaultSpanOf(one.parameter.description) : undefined;
    if (stated !== undefined && parameters.some((other) => other.bound === 'lower' && other.parameter.name === stated.from)) one.defaultAfter = stated;
  }
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

// Numeric range filters (spec/DECISIONS.md › D105, D106): optional integer or number query parameters whose names
// say they bound a record member (`minPrice`/`maxPrice`, `min_price`, `price_min`, `price_gte`/`price_lte`,
// `price[gt]`/`price[lt]`, `priceFrom`/`priceTo`, a bare `from`/`to` whose description names the member). Left out,
// they bound nothing, so unlike a window they are never named on ordinary list requests.

/** A numeric bound parameter: its end of the range, and whether a value equal to the bound is outside it. */
export interface NumericBound {
  parameter: ParameterModel;
  bound: Bound;
  /** `_gt`/`_lt`, `[gt]`/`[lt]`, or a description saying "greater than"/"less than" without "or equal". */
  exclusive: boolean;
}

/** A numeric range of a list: the record member it ranges over, and at most one lower and one upper bound. */
export interface NumericRange {
  property: string;
  /** Whether the member is an array of numbers (a record is then in the range through any of them). */
  many: boolean;
  /** The member's schema (an array's `items`): its type, `format` (`int64`) and bounds. */
  schema: Schema;
  lower: NumericBound | undefined;
  upper: NumericBound | undefined;
  /** Whether the spec says a lower bound above the upper one is refused (D107). */
  reversedRefused: boolean;
}

/** The numeric ranges of a list operation, and the bound parameters whose member could not be told apart. */
export interface NumericRanges {
  ranges: NumericRange[];
  /** A bound parameter that may range over several members (`from` whose description names price and weight). */
  ambiguous: { parameter: string; members: string[] }[];
}

type Operator = { bound: Bound; exclusive: boolean | undefined };

/** The operator words of a bound's name; `undefined` exclusivity: as the description says (inclusive by default). */
const OPERATORS: Record<string, Operator> = {
  gte: { bound: 'lower', exclusive: false },
  gt: { bound: 'lower', exclusive: true },
  lte: { bound: 'upper', exclusive: false },
  lt: { bound: 'upper', exclusive: true },
  min: { bound: 'lower', exclusive: undefined },
  max: { bound: 'upper', exclusive: undefined },
  from: { bound: 'lower', exclusive: undefined },
  to: { bound: 'upper', exclusive: undefined },
};

/**
 * The stem and operator of a bound's name: `price_gte`, `price[lt]`, `price.min`, `priceMax`, `priceFrom`,
 * `minPrice`, `max_price`, a bare `from`/`to`/`min`/`max` (stem `''`); `undefined` for any other name.
 */
export function numericBoundName(name: string): { stem: string; operator: Operator } | undefined {
  const suffix = /^(.*?)(?:[_.-]|\[)(gte|gt|lte|lt|min|max|from|to)\]?$/i.exec(name) ?? /^(.+?)(Gte|Gt|Lte|Lt|Min|Max|From|To)$/.exec(name);
  if (suffix !== null) return { stem: suffix[1]!, operator: OPERATORS[suffix[2]!.toLowerCase()]! };
  // Case matters after the prefix: `minPrice` is a bound, `total` and `minute` are not.
  const prefix = /^(min|max|from|to|Min|Max|From|To|MIN|MAX|FROM|TO)(?:[_-](.+)|([A-Z].*))?$/.exec(name);
  if (prefix !== null && (prefix[2] !== undefined || prefix[3] !== undefined || prefix[0].length === prefix[1]!.length)) {
    return { stem: prefix[2] ?? prefix[3] ?? '', operator: OPERATORS[prefix[1]!.toLowerCase()]! };
  }
  return undefined;
}

const flat = (name: string): string => name.toLowerCase().replace(/[_\-.\s]/g, '');

/** A description saying the bound itself is outside the range; "or equal", "at least/most", "inclusive" say it is not. */
const EXCLUSIVE = /\b(?:greater|more|higher|larger|less|lower|smaller|fewer)\s+than\b(?!\s+or\s+equal)|\bexclusive\b|\bstrictly\b/i;
const INCLUSIVE = /\binclusive\b|\bor\s+equal|\bat\s+(?:least|most)\b|\bor\s+(?:more|less|above|below|higher|lower)\b/i;

function exclusiveOf(parameter: ParameterModel, operator: Operator): boolean {
  if (operator.exclusive !== undefined) return operator.exclusive;
  const text = parameter.description ?? '';
  return EXCLUSIVE.test(text) && !INCLUSIVE.test(text);
}

/** The numeric members of a record schema (a number, or an array of numbers), with their value schemas. */
function numericMembers(item: Schema | undefined): Map<string, { schema: Schema; many: boolean }> {
  const found = new Map<string, { schema: Schema; many: boolean }>();
  for (const [name, schema] of Object.entries(item === undefined ? {} : objectShape(item).properties)) {
    const items = schema['items'];
    const many = typeof items === 'object' && items !== null && !Array.isArray(items);
    const single = many ? (items as Schema) : schema;
    const type = mainType(single);
    if (type === 'integer' || type === 'number') found.set(name, { schema: single, many });
  }
  return found;
}

/** The members a bound ranges over: the one its stem names, else those its description names as words. */
function membersOf(parameter: ParameterModel, stem: string, members: ReadonlyMap<string, unknown>): string[] {
  const named = [...members.keys()].filter((name) => stem !== '' && flat(name) === flat(stem));
  if (named.length > 0) return named;
  const text = ` ${(parameter.description ?? '').toLowerCase().replace(/[^a-z0-9_]+/g, ' ')} `;
  return [...members.keys()].filter((name) => text.includes(` ${name.toLowerCase()} `) || text.includes(` ${name.toLowerCase().replace(/_/g, ' ')} `));
}

/** A comparison of the two ends a sentence may forbid ("minPrice must not exceed maxPrice"). */
const COMPARES = /\b(?:exceed|exceeds|greater|more|larger|higher|after|later|less|smaller|lower|before|earlier|at\s+most|at\s+least)\b/i;

/**
 * Whether the spec says a reversed range is refused (D107): a sentence of a bound's, the operation's or a 4xx
 * response's description that speaks of a reversed/inverted/invalid range, or compares the two bounds naming both.
 */
export function reversedRefused(op: OperationModel, lower: ParameterModel, upper: ParameterModel): boolean {
  const texts = [lower.description, upper.description, op.description, ...op.responses.filter((response) => /^4/.test(response.status)).map((response) => response.description)];
  const sentences = texts.flatMap((text) => (text ?? '').split(/(?<=[.;!?])\s+|\n/));
  return sentences.some((sentence) => /\b(?:revers|invert)|\b(?:invalid|empty)\s+range\b/i.test(sentence) || (COMPARES.test(sentence) && sentence.includes(lower.name) && sentence.includes(upper.name)));
}

const numericCache = new WeakMap<OperationModel, NumericRanges>();

/**
 * The numeric range filters of a GET list operation (D105): optional integer/number query parameters without a
 * `default` whose names say they bound a member ({@link numericBoundName}), matched to the record's numeric member
 * by the name's stem, else by the one member the description names. Several lower (or upper) bounds of one member
 * give several ranges. `ambiguous` lists bounds whose description names several members (no range: no guess).
 */
export function numericRangesOf(op: OperationModel): NumericRanges {
  const cached = numericCache.get(op);
  if (cached !== undefined) return cached;
  const result: NumericRanges = { ranges: [], ambiguous: [] };
  numericCache.set(op, result);
  if (op.method !== 'GET') return result;
  const success = op.responses.find((response) => response.status.startsWith('2') && response.schema !== undefined)?.schema;
  const shape = success === undefined ? undefined : shapeOfList(success);
  const members = numericMembers(success === undefined || shape === undefined ? undefined : listItemSchema(success, shape));
  const byMember = new Map<string, { lower: NumericBound[]; upper: NumericBound[] }>();
  for (const parameter of op.queryParams) {
    const type = parameter.type;
    const named = numericBoundName(parameter.name);
    if (named === undefined || parameter.required || (type !== 'integer' && type !== 'number') || parameter.schema['default'] !== undefined) continue;
    const found = membersOf(parameter, named.stem, members);
    if (found.length > 1) result.ambiguous.push({ parameter: parameter.name, members: found });
    if (found.length !== 1) continue;
    const ends = byMember.get(found[0]!) ?? { lower: [], upper: [] };
    byMember.set(found[0]!, ends);
    ends[named.operator.bound].push({ parameter, bound: named.operator.bound, exclusive: exclusiveOf(parameter, named.operator) });
  }
  for (const [property, ends] of byMember) {
    const member = members.get(property)!;
    for (let index = 0; index < Math.max(ends.lower.length, ends.upper.length); index++) {
      const lower = ends.lower[index];
      const upper = ends.upper[index];
      const refused = lower !== undefined && upper !== undefined && reversedRefused(op, lower.parameter, upper.parameter);
      result.ranges.push({ property, many: member.many, schema: member.schema, lower, upper, reversedRefused: refused });
    }
  }
  return result;
}

/** A number as an exact decimal: `digits × 10^exponent`. */
interface Decimal {
  digits: bigint;
  exponent: number;
}

/** The exact decimal of a JSON number however it is held (number, bigint, `LosslessNumber`, numeric text), else `undefined`. */
export function exactDecimal(value: unknown): Decimal | undefined {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : typeof value === 'bigint' || typeof value === 'string' ? String(value) : isLosslessNumber(value) ? value.value : '';
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (match === null) return undefined;
  const fraction = match[3] ?? '';
  const exponent = Number(match[4] ?? 0) - fraction.length;
  // Beyond any value a schema bounds: no exact comparison is worth a power of ten that large.
  if (Math.abs(exponent) > 400) return undefined;
  return { digits: BigInt(`${match[1]}${match[2]}${fraction}`), exponent };
}

/** `a` compared with `b` exactly (negative, zero, positive), each held as {@link exactDecimal} reads it. */
export function compareDecimal(a: Decimal, b: Decimal): number {
  const exponent = Math.min(a.exponent, b.exponent);
  const left = a.digits * 10n ** BigInt(a.exponent - exponent);
  const right = b.digits * 10n ** BigInt(b.exponent - exponent);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Whether `value` lies on the right side of a numeric bound `at` (D105): `>=`/`>` for a lower, `<=`/`<` for an upper. */
export function withinBound(value: Decimal, at: Decimal, bound: Bound, exclusive: boolean): boolean {
  const order = compareDecimal(value, at);
  return bound === 'lower' ? (exclusive ? order > 0 : order >= 0) : exclusive ? order < 0 : order <= 0;
}

type RefusedPair = [ParameterModel, ParameterModel, 'number' | 'date'];

const refusedPairs = new WeakMap<OperationModel, RefusedPair[]>();

/** The bound pairs of `op` whose reversal the spec refuses (D107), read once per operation. */
function refusedPairsOf(op: OperationModel): RefusedPair[] {
  const known = refusedPairs.get(op);
  if (known !== undefined) return known;
  const pairs = numericRangesOf(op).ranges.flatMap((range): RefusedPair[] => (range.reversedRefused && range.lower !== undefined && range.upper !== undefined ? [[range.lower.parameter, range.upper.parameter, 'number']] : []));
  const window = windowOf(op);
  const lower = window?.parameters.find((one) => one.bound === 'lower')?.parameter;
  const upper = window?.parameters.find((one) => one.bound === 'upper')?.parameter;
  if (lower !== undefined && upper !== undefined && reversedRefused(op, lower, upper)) pairs.push([lower, upper, 'date']);
  refusedPairs.set(op, pairs);
  return pairs;
}

/**
 * Why a request's query asks a range the spec refuses when reversed (D107): its lower bound above its upper one, on
 * a numeric range or a date window whose spec says so; `undefined` otherwise. `query` holds the parameters' values
 * as coerced (numbers, bigints, text).
 */
export function reversedRangeIn(op: OperationModel, query: Readonly<Record<string, unknown>>): string | undefined {
  for (const [from, to, kind] of refusedPairsOf(op)) {
    const low = query[from.name];
    const high = query[to.name];
    if (low === undefined || high === undefined) continue;
    const a = kind === 'number' ? exactDecimal(low) : undefined;
    const b = kind === 'number' ? exactDecimal(high) : undefined;
    const reversed = kind === 'number' ? a !== undefined && b !== undefined && compareDecimal(a, b) > 0 : Date.parse(String(low)) > Date.parse(String(high));
    if (reversed) return `${from.name} (${String(low)}) must not be greater than ${to.name} (${String(high)}).`;
  }
  return undefined;
}
