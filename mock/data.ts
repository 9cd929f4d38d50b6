import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiModel, ResourceModel } from '../spec/model.js';
import { filterKey, isValidRecord, type RecordValue } from './store/record-store.js';
import { parseJsonBody } from './json.js';
import { PACKAGE_ROOT } from './operations.js';
import { singularWord } from './records.js';

/** The embedded demo pets served by `npm start` when no `--data` file or `--empty` is given (seed spec only). */
export const DEMO_DATA_PATH = join(PACKAGE_ROOT, 'mock', 'demo-pets.json');

/** Starting records by resource name (README › Starting data): what `--data`, a state file and the admin load hold. */
export type StartingData = ReadonlyMap<string, readonly RecordValue[]>;

/**
 * Reads starting records from a JSON text (README › Starting data): an object `{"<resource name>": [record…]}`
 * with one collection per resource, or a bare array, which is the first resource's collection (the seed's
 * `--data` files). Each record is validated against its resource's record schema, ids included and distinct;
 * int64 values are kept exactly. Errors: throws an `Error` naming `source` and the first bad entry
 * (`pets.json: entry 3 is not a Pet: must have the property "name"`), a repeated id, or an unknown collection.
 */
export function parseData(api: ApiModel, text: string, source: string): Map<string, RecordValue[]> {
  const parsed = parseJsonBody(text);
  if (!parsed.ok) throw new Error(`${source}: ${parsed.message}`);
  return dataFromValue(api, parsed.body.value, source);
}

/** {@link parseData} of a value already parsed exactly (numbers as `LosslessNumber`). */
export function dataFromValue(api: ApiModel, value: unknown, source: string): Map<string, RecordValue[]> {
  const data = new Map<string, RecordValue[]>();
  const first = api.resources[0];
  if (Array.isArray(value)) {
    if (first === undefined) throw new Error(`${source}: the spec has no resource to hold records`);
    data.set(first.name, parseRecords(first, value, source));
    return data;
  }
  if (value === null || typeof value !== 'object') throw new Error(`${source}: expected a JSON array of ${typeName(first)} objects, or an object of arrays by resource name (${names(api)})`);
  for (const [name, records] of Object.entries(value)) {
    const resource = api.resources.find((r) => r.name === name);
    if (resource === undefined) throw new Error(`${source}: no resource is named ${JSON.stringify(name)}; the spec's resources: ${names(api)}`);
    if (!Array.isArray(records)) throw new Error(`${source} › ${name}: expected a JSON array of ${typeName(resource)} objects`);
    data.set(name, parseRecords(resource, records, `${source} › ${name}`));
  }
  return data;
}

/** Validates one collection against its resource's record schema; ids present and distinct. */
export function parseRecords(resource: ResourceModel, records: readonly unknown[], source: string): RecordValue[] {
  const seen = new Set<unknown>();
  return records.map((record, index) => {
    if (!isValidRecord(resource, record as RecordValue)) {
      throw new Error(`${source}: entry ${index} is not a ${typeName(resource)}: ${resource.validateRecord.errors()}`);
    }
    const value = record as RecordValue;
    const id = resource.idType === 'integer' ? filterKey(value[resource.idProperty]) : value[resource.idProperty];
    if (id === undefined || (resource.idType === 'integer' && typeof id !== 'bigint')) throw new Error(`${source}: entry ${index} has no integer ${resource.idProperty}`);
    if (resource.idType === 'string' && typeof id !== 'string') throw new Error(`${source}: entry ${index} has no string ${resource.idProperty}`);
    if (seen.has(id)) throw new Error(`${source}: entry ${index} repeats the ${resource.idProperty === 'id' ? 'id' : resource.idProperty} ${String(id)}`);
    seen.add(id);
    return value;
  });
}

/** Reads starting records from a file; see {@link parseData}. Errors name the file. */
export function readDataFile(api: ApiModel, path: string): Map<string, RecordValue[]> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`${path}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return parseData(api, text, path);
}

/**
 * The default starting data: the demo pets when they are valid records of the spec's first resource (the
 * seed's spec and specs that keep its `Pet`), else none, with the reason for the start-up log.
 */
export function demoData(api: ApiModel): { data: Map<string, RecordValue[]>; note: string | undefined } {
  try {
    const data = readDataFile(api, DEMO_DATA_PATH);
    return { data, note: undefined };
  } catch (error) {
    return { data: new Map(), note: `starting empty: the demo data does not fit this spec (${(error as Error).message})` };
  }
}

/** The name of one record in messages: `pets` → `Pet`. */
export function typeName(resource: ResourceModel | undefined): string {
  if (resource === undefined) return 'record';
  const singular = singularWord(resource.name);
  return singular.charAt(0).toUpperCase() + singular.slice(1);
}

function names(api: ApiModel): string {
  return api.resources.map((r) => r.name).join(', ') || 'none';
}
