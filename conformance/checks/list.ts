import fc from 'fast-check';
import { sameJson } from '../../model/json.js';
import type { FilterModel, ResourceModel } from '../../model/model.js';
import { allowedSize, filterValue, invalidFilterValues, invalidLimits, limitRange, queryText, sentSize, validLimit, type ListQuery } from '../arbitraries/query-strings.js';
import type { Exchange } from '../../judge/verdict.js';
import { Violation } from '../contract.js';
import { filterStranger } from '../../judge/record-rules.js';
import { requestOf } from '../context.js';
import type { CheckContext } from '../check-context.js';
import { idOf, knownAtLeast, seenScopes, seenValues, type Check, type ExactRecord } from './check.js';
import { settleRead } from './read-after-write.js';
import { ensurePopulation, expectCompletePage } from './population.js';
import { listScope } from './list-scope.js';
import { knownRecords, listRecords, listsKeys, operation, recordsOf, show, successStatuses } from './records.js';

/** A filter value as the population and messages key it. */
function keyOf(query: ListQuery): { parameter: string; value: unknown } | undefined {
  return query.filter === undefined ? undefined : { parameter: query.filter.model.parameter.name, value: query.filter.value };
}

/** The first listed record whose filtered property is not the value asked for, as a violation message (the judge's rule). */
function stranger(records: readonly ExactRecord[], filter: ListQuery['filter']): string | undefined {
  return filter === undefined ? undefined : filterStranger(records, filter.model.property, filter.value)?.message;
}

/**
 * Pages checked against each other without writing (read-only runs): a page shorter than its limit is the whole
 * (filtered) list, so it must hold every matching record a page answered before it showed. A target that quietly
 * caps large limits shows it: its short page lacks records another page listed. Not used when the resource can
 * be deleted from (a record seen earlier may rightly be gone).
 */
export class PageLedger {
  private readonly seen = new Map<string, ExactRecord>();
  constructor(private readonly resource: ResourceModel) {}

  /**
   * Holds a page answered to `query` (page size `limit`) against the records pages answered before it had shown
   * (`before`, a {@link snapshot} taken when it was sent), then remembers its records. Errors: a {@link Violation}.
   */
  check(records: readonly ExactRecord[], limit: number, query: ListQuery, exchange: Exchange, before: ReadonlyMap<string, ExactRecord>): void {
    if (records.length < limit && this.resource.operations.delete === undefined) {
      const listed = new Set(records.map((record) => idOf(this.resource, record)));
      for (const [id, record] of before) {
        if (listed.has(id) || (query.filter !== undefined && !sameJson(record[query.filter.model.property], query.filter.value))) continue;
        throw new Violation(`the page holds ${records.length} records, fewer than limit ${limit}, so it is the whole list, yet it lacks ${show(record)}, which another page listed`, exchange);
      }
    }
    for (const record of records) this.seen.set(idOf(this.resource, record), record);
  }

  /** The records seen so far, by id: take it before sending a page, so that later pages never count against it. */
  snapshot(): ReadonlyMap<string, ExactRecord> {
    return new Map(this.seen);
  }
}

/** Lists with a query and holds the page to the rules every valid list answer obeys; returns the page and its exchange. */
async function listChecked(context: CheckContext, resource: ResourceModel, asked: ListQuery, ledger: PageLedger | undefined): Promise<{ exchange: Exchange; records: ExactRecord[] }> {
  // A required page size is always sent, and the page is held to the size sent (D622).
  const query = { ...asked, limit: sentSize(resource.limit, asked.limit) };
  const before = ledger?.snapshot();
  // Without a default or a maximum the spec bounds no page (DECISIONS D33: every record), so nothing is judged.
  const bound = query.limit ?? resource.limit?.default ?? resource.limit?.maximum;
  // A page that looks incomplete may be a replica behind the records this run created: read again within the window.
  const held = knownAtLeast(context, resource, keyOf(query));
  const { exchange, records, keys } = await settleRead(context, () => listRecords(context, resource, query), (page) => bound === undefined || page.records.length >= Math.min(bound, held));
  if (bound !== undefined && records.length > bound) throw new Violation(`the page holds ${records.length} records, more than limit ${bound}`, exchange);
  // A list of keys shows no member: the filter is judged on the records the run made that it names (D825).
  const problem = stranger(keys ? knownRecords(context, resource, records) : records, query.filter);
  if (problem !== undefined) throw new Violation(problem, exchange);
  const ids = new Set(records.map((record) => idOf(resource, record)));
  if (ids.size !== records.length) throw new Violation('the page lists the same id more than once', exchange);
  if (bound !== undefined) {
    expectCompletePage(context, resource, records, bound, keyOf(query), exchange);
    ledger?.check(records, bound, query, exchange, before!);
  }
  return { exchange, records };
}

/** Filter values to draw for a filter: its enum, or values seen in the records the target holds. */
function valuesOf(context: CheckContext, resource: ResourceModel, filter: FilterModel): fc.Arbitrary<unknown> | undefined {
  return filterValue(filter, seenValues(context, resource, filter.property));
}

