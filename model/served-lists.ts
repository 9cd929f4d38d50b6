import { listModelOf, shapeOfList } from './lists.js';
import { withoutWindowFilters } from './windows.js';
import type { FilterModel, ListModel, ListShape, OperationModel } from './model.js';
import type { Schema } from './schema-refs.js';
import { objectShape } from './schema.js';

// A list no resource holds (`GET /ports`: no create beside it) serves records nobody writes through the API; the
// mock answers it from its example, the suite judges its pages, limits and filters on the records it holds
// (spec/DECISIONS.md › D110-D114). Both read it from here.

/** A served list: its operation, its list model, and the filters its parameters' descriptions name (D113). */
export interface ServedListModel {
  op: OperationModel;
  list: ListModel;
  /** Equality filters on a record member the parameter's name begins (`country` on `country_code`). */
  filters: FilterModel[];
}

/** Words that give a boolean filter's `false` a meaning of its own ("or that do not (`false`)", "without"). */
const FALSE_WORDS = /\bfalse\b|\bnot\b|n't\b|\bwithout\b/i;

/**
 * Whether a boolean filter's description states it one-sided (D182): "Only return trips where bicycles are known
 * to be allowed" narrows the list when `true` and says nothing of `false`, so a server may read `false` as no
 * constraint (its default) or as "only trips without": only `true` is a value whose answer can be judged.
 */
function oneSided(description: string): boolean {
  return /\bonly\b/i.test(description) && !FALSE_WORDS.test(description);
}

/** Words that say a query parameter narrows the list (`Filter ports by…`, `Only crossings that…`). */
const FILTER_WORDS = /\b(?:filter|filters|filtered|only)\b/i;

/**
 * The filters of a served list (D113): a query parameter whose description says it filters ("Filter ports by
 * country code", "Only crossings that take cars") and whose name begins exactly one record member's name, whole or
 * before `_`, `-` or a capital (`country` on `country_code`, `cars` on `cars_allowed`), of the same scalar type.
 * Compared by equality. Any doubt (two candidates, another type, no such words): no filter, so no verdict.
 */
function servedFilters(op: OperationModel, properties: Record<string, Schema>, taken: ReadonlySet<string>): FilterModel[] {
  const filters: FilterModel[] = [];
  for (const parameter of op.queryParams) {
    if (taken.has(parameter.name) || parameter.required || parameter.type === 'array' || parameter.type === 'object') continue;
    const description = parameter.description ?? parameter.schema['description'];
    if (typeof description !== 'string' || !FILTER_WORDS.test(description)) continue;
    const name = parameter.name;
    const candidates = Object.keys(properties).filter((member) => member === name || (member.startsWith(name) && /^[_\-A-Z]/.test(member.slice(name.length))));
    if (candidates.length !== 1) continue;
    const property = candidates[0]!;
    if (properties[property]?.['type'] !== parameter.type) continue;
    const values = parameter.type === 'boolean' ? (oneSided(description) ? [true] : [true, false]) : (parameter.schema['enum'] as unknown[] | undefined);
    filters.push({ parameter, property, values, match: 'equal' });
  }
  return filters;
}

/** The schemas an array schema's items must satisfy: its `items` and those of each `allOf` part. */
function itemSchemas(array: Schema | undefined): Schema[] {
  if (array === undefined) return [];
  const own = array['items'] !== null && typeof array['items'] === 'object' ? [array['items'] as Schema] : [];
  return [...own, ...((array['allOf'] as Schema[] | undefined) ?? []).flatMap(itemSchemas)];
}

/**
 * A list answer's record members, merged over every `allOf` part of the answer, of its records' member and of
 * their items (a wrapper composed of a generic `{data: [object]}` and `{data: [Port]}` has Port's members).
 */
function recordProperties(schema: Schema, shape: ListShape): Record<string, Schema> {
  let array: Schema | undefined = schema;
  if (shape.kind === 'object') for (const name of shape.itemsPath) array = array === undefined ? undefined : objectShape(array).properties[name];
  return objectShape({ allOf: itemSchemas(array) }).properties;
}

/**
 * A list as its answer shows it, for an operation no resource's list model describes: its list model (shape, page
 * size, paging, equality filters) read with the record's members merged over every `allOf` part, and those members;
 * `undefined` when its success answer has no list shape.
 */
export function readListOf(op: OperationModel): { list: ListModel; properties: Record<string, Schema> } | undefined {
  const schema = op.responses.find((response) => response.status.startsWith('2') && response.schema !== undefined)?.schema;
  const shape = schema === undefined ? undefined : shapeOfList(schema);
  if (schema === undefined || shape === undefined) return undefined;
  const properties = recordProperties(schema, shape);
  const list = withoutWindowFilters(listModelOf(op, false, properties, {}));
  return list === undefined ? undefined : { list, properties };
}

/**
 * The served list of an operation: a GET no resource holds, not served at another host, whose success answer has
 * a list shape and whose query has a page size parameter; `undefined` otherwise.
 */
export function servedListOf(op: OperationModel): ServedListModel | undefined {
  if (op.method !== 'GET' || op.resource !== undefined || op.servedElsewhere !== undefined) return undefined;
  const read = readListOf(op);
  if (read === undefined) return undefined;
  const { list, properties } = read;
  if (list.limit === undefined) return undefined;
  const taken = new Set([list.limit.parameter, ...(list.paging === undefined ? [] : [list.paging.parameter]), ...list.filters.map((filter) => filter.parameter.name)]);
  // A required parameter scopes the list (`origin`, `destination`) rather than filters it: the suite sets it once (D112).
  const own = list.filters.filter((filter) => (filter.match ?? 'equal') === 'equal' && !filter.parameter.required);
  return { op, list, filters: [...own, ...servedFilters(op, properties, taken)] };
}
