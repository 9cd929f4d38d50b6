import { exactInteger, sameJson } from '../../model/json.js';
import type { ResourceModel } from '../../model/model.js';
import { ordinaryBody, withProperty } from '../arbitraries/body.js';
import type { Marker } from '../arbitraries/invalid-body.js';
import { filterText, limitRange } from '../arbitraries/query-strings.js';
import type { Exchange } from '../../judge/verdict.js';
import { Violation } from '../contract.js';
import type { CheckContext } from '../check-context.js';
import { valueInView } from '../window-query.js';
import { knownAtLeast, memory, populationKey, type ExactRecord } from './check.js';
import { createRecord, listRecords, readRecord, show } from './records.js';
import { listScope } from './list-scope.js';

/** The largest page the list answers: the limit's maximum (seed: 100), or none when the spec bounds no page. */
export function largestPage(resource: ResourceModel): number | undefined {
  return resource.limit === undefined ? undefined : limitRange(resource.limit)[1];
}

/** The query text of the largest page, optionally filtered. */
export function largestPageQuery(resource: ResourceModel, filter?: { parameter: string; value: unknown }): string {
  const parts = [resource.limit === undefined ? '' : `${encodeURIComponent(resource.limit.parameter)}=${largestPage(resource)}`];
  if (filter !== undefined) parts.push(`${encodeURIComponent(filter.parameter)}=${encodeURIComponent(filterText(filter.value))}`);
  return parts.filter(Boolean).join('&');
}

/**
 * How many records the limit rules need to bite: one more than the default page per filter value (seed: 21 per
 * status), and one more than the largest page in all (seed: 101), from the spec's limit bounds.
 */
function populationWanted(resource: ResourceModel): { perValue: number; all: number } {
  const [, max] = resource.limit === undefined ? [1, 20] : limitRange(resource.limit);
  // A page of thousands (2^63 in some descriptions) is never filled: the rules are then tested on fewer records (D371).
  return { perValue: Math.min((resource.limit?.default ?? max) + 1, MOST_RECORDS_MADE), all: Math.min(max + 1, MOST_RECORDS_MADE) };
}

/** The most records the suite makes of one resource so that a page fills: one more than a page of 1,000. */
const MOST_RECORDS_MADE = 1_001;

/**
 * Makes sure the target holds enough records of `resource` for the limit and filter rules to bite (see
 * {@link populationWanted}), and a few without the optional filtered properties. Creates what is missing (once
 * per target, resource and process); in read-only mode creates nothing and advises when the target is too small.
 */
export function ensurePopulation(context: CheckContext, resource: ResourceModel): Promise<void> {
  const remembered = memory(context, resource);
  remembered.population ??= populate(context, resource);
  return remembered.population;
}

async function populate(context: CheckContext, resource: ResourceModel): Promise<void> {
  const { perValue, all: allWanted } = populationWanted(resource);
  const atLeast = memory(context, resource).atLeast;
  const wanted: { filter: { parameter: string; property: string; value: unknown } | undefined; count: number }[] = [];
  for (const filter of resource.filters) {
    for (const value of filter.values ?? []) {
      const key = { parameter: filter.parameter.name, property: filter.property, value };
      const { records } = await listRecords(context, resource, largestPageQuery(resource, key));
      atLeast.set(populationKey(key), records.length);
      wanted.push({ filter: key, count: Math.max(0, perValue - records.length) });
    }
  }
  const { records: all } = await listRecords(context, resource, largestPageQuery(resource));
  atLeast.set('all', all.length);
  // Every list is asked with one value of each required filter (D570): the records made carry it, and one made
  // without it (another value a filter check asks for, or a create that cannot send it) is not counted in all.
  const scope = listScope(context, resource);
  const shown = (value: Record<string, unknown>): boolean => scope.every((pinned) => sameJson(value[pinned.filter.property], pinned.value));
  const outOfScope = (filter: { parameter: string; value: unknown } | undefined): boolean => scope.some((pinned) => pinned.filter.parameter.name === filter?.parameter && !sameJson(pinned.value, filter.value));
  const planned = wanted.reduce((sum, w) => sum + (outOfScope(w.filter) ? 0 : w.count), 0);
  wanted.push({ filter: undefined, count: Math.max(3, allWanted - all.length - planned) });
  const op = resource.operations.create;
  if (context.target.readOnly || op === undefined) {
    if (wanted.some((w) => w.filter !== undefined && w.count > 0) || all.length < allWanted - 1) {
      context.advise(`${context.target.readOnly ? 'read-only: ' : ''}the target holds fewer than ${allWanted} ${resource.name} (or fewer than ${perValue} of a filter value), so some limit rules could only be tested in part`);
    }
    return;
  }
  let serial = 0;
  let madeInAll = 0;
  for (const { filter, count } of wanted) {
    let made = 0;
    for (let i = 0; i < count; i++) {
      serial += 1;
      // Without a filter value: only the required properties, so some records lack the optional filtered ones.
      const drawn = ordinaryBody(context, op, context.target.integers, serial, filter === undefined);
      const base = scope.reduce((body, pinned) => withProperty(op, body, pinned.filter.property, pinned.value) ?? body, drawn);
      const filtered = filter === undefined ? base : withProperty(op, base, filter.property, filter.value);
      // Records the population counts must be ones a list can show: inside its window (D90).
      const inView = filtered === undefined ? undefined : valueInView(resource, filtered);
      const value = inView === undefined || filtered === undefined ? filtered : (withProperty(op, filtered, inView.property, inView.value) ?? filtered);
      if (value === undefined) {
        context.advise(`${op.operationId} cannot send ${filter!.property} = ${show(filter!.value)}, so the ${filter!.parameter} filter was tested on the records the target holds`);
        break;
      }
      await createRecord(context, resource, value);
      made += 1;
      if (shown(value)) madeInAll += 1;
    }
    // Only what was made counts: a value the create cannot send (an output-only enum member) adds no record.
    if (filter !== undefined) atLeast.set(populationKey(filter), (atLeast.get(populationKey(filter)) ?? 0) + made);
  }
  atLeast.set('all', all.length + madeInAll);
}

