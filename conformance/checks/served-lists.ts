import fc from 'fast-check';
import { canonicalJson } from '../../model/json.js';
import { memberAt, nextPageValue } from '../../model/lists.js';
import type { ApiModel, FilterModel, OperationModel } from '../../model/model.js';
import { servedListOf, type ServedListModel } from '../../model/served-lists.js';
import type { Exchange } from '../../judge/verdict.js';
import { allowedSize, filterValue, invalidLimits, limitRange } from '../arbitraries/query-strings.js';
import type { CheckContext } from '../check-context.js';
import { requestOf } from '../context.js';
import { Violation } from '../contract.js';
import { boundarySizes } from './pages.js';
import { pastEndStatuses } from './page-end.js';
import { queryHoldingRecords, recordsFor } from '../references.js';
import { narrowWindows } from '../window-query.js';
import type { Check } from './check.js';
import { successStatuses } from './records.js';

// A list no resource holds (`GET /ports`: no create beside it, D72) serves records the suite cannot write. Its
// paging, limits and filters are still judged on the records it holds (spec/DECISIONS.md › D110-D113): the largest pages,
// walked to the end while nothing writes, are the held set, and every other way of reading it must agree. A list
// computed from its window (opening hours for every day from `startDate` on) never ends: its walks stop at a stated
// bound and judge the records read before it (D185), asked within the narrowest window that holds records (D186).

/**
 * Most records one walk reads (D185): past it the walk stops, and the records read so far, in the order the server
 * gives them, are what the checks judge. A list computed from its window may hold a record for every day.
 */
export const MAX_WALK_RECORDS = 600;
/** Pages a walk of a drawn size should take at most: the smallest sizes drawn keep the walk this short. */
const PAGES_PER_WALK = 25;

/** A served list as the model reads it (model/served-lists.ts): its operation, list model and filters. */
export type ServedList = ServedListModel;

/**
 * Why a check of a served list draws no verdict: the list holds no record for the parameters the suite can build
 * (D110). Reported as a skip with `reason`, never as a pass.
 */
export class NothingToJudge extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'NothingToJudge';
  }
}

/**
 * The served lists whose pages, limits and filters can be judged: those the model finds (a GET no resource holds
 * with a list shape and a page size), less a cursor the answers never point at (no walk, no verdict, as D46 for
 * filled lists). Their `<op>.documented` check stays beside.
 */
export function servedLists(model: ApiModel): ServedList[] {
  return model.operations.flatMap((op) => {
    const served = servedListOf(op);
    if (served === undefined) return [];
    const { list } = served;
    if (list.paging?.kind === 'cursor' && !list.members.some((m) => m.holds === 'next' || m.holds === 'nextLink') && !list.headers.some((h) => h.holds !== 'total')) return [];
    return [served];
  });
}

/** One page as read: its records (canonical JSON, the record's identity on a list the suite never wrote), and its exchange. */
export interface Page {
  keys: string[];
  records: unknown[];
  exchange: Exchange;
  next: string | undefined;
}

/**
 * The query every request to a served list carries: each required parameter set from the spec's examples, enums
 * or defaults, as references are resolved (D95), or from the ids other lists show when the examples find nothing
 * (D124), and the narrowest window that then holds records (D186). Errors: {@link NothingToJudge} when none can be
 * built.
 */
export async function baseQuery(context: CheckContext, served: ServedList): Promise<string> {
  const itemsPath = served.list.shape.kind === 'array' ? [] : served.list.shape.itemsPath;
  const query = await queryHoldingRecords(context, served.op, itemsPath);
  if (query === undefined) throw new NothingToJudge(`${served.op.operationId} needs a query parameter the spec gives no example, enum or default for, so no request to it could be built`);
  // The narrowest window that holds records (D186): a list computed per day of its window is asked for a week, not centuries.
  for (const window of narrowWindows(served.op, query, context.target.now())) {
    const withWindow = [query, window].filter((part) => part !== '').join('&');
    if ((await recordsFor(context, served.op, withWindow, itemsPath)).length > 0) return withWindow;
  }
  return query;
}

/** A filter parameter and the value asked for. */
interface Asked {
  filter: FilterModel;
  value: unknown;
}

