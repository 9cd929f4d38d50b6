import fc from 'fast-check';
import { documentedStatuses } from '../../judge/documented.js';
import { memberAt } from '../../model/lists.js';
import { readListOf } from '../../model/served-lists.js';
import type { ApiModel, OperationModel, ResourceModel } from '../../model/model.js';
import { compareDecimal, exactDecimal, numericRangesOf, withinBound, type NumericBound, type NumericRange } from '../../model/windows.js';
import { exactJson } from '../../model/json.js';
import { ordinaryBody, withProperty } from '../arbitraries/body.js';
import { requestOf } from '../context.js';
import { drawFromSeed } from '../property.js';
import { Violation } from '../contract.js';
import type { CheckContext } from '../check-context.js';
import { queryHoldingRecords } from '../references.js';
import { idOf, type Check, type ExactRecord } from './check.js';
import { largestPage } from './population.js';
import { createRecord, listRecords, show, successStatuses } from './records.js';

// Numeric range filters as a property (spec/DECISIONS.md › D105-D108): `minPrice`/`maxPrice`, `price_gte`/`price_lt`,
// `price[gte]`… bound a numeric record member, compared exactly (int64 beyond 2^53 included). On a list the suite
// can fill, it creates records whose values it chooses so that bounds fall on them and between them; on served data
// (a list no create fills) it draws the bounds from the values the list holds. Either way every listed record must
// meet the range, a record inside it must not be left out of a complete page, and a reversed range gets a
// documented refusal where the spec says so, else a refusal or a consistent answer.

type Decimal = NonNullable<ReturnType<typeof exactDecimal>>;

/** Records the check creates, and the distance between their values (bounds fall on them and between them). */
const RECORDS = 5;
const SPACING = 3n;

/** A range asked: each end's value, `undefined` when that bound is not sent. */
interface Asked {
  lower: bigint | undefined;
  upper: bigint | undefined;
}

/** The values of a record's member as exact decimals (one, or each item of an array). */
function valuesOf(record: ExactRecord, property: string): Decimal[] {
  const value = record[property];
  const all = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return all.flatMap((one) => {
    const exact = exactDecimal(one);
    return exact === undefined ? [] : [exact];
  });
}

const decimalOf = (value: bigint): Decimal => ({ digits: value, exponent: 0 });

/** Whether one value is inside the range asked (each end as the spec reads it: inclusive, or exclusive). */
function inside(value: Decimal, range: NumericRange, asked: Asked): boolean {
  const side = (end: NumericBound | undefined, at: bigint | undefined): boolean => end === undefined || at === undefined || withinBound(value, decimalOf(at), end.bound, end.exclusive);
  return side(range.lower, asked.lower) && side(range.upper, asked.upper);
}

/**
 * Whether a listed record may be in the range: the span of its values meets it (D91's reading, kept for numbers:
 * a server may read several values as a span or one by one; both are correct).
 */
function meets(values: readonly Decimal[], range: NumericRange, asked: Asked): boolean {
  if (values.length === 0) return false;
  const sorted = [...values].sort(compareDecimal);
  const [low, high] = [sorted[0]!, sorted[sorted.length - 1]!];
  const lowerOk = range.lower === undefined || asked.lower === undefined || withinBound(high, decimalOf(asked.lower), 'lower', range.lower.exclusive);
  const upperOk = range.upper === undefined || asked.upper === undefined || withinBound(low, decimalOf(asked.upper), 'upper', range.upper.exclusive);
  return lowerOk && upperOk;
}

/**
 * The ranges asked exactly on a value and just beside it, on every run before the drawn ones: each end alone on it,
 * both ends on it, each end on it with the other one step away (so an exclusive end beside an inclusive one still
 * holds the value), and each end just past it. A lower end read as exclusive, an upper end read as inclusive, an
 * off-by-one or a value rounded through a double then shows whatever the draws.
 */
