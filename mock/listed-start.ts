import type { ResourceModel } from '../model/model.js';
import { toView } from '../model/json.js';
import { validatorOf } from '../model/samples.js';
import { filterDefaults } from './list-handler.js';
import type { RecordValue } from './store/record-store.js';

/**
 * The state a created record starts in where its list, asked at its defaults, shows only records in one state
 * (spec/DECISIONS.md › D841): for each equality filter of the resource's list whose documented default applies when
 * a client leaves it out (D243), over a record member with no `default` of its own, a record the client creates
 * without that member gets the filter's default value, where the member's schema takes it. A client that creates a
 * record and then lists at the list's defaults sees it, as from a server whose new records start in the state its
 * list shows first (a class listed `state=active` by default is created active). Returns a function that writes
 * those members into `record` (made from the create body `sent`; a member the client sent is kept as sent), or
 * `undefined` when the list applies no such default. Views (D173) are not read: a view is one state among others.
 */
export function listedStart(resource: ResourceModel): ((record: RecordValue, sent: RecordValue) => void) | undefined {
  const list = resource.list;
  if (list === undefined) return undefined;
  const starts: { member: string; value: unknown }[] = [];
  for (const [parameter, value] of filterDefaults(list)) {
    const member = list.filters.find((filter) => filter.parameter.name === parameter)?.property;
    const schema = member === undefined || member === resource.idProperty ? undefined : resource.properties[member];
    if (member === undefined || schema === undefined || schema['default'] !== undefined) continue;
    // Only a value the member itself takes: a filter's default written where the record holds another type is no state.
    if (!(validatorOf(schema)?.(toView(value)) ?? true)) continue;
    starts.push({ member, value });
  }
  if (starts.length === 0) return undefined;
  return (record, sent) => {
    for (const { member, value } of starts) if (!Object.hasOwn(sent, member)) record[member] = value;
  };
}