/**
 * Reads one page: `size` records (`undefined`: the server's default) at page `at` (`undefined`: the first), asked
 * with `base` (from {@link baseQuery}) and the filter value `asked`, if any. A page asked at `at` of a list paged by
 * number or offset answered with a documented 404 reads as an empty page, the list's end (D360).
 */
export async function readPage(context: CheckContext, served: ServedList, base: string, size: number | undefined, at: string | undefined, asked?: Asked): Promise<Page> {
  const { op, list } = served;
  const query = new URLSearchParams(base);
  if (asked !== undefined) query.set(asked.filter.parameter.name, String(asked.value));
  if (size !== undefined) query.set(list.limit!.parameter, String(size));
  if (at !== undefined && list.paging !== undefined) query.set(list.paging.parameter, at);
  // A page asked at a page number or offset follows a full one: a documented 404 there is the list's end (D360).
  const pastEnd = pastEndStatuses(op, list.paging, at !== undefined);
  const { exchange, body } = await context.call(op, requestOf(context, op, { query: query.toString() }), [...successStatuses(op), ...pastEnd]);
  if (pastEnd.includes(exchange.response.status)) return { keys: [], records: [], exchange, next: undefined };
  const records = list.shape.kind === 'array' ? body : memberAt(body, list.shape.itemsPath);
  const held = Array.isArray(records) ? (records as unknown[]) : [];
  return { keys: held.map((record) => canonicalJson(record)), records: held, exchange, next: list.paging?.kind === 'cursor' ? nextPageValue(list, body, exchange.response.headers) : undefined };
}

/** The pages one walk read, in order, and whether it stopped at {@link MAX_WALK_RECORDS} rather than at the list's end. */
interface Walk {
  pages: Page[];
  bounded: boolean;
}

/**
 * The pages of a served list with page size `size`, in order, while nothing writes, each page held to its size;
 * the walk stops at the list's end or once `bound` records are read (D185). Errors: a {@link Violation} when a page
 * holds more than `size` or a record is on two pages.
 */
async function walk(context: CheckContext, served: ServedList, base: string, size: number, bound: number, asked?: Asked, allowed?: ReadonlyMap<string, number>): Promise<Walk> {
  const { op, list } = served;
  const paging = list.paging;
  const pages: Page[] = [];
  const seen = new Map<string, number>();
  const times = new Map<string, number>();
  let at: string | undefined;
  for (let index = 0; ; index++) {
    const read = await readPage(context, served, base, size, at, asked);
    if (read.keys.length > size) throw new Violation(`${op.operationId} with ${list.limit!.parameter}=${size}: page ${index + 1} holds ${read.keys.length} records, more than ${size}`, read.exchange);
    // A record is known by its content here, and a list may hold equal rows (D624): a repeat on one page, or as
    // many times as the held set holds it, is another row, kept apart as its n-th copy; any other repeat is the
    // same row again.
    const onPage = new Map<string, number>();
    const page = { ...read, keys: read.keys.map((key) => {
      const count = (times.get(key) ?? 0) + 1;
      const here = (onPage.get(key) ?? 0) + 1;
      times.set(key, count);
      onPage.set(key, here);
      if (count > 1 && here === 1 && count > (allowed?.get(key) ?? 1)) throw new Violation(`${op.operationId} with pages of ${size}: record ${key} is on page ${seen.get(key)! + 1} and again on page ${index + 1}`, read.exchange);
      const copy = count === 1 ? key : `${key} (copy ${count})`;
      seen.set(copy, index);
      if (count === 1) seen.set(key, index);
      return copy;
    }) };
    pages.push(page);
    if (paging === undefined || page.keys.length === 0) return { pages, bounded: false };
    if (seen.size >= bound) return { pages, bounded: true };
    if (paging.kind === 'cursor') {
      if (page.next === undefined) return { pages, bounded: false };
      at = page.next;
      continue;
    }
    // A page-number or offset page shorter than its size is the last one.
    if (page.keys.length < size) return { pages, bounded: false };
    at = paging.kind === 'page' ? String(paging.first + index + 1) : String(seen.size + (paging.first ?? 0));
  }
}

/** The records a served list holds as one walk with its largest pages read them. */
interface HeldSet {
  /** The query every request of the check carries (required parameters and window, D186). */
  base: string;
  keys: string[];
  records: unknown[];
  /** Whether every record the list holds is known to be among `keys` (or, when `bounded`, at least as many). */
  complete: boolean;
  /** Whether the walk stopped at {@link MAX_WALK_RECORDS}: `keys` are then the list's first records, in its order. */
  bounded: boolean;
}

