import { canonicalJson, sameJson } from '../../model/json.js';
import type { FilterModel, ResourceModel } from '../../model/model.js';
import type { CheckContext, ExactRecord, ResourceMemory } from '../check-context.js';
import { inWindow } from '../window-query.js';

// Declared with the run's other types in conformance/check-context.ts (which the run state stands on too), and
// named here as well for the checks that import them beside these helpers.
export type { Check, ExactRecord, ResourceMemory } from '../check-context.js';

/** The memory of one resource on the context's target, held by the context's run. */
export function memory(context: CheckContext, resource: ResourceModel): ResourceMemory {
  const key = `${context.target.baseUrl} ${resource.name}`;
  const memories = context.run.memories;
  let found = memories.get(key);
  if (found === undefined) {
    found = { knownIds: new Map(), createdIds: new Set(), created: new Map(), deletedIds: new Set(), outOfView: new Set(), lastCreatedId: undefined, tick: 0, population: undefined, atLeast: new Map(), seen: new Map(), scopes: new Map(), clientIds: 0, chosenIds: new Set(), fixture: undefined };
    memories.set(key, found);
  }
  return found;
}

/** A record's id as one text: the string itself, or an integer's canonical digits. */
export function idKey(value: unknown): string {
  return typeof value === 'string' ? value : canonicalJson(value);
}

/** The id of a record of `resource`, as {@link idKey} writes it (the path segment that reads it). */
export function idOf(resource: ResourceModel, record: ExactRecord): string {
  return idKey(record[resource.idProperty]);
}

/** Records ids and filter values seen in responses; a create sent later must get an id outside them (a new id). */
export function rememberRecords(context: CheckContext, resource: ResourceModel, records: readonly ExactRecord[]): void {
  const remembered = memory(context, resource);
  remembered.tick += 1;
  const addressed = hasOtherPathValues(resource);
  const scoped = resource.filters.filter((filter) => filter.parameter.required);
  for (const record of records) {
    const id = idOf(resource, record);
    if (!remembered.knownIds.has(id)) remembered.knownIds.set(id, remembered.tick);
    if (addressed) {
      const address = otherPathValues(resource, record);
      if (Object.keys(address).length > 0) {
        (remembered.addresses ??= new Map()).set(id, address);
        remembered.lastAddress = address;
      }
    }
    for (const filter of resource.filters) {
      const value = record[filter.property];
      if (value === undefined || value === null) continue;
      let values = remembered.seen.get(filter.property);
      if (values === undefined) remembered.seen.set(filter.property, (values = new Map()));
      const key = canonicalJson(value);
      if (values.size < 50) values.set(key, value);
      if (scoped.length === 0 || !values.has(key)) continue;
      // What the list's required filters (D570) read of the record: whether a list asked with them shows it (D914).
      const projection = Object.fromEntries(scoped.map((required) => [required.property, record[required.property]]));
      let byValue = remembered.scopes.get(filter.property);
      if (byValue === undefined) remembered.scopes.set(filter.property, (byValue = new Map()));
      const known = byValue.get(key) ?? [];
      if (known.length < SCOPES_PER_VALUE && !known.some((seen) => sameJson(seen, projection))) byValue.set(key, [...known, projection]);
    }
  }
}

/** Distinct required-filter values kept per filter value (D914): a record of each of a few scopes is enough. */
export const SCOPES_PER_VALUE = 4;

/**
 * The values of the list's required filters (by property) on records seen holding `value` in `property`, at most
 * {@link SCOPES_PER_VALUE} distinct ones; empty where the list requires no filter.
 */
export function seenScopes(context: CheckContext, resource: ResourceModel, property: string, value: unknown): readonly Record<string, unknown>[] {
  return memory(context, resource).scopes.get(property)?.get(canonicalJson(value)) ?? [];
}

/** Whether an id was already seen on this target during this process. */
export function isKnownId(context: CheckContext, resource: ResourceModel, id: string): boolean {
  return memory(context, resource).knownIds.has(id);
}

/** Values of a filter's property seen in records so far (for filters without an enum). */
export function seenValues(context: CheckContext, resource: ResourceModel, property: string): unknown[] {
  return [...(memory(context, resource).seen.get(property)?.values() ?? [])];
}

/** The key of {@link ResourceMemory.atLeast} for a filter value, or `all`. */
export function populationKey(filter: { parameter: string; value: unknown } | undefined): string {
  return filter === undefined ? 'all' : `${filter.parameter}=${canonicalJson(filter.value)}`;
}

