import type { ListModel, ResourceModel } from '../../model/model.js';
import { ordinaryBody, withProperty } from '../arbitraries/body.js';
import { filterText } from '../arbitraries/query-strings.js';
import { filterStranger } from '../../judge/record-rules.js';
import { Violation } from '../contract.js';
import { requestOf } from '../context.js';
import { idOf, type Check } from './check.js';
import { createRecord, recordsOf, successStatuses } from './records.js';

/**
 * A sub-path view's equality filters with listed values (`GET /plant/findByStatus?status=sold`), as a property
 * (spec/DECISIONS.md › D91): the check creates one record per value, then asks the view for each value: every
 * listed record has that value, and the record created with it is listed (when the page is not full).
 */
export function viewFilterCheck(resource: ResourceModel, view: ListModel, id: string, rule: string): Check {
  const filters = view.filters.filter((filter) => (filter.match ?? 'equal') === 'equal' && (filter.values?.length ?? 0) > 0);
  return {
    id,
    rule,
    writes: true,
    async run(context) {
      const create = resource.operations.create!;
      const op = view.operation;
      for (const filter of filters) {
        const made = new Map<string, unknown>();
        for (const [index, value] of filter.values!.entries()) {
          const body = withProperty(create, ordinaryBody(create, context.target.integers, 60 + index), filter.property, value);
          const created = body === undefined ? undefined : await createRecord(context, resource, body);
          if (created !== undefined) made.set(idOf(resource, created), value);
        }
        for (const value of filter.values!) {
          const query = new URLSearchParams({ [filter.parameter.name]: filterText(value) });
          if (view.limit?.maximum !== undefined) query.set(view.limit.parameter, String(view.limit.maximum));
          const { exchange, body } = await context.call(op, requestOf(op, { query: query.toString() }), successStatuses(op));
          const records = recordsOf(resource, body);
          const stranger = filterStranger(records, filter.property, value);
          if (stranger !== undefined) throw new Violation(`${op.operationId}?${filter.parameter.name}=${filterText(value)}: ${stranger.message}`, exchange);
          if (view.limit?.maximum !== undefined && records.length >= view.limit.maximum) continue;
          const listed = new Set(records.map((record) => idOf(resource, record)));
          const left = [...made].find(([madeId, madeValue]) => madeValue === value && !listed.has(madeId));
          if (left !== undefined) throw new Violation(`${op.operationId}?${filter.parameter.name}=${filterText(value)} leaves out ${resource.name} ${left[0]}, created with ${filter.property} ${filterText(value)}`, exchange);
        }
      }
    },
  };
}

/** The view filter checks of a resource: one per sub-path view with an equality filter whose values the spec lists. */
export function viewChecks(resource: ResourceModel, where: (view: ListModel) => string): Check[] {
  if (resource.operations.create === undefined) return [];
  return resource.views
    .filter((view) => view.operation.method === 'GET' && view.filters.some((filter) => (filter.match ?? 'equal') === 'equal' && (filter.values?.length ?? 0) > 0))
    .map((view) => {
      const names = view.filters.map((filter) => `\`${filter.parameter.name}\``).join(', ');
      return viewFilterCheck(resource, view, `${view.operation.operationId}.filter`, `${where(view)}: for each listed value of ${names}, every record the view lists has it, and a record created with it is listed.`);
    });
}
