import { randomUUID } from 'node:crypto';
import { sampleOf } from '../model/error-shape.js';
import { parseExact, exactJson } from '../model/json.js';
import type { ResourceModel } from '../model/model.js';
import { isMarked, mainType, type Schema } from '../model/schema.js';
import type { RecordValue } from './store/record-store.js';

/** Most records one `POST /__admin/<resource>/generate` makes. */
export const MAX_GENERATED = 10_000;

const WORDS = ['Bella', 'Max', 'Luna', 'Charlie', 'Lucy', 'Cooper', 'Daisy', 'Milo', 'Nala', 'Rocky', 'Coco', 'Oscar', 'Ruby', 'Teddy', 'Willow', 'Zeus', 'Pepper', 'Olive', 'Ziggy', 'Maple'];

/**
 * `count` schema-valid records of a resource, for the console's "fill" (README › Console › Resources): each
 * property from its schema with variation (an enum member, a number within its bounds, a name-like string within
 * its lengths, a date, an e-mail, a UUID…), optional ones in about two records of three; a schema this cannot
 * vary (a pattern, `oneOf`…) gets the spec's sample (openapi-sampler). Each record is validated against the
 * record schema, falling back to the plain sample. The id is left to the store. Errors: throws when not even
 * the sample is valid (the record schema cannot be sampled).
 */
export function generateRecords(resource: ResourceModel, count: number): RecordValue[] {
  const records: RecordValue[] = [];
  const placeholderId = resource.idType === 'integer' ? 1 : randomUUID();
  let fallback: RecordValue | undefined;
  for (let i = 0; i < count; i++) {
    let record = varied(resource.recordSchema, i, true) as RecordValue;
    if (!isValid(resource, record, placeholderId)) {
      fallback ??= sampledRecord(resource, placeholderId);
      record = fallback;
    }
    const copy = { ...record };
    delete copy[resource.idProperty];
    records.push(copy);
  }
  return records;
}

function sampledRecord(resource: ResourceModel, placeholderId: unknown): RecordValue {
  const sample = sampleOf(resource.recordSchema);
  if (typeof sample === 'object' && sample !== null && !Array.isArray(sample) && isValid(resource, sample as RecordValue, placeholderId)) return sample as RecordValue;
  throw new Error(`no schema-valid ${resource.name} record could be made from the record schema: ${resource.validateRecord.errors()}`);
}

function isValid(resource: ResourceModel, record: RecordValue, placeholderId: unknown): boolean {
  const parsed = parseExact(exactJson({ ...record, [resource.idProperty]: placeholderId }));
  return parsed.ok && resource.validateRecord(parsed.document.view);
}

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)]!;
}

function between(min: number, max: number): number {
  return min + Math.floor(Math.random() * (max - min + 1));
}

function varied(schema: Schema | boolean, index: number, top = false): unknown {
  // `false` (a writeOnly member in the record's view) has no value: the property is left out.
  if (typeof schema !== 'object' || schema === null) return schema === false ? undefined : 'text';
  if ('const' in schema) return schema['const'];
  if (Array.isArray(schema['enum'])) return pick(schema['enum'] as unknown[]);
  if (schema['oneOf'] !== undefined || schema['anyOf'] !== undefined || schema['allOf'] !== undefined || schema['pattern'] !== undefined) return sampleOf(schema);
  switch (mainType(schema)) {
    case 'object': {
      const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
      const required = new Set((schema['required'] ?? []) as string[]);
      const out: RecordValue = {};
      for (const [name, property] of Object.entries(properties)) {
        if (isMarked(property, 'writeOnly') && !required.has(name)) continue;
        if (!required.has(name) && Math.random() < 0.34) continue;
        const value = varied(property, index);
        if (value !== undefined) out[name] = value;
      }
      return top || Object.keys(out).length > 0 || required.size > 0 ? out : sampleOf(schema);
    }
    case 'array': {
      const items = (schema['items'] ?? {}) as Schema;
      const min = typeof schema['minItems'] === 'number' ? schema['minItems'] : 0;
      const max = typeof schema['maxItems'] === 'number' ? schema['maxItems'] : min + 3;
      if (schema['uniqueItems'] === true) return sampleOf(schema);
      return Array.from({ length: between(min, Math.min(max, min + 3)) }, () => varied(items, index));
    }
    case 'integer': {
      const min = bound(schema, 'minimum', 'exclusiveMinimum', 1, 1);
      const max = bound(schema, 'maximum', 'exclusiveMaximum', -1, Math.max(min, 0) + 999);
      const step = typeof schema['multipleOf'] === 'number' ? schema['multipleOf'] : 1;
      const value = between(Math.ceil(min / step), Math.floor(Math.min(max, min + 100_000) / step)) * step;
      return value;
    }
    case 'number': {
      if (schema['multipleOf'] !== undefined) return sampleOf(schema);
      const min = bound(schema, 'minimum', 'exclusiveMinimum', 0.01, 0);
      const max = bound(schema, 'maximum', 'exclusiveMaximum', -0.01, min + 1000);
      return Math.round((min + Math.random() * (max - min)) * 100) / 100;
    }
    case 'boolean':
      return Math.random() < 0.5;
    case 'string':
      return text(schema, index);
    default:
      return sampleOf(schema);
  }
}

function bound(schema: Schema, inclusive: string, exclusive: string, nudge: number, fallback: number): number {
  if (typeof schema[inclusive] === 'number') return schema[inclusive];
  if (typeof schema[exclusive] === 'number') return (schema[exclusive] as number) + nudge;
  return fallback;
}

function text(schema: Schema, index: number): string {
  const day = new Date(Date.UTC(2020, 0, 1) + between(0, 2000) * 86_400_000 + between(0, 86_399) * 1000);
  switch (schema['format']) {
    case 'date-time':
      return day.toISOString().replace(/\.\d+Z$/, 'Z');
    case 'date':
      return day.toISOString().slice(0, 10);
    case 'email':
      return `${pick(WORDS).toLowerCase()}${index}@example.com`;
    case 'uuid':
      return randomUUID();
    case 'uri':
    case 'url':
      return `https://example.com/${pick(WORDS).toLowerCase()}/${index}`;
    case 'ipv4':
      return `192.0.2.${between(1, 254)}`;
    case 'hostname':
      return `${pick(WORDS).toLowerCase()}.example.com`;
    case undefined:
      break;
    default:
      return String(sampleOf(schema));
  }
  const min = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0;
  const max = typeof schema['maxLength'] === 'number' ? schema['maxLength'] : 40;
  let value = `${pick(WORDS)} ${index + 1}`;
  while (value.length < min) value += ` ${pick(WORDS)}`;
  return value.slice(0, Math.max(max, 0));
}