function besideCases(value: bigint, range: NumericRange): Asked[] {
  const cases: Asked[] = [
    { lower: value, upper: undefined },
    { lower: undefined, upper: value },
    { lower: value, upper: value },
    { lower: value, upper: value + 1n },
    { lower: value - 1n, upper: value },
    { lower: value + 1n, upper: undefined },
    { lower: undefined, upper: value - 1n },
  ];
  // A case whose only ends are parameters the list lacks would ask the unbounded list: not a range.
  return cases.filter((asked) => (asked.lower !== undefined && range.lower !== undefined) || (asked.upper !== undefined && range.upper !== undefined));
}

/** The query text of a range asked (its bounds only). */
function rangeQuery(range: NumericRange, asked: Asked): string {
  const parts: string[] = [];
  if (range.lower !== undefined && asked.lower !== undefined) parts.push(`${encodeURIComponent(range.lower.parameter.name)}=${asked.lower}`);
  if (range.upper !== undefined && asked.upper !== undefined) parts.push(`${encodeURIComponent(range.upper.parameter.name)}=${asked.upper}`);
  return parts.join('&');
}

/** How a range reads in a message: `price >= 10 and price < 20`. */
function describe(range: NumericRange, asked: Asked): string {
  const ends: string[] = [];
  if (range.lower !== undefined && asked.lower !== undefined) ends.push(`${range.property} ${range.lower.exclusive ? '>' : '>='} ${asked.lower} (${range.lower.parameter.name})`);
  if (range.upper !== undefined && asked.upper !== undefined) ends.push(`${range.property} ${range.upper.exclusive ? '<' : '<='} ${asked.upper} (${range.upper.parameter.name})`);
  return ends.join(' and ');
}

/**
 * The first value of `count` values spaced by {@link SPACING} that the member's schema admits, or `undefined`:
 * beyond 2^53 for an int64 member (odd values, which a double cannot hold, so a bound read through a JS number is
 * caught), else an integer drawn from the seed (`drawn`, 0..999999) inside the member's `minimum`/`maximum`, a multiple of an integer `multipleOf`.
 */
function firstValue(range: NumericRange, drawn: number): { first: bigint; step: bigint } | undefined {
  const schema = range.schema;
  const multipleOf = schema['multipleOf'];
  const unit = typeof multipleOf === 'number' ? (Number.isInteger(multipleOf) ? BigInt(multipleOf) : Number.isInteger(1 / multipleOf) ? 1n : undefined) : 1n;
  if (unit === undefined) return undefined;
  const step = SPACING * unit;
  const bound = (name: string, exclusive: string, up: boolean): bigint | undefined => {
    const plain = schema[name];
    const strict = schema[exclusive];
    if (typeof strict === 'number') return up ? BigInt(Math.ceil(strict)) - 1n : BigInt(Math.floor(strict)) + 1n;
    return typeof plain === 'number' ? (up ? BigInt(Math.floor(plain)) : BigInt(Math.ceil(plain))) : undefined;
  };
  const low = bound('minimum', 'exclusiveMinimum', false);
  const high = bound('maximum', 'exclusiveMaximum', true);
  const span = step * BigInt(RECORDS + 1);
  const random = BigInt(drawn);
  const beyondDouble = schema['format'] === 'int64' && (high === undefined || high > 2n ** 53n + span) && (low === undefined || low < 2n ** 53n);
  const from = (low ?? 0n) + unit;
  const room = high === undefined ? 1_000_000n : high - span - from;
  if (room < 0n) return undefined;
  let first = beyondDouble ? 2n ** 53n + 1n + 2n * random : from + (room === 0n ? 0n : random % (room + 1n));
  first -= ((first % unit) + unit) % unit;
  if ((low !== undefined && first <= low) || (high !== undefined && first + span > high)) return undefined;
  return { first, step };
}

/**
 * The reversed range (D107): where the spec says it is refused, a documented 4xx in the error shape; where it is
 * silent, a documented 4xx or a success whose records all meet the range read the other way round (an empty list,
 * or bounds swapped). A 5xx is wrong either way.
 */
