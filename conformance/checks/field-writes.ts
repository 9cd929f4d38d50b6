import type { OperationModel, ResourceModel } from '../../model/model.js';
import { mainType, type Schema } from '../../model/schema.js';
import { ordinaryBody } from '../arbitraries/body.js';
import { Violation } from '../contract.js';
import { requestOf } from '../context.js';
import { idOf, type Check } from './check.js';
import { createRecord, readRecord, show, successStatuses } from './records.js';

/**
 * A value for a field write's query parameter that differs from `held` (the record's value as created): another
 * member of the property's `enum` (one the parameter also admits), or a word no record holds for a plain text;
 * `undefined` when neither can be had (a number, a text with a `format`, `pattern` or tight length).
 */
function newValue(property: Schema, parameter: Schema, held: unknown, word: string): string | undefined {
  const admitted = Array.isArray(parameter['enum']) ? (parameter['enum'] as unknown[]) : undefined;
  if (Array.isArray(property['enum'])) {
    const other = (property['enum'] as unknown[]).find((value) => typeof value === 'string' && value !== held && (admitted === undefined || admitted.includes(value)));
    return typeof other === 'string' ? other : undefined;
  }
  const fits = (bound: unknown, ok: (n: number) => boolean): boolean => typeof bound !== 'number' || ok(bound);
  const plain = (schema: Schema): boolean => mainType(schema) === 'string' && schema['format'] === undefined && schema['pattern'] === undefined && fits(schema['maxLength'], (n) => n >= 16) && fits(schema['minLength'], (n) => n <= 8);
  return plain(property) && plain(parameter) && admitted === undefined ? word : undefined;
}

/**
 * A field write (`POST /plant/{plantId}?name=…&status=…`, spec/DECISIONS.md › D116) as a property: on a record
 * the check creates, each query field sent with a new value (another enum member, a new word) and answered with a
 * documented 2xx is what a read of the record then shows. A server that answers success but keeps the old values
 * (the fields read from the wrong place, or never stored) is caught. Fields whose new value cannot be drawn are
 * not sent; without any, the check has nothing to send and passes.
 */
export function fieldWriteCheck(resource: ResourceModel, op: OperationModel, id: string, rule: string): Check {
  return {
    id,
    rule,
    writes: true,
    async run(context) {
      const create = resource.operations.create!;
      const created = await createRecord(context, resource, ordinaryBody(context, create, context.target.integers, 80));
      if (created === undefined) return;
      const word = `f${Date.now().toString(36)}`;
      const fields: Record<string, string> = {};
      for (const parameter of op.queryParams) {
        const property = resource.properties[parameter.name];
        const value = property === undefined ? undefined : newValue(property, parameter.schema, created[parameter.name], word);
        if (value !== undefined) fields[parameter.name] = value;
      }
      if (Object.keys(fields).length === 0) return;
      const key = idOf(resource, created);
      const query = new URLSearchParams(fields).toString();
      await context.call(op, requestOf(context, op, { path: { [resource.idParameter ?? '']: key }, query }), successStatuses(op));
      const { exchange, record } = await readRecord(context, resource, key);
      const kept = Object.entries(fields).find(([name, value]) => record?.[name] !== value);
      if (kept !== undefined) throw new Violation(`${op.operationId}(${key}?${query}) was answered with success, yet a read shows ${kept[0]} ${show(record?.[kept[0]] ?? null)}, not ${show(kept[1])}`, exchange);
    },
  };
}
