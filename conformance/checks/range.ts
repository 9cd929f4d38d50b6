import fc from 'fast-check';
import type { ResourceModel } from '../../model/model.js';
import { ordinaryBody, withProperty } from '../arbitraries/body.js';
import { Violation } from '../contract.js';
import type { CheckContext } from '../check-context.js';
import { windowOf, type ListWindow, type WindowParameter } from '../window-query.js';
import { idOf, type Check, type ExactRecord } from './check.js';
import { largestPage } from './population.js';
import { createRecord, listRecords, recordsOf, show, successStatuses } from './records.js';
import { documentedStatuses } from '../../judge/documented.js';
import { reversedRefused } from '../../model/windows.js';
import { requestOf } from '../context.js';
import { settle } from '../consistency.js';
import { drawFromSeed } from '../property.js';
import type { Exchange } from '../../judge/verdict.js';

// Range filters as a property (spec/DECISIONS.md › D91): a list's lower and upper bound parameters on a date or
// an instant, read as the spec's names say, both ends included where the spec is silent (a day named as a range's
// end is part of it). The check creates a few records whose ranged values it chooses, so that bounds fall exactly
// on them, then asks ranges and single bounds drawn from those values.

/** Records the check creates, and the days around them its bounds are drawn from. */
const SPACING_DAYS = 3;
const RECORDS = 5;

/** The day `offset` days after `start` written as `format` asks (a date, or midnight UTC as an instant). */
function dayText(start: number, offset: number, format: WindowParameter['format']): string {
  const iso = new Date(start + offset * 86_400_000).toISOString();
  return format === 'date' ? iso.slice(0, 10) : `${iso.slice(0, 19)}Z`;
}

/** The values of a record's ranged member as times (milliseconds), whatever the member holds. */
function timesOf(record: ExactRecord, property: string): number[] {
  const value = record[property];
  const all = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return all.flatMap((one) => (typeof one === 'string' && !Number.isNaN(Date.parse(one)) ? [Date.parse(one)] : []));
}

/** Whether a record falls in `[lower, upper]` (either end open when `undefined`): one of its values does. */
function inRange(times: readonly number[], lower: number | undefined, upper: number | undefined): boolean {
  return times.some((time) => (lower === undefined || time >= lower) && (upper === undefined || time <= upper));
}

/**
 * Whether a record may be listed for `[lower, upper]`: the span of its values meets the range (D91). Records with
 * several values (an exhibition's days) may be read as the span they cover, so only one wholly before or after
 * the range is outside it.
 */
function meetsRange(times: readonly number[], lower: number | undefined, upper: number | undefined): boolean {
  if (times.length === 0) return false;
  return (lower === undefined || Math.max(...times) >= lower) && (upper === undefined || Math.min(...times) <= upper);
}

/**
 * The range check of a list with a window whose parameters range over a record member (D91): for any lower and
 * upper bound drawn on the created records' values (or one of them alone), every listed record has values meeting
 * the range, and every created record that holds one is listed (the largest page being shorter than its limit).
 */
