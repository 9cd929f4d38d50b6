import { canonicalJson, parseExact } from '../model/json.js';
import type { OperationModel, ResourceModel } from '../model/model.js';
import { admittedTypes, type Schema } from '../model/schema.js';
import { andThen, filterKey, type AnyRecordStore, type Maybe, type RecordId, type RecordValue } from './store/record-store.js';

/**
 * The record members an item path may name a record by instead of its id (spec/DECISIONS.md › D338): the path's
 * last parameter is one of several schemas (`anyOf: [ssh_key_id, ssh_key_fingerprint]`, "either the ID or the
 * fingerprint"), and a branch other than the id's is, word for word, the schema of a string member of the record.
 * Empty when the parameter names the id alone.
 */
export function alternateKeysOf(op: OperationModel, resource: ResourceModel): string[] {
  const parameter = op.idIn === 'path' ? op.pathParams.at(-1) : undefined;
  if (parameter === undefined) return [];
  const branches = (['anyOf', 'oneOf'] as const).flatMap((keyword) => (Array.isArray(parameter.schema[keyword]) ? (parameter.schema[keyword] as Schema[]) : []));
  if (branches.length < 2) return [];
  const texts = new Set(branches.map((branch) => canonicalJson(branch)));
  const idText = canonicalJson(resource.properties[resource.idProperty] ?? {});
  return Object.entries(resource.properties)
    .filter(([name, schema]) => name !== resource.idProperty && texts.has(canonicalJson(schema)) && canonicalJson(schema) !== idText && admittedTypes(schema).includes('string'))
    .map(([name]) => name);
}

/**
 * The id of the record whose `members` (from {@link alternateKeysOf}) hold `value`, by one pass over the resource's
 * records (a top-level resource: no parent key), or `undefined` when none does. `value` is the path's text.
 */
export function idByAlternateKey(store: AnyRecordStore, resource: ResourceModel, members: readonly string[], value: string): Maybe<RecordId | undefined> {
  const page = store.list({ keys: resource.filters.map(() => undefined), limit: 1, test: (record) => members.some((member) => record[member] === value) });
  return andThen(page, ({ json }) => {
    const parsed = parseExact(json);
    const first: unknown = parsed.ok && Array.isArray(parsed.document.value) ? parsed.document.value[0] : undefined;
    if (first === null || typeof first !== 'object') return undefined;
    const key = filterKey((first as RecordValue)[resource.idProperty]);
    return typeof key === 'bigint' || typeof key === 'string' ? key : undefined;
  });
}

/**
 * The record members a string id's item path may also name a record by, because the path parameter's text says
 * so (spec/DECISIONS.md › D605): "Network ID or name", "The id or name of the organization", "The name or ID of the
 * application". The member is the record's own string member named `name` (whatever its case), when the id is
 * another member. Empty when the text says nothing of the kind, or the record has no such member.
 */
export function namedKeysOf(op: OperationModel, resource: ResourceModel): string[] {
  const parameter = op.idIn === 'path' ? op.pathParams.at(-1) : undefined;
  if (parameter === undefined || resource.idType !== 'string') return [];
  if (!/\b(?:id|identifier)\s+or\s+name\b|\bname\s+or\s+(?:id|identifier)\b/i.test(parameter.description ?? '')) return [];
  return Object.entries(resource.properties)
    .filter(([name, schema]) => name !== resource.idProperty && name.toLowerCase() === 'name' && admittedTypes(schema).includes('string'))
    .map(([name]) => name);
}
