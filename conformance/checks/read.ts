import fc from 'fast-check';
import type { OperationModel, ParameterModel, ResourceModel } from '../../model/model.js';
import { stringMatching } from '../../model/string-matching.js';
import type { Exchange } from '../../judge/verdict.js';
import { bodyValues, ordinaryBody } from '../arbitraries/body.js';
import { canonicalise, isUnconstrainedString } from '../arbitraries/canonical.js';
import { validValues } from '../arbitraries/schema-values.js';
import { absentInteger, integerBounds } from '../arbitraries/integers.js';
import type { CheckContext } from '../check-context.js';
import { idOf, isKnownId, memory, type Check, type ExactRecord } from './check.js';
import { itemRequest } from './identity.js';
import { settleRead } from './read-after-write.js';
import { largestPageQuery } from './population.js';
import { absentStatuses, createRecord, expectSameRecord, listRecords, operation, readRecord } from './records.js';

/**
 * Reads a record the target acknowledged and holds it to what was acknowledged (every field, byte for byte);
 * returns the read's exchange.
 */
export async function expectReadBack(context: CheckContext, resource: ResourceModel, expected: ExactRecord, where: string): Promise<Exchange> {
  const id = idOf(resource, expected);
  const { exchange, record } = await settleRead(context, () => readRecord(context, resource, id), (read) => read.record !== undefined);
  expectSameRecord(resource, expected, record!, exchange, where);
  return exchange;
}

/** A deprecated operation's answer without `Deprecation` or `Sunset` header: advice only (DECISIONS D21). */
function adviseDeprecation(context: CheckContext, op: OperationModel, exchange: Exchange): void {
  if (op.deprecated && exchange.response.headers['deprecation'] === undefined && exchange.response.headers['sunset'] === undefined) {
    context.advise(`${op.operationId} is deprecated${op.sunset === undefined ? '' : ` (removal ${op.sunset})`} but its responses carry no Deprecation or Sunset header`);
  }
}

/**
 * Read (seed, Endpoints §3; getPet deprecated but working until 5 December 2030): a created record comes back by
 * its id with the same fields, and still does at the end of the check. Read-only: every record of the first page
 * comes back as listed. A deprecated operation without `Deprecation`/`Sunset` headers is advice only.
 */
export function foundCheck(resource: ResourceModel, id: string, rule: string): Check {
  return {
    id,
    rule,
    writes: false,
    async run(context) {
      const op = operation(resource, 'read');
      if (context.target.readOnly || resource.operations.create === undefined) {
        const { records } = resource.operations.list === undefined ? { records: [] } : await listRecords(context, resource, largestPageQuery(resource));
        if (records.length === 0) context.advise(`${context.target.readOnly ? 'read-only: ' : ''}the target lists no ${resource.name}, so ${op.operationId} could not be checked on an existing record`);
        for (const record of records.slice(0, context.target.runs)) adviseDeprecation(context, op, await expectReadBack(context, resource, record, op.operationId));
        return;
      }
      const create = operation(resource, 'create');
      const everyCreated: ExactRecord[] = [];
      await context.forAll(bodyValues(context, create, { integers: context.target.integers, strings: 'ordinary' }), async (value) => {
        const created = (await createRecord(context, resource, value))!;
        everyCreated.push(created);
        const { exchange, record } = await settleRead(context, () => readRecord(context, resource, idOf(resource, created)), (read) => read.record !== undefined);
        expectSameRecord(resource, created, record!, exchange, op.operationId);
        adviseDeprecation(context, op, exchange);
      }, { runs: Math.min(context.target.runs, 30) });
      // Persistence: every record created above, the oldest first, is still there with the same fields (a
      // singleton: the last one, which took the place of the others under the same parent, D78).
      const kept = resource.parent?.singleton === true ? everyCreated.slice(-1) : everyCreated;
      for (const record of kept) await expectReadBack(context, resource, record, `${op.operationId} of a record created earlier in this check`);
    },
  };
}

/** Path segments that are no integer id at all (DECISIONS D11: any 4xx error); each is sent every run. */
const NOT_AN_INTEGER = ['abc', '1.5', '-', '1e3', '0x10', '9223372036854775808', '-9223372036854775809', '18446744073709551616', ' 1', '１', 'null', '%', '1;2', ''.padEnd(400, '9')];

