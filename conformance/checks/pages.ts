import fc from 'fast-check';
import { settle } from '../consistency.js';
import { memberAt } from '../../model/lists.js';
import type { ListModel, ResourceModel } from '../../model/model.js';
import { allowedSize, limitRange } from '../arbitraries/query-strings.js';
import type { Exchange } from '../../judge/verdict.js';
import { Violation } from '../contract.js';
import { requestOf } from '../context.js';
import type { CheckContext } from '../check-context.js';
import { defaultedFilters, idOf, memory, type Check, type ExactRecord } from './check.js';
import { ensurePopulation } from './population.js';
import { operation, readRecord, recordsOf, successStatuses } from './records.js';
import { inWindow, windowOf } from '../window-query.js';
import { pastEndStatuses } from './page-end.js';

/**
 * Most pages one walk reads, and most records (D279): past either the walk stops, says so, and the check judges the
 * records read before it. A correct server may hold far more records than any run made (a staging), and a walk of
 * all of them would take hours; a server that answers page 1 for every page number shows a repeated record at once.
 */
const MAX_PAGES = 400;
export const MAX_LIST_WALK_RECORDS = 5_000;
/** Pages a walk of a drawn size should take at most: the smallest sizes drawn keep the walk this short. */
const PAGES_PER_WALK = 25;
/** One page as read: its records' ids, and what it says of the next page. */
interface Page {
  ids: string[];
  exchange: Exchange;
  next: string | undefined;
}

/** The value to send for the next page of a cursor list: the `next` member, a next link's parameter, or the `Link` header's. */
function nextCursor(list: ListModel, parameter: string, body: unknown, exchange: Exchange): string | undefined {
  const fromLink = (link: unknown): string | undefined => {
    if (typeof link !== 'string' || link === '') return undefined;
    return new URL(link, 'http://target').searchParams.get(parameter) ?? undefined;
  };
  for (const member of list.members) {
    const value = memberAt(body, member.path);
    if (member.holds === 'next' && value !== null && value !== undefined && value !== '') return String(value);
    if (member.holds === 'nextLink') {
      const link = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)['href'] : value;
      const found = fromLink(link);
      if (found !== undefined) return found;
    }
  }
  for (const header of list.headers) {
    const value = exchange.response.headers[header.name.toLowerCase()];
    if (value === undefined) continue;
    if (header.holds === 'next' && value !== '') return value;
    if (header.holds === 'nextLink') return fromLink(value);
    if (header.holds === 'link') {
      const next = /<([^>]*)>\s*;[^,]*rel="?next"?/i.exec(value);
      if (next !== null) return fromLink(next[1]);
    }
  }
  return undefined;
}

/** The pages one walk read, in order, and the bound it stopped at, if it stopped before the list's end (D279). */
interface Walk {
  pages: Page[];
  bound: string | undefined;
}

/**
 * Reads the pages of a list with page size `size` (`undefined`: the server's default), as the model says the list
 * pages (page number, offset, or cursor), while nothing writes, asked with `query` (the window of the run's records,
 * D279), until the list ends or a bound is reached ({@link MAX_PAGES} pages or {@link MAX_LIST_WALK_RECORDS}
 * records). Errors: a {@link Violation} when a record is on two pages (a page number that is ignored shows here).
 */
async function walk(context: CheckContext, resource: ResourceModel, list: ListModel, size: number | undefined, query = ''): Promise<Walk> {
  const op = list.operation;
  const paging = list.paging!;
  const pages: Page[] = [];
  let read = 0;
  let cursor: string | undefined;
  for (let index = 0; ; index++) {
    if (index >= MAX_PAGES) return { pages, bound: `${MAX_PAGES} pages` };
    if (read >= MAX_LIST_WALK_RECORDS) return { pages, bound: `${MAX_LIST_WALK_RECORDS} records` };
    const asked = new URLSearchParams(query);
    if (size !== undefined && list.limit !== undefined) asked.set(list.limit.parameter, String(size));
    if (paging.kind === 'page' && index > 0) asked.set(paging.parameter, String(paging.first + index));
    // An offset that counts from 1 (its minimum, D621) names the next page's first record by its position.
    if (paging.kind === 'offset' && index > 0) asked.set(paging.parameter, String(read + (paging.first ?? 0)));
    if (paging.kind === 'cursor' && index > 0) asked.set(paging.parameter, cursor!);
    // A page asked after a full one may be a documented 404 past the list's end (D360): the walk ends there.
    const pastEnd = pastEndStatuses(op, paging, index > 0);
    const { exchange, body } = await context.call(op, requestOf(context, op, { query: asked.toString() }), [...successStatuses(op), ...pastEnd]);
    if (pastEnd.includes(exchange.response.status)) return { pages, bound: undefined };
    const records = recordsOf(resource, body);
    const page: Page = { ids: records.map((record: ExactRecord) => idOf(resource, record)), exchange, next: paging.kind === 'cursor' ? nextCursor(list, paging.parameter, body, exchange) : undefined };
    pages.push(page);
    // A record already read ends the walk at once: the same page answered again would otherwise run to the bound.
    idsOf(pages, size, op.operationId);
    read += page.ids.length;
    const full = size === undefined ? index === 0 || page.ids.length >= pages[0]!.ids.length : page.ids.length >= size;
    if (paging.kind === 'cursor' ? page.next === undefined : page.ids.length === 0 || !full) return { pages, bound: undefined };
    cursor = page.next;
  }
}

