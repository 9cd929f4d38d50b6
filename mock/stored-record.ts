import { parseExact } from '../model/json.js';
import type { ResourceModel } from '../model/model.js';
import { compileRecordWriter, type Writer } from './serializer.js';
import { storedSchema, type RecordValue } from './store/record-store.js';

const writers = new WeakMap<ResourceModel, Writer>();

/**
 * A record as a store of `resource` holds it: written by the store's own writer (`compileRecordWriter` over
 * {@link storedSchema}) and read back exactly, so that the members no answer shows, at any depth (a `writeOnly`
 * `deviceId` inside a `recipient` object, which the answer view forbids), are left out as the store leaves them out
 * (spec/DECISIONS.md › D900). The record unchanged when its text cannot be read back (it always can: the writer writes
 * JSON).
 */
export function asStored(resource: ResourceModel, record: RecordValue): RecordValue {
  let write = writers.get(resource);
  if (write === undefined) writers.set(resource, (write = compileRecordWriter(storedSchema(resource), resource.idProperty)));
  const parsed = parseExact(write(record));
  const value = parsed.ok ? parsed.document.value : undefined;
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as RecordValue) : record;
}