/**
 * The held set: the records of every page read with the largest page size (or the only page, when the list does
 * not page), up to {@link MAX_WALK_RECORDS}, said as advice when the walk stopped there. Errors:
 * {@link NothingToJudge} when it is empty; a {@link Violation} from {@link walk}.
 */
async function heldSet(context: CheckContext, served: ServedList): Promise<HeldSet> {
  const [, max] = limitRange(served.list.limit!);
  const base = await baseQuery(context, served);
  const { pages, bounded } = await walk(context, served, base, max, MAX_WALK_RECORDS);
  const keys = pages.flatMap((page) => page.keys);
  const records = pages.flatMap((page) => page.records);
  if (keys.length === 0) throw new NothingToJudge(`${served.op.operationId} holds no record for the parameters the suite can build (${base || 'none'}), so its pages and limits could not be judged`);
  if (bounded) context.advise(`${served.op.operationId} (?${base}) still had records after ${pages.length} pages of ${max}: the walk stopped at its bound of ${MAX_WALK_RECORDS} records, and its pages, limits and filters were judged on those`);
  // Without paging, a full largest page may leave records out: only what it shows is known to be held.
  return { base, keys, records, complete: served.list.paging !== undefined || keys.length < max, bounded };
}

const where = (op: OperationModel): string => `${op.operationId} (${op.method} ${op.path})`;

/**
 * Pagination of a served list as a property (D110): for any page size, its pages (by page number, offset or the
 * cursor each page gives) partition the held set while nothing writes: no record twice, none left out, none
 * added, no page over its size. When the held set stopped at the walk's bound (D185), the pages of any size are
 * read as far and the same first records must be on them. Not built for a list that does not page.
 */
export function servedPagesCheck(served: ServedList): Check {
  const { op, list } = served;
  const paging = list.paging!;
  const by = paging.kind === 'page' ? 'a page number' : paging.kind === 'offset' ? 'an offset' : 'the cursor each page gives';
  return {
    id: `${op.operationId}.pages`,
    rule: `${where(op)}, records the suite cannot create: for any page size, the pages (by \`${paging.parameter}\`, ${by}) partition the records it holds while nothing writes: no record twice, none left out, no page over its size.`,
    writes: false,
    async run(context) {
      const held = await heldSet(context, served);
      const whole = new Set(held.keys);
      const copies = new Map<string, number>();
      for (const record of held.records) copies.set(canonicalJson(record), (copies.get(canonicalJson(record)) ?? 0) + 1);
      const [min, max] = limitRange(list.limit!);
      // Sizes that split the held set into several pages, not so small that one walk reads hundreds.
      const top = Math.max(min, Math.min(max, held.keys.length));
      const low = Math.min(top, Math.max(min, Math.ceil(held.keys.length / PAGES_PER_WALK)));
      const walkWith = async (size: number): Promise<void> => {
        const { pages } = await walk(context, served, held.base, size, held.bounded ? held.keys.length : MAX_WALK_RECORDS, undefined, copies);
        const read = pages.flatMap((page) => page.keys);
        // A bounded held set is the list's first records: compare as many of the walk's first ones.
        const compared = held.bounded ? read.slice(0, held.keys.length) : read;
        const got = new Set(compared);
        const gap = held.keys.find((key) => !got.has(key));
        if (gap !== undefined) throw new Violation(`${op.operationId} with pages of ${size}: record ${gap} (listed with pages of ${max}) is not among the first ${compared.length} records of ${pages.length} pages`, pages.at(-1)!.exchange);
        const extra = compared.find((key) => !whole.has(key));
        if (extra !== undefined) throw new Violation(`${op.operationId} with pages of ${size}: record ${extra} is on a page but not on the pages of ${max}`, pages.find((page) => page.keys.includes(extra))!.exchange);
      };
      // The sizes whose last page is a boundary, walked on every run before the draws (D170).
      // Where the list takes only the sizes it lists (D903), each is the one nearest the size wanted.
      const sized = (size: number): number => allowedSize(list.limit!, size);
      for (const size of new Set(boundarySizes(held.keys.length, low, top).map(sized))) await walkWith(size);
      await context.forAll(fc.integer({ min: low, max: top }).map(sized), walkWith, { runs: Math.min(context.target.runs, 10) });
    },
  };
}