/** The ids of a walk, checked for repeats: a record on two pages (or twice on one) is a violation. */
function idsOf(pages: readonly Page[], size: number | undefined, what: string): string[] {
  const seen = new Map<string, number>();
  pages.forEach((page, index) => {
    for (const id of page.ids) {
      const before = seen.get(id);
      if (before !== undefined) throw new Violation(`${what} with pages of ${size ?? 'the default size'}: record ${id} is on page ${before + 1} and again on page ${index + 1}`, page.exchange);
      seen.set(id, index);
    }
  });
  return [...seen.keys()];
}

/**
 * The page sizes within `[low, max]` at which `count` records end on a boundary (D170): the smallest size asked;
 * one whose last page is exactly full (a divisor of `count` above 1); one whose last page holds a single record
 * (`count - 1`, or a size leaving a remainder of 1); and one equal to `count` (everything on the first page, the
 * next one empty). A walk off by one at the last page shows at one of them whatever the draws.
 */
export function boundarySizes(count: number, low: number, max: number): number[] {
  const within = (size: number): boolean => size >= low && size <= max && size >= 1;
  const sizes = [low];
  // Only sizes below `count` can leave a boundary: the candidates stop there, however large the maximum (2^53-1).
  const candidates = [...Array(Math.max(0, Math.min(max, count - 1) - low + 1)).keys()].map((step) => low + step);
  const divisor = candidates.find((size) => size > 1 && size < count && count % size === 0);
  if (divisor !== undefined) sizes.push(divisor);
  const single = candidates.find((size) => size > 1 && size < count && count % size === 1);
  if (single !== undefined) sizes.push(single);
  if (within(count)) sizes.push(count);
  return [...new Set(sizes.filter(within))];
}

/**
 * Pagination as a property (README › Lists; D45): for any page size, the pages of the list, walked as the spec
 * declares (page number, offset, cursor or next link), partition its records while nothing writes: no record on
 * two pages, none left out, their union the whole list (as read with the largest pages), holding every record
 * the suite created and did not delete.
 */
export function pagesCheck(resource: ResourceModel, id: string, rule: string): Check {
  return {
    id,
    rule,
    writes: true,
    async run(context) {
      const list = resource.list!;
      const op = operation(resource, 'list');
      await ensurePopulation(context, resource);
      const [min, max] = list.limit === undefined ? [undefined, undefined] : limitRange(list.limit);
      const remembered = memory(context, resource);
      // Under a declared consistency window the run's last creates may reach the list late (D124): re-walk until they show.
      const due = [...remembered.createdIds].filter((created) => !remembered.deletedIds.has(created) && !remembered.outOfView.has(created));
      // Within the window of the run's own records where the list has one and they never change (D279).
      const query = createdWindowQuery(resource, due.map((created) => remembered.created.get(created)));
      const walked = await settle(context, () => walk(context, resource, list, max, query), ({ pages }) => {
        const seen = new Set(pages.flatMap((page) => page.ids));
        return due.every((created) => seen.has(created));
      });
      const whole = idsOf(walked.pages, max, op.operationId);
      const wholeSet = new Set(whole);
      const within = query === '' ? '' : ` (asked within the run's records' window, ${query})`;
      if (walked.bound !== undefined) context.advise(`${op.operationId}${within} still had records after ${walked.pages.length} pages of ${max ?? 'the default size'}: the walk stopped at its bound of ${walked.bound}, and its pages were judged on the ${whole.length} records read before it; created records past it were not verified`);
      // A list that omits a defaulted filter may be filtered by its default (D78): the run's records need not all be on it.
      const defaulted = defaultedFilters(resource);
      if (defaulted.length > 0) context.advise(`${op.operationId} leaves out ${defaulted.map((f) => `\`${f.parameter.name}\``).join(', ')}, whose default a server may apply, so the pages were not held to every created record`);
      const outOfView = [...remembered.createdIds].filter((created) => remembered.outOfView.has(created) && !remembered.deletedIds.has(created));
      if (outOfView.length > 0) context.advise(`${outOfView.length} created ${resource.name} hold no value in the range ${op.operationId}'s window bounds, so no parameter brings them into view: their membership was not verifiable`);
      const absent = defaulted.length > 0 || walked.bound !== undefined ? [] : [...remembered.createdIds].filter((created) => !remembered.deletedIds.has(created) && !wholeSet.has(created) && !outOfView.includes(created));
      const missing = await stillInView(context, resource, absent);
      if (missing.length > 0) throw new Violation(`${op.operationId}${within} with pages of ${max ?? 'the default size'}: ${missing.length} created ${resource.name} are on no page (e.g. ${missing[0]})`);
      if (min === undefined || max === undefined) return;
      // Sizes small enough to need many pages, not so small that one walk reads hundreds.
      const low = Math.min(max, Math.max(min, Math.ceil(whole.length / PAGES_PER_WALK)));
      const walkWith = async (size: number): Promise<void> => {
        const { pages } = await walk(context, resource, list, size, query);
        const read = idsOf(pages, size, op.operationId);
        // A bounded walk read the list's first records: as many of this walk's first ones are compared (D279).
        const ids = walked.bound === undefined ? read : read.slice(0, whole.length);
        const got = new Set(ids);
        const gap = whole.find((one) => !got.has(one));
        if (gap !== undefined) throw new Violation(`${op.operationId}${within} with pages of ${size}: record ${gap} (listed with pages of ${max}) is ${walked.bound === undefined ? 'on no page' : `not among the first ${ids.length} records`} of ${pages.length}`, pages.at(-1)!.exchange);
        const extra = ids.find((one) => !wholeSet.has(one));
        if (extra !== undefined) throw new Violation(`${op.operationId}${within} with pages of ${size}: record ${extra} is on a page but not in the list read with pages of ${max}`, pages.find((page) => page.ids.includes(extra))!.exchange);
      };
      // The sizes whose last page is a boundary, walked on every run before the draws (D170).
      // Where the list takes only the sizes it lists (D903), each is the one nearest the size wanted.
      const sized = (size: number): number => allowedSize(list.limit!, size);
      for (const size of new Set(boundarySizes(whole.length, low, max).map(sized))) await walkWith(size);
      await context.forAll(fc.integer({ min: low, max }).map(sized), walkWith, { runs: Math.min(context.target.runs, 10) });
    },
  };
}