async function askReversed(context: CheckContext, op: OperationModel, range: NumericRange, low: bigint, high: bigint, base: string, recordsIn: (body: unknown) => ExactRecord[]): Promise<void> {
  if (range.lower === undefined || range.upper === undefined) return;
  const refusals = documentedStatuses(op).filter((status) => status >= 400);
  const expected = range.reversedRefused ? (refusals.length === 0 ? [400] : refusals) : [...successStatuses(op), ...refusals];
  const asked: Asked = { lower: high, upper: low };
  const query = [base, rangeQuery(range, asked)].filter((part) => part !== '').join('&');
  const { exchange, body } = await context.call(op, requestOf(context, op, { query }), expected);
  if (exchange.response.status >= 300) return;
  const swapped: Asked = { lower: low, upper: high };
  const stray = recordsIn(body).find((record) => valuesOf(record, range.property).length > 0 && !meets(valuesOf(record, range.property), range, swapped));
  if (stray !== undefined) throw new Violation(`asked the reversed range ${describe(range, asked)}, the list holds ${show(stray)}, which is neither empty nor in the range read the other way round`, exchange);
}

/**
 * The numeric range check of a list the suite fills (D105, D106): it creates {@link RECORDS} records whose member
 * holds values `first + k·step` it chooses, then for any bounds drawn on and between those values (either alone or
 * both), every listed record meets the range and every created record inside it is on a page shorter than its limit.
 */
function createdRangeCheck(resource: ResourceModel, range: NumericRange, id: string, rule: string): Check {
  return {
    id,
    rule,
    writes: true,
    async run(context) {
      const create = resource.operations.create!;
      const list = resource.operations.list!;
      // Drawn from the run's seed (D275), so the values a failure shows come back on a replay.
      const start = firstValue(range, drawFromSeed(context.target, fc.integer({ min: 0, max: 999_999 })));
      if (start === undefined) {
        context.advise(`${range.property}'s schema leaves no room for ${RECORDS} spaced values, so ${id} asked no range`);
        return;
      }
      const { first, step } = start;
      const mine: { id: string; value: bigint }[] = [];
      for (let index = 0; index < RECORDS; index++) {
        const value = first + BigInt(index) * step;
        const body = withProperty(create, ordinaryBody(context, create, context.target.integers, 60 + index), range.property, range.many ? [value] : value);
        if (body === undefined) {
          context.advise(`${create.operationId} cannot send ${range.property} = ${value}, so the range filters were not tested`);
          return;
        }
        const created = await createRecord(context, resource, body);
        if (created === undefined) return;
        mine.push({ id: idOf(resource, created), value });
      }
      const page = largestPage(resource);
      const base = page !== undefined && resource.limit !== undefined ? `${encodeURIComponent(resource.limit.parameter)}=${page}` : '';
      const offsets = fc.option(fc.bigInt({ min: -1n, max: step * BigInt(RECORDS) }), { nil: undefined });
      const bounds = fc.record({ lower: offsets, upper: offsets }).filter(({ lower, upper }) => (lower !== undefined && range.lower !== undefined) || (upper !== undefined && range.upper !== undefined));
      const judge = async (asked: Asked): Promise<void> => {
        const query = [base, rangeQuery(range, asked)].filter((part) => part !== '').join('&');
        const { exchange, records } = await listRecords(context, resource, query);
        const outside = records.find((record) => record[range.property] !== undefined && !meets(valuesOf(record, range.property), range, asked));
        if (outside !== undefined) throw new Violation(`asked ${describe(range, asked)}, the list holds ${show(outside)}, whose ${range.property} is outside that range`, exchange);
        if (page !== undefined && records.length >= page) return;
        const listed = new Set(records.map((record) => idOf(resource, record)));
        const left = mine.find((one) => inside(decimalOf(one.value), range, asked) && !listed.has(one.id));
        if (left !== undefined) throw new Violation(`asked ${describe(range, asked)}, the list (${records.length} records, a complete page) leaves out ${resource.name} ${left.id}, whose ${range.property} ${left.value} is in that range`, exchange);
      };
      // Bounds on a value and just beside it first: an exclusive end, an off-by-one or a value rounded through a
      // double (odd int64 values beyond 2^53) shows there on every run, not only when the draw finds it.
      for (const value of [first, first + step]) for (const asked of besideCases(value, range)) await judge(asked);
      await context.forAll(bounds, async ({ lower, upper }) => {
        const asked: Asked = { lower: lower === undefined ? undefined : first + lower, upper: upper === undefined ? undefined : first + upper };
        await judge(asked.lower !== undefined && asked.upper !== undefined && asked.lower > asked.upper ? { lower: asked.upper, upper: asked.lower } : asked);
      });
      await askReversed(context, list, range, first + step, first + 3n * step, base, (body) => recordsIn(resource, body));
    },
  };
}