export function rangeCheck(resource: ResourceModel, window: ListWindow, id: string, rule: string): Check {
  return {
    id,
    rule,
    writes: true,
    async run(context) {
      const create = resource.operations.create!;
      const property = window.property!;
      const lowerParameter = window.parameters.find((one) => one.bound === 'lower');
      const upperParameter = window.parameters.find((one) => one.bound === 'upper');
      const format = window.parameters[0]!.format;
      // A year far from the values other checks leave, so that a range holds few records besides these.
      const start = Date.UTC(2100 + drawFromSeed(context.target, fc.integer({ min: 0, max: 699 })), 0, 1);
      const mine: { id: string; times: number[] }[] = [];
      for (let index = 0; index < RECORDS; index++) {
        const days = [index * SPACING_DAYS, ...(index === RECORDS - 1 ? [1] : [])].map((offset) => dayText(start, offset, format));
        const body = withProperty(create, ordinaryBody(context, create, context.target.integers, 40 + index), property, window.many ? days : days[0]);
        if (body === undefined) {
          context.advise(`${create.operationId} cannot send ${property} = ${show(days)}, so the range filters were not tested`);
          return;
        }
        const created = await createRecord(context, resource, body);
        if (created === undefined) return;
        mine.push({ id: idOf(resource, created), times: timesOf(created, property) });
      }
      // Each end placed exactly on a created record's day on every run, before the drawn ranges: an end read as
      // exclusive (or a start as after) is then caught whatever the draws.
      const ask = (lower: number | undefined, upper: number | undefined): Promise<void> =>
        askRange(context, resource, property, mine, lowerParameter === undefined ? undefined : [lowerParameter, lower, start], upperParameter === undefined ? undefined : [upperParameter, upper, start]);
      for (const offset of [SPACING_DAYS, 2 * SPACING_DAYS]) {
        if (upperParameter !== undefined) await ask(undefined, offset);
        if (lowerParameter !== undefined) await ask(offset, undefined);
        if (lowerParameter !== undefined && upperParameter !== undefined) await ask(offset, offset);
      }
      // Each end one day past a created record's only day (D276): a start that takes in the day before it, or an end
      // the day after, lists that record on every run.
      if (lowerParameter !== undefined) await ask(1, undefined);
      if (upperParameter !== undefined) await ask(undefined, SPACING_DAYS - 1);
      // Windows that hold none of the created records (D170): before the first, after the last, a day between two.
      // A server that answers an empty window with everything (or its default window) is caught on every run.
      if (upperParameter !== undefined) await ask(undefined, -1);
      if (lowerParameter !== undefined) await ask(RECORDS * SPACING_DAYS, undefined);
      if (lowerParameter !== undefined && upperParameter !== undefined) await ask(SPACING_DAYS - 1, SPACING_DAYS - 1);
      const offsets = fc.integer({ min: -1, max: RECORDS * SPACING_DAYS });
      const bounds = fc.record({ lower: fc.option(offsets, { nil: undefined }), upper: fc.option(offsets, { nil: undefined }) }).filter(({ lower, upper }) => (lower !== undefined && lowerParameter !== undefined) || (upper !== undefined && upperParameter !== undefined));
      await context.forAll(bounds.map(({ lower, upper }) => (lower !== undefined && upper !== undefined && lower > upper ? { lower: upper, upper: lower } : { lower, upper })), ({ lower, upper }) => ask(lower, upper));
      if (lowerParameter !== undefined && upperParameter !== undefined) await askReversed(context, resource, property, [lowerParameter, 3 * SPACING_DAYS, start], [upperParameter, SPACING_DAYS, start]);
      if (lowerParameter !== undefined && upperParameter?.defaultAfter !== undefined) await askDefaultSpan(context, resource, mine, lowerParameter, upperParameter, start);
    },
  };
}

type Asked = [WindowParameter, number | undefined, number];

/** One range asked and judged; a bound is `[parameter, offset in days or undefined, first day]`. */
async function askRange(context: CheckContext, resource: ResourceModel, property: string, mine: readonly { id: string; times: number[] }[], lower: Asked | undefined, upper: Asked | undefined): Promise<void> {
  const query = new URLSearchParams();
  const page = largestPage(resource);
  if (page !== undefined && resource.limit !== undefined) query.set(resource.limit.parameter, String(page));
  const at = (bound: Asked | undefined): number | undefined => {
    if (bound === undefined || bound[1] === undefined) return undefined;
    const text = dayText(bound[2], bound[1], bound[0].format);
    query.set(bound[0].parameter.name, text);
    return Date.parse(text);
  };
  const from = at(lower);
  // A day named as the end includes that whole day (D91): an instant bound is the instant itself.
  const toDay = at(upper);
  const to = toDay === undefined ? undefined : upper![0].format === 'date' ? toDay + 86_399_999 : toDay;
  const asked = [...query.entries()].filter(([name]) => name !== resource.limit?.parameter).map(([name, value]) => `${name}=${value}`).join('&');
  // Under a declared consistency window the records just made may reach the list late (D124): re-read until they show.
  const due = mine.filter((one) => inRange(one.times, from, to));
  const shown = (records: readonly Record<string, unknown>[]): boolean => (page !== undefined && records.length >= page) || due.every((one) => records.some((record) => idOf(resource, record) === one.id));
  const { exchange, records } = await settle(context, () => listRecords(context, resource, query.toString()), (answer) => shown(answer.records));
  const outside = records.find((record) => record[property] !== undefined && !meetsRange(timesOf(record, property), from, to));
  if (outside !== undefined) throw new Violation(`asked ${asked}, the list holds ${show(outside)}, whose ${property} lies wholly outside that range`, exchange);
  if (page !== undefined && records.length >= page) return;
  const listed = new Set(records.map((record) => idOf(resource, record)));
  const left = mine.find((one) => inRange(one.times, from, to) && !listed.has(one.id));
  if (left !== undefined) throw new Violation(`asked ${asked}, the list (${records.length} records, a complete page) leaves out ${resource.name} ${left.id}, whose ${property} is in that range`, exchange);
}

/**
 * A reversed range (D107): the lower bound `lower` days after the upper one. Where the spec says so, a documented
 * 4xx in the error shape; where it is silent, that or a success whose records all meet the range read the other way
 * round (an empty list, or the bounds swapped). Never a 5xx.
 */