/** Ids that name no record: integers high in the id's range, or strings no implementation would assign. */
export function absentIds(context: CheckContext, resource: ResourceModel): fc.Arbitrary<string> {
  const parameter = idPathParameter(resource);
  if (integerId(resource)) {
    // A key the mock reads as text but the path types as an integer is drawn in the path's bounds.
    const form = canonicalise(resource.idType === 'integer' ? resource.idSchema : (parameter?.schema ?? resource.idSchema));
    const [min, max] = form.kind === 'integer' ? integerBounds(form.min, form.max, context.target.integers, form.int64) : integerBounds(undefined, undefined, context.target.integers, true);
    return absentInteger(min, max).map(String);
  }
  // A string id is drawn as the path parameter's schema says (a UUID, a pattern) so that a correct server answers
  // 404, not 400; one the schema lets carry a prefix no implementation assigns gets that prefix, since a value
  // drawn from a loose schema (`format: string`) can be an id the target holds ("5").
  const form = canonicalise(parameter?.schema ?? resource.idSchema);
  const prefixed = stringMatching(/^[a-z0-9]{12}$/).map((tail) => `conformance-absent-${tail}`);
  if (parameter === undefined || form.kind !== 'string' || isUnconstrainedString(form) || parameter.validate('conformance-absent-a0b1c2d3e4f5')) return prefixed;
  return validValues(parameter.schema, parameter.validate, { integers: context.target.integers, strings: 'ordinary' }).map(String);
}

/**
 * Whether the id travels as an integer: the record's key is one, or the read's path parameter is typed `integer`
 * (a record whose key the description leaves unnamed, read by `/addresses/{id}` with `id: integer`). Such an id is
 * drawn as an integer, and only a segment that is no integer is malformed ("0" is a well-formed id).
 */
function integerId(resource: ResourceModel): boolean {
  if (resource.idType === 'integer') return true;
  const parameter = idPathParameter(resource);
  return parameter !== undefined && canonicalise(parameter.schema).kind === 'integer';
}

/** The read's path parameter that names the record, if the resource has a read. */
function idPathParameter(resource: ResourceModel): ParameterModel | undefined {
  return resource.operations.read?.pathParams.find((p) => p.name === resource.idParameter);
}

/** Segments tried as an id the spec constrains (a format, a pattern, lengths): those its own schema refuses. */
const NOT_THE_ID_FORM = ['not-an-id', 'x', '0'];

/**
 * For a text id whose path parameter has a format, pattern or length (`format: uuid`), segments that break it
 * (D92): a server judging them is correct to refuse them with a 4xx, and none may be a 5xx.
 */
function malformedTexts(op: OperationModel, resource: ResourceModel): string[] {
  const parameter = op.pathParams.find((one) => one.name === resource.idParameter);
  if (parameter === undefined || !['format', 'pattern', 'minLength', 'maxLength', 'enum'].some((keyword) => parameter.schema[keyword] !== undefined)) return [];
  return NOT_THE_ID_FORM.filter((text) => !parameter.validate(text));
}

/**
 * Read, Errors (seed): an id that names no record is a 404 in the error shape; for integer ids, a segment that is
 * no integer is a 4xx (400, 404 or 422; only 400 or 404 with `--strict`), never a 5xx. When it may write and has
 * created nothing yet, it creates one record first (it still runs, without writing, under `--read-only`).
 */
export function notFoundCheck(resource: ResourceModel, id: string, rule: string): Check {
  return {
    id,
    rule,
    writes: false,
    async run(context) {
      const op = operation(resource, 'read');
      // A target holding no record answers 404 to anything: one record first, so that a server answering some
      // record for an id that names none is seen (read-only targets are taken as they are).
      const create = resource.operations.create;
      if (!context.target.readOnly && create !== undefined && memory(context, resource).createdIds.size === 0) {
        await createRecord(context, resource, ordinaryBody(context, create, context.target.integers, 1));
      }
      const attempt = async ({ value, valid }: { value: string; valid: boolean }): Promise<void> => {
        if (valid && isKnownId(context, resource, value)) return;
        const expected = valid ? absentStatuses(op) : context.target.strict ? [400, 404] : [400, 404, 422];
        await context.call(op, itemRequest(context, resource, op, value), expected);
      };
      const malformed = integerId(resource) ? NOT_AN_INTEGER : malformedTexts(op, resource);
      for (const value of malformed) await attempt({ value, valid: false });
      // Absent ids asked on every run before the draws (D217): the draws mix them with malformed segments, and a
      // run whose every draw is malformed would never ask an id that is well formed and names no record.
      for (const value of fc.sample(absentIds(context, resource), { numRuns: 3, seed: context.target.seed ?? 1 })) await attempt({ value, valid: true });
      const absent = absentIds(context, resource).map((value) => ({ value, valid: true }));
      await context.forAll(malformed.length === 0 ? absent : fc.oneof(absent, fc.constantFrom(...malformed).map((value) => ({ value, valid: false }))), attempt);
    },
  };
}