function recordsIn(resource: ResourceModel, body: unknown): ExactRecord[] {
  const list = resource.listShape?.kind === 'object' ? memberAt(body, resource.listShape.itemsPath) : body;
  return Array.isArray(list) ? (list as ExactRecord[]) : [];
}

/**
 * The range check of a served list (D108): a GET list no resource's create fills. It reads the list once with its
 * required parameters from the spec's examples (and the largest page), draws bounds on and beside the values it
 * holds, and judges every answer: each listed record meets the range; when the first read was complete (shorter than
 * its page size, or no paging), no held record inside the range is left out.
 */
function servedRangeCheck(op: OperationModel, range: NumericRange, id: string, rule: string): Check {
  return {
    id,
    rule,
    writes: false,
    async run(context) {
      // The list as its answer and parameters show it, as the served-list checks read it (model/served-lists.ts).
      const read = readListOf(op);
      const shape = read?.list.shape;
      const itemsPath = shape === undefined || shape.kind === 'array' ? [] : shape.itemsPath;
      const example = await queryHoldingRecords(context, op, itemsPath);
      if (example === undefined) {
        context.advise(`${op.operationId} has a required parameter the spec gives no example, enum or default for, so ${id} asked no range`);
        return;
      }
      const limit = read?.list.limit;
      const size = limit?.maximum ?? limit?.default;
      const base = [example, limit !== undefined && size !== undefined ? `${encodeURIComponent(limit.parameter)}=${size}` : ''].filter((part) => part !== '').join('&');
      const idMember = read !== undefined && Object.hasOwn(read.properties, 'id') ? 'id' : undefined;
      const recordsOfBody = (body: unknown): ExactRecord[] => {
        const at = itemsPath.length === 0 ? body : memberAt(body, itemsPath);
        return Array.isArray(at) ? (at as ExactRecord[]) : [];
      };
      const keyOf = (record: ExactRecord): string => exactJson(idMember === undefined ? record : record[idMember]);
      const { body } = await context.call(op, requestOf(context, op, { query: base }), successStatuses(op));
      const held = recordsOfBody(body);
      const paged = read?.list.paging !== undefined;
      const complete = size !== undefined ? held.length < size : !paged;
      const values = [...new Map(held.flatMap((record) => valuesOf(record, range.property)).filter((value) => value.exponent >= 0).map((value) => [String(value.digits * 10n ** BigInt(value.exponent)), value.digits * 10n ** BigInt(value.exponent)])).values()];
      if (values.length === 0) {
        context.advise(`${op.operationId} holds no record with a whole ${range.property} when asked with the spec's example parameters, so ${id} asked no range: not verifiable`);
        return;
      }
      const around = fc.option(fc.tuple(fc.constantFrom(...values), fc.constantFrom(-1n, 0n, 1n)).map(([value, step]) => value + step), { nil: undefined });
      const bounds = fc.record({ lower: around, upper: around }).filter(({ lower, upper }) => (lower !== undefined && range.lower !== undefined) || (upper !== undefined && range.upper !== undefined));
      const judge = async (asked: Asked): Promise<void> => {
        const query = [base, rangeQuery(range, asked)].filter((part) => part !== '').join('&');
        const { exchange, body: answer } = await context.call(op, requestOf(context, op, { query }), successStatuses(op));
        const records = recordsOfBody(answer);
        const outside = records.find((record) => record[range.property] !== undefined && !meets(valuesOf(record, range.property), range, asked));
        if (outside !== undefined) throw new Violation(`asked ${describe(range, asked)}, the list holds ${show(outside)}, whose ${range.property} is outside that range`, exchange);
        if (!complete || (size !== undefined && records.length >= size)) return;
        const listed = new Set(records.map(keyOf));
        const left = held.find((record) => valuesOf(record, range.property).some((value) => inside(value, range, asked)) && !listed.has(keyOf(record)));
        if (left !== undefined) throw new Violation(`asked ${describe(range, asked)}, the list leaves out ${show(left)}, which it holds (asked without the range, a complete page) and whose ${range.property} is in that range`, exchange);
      };
      for (const value of values.slice(0, 3)) for (const asked of besideCases(value, range)) await judge(asked);
      await context.forAll(bounds, async (drawn) => {
        await judge(drawn.lower !== undefined && drawn.upper !== undefined && drawn.lower > drawn.upper ? { lower: drawn.upper, upper: drawn.lower } : drawn);
      });
      const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      await askReversed(context, op, range, sorted[0]!, sorted[sorted.length - 1]! + 1n, base, recordsOfBody);
    },
  };
}