/**
 * The page size of a served list (D111): a first page asked with a valid size never holds more, and holds the
 * size or every held record, whichever is fewer (a short first page is the whole list).
 */
export function servedLimitCheck(served: ServedList): Check {
  const { op, list } = served;
  const limit = list.limit!;
  const [min, max] = limitRange(limit);
  return {
    id: `${op.operationId}.limit`,
    rule: `${where(op)}, records the suite cannot create: a page never holds more than \`${limit.parameter}\` records (${min}..${max}), and a shorter first page holds every record the list holds.`,
    writes: false,
    async run(context) {
      const held = await heldSet(context, served);
      const top = Math.max(min, Math.min(max, held.keys.length + 1));
      const sizes = fc.oneof(fc.integer({ min, max: top }), fc.constantFrom(...new Set([min, max]))).map((size) => allowedSize(limit, size));
      const ask = async (size: number): Promise<void> => {
        const page = await readPage(context, served, held.base, size, undefined);
        if (page.keys.length > size) throw new Violation(`${op.operationId} with ${limit.parameter}=${size}: the page holds ${page.keys.length} records, more than ${size}`, page.exchange);
        const expected = Math.min(size, held.keys.length);
        if (held.complete && page.keys.length < expected) throw new Violation(`${op.operationId} with ${limit.parameter}=${size}: the first page holds ${page.keys.length} records, yet the list holds ${held.keys.length}`, page.exchange);
      };
      // The smallest and largest sizes, and the one just past the held records (never below the smallest), on
      // every run before the draws (D170).
      for (const size of new Set([min, max, top].map((size) => allowedSize(limit, size)))) await ask(size);
      await context.forAll(sizes, ask);
    },
  };
}

/**
 * The default page size of a served list (D111): asked without `limit`, the first page holds the spec's default
 * or every held record, whichever is fewer. Built only when the spec states a default.
 */
export function servedDefaultLimitCheck(served: ServedList): Check {
  const { op, list } = served;
  const limit = list.limit!;
  const fallback = limit.default!;
  return {
    id: `${op.operationId}.default-limit`,
    rule: `${where(op)}, records the suite cannot create: when \`${limit.parameter}\` is omitted, the first page holds at most ${fallback} records, and fewer only when the list holds fewer.`,
    writes: false,
    async run(context) {
      const held = await heldSet(context, served);
      const page = await readPage(context, served, held.base, undefined, undefined);
      if (page.keys.length > fallback) throw new Violation(`${op.operationId} without ${limit.parameter}: the page holds ${page.keys.length} records, more than the default ${fallback}`, page.exchange);
      const expected = Math.min(fallback, held.keys.length);
      if (held.complete && page.keys.length < expected) throw new Violation(`${op.operationId} without ${limit.parameter}: the page holds ${page.keys.length} records, yet the default is ${fallback} and the list holds ${held.keys.length}`, page.exchange);
    },
  };
}

/**
 * Invalid and repeated page sizes on a served list (D111, as D10 for filled lists): never a 5xx; a 4xx is in the
 * documented error shape (the call judges it); a 200 never holds more than the spec's maximum. With `--strict` only
 * a 400 is accepted.
 */
export function servedInvalidQueryCheck(served: ServedList): Check {
  const { op, list } = served;
  const limit = list.limit!;
  const [min, max] = limitRange(limit);
  const name = encodeURIComponent(limit.parameter);
  const invalid = invalidLimits(limit);
  return {
    id: `${op.operationId}.invalid-query`,
    rule: `${where(op)}, records the suite cannot create: an invalid or repeated \`${limit.parameter}\` is never a 5xx; a 4xx is in the documented error shape${limit.maximum === undefined ? '' : `; a 200 holds at most ${limit.maximum} records`}.`,
    writes: false,
    async run(context) {
      const base = await baseQuery(context, served);
      const allowed = context.target.strict ? [400] : [...successStatuses(op), 400, 404, 422];
      const attempt = async (text: string): Promise<void> => {
        const query = [base, text].filter((part) => part !== '').join('&');
        const { exchange, body } = await context.call(op, requestOf(context, op, { query }), allowed);
        if (exchange.response.status >= 300) return;
        context.advise(`${op.operationId} answered ${exchange.response.status} to an invalid query (allowed: handling of invalid query parameters is not shown), e.g. ?${text}`);
        const records = list.shape.kind === 'array' ? body : memberAt(body, list.shape.itemsPath);
        const count = Array.isArray(records) ? records.length : 0;
        if (limit.maximum !== undefined && count > limit.maximum) throw new Violation(`?${text} was answered with ${count} records, more than the largest page ${limit.maximum}`, exchange);
      };
      for (const text of invalid.fixed) await attempt(`${name}=${encodeURIComponent(text)}`);
      await attempt(`${name}=${min}&${name}=${max * 5}`);
      await attempt(`${name}=${max * 5}&${name}=${min}`);
      await context.forAll(invalid.random, (text) => attempt(`${name}=${encodeURIComponent(text)}`), { runs: Math.min(context.target.runs, 20) });
    },
  };
}