/** Any valid list query: page size absent or valid, at most one filter. */
function validQuery(context: CheckContext, resource: ResourceModel): fc.Arbitrary<ListQuery> {
  const limit = resource.limit === undefined ? fc.constant(undefined) : fc.option(validLimit(resource.limit), { nil: undefined });
  const filters = resource.filters.flatMap((model) => {
    const values = valuesOf(context, resource, model);
    return values === undefined ? [] : [values.map((value) => ({ model, value }))];
  });
  const filter = filters.length === 0 ? fc.constant(undefined) : fc.option(fc.oneof(...filters), { nil: undefined });
  return fc.record({ limit, filter });
}

/**
 * Whether a record seen before holds `value` in the filter's property and, in every other required filter the run
 * asks the list with (D570), the value asked: a record the list asked with `value` shows (D914). A record the create
 * made without a required filter's member (the create cannot send it) is out of the list's sight, whatever it holds.
 */
function shownBefore(context: CheckContext, resource: ResourceModel, filter: FilterModel, value: unknown): boolean {
  if (!seenValues(context, resource, filter.property).some((seen) => sameJson(seen, value))) return false;
  const scope = listScope(context, resource).filter((pinned) => pinned.filter.parameter.name !== filter.parameter.name);
  if (scope.length === 0) return true;
  return seenScopes(context, resource, filter.property, value).some((record) => scope.every((pinned) => sameJson(record[pinned.filter.property], pinned.value)));
}

/** List rule 1 (seed, Endpoints §1) for one filter: every returned record has the asked value. */
export function filterCheck(resource: ResourceModel, filter: FilterModel, id: string, rule: string): Check {
  return {
    id,
    rule,
    writes: false,
    async run(context) {
      await ensurePopulation(context, resource);
      const values = valuesOf(context, resource, filter);
      if (values === undefined) return context.advise(`${id}: the target lists no ${resource.name} with a ${filter.property}, so the filter could not be exercised`);
      const ledger = context.target.readOnly ? new PageLedger(resource) : undefined;
      const limit = resource.limit === undefined ? fc.constant(undefined) : fc.option(validLimit(resource.limit), { nil: undefined });
      // Records that never change or go away: a value seen on one of them is held by at least one record still.
      const immutable = resource.operations.replace === undefined && resource.operations.update === undefined && resource.operations.delete === undefined;
      const ask = async ({ value, limit: size }: { value: unknown; limit: number | undefined }): Promise<void> => {
        const held = immutable && shownBefore(context, resource, filter, value);
        const { exchange, records } = await listChecked(context, resource, { limit: size, filter: { model: filter, value } }, ledger);
        if (records.length > 0) return;
        const query = `${operation(resource, 'list').operationId}?${filter.parameter.name}=${show(value)}`;
        if (held) throw new Violation(`${query} returned no records, yet a record with ${filter.property} ${show(value)} was seen before where this list shows it, and records never change`, exchange);
        context.advise(`${query} returned no records, so the filter was not exercised for that value`);
      };
      // Each value the spec lists asked on every run before the draws (D170): a value the server mishandles shows
      // whatever the draws.
      for (const value of filter.values ?? []) await ask({ value, limit: undefined });
      await context.forAll(fc.record({ value: values, limit }), ask);
    },
  };
}

/** List rule 2 (seed, Endpoints §1; Limits: default 20): without the page size, at most the default. */
export function defaultLimitCheck(resource: ResourceModel, id: string, rule: string): Check {
  return {
    id,
    rule,
    writes: false,
    async run(context) {
      await ensurePopulation(context, resource);
      const ledger = context.target.readOnly ? new PageLedger(resource) : undefined;
      // The bare list (no parameter at all) on every run before the draws (D170).
      await listChecked(context, resource, { limit: undefined, filter: undefined }, ledger);
      const query = validQuery(context, resource).map((q): ListQuery => ({ ...q, limit: undefined }));
      await context.forAll(query, async (q) => void (await listChecked(context, resource, q, ledger)), { runs: 8 });
    },
  };
}

/**
 * List rule 3 (seed, Endpoints §1; Limits 1..100): never more than the page size, no id twice, a short page
 * complete. Read-only: the largest page, then pages of every size, checked against each other ({@link PageLedger}).
 */
export function limitCheck(resource: ResourceModel, id: string, rule: string): Check {
  return {
    id,
    rule,
    writes: false,
    async run(context) {
      await ensurePopulation(context, resource);
      const limit = resource.limit!;
      const [min, max] = limitRange(limit);
      const ledger = context.target.readOnly ? new PageLedger(resource) : undefined;
      if (ledger !== undefined) {
        await listChecked(context, resource, { limit: max, filter: undefined }, ledger);
        for (const model of resource.filters) for (const value of model.values ?? []) await listChecked(context, resource, { limit: max, filter: { model, value } }, ledger);
      }
      // The edges of the page size asked on every run before the draws (D170): a fault at the maximum or the
      // minimum shows whatever the draws.
      const sizes = [...new Set([min, min + 1, max - 1, max].filter((size) => size >= min && size <= max).map((size) => allowedSize(limit, size)))];
      for (const size of sizes) await listChecked(context, resource, { limit: size, filter: undefined }, ledger);
      const edges = fc.constantFrom(...sizes).map((size): ListQuery => ({ limit: size, filter: undefined }));
      await context.forAll(fc.oneof(validQuery(context, resource), edges), async (q) => void (await listChecked(context, resource, q, ledger)));
    },
  };
}

