import { sameJson } from '../../model/json.js';
import type { ResourceModel } from '../../model/model.js';
import { ordinaryBody } from '../arbitraries/body.js';
import { Violation } from '../contract.js';
import { requestOf } from '../context.js';
import type { CheckContext } from '../check-context.js';
import { idOf, type Check, type ExactRecord } from './check.js';
import { createRecord, recordsOf, show, successStatuses } from './records.js';

/**
 * The listed record that is `made` (same id and every member of the record `made` shows, the parent's link aside),
 * if any. A member only the create's answer declares (a one-time `api_key`, D155) is not the record's: a list
 * need not show it.
 */
function findMade(resource: ResourceModel, records: readonly ExactRecord[], made: ExactRecord): ExactRecord | undefined {
  const id = idOf(resource, made);
  const link = resource.parent?.property;
  const recordMember = (name: string): boolean => resource.keepsOtherProperties || Object.hasOwn(resource.properties, name);
  return records.find((record) => idOf(resource, record) === id && Object.entries(made).every(([name, value]) => name === link || !recordMember(name) || sameJson(record[name], value)));
}

/**
 * A sub-resource's records belong to their parent (spec/DECISIONS.md › D53, D118): with a second parent record
 * made for the check, a record created under the usual parent is not listed under the second one, and one created
 * under the second is listed there (when the page is not full) and not under the usual one. Records are matched by
 * id *and* content, since a server may number each parent's records from 1.
 */
export function parentScopeCheck(resource: ResourceModel, id: string, rule: string): Check {
  return {
    id,
    rule,
    writes: true,
    async run(context: CheckContext) {
      const create = resource.operations.create!;
      const list = resource.operations.list!;
      const parameter = resource.parent!.parameter;
      // A second parent is made only where the parent is a top-level resource with a create.
      const parent = context.model.resources.find((candidate) => candidate.name === resource.parent!.resource);
      if (parent?.operations.create === undefined || parent.parent !== undefined) return;
      const first = await createRecord(context, resource, ordinaryBody(context, create, context.target.integers, 90));
      const other = await createRecord(context, parent, ordinaryBody(context, parent.operations.create, context.target.integers, 91));
      if (first === undefined || other === undefined) return;
      const otherPath = { [parameter]: idOf(parent, other) };
      const { body: answer } = await context.call(create, requestOf(context, create, { path: otherPath, value: ordinaryBody(context, create, context.target.integers, 92) }), successStatuses(create));
      const second = answer !== null && typeof answer === 'object' && !Array.isArray(answer) ? (answer as ExactRecord) : undefined;
      const bound = resource.limit?.default ?? resource.limit?.maximum;
      const lists = [
        { path: otherPath, holds: second, lacks: first, where: `${parameter} ${otherPath[parameter]} (made for this check)` },
        { path: {}, holds: first, lacks: second, where: `the usual ${parameter}` },
      ];
      for (const { path, holds, lacks, where } of lists) {
        const { exchange, body } = await context.call(list, requestOf(context, list, { path }), successStatuses(list));
        const records = recordsOf(resource, body);
        if (lacks !== undefined && findMade(resource, records, lacks) !== undefined) throw new Violation(`${list.operationId} under ${where} lists ${show(lacks)}, created under another ${parameter}`, exchange);
        if (holds !== undefined && !defaultHides(resource, holds) && (bound === undefined || records.length < bound) && findMade(resource, records, holds) === undefined) throw new Violation(`${list.operationId} under ${where} leaves out ${show(holds)}, created under it`, exchange);
      }
    },
  };
}

/**
 * Whether a list asked without filters may rightly leave `record` out (D239): a filter whose parameter defaults to
 * one of its listed values (`state` defaulting to `open`) narrows the list when left out, and the record holds
 * another value there (a milestone created `closed`). A default that asks for every record (`all`, D142) hides none.
 */
function defaultHides(resource: ResourceModel, record: ExactRecord): boolean {
  return resource.filters.some((filter) => {
    const fallback = filter.parameter.schema['default'];
    if (fallback === undefined || fallback === '' || !Array.isArray(filter.parameter.schema['enum'])) return false;
    if (filter.any?.some((value) => String(value) === String(fallback))) return false;
    const held = record[filter.property];
    return held !== undefined && held !== null && String(held) !== String(fallback);
  });
}

