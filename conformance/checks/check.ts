import { canonicalJson, sameJson } from '../../model/json.js';
import type { FilterModel, ResourceModel } from '../../model/model.js';
import type { CheckContext } from '../check-context.js';
import { inWindow } from '../window-query.js';

/**
 * One conformance check: a stable id (derived from the spec's operationIds, see catalogue.ts), the rule it
 * verifies, whether it must write (then `--read-only` skips it, with that reason), and `run`, which resolves when
 * the target conforms and throws a `Violation` or a `PropertyFailure` otherwise.
 */
export interface Check {
  id: string;
  rule: string;
  writes: boolean;
  /** Why `--read-only` skips it, when it writes: `read-only: this check must create pets` on the seed's spec. */
  readOnlySkip?: string;
  /** Why it never runs against any target (an operation served at its own server, D78): reported as skipped. */
  skip?: string;
  run(context: CheckContext): Promise<void>;
}

/** A record as read from a response: an exact JSON object (numbers as `LosslessNumber`, int64 digit for digit). */
export type ExactRecord = Record<string, unknown>;

/**
 * What a run has learnt about one resource of its target: every id it has seen, the
 * ids it created and deleted, and how many records it is known to hold in all and per filter value (lower bounds).
 */
export interface ResourceMemory {
  /** Ids (see {@link idKey}) seen in any response, with the tick at which each was first seen. */
  knownIds: Map<string, number>;
  /** Ids carried by a create of this process: no two creates may share one. */
  createdIds: Set<string>;
  /** Records as their create acknowledged them, by id, for resources whose records never change (no replace/update). */
  created: Map<string, ExactRecord>;
  /** Ids this process deleted: they no longer count toward the population. */
  deletedIds: Set<string>;
  /** Ids created holding no value in the list's window range (D90): no list request can be held to show them. */
  outOfView: Set<string>;
  /** The id of the latest create, when ids are integers (for the id-gap search of `expectNothingCreated`). */
  lastCreatedId: bigint | undefined;
  tick: number;
  population: Promise<void> | undefined;
  /** Records held at least, by `all` or by `<parameter>=<canonical JSON value>`. */
  atLeast: Map<string, number>;
  /** Values seen per filter property (to draw filter values for filters without an enum). */
  seen: Map<string, Map<string, unknown>>;
  /** How many ids the suite chose for this resource's creates (where the client chooses them), and which. */
  clientIds: number;
  chosenIds: Set<string>;
  /** The record sub-resources live under during this process (its id), once made. */
  fixture: Promise<string | undefined> | undefined;
  /** The fixture's other item-path values (`{owner}` beside its key `{repo}`, D145), read from the record itself. */
  address?: Record<string, string>;
  /** Every seen record's other item-path values by id (D236), and the last seen, for a key no record showed. */
  addresses?: Map<string, Record<string, string>>;
  lastAddress?: Record<string, string>;
  /** For a sub-resource whose parent only the spec's examples name (D72): whether the target holds it (D161), once asked. */
  exampleParent?: Promise<Error | undefined>;
}

/** The memory of one resource on the context's target, held by the context's run. */
export function memory(context: CheckContext, resource: ResourceModel): ResourceMemory {
  const key = `${context.target.baseUrl} ${resource.name}`;
  const memories = context.run.memories;
  let found = memories.get(key);
  if (found === undefined) {
    found = { knownIds: new Map(), createdIds: new Set(), created: new Map(), deletedIds: new Set(), outOfView: new Set(), lastCreatedId: undefined, tick: 0, population: undefined, atLeast: new Map(), seen: new Map(), clientIds: 0, chosenIds: new Set(), fixture: undefined };
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
      if (values.size < 50) values.set(canonicalJson(value), value);
    }
  }
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
 * parameter, as text, or for an object member its first required text member (else its first text member:
 * `owner.login`). Parameters the record does not tell are left out.
 */
export function otherPathValues(resource: ResourceModel, record: ExactRecord): Record<string, string> {
  const item = Object.values(resource.operations).find((op) => op !== undefined && op.path === resource.itemPath);
  const values: Record<string, string> = {};
  for (const parameter of item?.pathParams ?? []) {
    if (parameter.name === resource.idParameter || parameter.name === resource.parent?.parameter) continue;
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
  return (item?.pathParams ?? []).some((parameter) => parameter.name !== resource.idParameter && parameter.name !== resource.parent?.parameter);
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