/** An invalid list query as sent, and the one valid filter value it asks for (a 200 must honour it). */
interface OddQuery {
  query: string;
  filter: ListQuery['filter'];
}

/** The fixed odd queries: each invalid page size alone and with a filter value, each invalid filter value, repeats. */
function oddQueries(resource: ResourceModel): { fixed: OddQuery[]; random: fc.Arbitrary<OddQuery> } {
  const limit = resource.limit;
  const firstFilter = resource.filters.find((f) => f.values !== undefined && f.values.length > 0);
  const aFilter = firstFilter === undefined ? undefined : { model: firstFilter, value: firstFilter.values![0] };
  const withFilter = (text: string): string => (aFilter === undefined ? text : `${text}&${queryText(undefined, { limit: undefined, filter: aFilter })}`);
  const fixed: OddQuery[] = [];
  const random: fc.Arbitrary<OddQuery>[] = [];
  if (limit !== undefined) {
    const name = encodeURIComponent(limit.parameter);
    const [min, max] = limitRange(limit);
    const invalid = invalidLimits(limit);
    for (const text of invalid.fixed) fixed.push({ query: `${name}=${encodeURIComponent(text)}`, filter: undefined }, ...(aFilter === undefined ? [] : [{ query: withFilter(`${name}=${encodeURIComponent(text)}`), filter: aFilter }]));
    const some = allowedSize(limit, min + 4);
    fixed.push({ query: `${name}=${some}&${name}=${max * 5}`, filter: undefined }, { query: `${name}=${max * 5}&${name}=${some}`, filter: undefined });
    random.push(invalid.random.map((text) => ({ query: `${name}=${encodeURIComponent(text)}`, filter: undefined })));
    random.push(fc.tuple(fc.integer({ min, max }), fc.integer({ min, max })).map(([a, b]) => ({ query: `${name}=${allowedSize(limit, a)}&${name}=${allowedSize(limit, b)}`, filter: undefined })));
  }
  for (const model of resource.filters) {
    const name = encodeURIComponent(model.parameter.name);
    const invalid = invalidFilterValues(model);
    if (invalid !== undefined) {
      for (const text of invalid.fixed) fixed.push({ query: `${name}=${encodeURIComponent(text)}`, filter: undefined });
      random.push(invalid.random.map((text) => ({ query: `${name}=${encodeURIComponent(text)}`, filter: undefined })));
    }
    if (model.values !== undefined && model.values.length > 1) {
      const [a, b] = model.values;
      fixed.push({ query: `${name}=${encodeURIComponent(String(a))}&${name}=${encodeURIComponent(String(b))}`, filter: undefined });
    }
  }
  return { fixed, random: random.length === 0 ? fc.constantFrom(...(fixed.length === 0 ? [{ query: '', filter: undefined }] : fixed)) : fc.oneof(...random) };
}

/**
 * Invalid or repeated page size and filter values (the seed shows no status for them; DECISIONS D10): never a
 * 5xx; a 4xx must be the spec's error shape; a 200 must still obey the largest page and honour a single valid
 * filter value. With `--strict` only a 400 is accepted.
 */
export function invalidQueryCheck(resource: ResourceModel, id: string, rule: string): Check {
  return {
    id,
    rule,
    writes: false,
    async run(context) {
      const op = operation(resource, 'list');
      const allowed = context.target.strict ? [400] : [...successStatuses(op), 400, 404, 422];
      await ensurePopulation(context, resource);
      const max = resource.limit?.maximum;
      const attempt = async ({ query, filter }: OddQuery): Promise<void> => {
        const { exchange, body } = await context.call(op, requestOf(context, op, { query }), allowed);
        if (exchange.response.status >= 300) return;
        context.advise(`${op.operationId} answered ${exchange.response.status} to an invalid query (allowed: handling of invalid query parameters is not shown), e.g. ?${query}`);
        const records = recordsOf(resource, body);
        if (max !== undefined && records.length > max) throw new Violation(`an invalid query was answered with ${records.length} records, more than the largest page ${max}`, exchange);
        const problem = stranger(listsKeys(resource, body) ? knownRecords(context, resource, records) : records, filter);
        if (problem !== undefined) throw new Violation(`?${query} was answered with a record of another value: ${problem}`, exchange);
      };
      const { fixed, random } = oddQueries(resource);
      for (const odd of fixed) await attempt(odd);
      await context.forAll(random, attempt);
    },
  };
}