/**
 * A page shorter than its limit is the whole list (seed, Endpoints §1: a paginated list, `limit` its maximum
 * size, DECISIONS D8), so it cannot be shorter than the number of matching records the target is known to hold.
 */
export function expectCompletePage(context: CheckContext, resource: ResourceModel, records: readonly ExactRecord[], limit: number, filter: { parameter: string; value: unknown } | undefined, exchange: Exchange): void {
  const held = knownAtLeast(context, resource, filter);
  if (records.length < limit && records.length < held) {
    const which = filter === undefined ? '' : ` with ${filter.parameter} = ${show(filter.value)}`;
    throw new Violation(`the page holds ${records.length} records, fewer than limit ${limit}, yet the target holds at least ${held} ${resource.name}${which}: the page is incomplete`, exchange);
  }
}

/** The longest run of skipped ids the id-gap search reads one by one. */
const MAX_ID_GAP = 32n;

/**
 * After a refused write, no record carrying the request's marker may exist (seed, Errors: a refused request
 * creates nothing). Looks at the largest first page. When that page is full and holds no marker (the order is
 * not shown, so a new record may sit beyond it) and ids are integers, searches the id gap instead: a valid
 * create sent now gets the next id; every id between the previous create and this one is read, and a record
 * there with the marker is a violation. When neither can decide, says so as advice.
 */
export async function expectNothingCreated(context: CheckContext, resource: ResourceModel, marker: Marker | undefined, refused: Exchange): Promise<void> {
  if (marker === undefined || resource.operations.list === undefined) return;
  const carriesMarker = (record: ExactRecord): boolean => Object.hasOwn(record, marker.property) && sameJson(record[marker.property], marker.value);
  const { records } = await listRecords(context, resource, largestPageQuery(resource));
  const found = records.find(carriesMarker);
  if (found !== undefined) throw new Violation(`the request was refused with ${refused.response.status}, but it created ${show(found)}`, refused);
  const page = largestPage(resource);
  if (page === undefined || records.length < page) return;
  const op = resource.operations.create;
  if (resource.idType !== 'integer' || op === undefined || resource.operations.read === undefined) {
    context.advise(`could not confirm that a refused request created nothing: the target holds more ${resource.name} than one page shows, and their order is not shown`);
    return;
  }
  // The first time, there is no earlier create to bracket the gap: the probe made now brackets the next refusals.
  const before = memory(context, resource).lastCreatedId;
  const probe = await createRecord(context, resource, ordinaryBody(context, op, context.target.integers, 5));
  const after = probe === undefined ? undefined : exactInteger(String(probe[resource.idProperty]));
  if (before === undefined || after === undefined || after <= before || after - before > MAX_ID_GAP) {
    context.advise(`could not confirm that a refused request created nothing: the target holds more than ${page} ${resource.name}, their order is not shown, and its ids are not consecutive`);
    return;
  }
  const readOp = resource.operations.read;
  for (let id = before + 1n; id < after; id++) {
    if (memory(context, resource).createdIds.has(String(id))) continue;
    const { record } = await readRecord(context, resource, String(id), [...readOp.responses.map((r) => Number(r.status)).filter((s) => s >= 200 && s < 300), 404]);
    if (record !== undefined && carriesMarker(record)) throw new Violation(`the request was refused with ${refused.response.status}, but it created ${show(record)} (found by its id)`, refused);
  }
}