async function askReversed(context: CheckContext, resource: ResourceModel, property: string, lower: [WindowParameter, number, number], upper: [WindowParameter, number, number]): Promise<void> {
  const op = resource.operations.list!;
  const refused = reversedRefused(op, lower[0].parameter, upper[0].parameter);
  const refusals = documentedStatuses(op).filter((status) => status >= 400);
  const expected = refused ? (refusals.length === 0 ? [400] : refusals) : [...successStatuses(op), ...refusals];
  const from = dayText(lower[2], lower[1], lower[0].format);
  const to = dayText(upper[2], upper[1], upper[0].format);
  const query = new URLSearchParams({ [lower[0].parameter.name]: from, [upper[0].parameter.name]: to });
  const page = largestPage(resource);
  if (page !== undefined && resource.limit !== undefined) query.set(resource.limit.parameter, String(page));
  const { exchange, body } = await context.call(op, requestOf(context, op, { query: query.toString() }), expected);
  if (exchange.response.status >= 300) return;
  const last = Date.parse(from) + (upper[0].format === 'date' ? 86_399_999 : 0);
  const stray = recordsOf(resource, body).find((record) => record[property] !== undefined && !meetsRange(timesOf(record, property), Date.parse(to), last));
  if (stray !== undefined) throw new Violation(`asked the reversed range ${lower[0].parameter.name}=${from}&${upper[0].parameter.name}=${to}, the list holds ${show(stray)}, which is neither empty nor in that range read the other way round`, exchange);
}

/**
 * The end a spec states only in prose (D187): asked with the lower bound alone on the first created record's day
 * and the upper one left out, the list holds every created record with a value in the first `days - 1` days after
 * it (when the page is not full), and none whose values all lie more than `days + 1` days after it. A violation
 * under `--strict`; advice otherwise.
 */
async function askDefaultSpan(context: CheckContext, resource: ResourceModel, mine: readonly { id: string; times: number[] }[], lower: WindowParameter, upper: WindowParameter, start: number): Promise<void> {
  const op = resource.operations.list!;
  const days = upper.defaultAfter!.days;
  const from = dayText(start, 0, lower.format);
  const query = new URLSearchParams({ [lower.parameter.name]: from });
  const page = largestPage(resource);
  if (page !== undefined && resource.limit !== undefined) query.set(resource.limit.parameter, String(page));
  // The window is always named (D90) except here: the end the spec's prose defaults is left out on purpose.
  const request = requestOf(context, op, { query: query.toString() });
  const url = new URL(request.path, 'http://target.invalid');
  url.searchParams.delete(upper.parameter.name);
  const asked = `${lower.parameter.name}=${from} without ${upper.parameter.name} (${upper.defaultAfter!.days} days after ${lower.parameter.name}, as its description says)`;
  const first = Date.parse(from);
  const due = mine.filter((one) => inRange(one.times, first, first + (days - 1) * 86_400_000));
  const read = async (): Promise<{ exchange: Exchange; records: ExactRecord[] }> => {
    const { exchange, body } = await context.call(op, { ...request, path: `${url.pathname}${url.search}` }, successStatuses(op));
    return { exchange, records: recordsOf(resource, body) };
  };
  const { exchange, records } = await settle(context, read, (answer) => (page !== undefined && answer.records.length >= page) || due.every((one) => answer.records.some((record) => idOf(resource, record) === one.id)));
  const listed = new Set(records.map((record) => idOf(resource, record)));
  // A default stated only in prose is held under --strict; otherwise a departure from it is advice (D187).
  const fail = (problem: string): void => {
    if (context.target.strict) throw new Violation(problem, exchange);
    context.advise(`${problem} (a default stated only in prose: judged with --strict)`);
  };
  const late = mine.find((one) => one.times.length > 0 && Math.min(...one.times) > first + (days + 1) * 86_400_000 && listed.has(one.id));
  if (late !== undefined) return fail(`asked ${asked}, the list holds ${resource.name} ${late.id}, whose ${show(late.times.map((time) => new Date(time).toISOString().slice(0, 10)))} all lie past that default end`);
  if (page !== undefined && records.length >= page) return;
  const left = due.find((one) => !listed.has(one.id));
  if (left !== undefined) fail(`asked ${asked}, the list (${records.length} records, a complete page) leaves out ${resource.name} ${left.id}, which holds a day within it`);
}

/** The range check of a resource's main list, when its window ranges over a record member (D91). */
export function rangeChecks(resource: ResourceModel, where: string): Check[] {
  const list = resource.operations.list;
  const window = list === undefined ? undefined : windowOf(list);
  if (list === undefined || window?.property === undefined || resource.operations.create === undefined) return [];
  const names = window.parameters.map((one) => `\`${one.parameter.name}\``).join('/');
  return [rangeCheck(resource, window, `${list.operationId}.range`, `${where}: for any range asked with ${names} (either bound alone or both, drawn on the created records' values), every listed record has \`${window.property}\` meeting it and every created record with one there is listed; a day named as the end is part of the range; a reversed range is a documented 4xx (where the spec says so) or a consistent answer, never a 5xx${window.parameters.some((one) => one.defaultAfter !== undefined) ? '; with --strict, an end whose description states its default as days after the start is applied when left out' : ''}.`)];
}