/** The value a record holds in a filter's member, as canonical JSON (`undefined`: the record lacks it). */
function heldValue(record: unknown, filter: FilterModel): string | undefined {
  const value = record !== null && typeof record === 'object' && !Array.isArray(record) ? (record as Record<string, unknown>)[filter.property] : undefined;
  return value === undefined ? undefined : canonicalJson(value);
}

/**
 * A filter of a served list (D113): for each value drawn (the parameter's enum or `true`/`false`, else values the
 * held records show that the parameter admits), every page of the filtered list, walked with the largest size,
 * lists only records holding that value, and every held record holding it is listed (when the held set is
 * complete). Errors: {@link NothingToJudge} when no value can be drawn.
 */
export function servedFilterCheck(served: ServedList, filter: FilterModel): Check {
  const { op, list } = served;
  const name = filter.parameter.name;
  return {
    id: `${op.operationId}.${name}-filter`,
    rule: `${where(op)}, records the suite cannot create: when \`${name}\` is given, every listed record has \`${filter.property}\` equal to it, and every record the list holds with that value is listed.`,
    writes: false,
    async run(context) {
      const held = await heldSet(context, served);
      const seen = [...new Map(held.records.map((record) => [heldValue(record, filter), record])).keys()].filter((key): key is string => key !== undefined).map((key) => JSON.parse(key) as unknown);
      const values = filterValue(filter, seen);
      if (values === undefined) throw new NothingToJudge(`no record ${op.operationId} holds has a \`${filter.property}\` the parameter \`${name}\` admits, so the filter could not be exercised`);
      const [, max] = limitRange(list.limit!);
      await context.forAll(values, async (value) => {
        const asked = { filter, value };
        const wanted = canonicalJson(value);
        const { pages } = await walk(context, served, held.base, max, MAX_WALK_RECORDS, asked);
        for (const page of pages) {
          const stranger = page.records.find((record) => heldValue(record, filter) !== wanted);
          if (stranger !== undefined) throw new Violation(`${op.operationId}?${name}=${String(value)} listed ${canonicalJson(stranger)}, whose \`${filter.property}\` is not ${wanted}`, page.exchange);
        }
        if (!held.complete) return;
        const got = new Set(pages.flatMap((page) => page.keys));
        const left = held.records.find((record) => heldValue(record, filter) === wanted && !got.has(canonicalJson(record)));
        if (left !== undefined) throw new Violation(`${op.operationId}?${name}=${String(value)} left out ${canonicalJson(left)}, which the unfiltered list holds with \`${filter.property}\` ${wanted}`, pages.at(-1)!.exchange);
      }, { runs: Math.min(context.target.runs, 10) });
    },
  };
}

/** The checks of every served list of a spec: pages (when it pages), limit, invalid page sizes, default limit (when stated), filters. */
export function servedListChecks(model: ApiModel): Check[] {
  return servedLists(model).flatMap((served) => [
    ...(served.list.paging === undefined ? [] : [servedPagesCheck(served)]),
    servedLimitCheck(served),
    servedInvalidQueryCheck(served),
    // A required page size is never omitted, so no page shows its default (D622).
    ...(served.list.limit!.default === undefined || served.list.limit!.required === true ? [] : [servedDefaultLimitCheck(served)]),
    ...served.filters.map((filter) => servedFilterCheck(served, filter)),
  ]);
}
