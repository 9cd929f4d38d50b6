import { sameJson } from '../../model/json.js';
import type { FilterModel, ResourceModel } from '../../model/model.js';
import type { PinsHolder } from '../arbitraries/body.js';
import { filterText } from '../arbitraries/query-strings.js';
import { requiredValue } from '../context.js';

/** A required filter of a list and the one value the run asks it with (see {@link listScope}). */
export interface ScopeValue {
  filter: FilterModel;
  value: unknown;
}

/**
 * The required equality filters of `resource`'s list, each with the one value every list request of the run names
 * it with (spec/DECISIONS.md › D570): the value the run pinned the create's member to (a reference to a record the
 * target holds, D95), else the value a request names a required parameter with (D220: its example, enum, default
 * or a sample). A list that requires `value_list` shows only the records of that value, so the records the suite
 * makes for its pages carry it too (conformance/checks/population.ts). A parameter whose value is an object or an
 * array is not a scope (D220 leaves it out of the request).
 */
export function listScope(context: PinsHolder, resource: ResourceModel): ScopeValue[] {
  const create = resource.operations.create;
  return resource.filters.flatMap((filter) => {
    if (!filter.parameter.required || (filter.match ?? 'equal') !== 'equal') return [];
    const pinned = create === undefined ? undefined : context.run.pins.get(create)?.get(filter.property);
    const value = pinned ?? requiredValue(filter.parameter);
    return value === undefined || value === null || typeof value === 'object' ? [] : [{ filter, value }];
  });
}

/**
 * Whether a list asked with the run's scope ({@link listScope}) may show `record` (spec/DECISIONS.md › D934): it holds
 * the scope's value of each required filter, except the parameter named `except` (a filter the request names itself,
 * whose value replaces the scope's). A record made with another value (a body drawn without the scope) is not
 * listed by a server that applies the required filter, so no page is incomplete for lacking it.
 */
export function inListScope(context: PinsHolder, resource: ResourceModel, record: Record<string, unknown>, except?: string): boolean {
  return listScope(context, resource).every(({ filter, value }) => filter.parameter.name === except || sameJson(record[filter.property], value));
}

/**
 * `query` (query text without `?`) with each scope of {@link listScope} it does not name added as `name=value`,
 * so that the list is asked with the value the records were made with; a check that names the parameter itself
 * (a filter check, an invalid value) keeps its own.
 */
export function withScope(context: PinsHolder, resource: ResourceModel, query: string): string {
  const named = new Set(query.split('&').filter((part) => part !== '').map((part) => safeDecode(part.split('=')[0]!)));
  const added = listScope(context, resource)
    .filter(({ filter }) => !named.has(filter.parameter.name))
    .map(({ filter, value }) => `${encodeURIComponent(filter.parameter.name)}=${encodeURIComponent(filterText(value))}`);
  return [query, ...added].filter((part) => part !== '').join('&');
}

/** A query part's name decoded, or as written when its escapes are malformed (an invalid query sent on purpose). */
function safeDecode(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}
