import type { OperationModel } from './model.js';
import { validatorOf } from './samples.js';
import { isMarked, mainType, objectShape, type Schema } from './schema.js';

/**
 * A member of a write's body that names a record of another collection (`crossing_id` naming a crossing of
 * `GET /crossings`), found by name alone: the member is `<noun>_id`, `<noun>Id` or `<noun>-id` and a list
 * operation (a GET without path parameters) is served at `/<noun>s` (or `/<noun>es`, `/<noun minus y>ies`), or,
 * failing that, a GET without path parameters lists records of a resource named `<noun>` that has a create.
 * A server that documents a 404 on the write refuses a name of a record it does not hold (spec/DECISIONS.md ›
 * D95); a client must therefore send the id of a record that exists.
 */
export interface ReferenceModel {
  /** The body member (top level) that carries the reference. */
  member: string;
  /** The list operation of the referenced records. */
  list: OperationModel;
  /** The member of a listed record its id is in (`id` unless the list's items name no `id` but one `<noun>_id`). */
  idMember: string;
  /** Where the list answer holds its records: `[]` for a bare array, `['data']` for `{data: [...]}`. */
  itemsPath: readonly string[];
  /** Ids the spec itself shows: the member's `example`/`examples`, the ids of the list's response examples. */
  examples: unknown[];
}

const cache = new WeakMap<OperationModel, ReferenceModel[]>();

/** The nouns a collection path's last segment may name in the singular (`crossings` → `crossing`, `ferries` → `ferry`). */
function singulars(segment: string): string[] {
  const word = segment.toLowerCase().replace(/[-_]/g, '');
  const forms = [word];
  if (word.endsWith('ies')) forms.push(`${word.slice(0, -3)}y`);
  if (word.endsWith('es')) forms.push(word.slice(0, -2));
  if (word.endsWith('s')) forms.push(word.slice(0, -1));
  return forms;
}

/** The noun of a reference member's name (`crossing_id`, `crossingId`, `crossing-id` → `crossing`), or `undefined`. */
function nounOf(member: string): string | undefined {
  const match = /^(.+?)(?:[_-]id|Id|ID)$/.exec(member);
  return match === null ? undefined : match[1]!.toLowerCase().replace(/[-_]/g, '');
}

/** Where the records of a list answer are: `[]` for an array, the path of its one array member otherwise; `undefined` when it holds no list. */
export function itemsPathOf(schema: Schema | undefined): { path: string[]; items: Schema } | undefined {
  if (schema === undefined) return undefined;
  if (schema['type'] === 'array') return { path: [], items: (schema['items'] as Schema | undefined) ?? {} };
  const arrays = Object.entries(objectShape(schema).properties).map(([name, member]) => [name, arrayItems(member)] as const).filter((entry): entry is readonly [string, Schema] => entry[1] !== undefined);
  return arrays.length === 1 ? { path: [arrays[0]![0]], items: arrays[0]![1] } : undefined;
}

/** The items of an array schema, also when the array is spread over an `allOf` (a wrapper's `data` refined by a part). */
function arrayItems(schema: Schema): Schema | undefined {
  const parts = [schema, ...((schema['allOf'] as Schema[] | undefined) ?? [])];
  if (!parts.some((part) => part['type'] === 'array')) return undefined;
  const items = parts.map((part) => part['items'] as Schema | undefined).filter((one): one is Schema => one !== undefined);
  return items.length === 0 ? {} : items.length === 1 ? items[0]! : { allOf: items };
}

/** Values at `path` of a JSON value, or `undefined`. */
function at(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const step of path) current = current !== null && typeof current === 'object' && !Array.isArray(current) ? (current as Record<string, unknown>)[step] : undefined;
  return current;
}

/**
 * The members of `op`'s body that name records of another collection, among `operations` (the whole spec's).
 * None for a body that is not an object, and never the operation's own collection (its own id is no reference).
 */
export function referencesOf(op: OperationModel, operations: readonly OperationModel[]): ReferenceModel[] {
  const known = cache.get(op);
  if (known !== undefined) return known;
  const found: ReferenceModel[] = [];
  const members = op.body === undefined ? {} : objectShape(op.body.schema).properties;
  for (const [member, schema] of Object.entries(members)) {
    const noun = nounOf(member);
    if (noun === undefined || isMarked(schema, 'readOnly')) continue;
    const lists = operations.filter((candidate) => candidate.method === 'GET' && candidate.pathParams.length === 0 && candidate !== op && (op.resource === undefined || candidate.resource !== op.resource));
    // A list named after the noun first; else a list (a view such as `GET /pet/findByStatus`) of the resource the
    // noun names, whose collection has no list of its own (`petId` naming a record of `POST /pet`).
    const list =
      lists.find((candidate) => singulars(candidate.path.split('/').filter(Boolean).at(-1) ?? '').includes(noun)) ??
      lists.find((candidate) => candidate.resource?.operations.create !== undefined && singulars(candidate.resource.name).includes(noun));
    if (list === undefined) continue;
    const success = list.responses.find((response) => response.status.startsWith('2') && response.schema !== undefined);
    const items = itemsPathOf(success?.schema);
    if (success === undefined || items === undefined) continue;
    const itemMembers = objectShape(items.items).properties;
    const idMember = itemMembers['id'] !== undefined ? 'id' : itemMembers[member] !== undefined ? member : undefined;
    if (idMember === undefined) continue;
    // A member of another type than the records' id names no such record (`key_id: string` beside deploy keys'
    // integer ids): a value of the id's type would break the member's own schema (spec/DECISIONS.md › D166).
    if (!sameKind(schema, itemMembers[idMember]!)) continue;
    const examples: unknown[] = [];
    if (schema['example'] !== undefined) examples.push(schema['example']);
    for (const example of (schema['examples'] as unknown[] | undefined) ?? []) examples.push(example);
    const shown = [success.example, ...success.examples.map((one) => one.value)];
    // An id the id member's own schema refuses (a uuid example with a digit too few) is never sent (D132).
    const idSchema = itemMembers[idMember];
    const validId = idSchema === undefined ? undefined : validatorOf(idSchema);
    for (const answer of shown) {
      const records = at(answer, items.path);
      if (!Array.isArray(records)) continue;
      for (const record of records) {
        const id = at(record, [idMember]);
        if (id !== undefined && !examples.includes(id) && (validId === undefined || validId(id))) examples.push(id);
      }
    }
    found.push({ member, list, idMember, itemsPath: items.path, examples });
  }
  cache.set(op, found);
  return found;
}

/** Whether two schemas hold values of one JSON type (an integer is a number); a schema stating no type fits any. */
function sameKind(one: Schema, other: Schema): boolean {
  const kind = (schema: Schema): string | undefined => {
    const type = mainType(schema);
    return type === 'integer' ? 'number' : type;
  };
  return kind(one) === undefined || kind(other) === undefined || kind(one) === kind(other);
}

/** The ids a list's response examples hold for `reference` (records the spec shows the collection serving). */
export function shownIds(reference: ReferenceModel): unknown[] {
  const success = reference.list.responses.find((response) => response.status.startsWith('2') && response.schema !== undefined);
  const ids: unknown[] = [];
  for (const answer of [success?.example, ...(success?.examples.map((one) => one.value) ?? [])]) {
    const records = at(answer, reference.itemsPath);
    if (Array.isArray(records)) for (const record of records) ids.push(at(record, [reference.idMember]));
  }
  // `example` is also the first of `examples`: each id once.
  return [...new Set(ids.filter((id) => id !== undefined))];
}
