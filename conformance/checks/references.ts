import type fc from 'fast-check';
import { sameJson, toView } from '../../model/json.js';
import type { OperationModel, ResourceModel } from '../../model/model.js';
import type { ReferenceModel } from '../../model/references.js';
import { ordinaryBody } from '../arbitraries/body.js';
import { boundedFilter } from '../arbitraries/bounded.js';
import { canonicalise } from '../arbitraries/canonical.js';
import { valueOf } from '../arbitraries/schema-values.js';
import { objectShape, type Schema } from '../../model/schema.js';
import { Violation } from '../contract.js';
import { requestOf } from '../context.js';
import type { CheckContext } from '../check-context.js';
import { idKey, type Check } from './check.js';
import { itemRequest } from './identity.js';
import { largestPageQuery } from './population.js';
import { absentIds } from './read.js';
import { listRecords, operation, show, successStatuses } from './records.js';

/**
 * The statuses a refusal of a write naming a record that does not exist may have (D95): the documented 404, or
 * the 400/422 the write documents for a body it cannot take (a server may judge the reference as part of the
 * body); only 404 under `--strict`.
 */
function absentStatuses(context: CheckContext, op: OperationModel): number[] {
  if (context.target.strict) return [404];
  return [404, ...[400, 422].filter((status) => op.responses.some((response) => response.status === String(status)))];
}

/**
 * A value of the reference member that names no record: schema-valid, none the suite has pinned or the spec shows.
 * Bounded: a member whose schema admits only the values pinned or shown (an enum, a `const`, a boolean) has none, and
 * the check ends not run instead of drawing without end.
 */
function danglingValues(op: OperationModel, reference: ReferenceModel, context: CheckContext, pinned: unknown): fc.Arbitrary<unknown> {
  const schema = objectShape(op.body!.schema).properties[reference.member] as Schema;
  const validate = (value: unknown): boolean => op.body!.validate(toView({ ...ordinaryBody(context, op, context.target.integers, 14), [reference.member]: value }));
  const dangling = (value: unknown): boolean => validate(value) && !sameJson(value, pinned) && !reference.examples.some((shown) => sameJson(shown, value));
  return boundedFilter(valueOf(canonicalise(schema), { integers: context.target.integers, strings: 'ordinary' }), dangling, `value of ${reference.member} that names no record`);
}

/**
 * Whether the target holds the record `value` names (spec/DECISIONS.md › D821): the referenced collection's read
 * answers a success for it. Only where the referenced list is a resource of the model with a read by its own key,
 * under no parent, whose records carry their id in the member the reference names; `false` elsewhere, where the
 * values the spec shows and the pinned one are all the check leaves out.
 */
async function holdsReferenced(context: CheckContext, reference: ReferenceModel, value: unknown): Promise<boolean> {
  const resource = reference.list.resource;
  const read = resource?.operations.read;
  if (resource === undefined || read === undefined || resource.parent !== undefined || resource.idParameter === undefined || reference.idMember !== resource.idProperty) return false;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'bigint') return false;
  const { exchange } = await context.call(read, itemRequest(context, resource, read, idKey(value)), [...successStatuses(read), 404]);
  return exchange.response.status < 300;
}

/**
 * A create whose body names a record of another collection that does not exist (`crossing_id` of no crossing)
 * is refused with the documented 404 (400/422 where documented, unless `--strict`), and creates nothing (D95).
 * Only for creates that document 404.
 */
export function referenceCheck(resource: ResourceModel, reference: ReferenceModel, id: string, rule: string): Check {
  return {
    id,
    rule,
    writes: true,
    async run(context) {
      const op = operation(resource, 'create');
      const pinned = ordinaryBody(context, op, context.target.integers, 15)[reference.member];
      await context.forAll(danglingValues(op, reference, context, pinned), async (value) => {
        // A drawn value may name a record the run made (ids are numbered from 1): it dangles only if the target holds none (D821).
        if (await holdsReferenced(context, reference, value)) return;
        const body = { ...ordinaryBody(context, op, context.target.integers, 15), [reference.member]: value };
        const { exchange } = await context.call(op, requestOf(context, op, { value: body }), absentStatuses(context, op));
        if (resource.operations.list === undefined) return;
        const { records } = await listRecords(context, resource, largestPageQuery(resource));
        const made = records.find((record) => sameJson(record[reference.member], value));
        if (made !== undefined) throw new Violation(`${op.operationId} was refused with ${exchange.response.status}, yet a record naming ${reference.member} ${show(value)} is listed: ${show(made)}`, exchange);
      }, { runs: Math.min(context.target.runs, 10) });
    },
  };
}

/**
 * A create under a parent record that does not exist (`POST /reservations/{id}/payment` for no reservation) is the
 * documented 404 and creates nothing (seed, Errors: a path naming no record is a 404; D99). Only where the create
 * documents 404 and the parent is a resource whose ids the suite can draw.
 */
export function absentParentCheck(resource: ResourceModel, parent: ResourceModel, id: string, rule: string): Check {
  return {
    id,
    rule,
    writes: true,
    async run(context) {
      const op = operation(resource, 'create');
      const parameter = resource.parent!.parameter;
      await context.forAll(absentIds(context, parent), async (absent) => {
        await context.call(op, requestOf(context, op, { path: { [parameter]: absent }, value: ordinaryBody(context, op, context.target.integers, 16) }), [404]);
      }, { runs: Math.min(context.target.runs, 10) });
    },
  };
}
