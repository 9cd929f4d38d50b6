import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson } from '../model/json.js';
import { mediaKind } from '../model/media.js';
import type { ApiModel, ResourceModel } from '../model/model.js';
import { filterKey, isValidRecord, storeView, type RecordValue } from './store/record-store.js';
import { parseJsonBody } from './exact-body.js';
import { listAlign, listedSample } from './answer-fit.js';
import { validSample } from '../model/samples.js';
import { PACKAGE_ROOT } from './operations.js';
import { singularWord } from './record-bodies.js';

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
    // A key numbered per parent repeats across parents: records are told apart by the store's key (D240).
    const { idType, idProperty } = storeView(resource);
    const id = idType === 'integer' ? filterKey(value[idProperty]) : value[idProperty];
    if (id === undefined || (idType === 'integer' && typeof id !== 'bigint')) throw new Error(`${source}: entry ${index} has no integer ${idProperty}`);
    if (idType === 'string' && typeof id !== 'string') throw new Error(`${source}: entry ${index} has no string ${idProperty}`);
    if (seen.has(id)) throw new Error(`${source}: entry ${index} repeats the ${idProperty} ${String(id)}`);
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
 * One starting record for a top-level resource that no request can add to (no create, no replace: a catalogue
 * the server owns, such as a list of models), whose examples show no record, but whose read's id parameter shows an
 * example id (`gpt-4o-mini`; spec/DECISIONS.md › D154): the record schema's valid sample with that id, when it is
 * a valid record. Without it such a list is always empty and every read a 404, so a client could never reach the
 * record the spec names. `undefined` for any other resource; the caller asks only for a resource whose examples
 * show no record. Never throws.
 */
export function servedSampleOf(resource: ResourceModel): RecordValue[] | undefined {
  const { create, replace, read, list } = resource.operations;
  if (create !== undefined || replace !== undefined || resource.parent !== undefined || (read === undefined && list === undefined)) return undefined;
  const parameter = read?.pathParams.find((p) => p.name === resource.idParameter);
  const shownId = parameter?.example ?? parameter?.schema['example'] ?? (parameter?.schema['examples'] as unknown[] | undefined)?.[0];
  if (shownId === undefined) return undefined;
  const sample = validSample(resource.recordSchema);
  if (sample === null || typeof sample !== 'object' || Array.isArray(sample)) return undefined;
  // Made to fit the list's own items too where they ask more than the record schema (D942): one record, read or listed.
  const parsed = parseJsonBody(canonicalJson({ ...listedSample(resource, sample as RecordValue), [resource.idProperty]: shownId }));
  if (!parsed.ok) return undefined;
  try {
    return parseRecords(resource, [parsed.body.value], 'sample');
  } catch {
    return undefined;
  }
}

/**
 * The records a spec's own examples show of one resource: the examples (the media type's `example` and named
 * `examples`, then the schema's own) of the success answers of its list (each item, of a bare or wrapped list),
 * read, create, replace and update operations, kept when they are valid records with an id of the resource's
 * type; the first record of each id wins. What one resource's records are depends on that resource alone. Never throws.
 */
export function exampleRecordsOf(resource: ResourceModel): RecordValue[] {
  const records: RecordValue[] = [];
  const seen = new Set<unknown>();
  // A record its list would show otherwise than its read is stored as the list shows it (D230). Asked only once a
  // record is found: it compiles the list's item schema, which most resources of a large description never need.
  let align: ReturnType<typeof listAlign> | null = null;
  for (const candidate of exampleRecords(resource)) {
    // Through JSON text, as a `--data` file is read: int64 values exact, the store's own number form.
    const parsed = parseJsonBody(canonicalJson(candidate));
    if (!parsed.ok) continue;
    const record = exampleRecord(resource, parsed.body.value as RecordValue);
    if (record === undefined) continue;
    const { idType, idProperty } = storeView(resource);
    const id = idType === 'integer' ? filterKey(record[idProperty]) : record[idProperty];
    if (seen.has(id)) continue;
    seen.add(id);
    if (align === null) align = listAlign(resource);
    records.push(align === undefined ? record : align(record));
  }
  return records;
}

/**
 * One example as a starting record: the example when it is a valid record, else the example with the required
 * top-level members it leaves out taken from the record schema's valid sample (D301: an example written before its
 * schema gained a member, such as a nullable `archived_at`, still shows the record its authors meant), when that
 * is valid and the example names the record's key; `undefined` otherwise.
 */
function exampleRecord(resource: ResourceModel, value: RecordValue): RecordValue | undefined {
  try {
    return parseRecords(resource, [value], 'example')[0]!;
  } catch {
    // Completed below, when only required members are missing.
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const missing = resource.required.filter((name) => !(name in value));
  // The key is the record's identity: an example without it shows no particular record, and a sampled key would
  // make one up.
  if (missing.length === 0 || missing.includes(storeView(resource).idProperty)) return undefined;
  const sample = validSample(resource.recordSchema);
  if (sample === null || typeof sample !== 'object' || Array.isArray(sample)) return undefined;
  const filled = parseJsonBody(canonicalJson(Object.fromEntries(missing.filter((name) => name in sample).map((name) => [name, (sample as Record<string, unknown>)[name]]))));
  if (!filled.ok) return undefined;
  try {
    return parseRecords(resource, [{ ...value, ...(filled.body.value as RecordValue) }], 'example')[0]!;
  } catch {
    return undefined;
  }
}

function* exampleRecords(resource: ResourceModel): Generator<unknown> {
  for (const role of ['list', 'read', 'create', 'replace', 'update'] as const) {
    const op = resource.operations[role];
    const response = op?.responses.find((r) => r.status === String(op.successStatus));
    if (response === undefined) continue;
    for (const content of response.contents) {
      if (mediaKind(content.mediaType) !== 'json') continue;
      const values = [...content.examples.map((example) => example.value), content.schema?.['example'], ...((content.schema?.['examples'] as unknown[] | undefined) ?? [])];
      for (const value of values) {
        if (value === undefined) continue;
        if (role !== 'list') yield value;
        else if (Array.isArray(value)) yield* value;
        else if (resource.listShape?.kind === 'object' && value !== null && typeof value === 'object') {
          const items = (value as Record<string, unknown>)[resource.listShape.itemsProperty];
          if (Array.isArray(items)) yield* items;
        }
      }
    }
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