/** A check id's member part, unique per list: `price-range`, then `price-range-2` for a second pair on it. */
function rangeIds(op: OperationModel, ranges: readonly NumericRange[]): string[] {
  const seen = new Map<string, number>();
  return ranges.map((range) => {
    const count = (seen.get(range.property) ?? 0) + 1;
    seen.set(range.property, count);
    return `${op.operationId}.${range.property}-range${count === 1 ? '' : `-${count}`}`;
  });
}

function ruleOf(where: string, range: NumericRange, drawn: string): string {
  const names = [range.lower, range.upper].flatMap((end) => (end === undefined ? [] : [`\`${end.parameter.name}\` (${end.bound}, ${end.exclusive ? 'exclusive' : 'inclusive'})`])).join(' and ');
  const reversed = range.lower !== undefined && range.upper !== undefined ? (range.reversedRefused ? '; a reversed range gets a documented 4xx' : '; a reversed range gets a documented 4xx or a consistent answer') : '';
  return `${where}: for any range asked with ${names} (${drawn}), every listed record has \`${range.property}\` in it and no record inside it is left out of a complete page${reversed}.`;
}

/** Checks that say why a bound parameter is not tested: its description names several members (D105: no guess). */
function ambiguousChecks(op: OperationModel): Check[] {
  return numericRangesOf(op).ambiguous.map(({ parameter, members }) => ({
    id: `${op.operationId}.${parameter}-range`,
    rule: `${op.operationId}: the range parameter \`${parameter}\` bounds one record member.`,
    writes: false,
    skip: `not verifiable: ${parameter} may bound ${members.join(' or ')} (its description names each), and the suite does not guess`,
    async run() {},
  }));
}

/** The numeric range checks of a resource's main list (D105-D107), where the suite can create its records. */
export function numericRangeChecks(resource: ResourceModel, where: string): Check[] {
  const list = resource.operations.list;
  if (list === undefined || resource.operations.create === undefined) return [];
  const { ranges } = numericRangesOf(list);
  const ids = rangeIds(list, ranges);
  return [...ranges.map((range, index) => createdRangeCheck(resource, range, ids[index]!, ruleOf(where, range, "drawn on and between the created records' values"))), ...ambiguousChecks(list)];
}

/**
 * The numeric range checks of served data (D108): GET lists without path parameters that no resource fills (no
 * create holds their records), judged on the records they hold.
 */
export function servedRangeChecks(model: ApiModel, where: (op: OperationModel) => string): Check[] {
  const served = model.operations.filter((op) => op.method === 'GET' && op.pathParams.length === 0 && (op.resource === undefined || (op.resource.operations.create === undefined && op.resource.operations.list === op)));
  return served.flatMap((op) => {
    const { ranges } = numericRangesOf(op);
    const ids = rangeIds(op, ranges);
    return [...ranges.map((range, index) => servedRangeCheck(op, range, ids[index]!, ruleOf(where(op), range, 'drawn on and beside the values the list holds'))), ...ambiguousChecks(op)];
  });
}
