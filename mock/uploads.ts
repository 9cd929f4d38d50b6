import type { ResourceModel } from '../model/model.js';
import { admittedTypes, type Schema } from '../model/schema.js';
import type { UploadedFile } from './forms.js';
import type { RecordValue } from './store/record-store.js';

/**
 * The members of a record that hold what an uploaded file carries (spec/DECISIONS.md › D151), read from the record
 * schema's names and descriptions: its file name (`filename`, `original_name`, or a string member described as the
 * file's name), its size in bytes (`bytes`, `file_size`, `size_in_bytes`, or a `size`/`length` member described in
 * bytes) and its media type (`mime_type`, `content_type`, `media_type`). Each is `undefined` when the record names
 * no such member, or names it in a type that cannot hold the fact (a size that is a string).
 */
export interface UploadMembers {
  filename: string | undefined;
  bytes: string | undefined;
  mediaType: string | undefined;
}

const FILE_NAMES = new Set(['filename', 'originalname', 'originalfilename']);
const BYTE_COUNTS = new Set(['bytes', 'filesize', 'sizebytes', 'sizeinbytes', 'bytesize', 'bytecount', 'contentlength']);
const MEDIA_TYPES = new Set(['mimetype', 'contenttype', 'mediatype']);

/** Finds a resource's {@link UploadMembers} once (a handler is compiled once per operation). */
export function uploadMembers(resource: ResourceModel): UploadMembers {
  const members = Object.entries(resource.properties).filter(([name]) => name !== resource.idProperty);
  const flat = (name: string): string => name.replace(/[_\-\s]/g, '').toLowerCase();
  const said = (schema: Schema): string => (typeof schema['description'] === 'string' ? schema['description'] : '');
  const holds = (schema: Schema, type: 'string' | 'number'): boolean => admittedTypes(schema).some((t) => (type === 'string' ? t === 'string' : t === 'integer' || t === 'number'));
  const find = (type: 'string' | 'number', named: (name: string) => boolean, described: (name: string, text: string) => boolean): string | undefined =>
    (members.find(([name, schema]) => holds(schema, type) && named(flat(name))) ?? members.find(([name, schema]) => holds(schema, type) && described(flat(name), said(schema))))?.[0];
  return {
    filename: find('string', (name) => FILE_NAMES.has(name), (name, text) => name.endsWith('name') && /\bfile ?name\b|\bname of the (?:uploaded )?file\b/i.test(text)),
    bytes: find('number', (name) => BYTE_COUNTS.has(name), (name, text) => (name.includes('size') || name.includes('length')) && /\bbytes?\b/i.test(text)),
    mediaType: find('string', (name) => MEDIA_TYPES.has(name), (name, text) => name.endsWith('type') && /\b(?:mime|media|content)[ -]type\b/i.test(text)),
  };
}

/**
 * Writes into a created record what the first file part of its multipart body carries (D151), into the members
 * `members` names, unless the body itself gave that member a value: a client that sends its own `filename` field
 * keeps it. Without a file part the record is left as it is. Mutates and returns `record`.
 */
export function keepUploadFacts(members: UploadMembers, record: RecordValue, sent: RecordValue, files: readonly UploadedFile[] | undefined): RecordValue {
  const file = files?.[0];
  if (file === undefined) return record;
  const put = (name: string | undefined, value: unknown): void => {
    if (name !== undefined && !Object.hasOwn(sent, name)) record[name] = value;
  };
  put(members.filename, file.filename);
  put(members.bytes, file.bytes);
  put(members.mediaType, file.mediaType);
  return record;
}