/**
 * The number of records (matching a filter value, or in all) the target is known to hold at least. A list that
 * omits a filter with a default may be filtered by it (D78): "all" is then only the records of that default.
 */
export function knownAtLeast(context: CheckContext, resource: ResourceModel, filter: { parameter: string; value: unknown } | undefined): number {
  const defaulted = defaultedFilters(resource);
  if (filter === undefined && defaulted.length > 1) return 0;
  const key = filter === undefined && defaulted.length === 1 ? { parameter: defaulted[0]!.parameter.name, value: defaulted[0]!.parameter.schema['default'] } : filter;
  return memory(context, resource).atLeast.get(populationKey(key)) ?? 0;
}

/**
 * The main list's optional filters whose parameter has a default other than `""` (spec/DECISIONS.md › D78): a
 * server may filter by that default when a list leaves the parameter out (the OpenAPI meaning of `default`), or
 * list every record; both are correct.
 */
export function defaultedFilters(resource: ResourceModel): FilterModel[] {
  return resource.filters.filter((filter) => !filter.parameter.required && filter.parameter.schema['default'] !== undefined && filter.parameter.schema['default'] !== '');
}

/**
 * Whether a list that names no filter must show `record`: it has the default of every defaulted filter (D78), and
 * its ranged member can fall in the list's window (D90).
 */
export function shownUnfiltered(resource: ResourceModel, record: Record<string, unknown>): boolean {
  return inWindow(resource, record) && defaultedFilters(resource).every((filter) => sameJson(record[filter.property], filter.parameter.schema['default']));
}

/**
 * The values a record gives its item path's parameters other than its key and its parent's (spec/DECISIONS.md ›
 * D145: `{owner}` of `/repos/{owner}/{repo}`), read as the mock compares them: the member named like the
 * parameter, as text (never the record's own key member, D932), or for an object member its first required text member (else its first text member:
 * `owner.login`). Parameters the record does not tell are left out.
 */
export function otherPathValues(resource: ResourceModel, record: ExactRecord): Record<string, string> {
  const item = Object.values(resource.operations).find((op) => op !== undefined && op.path === resource.itemPath);
  const values: Record<string, string> = {};
  for (const parameter of item?.pathParams ?? []) {
    // The last is the key, whatever its name there (D904: `{productId}` where the read says `{param}`).
    // The record's own key member names the record, never an ancestor the path names by the same word (D932).
    if (parameter.name === resource.idParameter || parameter === item?.pathParams.at(-1) || parameter.name === resource.parent?.parameter || parameter.name === resource.idProperty) continue;
    const value = record[parameter.name];
    if (typeof value === 'string' || typeof value === 'number') values[parameter.name] = String(value);
    else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const schema = resource.properties[parameter.name];
      const required = Array.isArray(schema?.['required']) ? (schema['required'] as unknown[]) : [];
      const members = Object.entries(value as Record<string, unknown>).filter(([, member]) => typeof member === 'string' && member !== '');
      const chosen = members.find(([name]) => required.includes(name)) ?? members[0];
      if (chosen !== undefined) values[parameter.name] = String(chosen[1]);
    }
  }
  return values;
}

/** Whether the item path of `resource` has a parameter other than its key and its parent's (`{owner}` of `/repos/{owner}/{repo}`). */
function hasOtherPathValues(resource: ResourceModel): boolean {
  const item = Object.values(resource.operations).find((op) => op !== undefined && op.path === resource.itemPath);
  return (item?.pathParams ?? []).some((parameter) => parameter.name !== resource.idParameter && parameter !== item?.pathParams.at(-1) && parameter.name !== resource.parent?.parameter && parameter.name !== resource.idProperty);
}

/**
 * The other item-path values (D145) that address record `id` of `resource` in `op`'s path (D236): those its record
 * showed when the run saw it, else those of the last record of the resource the run saw (a key no record holds, asked
 * to be absent, is asked under an owner that exists), else none. Only `op`'s own path parameters.
 */
export function addressOfId(context: CheckContext, resource: ResourceModel, op: { pathParams: readonly { name: string }[] }, id: string): Record<string, string> {
  const remembered = memory(context, resource);
  const address = remembered.addresses?.get(id) ?? remembered.lastAddress ?? remembered.address;
  if (address === undefined) return {};
  const names = new Set(op.pathParams.map((parameter) => parameter.name));
  return Object.fromEntries(Object.entries(address).filter(([name]) => names.has(name) && name !== resource.idParameter && name !== resource.parent?.parameter));
}
