import { parseExact } from '../model/json.js';
import type { ApiModel, ResourceModel } from '../model/model.js';
import type { StartingData } from './data.js';
import type { Dataset } from './pipeline.js';
import { isValidRecord, type RecordValue } from './store/record-store.js';

/** What a spec reload changed (README › Watching the spec), for the log: one sentence per change. */
export function describeChanges(before: ApiModel, after: ApiModel): string[] {
  const changes: string[] = [];
  const ops = (api: ApiModel) => new Set(api.operations.map((op) => `${op.method} ${op.path} (${op.operationId})`));
  const [old, now] = [ops(before), ops(after)];
  for (const op of now) if (!old.has(op)) changes.push(`operation added: ${op}`);
  for (const op of old) if (!now.has(op)) changes.push(`operation removed: ${op}`);
  for (const resource of after.resources) {
    const previous = matching(before, resource);
    if (previous === undefined) {
      changes.push(`resource added: ${resource.name} (${resource.collectionPath})`);
      continue;
    }
    for (const name of Object.keys(resource.properties)) if (previous.properties[name] === undefined) changes.push(`${resource.name}: property added: ${name}`);
    for (const name of Object.keys(previous.properties)) if (resource.properties[name] === undefined) changes.push(`${resource.name}: property removed: ${name}`);
  }
  for (const resource of before.resources) if (matching(after, resource) === undefined) changes.push(`resource removed: ${resource.name} (${resource.collectionPath})`);
  if (before.basePath !== after.basePath) changes.push(`base path: ${before.basePath || '/'} → ${after.basePath || '/'}`);
  return changes;
}

/** The resource of `api` that stands for `resource` across a reload: the one at the same collection path, else of the same name. */
function matching(api: ApiModel, resource: ResourceModel): ResourceModel | undefined {
  return api.resources.find((r) => r.collectionPath === resource.collectionPath) ?? api.resources.find((r) => r.name === resource.name);
}

/**
 * The records of `data` that are still valid records of the new spec's resources, by new resource name;
 * `dropped` counts the others (README › Watching the spec: records that no longer fit are dropped, and said).
 */
export function carryOver(before: ApiModel, after: ApiModel, data: Dataset): { data: Map<string, RecordValue[]>; dropped: number } {
  const out = new Map<string, RecordValue[]>();
  let dropped = 0;
  for (const resource of after.resources) {
    const previous = matching(before, resource);
    const store = previous === undefined ? undefined : data.get(previous.name);
    if (store === undefined) continue;
    const kept: RecordValue[] = [];
    for (const json of store.all()) {
      const parsed = parseExact(json);
      const record = parsed.ok ? (parsed.document.value as RecordValue) : undefined;
      if (record !== undefined && isValidRecord(resource, record) && record[resource.idProperty] !== undefined) kept.push(record);
      else dropped++;
    }
    out.set(resource.name, kept);
  }
  for (const resource of before.resources) if (matching(after, resource) === undefined) dropped += data.get(resource.name)?.size ?? 0;
  return { data: out, dropped };
}

/** Starting data carried over to the new spec (what a reset restores), keeping the records that still fit. */
export function carryOverStarting(before: ApiModel, after: ApiModel, starting: StartingData): Map<string, RecordValue[]> {
  const out = new Map<string, RecordValue[]>();
  for (const resource of after.resources) {
    const previous = matching(before, resource);
    const records = previous === undefined ? undefined : starting.get(previous.name);
    if (records === undefined) continue;
    out.set(resource.name, records.filter((record) => isValidRecord(resource, record)));
  }
  return out;
}