/**
 * The query naming a list's window at the run's own records (D279): each lower bound a day before the earliest value
 * of their ranged member, each upper bound a day after the latest, so a list holding far more than the run made is walked only over
 * the span the run wrote. `''` (the widest window, D90) when the list has no window or ranged member, when a record
 * is not known as created (a resource whose records a write may change is not remembered so, and a record moved
 * out of the span would be missed), or when a record holds no such value.
 */
export function createdWindowQuery(resource: ResourceModel, records: readonly (ExactRecord | undefined)[]): string {
  const op = resource.operations.list;
  const window = op === undefined ? undefined : windowOf(op);
  if (window?.property === undefined || records.length === 0 || records.some((record) => record === undefined)) return '';
  const values = records.map((record) => {
    const held = record![window.property!];
    return (Array.isArray(held) ? held : [held]).filter((value): value is string => typeof value === 'string' && !Number.isNaN(Date.parse(value)));
  });
  if (values.some((one) => one.length === 0)) return '';
  const ordered = values.flat().sort((one, other) => Date.parse(one) - Date.parse(other));
  // A day wider at each end: a bound read as exclusive, or a day in another zone, still holds every record.
  const written = (value: string, format: 'date' | 'date-time', bound: 'lower' | 'upper'): string => {
    const moved = new Date(Date.parse(value) + (bound === 'lower' ? -1 : 1) * 86_400_000).toISOString();
    return format === 'date' ? moved.slice(0, 10) : `${moved.slice(0, 19)}Z`;
  };
  return window.parameters.map((one) => `${encodeURIComponent(one.parameter.name)}=${encodeURIComponent(written(one.bound === 'lower' ? ordered[0]! : ordered.at(-1)!, one.format, one.bound))}`).join('&');
}

/**
 * Of created records absent from a windowed list (D90), those that are still in its window as read now: a write
 * since their create may have emptied their ranged member. Without a window or a read, all of them.
 */
async function stillInView(context: CheckContext, resource: ResourceModel, absent: readonly string[]): Promise<string[]> {
  const list = resource.operations.list;
  if (absent.length === 0 || list === undefined || windowOf(list)?.property === undefined || resource.operations.read === undefined) return [...absent];
  const inView: string[] = [];
  for (const id of absent) {
    const { record } = await readRecord(context, resource, id, [...successStatuses(resource.operations.read), 404]);
    if (record === undefined || inWindow(resource, record)) inView.push(id);
    else context.advise(`${resource.name} ${id} no longer holds a value in ${list.operationId}'s window range, so its membership was not verifiable`);
  }
  return inView;
}

/**
 * Whether the suite can walk a resource's list page by page: its model says how it pages and, for a cursor, where
 * an answer gives the next one (a member or a declared header); a cursor the spec never says how to find is not
 * walked (no verdict rather than a false alarm).
 */
export function pages(resource: ResourceModel): boolean {
  const list = resource.list;
  if (list?.paging === undefined || resource.operations.list !== list.operation) return false;
  // A list that needs other query parameters than its paging ones is not walked without them.
  if (list.operation.queryParams.some((p) => p.required && p.name !== list.paging!.parameter && p.name !== list.limit?.parameter)) return false;
  if (list.paging.kind !== 'cursor') return true;
  return list.members.some((member) => member.holds === 'next' || member.holds === 'nextLink') || list.headers.some((header) => header.holds === 'link' || header.holds === 'nextLink' || header.holds === 'next');
}
