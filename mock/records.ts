import type { ResourceModel } from '../spec/model.js';
import { isMarked, type Schema } from '../spec/schema.js';
import { sampleOf } from '../spec/error-shape.js';
import type { RecordValue } from './store/record-store.js';

/**
 * The record a create or replace body makes (README › Resources): the body's properties the record schema
 * names (others only when its `additionalProperties` allows them), the id left to the store, then the
 * record's own values for what the body lacks: `previous` values for properties a request may not send
 * (`readOnly`, on replace), each absent property's `default`, and for other required properties a
 * schema-valid value (the current time for a `date-time`, else a sample of the schema).
 */
export function recordFromBody(resource: ResourceModel, body: RecordValue, previous?: RecordValue): RecordValue {
  const record: RecordValue = {};
  for (const name of Object.keys(body)) {
    if (name === resource.idProperty) continue;
    if (Object.hasOwn(resource.properties, name) || resource.keepsOtherProperties) record[name] = body[name];
  }
  for (const [name, schema] of Object.entries(resource.properties)) {
    if (name === resource.idProperty || record[name] !== undefined) continue;
    if (previous !== undefined && previous[name] !== undefined && isMarked(schema, 'readOnly')) record[name] = previous[name];
    else if (schema['default'] !== undefined) record[name] = schema['default'];
    else if (resource.required.includes(name)) record[name] = generated(schema);
  }
  return record;
}

/**
 * JSON Merge Patch (RFC 7396) at the top level, as PATCH updates a record: each body property replaces the
 * record's, `null` removes it; the id is never changed.
 */
export function mergePatch(resource: ResourceModel, record: RecordValue, patch: RecordValue): RecordValue {
  const merged: RecordValue = { ...record };
  for (const [name, value] of Object.entries(patch)) {
    if (name === resource.idProperty) continue;
    if (!Object.hasOwn(resource.properties, name) && !resource.keepsOtherProperties) continue;
    if (value === null) delete merged[name];
    else merged[name] = value;
  }
  return merged;
}

/** A schema-valid value for a property the server fills: now for a `date-time`, today for a `date`, else a sample. */
function generated(schema: Schema): unknown {
  const format = schema['format'] ?? (schema['allOf'] as Schema[] | undefined)?.find((part) => part['format'] !== undefined)?.['format'];
  if (format === 'date-time') return new Date().toISOString();
  if (format === 'date') return new Date().toISOString().slice(0, 10);
  return sampleOf(schema);
}

/** The singular of a resource name in upper snake case, for error codes: `pets` → `PET`, `categories` → `CATEGORY`. */
export function singularCode(name: string): string {
  const singular = name.replace(/ies$/i, 'y').replace(/(?<!s)s$/i, '');
  return singular.replace(/[^A-Za-z0-9]+/g, '_').replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase() || 'RECORD';
}

/** The singular of a resource name in words, for messages: `pets` → `pet`. */
export function singularWord(name: string): string {
  return name.replace(/ies$/i, 'y').replace(/(?<!s)s$/i, '');
}
