import { parseExact } from '../model/json.js';
import type { OperationModel, ResourceModel } from '../model/model.js';
import type { Handler, OperationResult } from './handler.js';
import { recordFromBody } from './record-bodies.js';
import { andThen, filterKey, keyedUnderParent, scopedId, withoutLink, type AnyRecordStore, type Maybe, type RecordId, type RecordValue } from './store/record-store.js';

/**
 * Writes to the members of an item's sub-collection named by their keys (spec/DECISIONS.md › D291): `add` (a
 * `POST` on the collection path), `set` (a `PUT` there: the members become the ones named) and `clear` (a
 * `DELETE` there). The collection is a resource keyed under its parent ({@link keyedUnderParent}) that has no
 * create of its own: its records exist as members of their parent, named by the client.
 */
export type MemberWrite = 'add' | 'set' | 'clear';

/**
 * Where a member write finds a member named by its key already made (D294): another collection of the same record
 * schema under one of the parent's ancestors (a repository's labels for an issue's labels), and the store id its
 * parent has for a path.
 */
export interface MemberSource {
  resource: ResourceModel;
  parentKey: (path: Record<string, unknown>) => RecordId;
}

/** What a member write needs of the parent's scope (mock/handlers.ts): the parent's key and the guard that 404s without it. */
export interface MemberScope {
  parent: { property: string };
  parentId: (path: Record<string, unknown>) => RecordId;
  guard: (handler: Handler) => Handler;
}

/**
 * The sub-collection an operation writes members of, and how (D291); `undefined` for any other operation. An
 * operation qualifies when its path is the collection path of a resource keyed under its parent that has no
 * create, and it is a `POST` no resource holds (an add), that resource's `PUT` on its collection path (a set),
 * or a `DELETE` there no resource holds (a clear). An add or a set must document a JSON array as its success
 * answer (the members after the write) and carry a body (the names); a clear answers as it documents.
 */
export function memberWriteOf(op: OperationModel, resources: readonly ResourceModel[]): { resource: ResourceModel; write: MemberWrite } | undefined {
  const resource = op.resource ?? resources.find((one) => one.collectionPath === op.path);
  if (resource === undefined || resource.collectionPath !== op.path || resource.operations.create !== undefined || !keyedUnderParent(resource)) return undefined;
  const listed = answersArray(op) && op.body !== undefined;
  if (op.method === 'POST' && op.resource === undefined && listed) return { resource, write: 'add' };
  if (op.method === 'PUT' && op.role === 'replace' && listed) return { resource, write: 'set' };
  if (op.method === 'DELETE' && op.resource === undefined && op.pathParams.some((param) => param.name === resource.parent!.parameter)) return { resource, write: 'clear' };
  return undefined;
}

/**
 * The collection a member write of `resource` copies its members from (D294): a resource keyed under its parent
 * (D290) with the very same record schema, whose parent is one of the ancestors of `resource`'s parent and is named
 * by a parameter of the write's path; `undefined` when none is.
 */
export function memberSourceOf(op: OperationModel, resource: ResourceModel, resources: readonly ResourceModel[]): ResourceModel | undefined {
  const ancestors = new Set<string>();
  for (let at = resource.parent; at !== undefined && !ancestors.has(at.resource); ) {
    ancestors.add(at.resource);
    const name = at.resource;
    at = resources.find((one) => one.name === name)?.parent;
  }
  return resources.find((one) => one !== resource && one.recordSchema === resource.recordSchema && one.parent !== undefined && one.parent.byExample === undefined && ancestors.has(one.parent.resource) && keyedUnderParent(one) && op.pathParams.some((param) => param.name === one.parent!.parameter));
}

/** Whether the operation's success answer is documented as a JSON array (a write answered with the members after it). */
export function answersArray(op: OperationModel): boolean {
  const schema = op.responses.find((response) => response.status === String(op.successStatus))?.schema;
  return schema !== undefined && (schema['type'] === 'array' || (Array.isArray(schema['type']) && schema['type'].includes('array')) || schema['items'] !== undefined);
}

/**
 * The handler of a member write (D291), run under the parent's guard (a 404 without the parent): each member
 * the body names is stored under the parent unless held there already (an add of a held member changes
 * nothing), a set first removes the members it does not name, a clear removes them all. An add or a set answers
 * the parent's members after the write, newest first, as the list does; a clear answers its documented status
 * with no body unless it documents an array (then `[]`). A body naming no member by a string key is refused as
 * an invalid body.
 */
export function memberWriteHandler(op: OperationModel, resource: ResourceModel, write: MemberWrite, scope: MemberScope, source?: MemberSource): Handler {
  const status = op.successStatus;
  const listedAnswer = answersArray(op);
  const link = scope.parent.property;
  const keyOf = (record: RecordValue): unknown => record[resource.idProperty];
  // A member made already in the source collection (D294) is copied whole (same schema), else made from the body.
  const made = (member: NamedMember, found: RecordValue | undefined): RecordValue => {
    if (found === undefined || source === undefined) return recordFromBody(resource, member.fields);
    const own = source.resource.parent!;
    if (own.inSchema) return { ...found };
    const { [own.property]: _link, ...copy } = found;
    return copy;
  };
  return scope.guard(({ store, path, body, sourceStore }) => {
    const held = store!;
    const parent = scope.parentId(path);
    const named = write === 'clear' ? [] : namedMembers(body, resource.idProperty);
    if (named === undefined) return { error: 'INVALID_BODY', detail: `The body must name the ${resource.name} by their ${resource.idProperty}: a string, an array of them, or objects carrying it.` };
    const keep = new Set(write === 'set' ? named.map((member) => scopedId(parent, member.key)) : []);
    const removed = write === 'add' ? undefined : andThen(membersOf(held, resource, parent), (records) => inTurn(records.map(keyOf).filter((id): id is string => typeof id === 'string' && !keep.has(id)), (id) => andThen(held.delete(id), () => undefined)));
    const added = andThen(removed, () => inTurn(named, (member) => {
      const found = source === undefined || sourceStore === undefined ? undefined : sourceStore.value(scopedId(source.parentKey(path), member.key));
      return andThen(found, (original) => {
        const record = made(member, original);
        record[link] = parent;
        return andThen(held.create(record, scopedId(parent, member.key)), (created) => (created.ok || created.reason === 'taken' ? undefined : 'full'));
      });
    }));
    return andThen(added, (outcome): Maybe<OperationResult> => {
      if (outcome === 'full') return { error: 'STORE_FULL', detail: `The mock holds its maximum of ${held.maxRecords} ${resource.name}; restart it or reset its data to add more.` };
      if (write === 'clear') return { status, json: listedAnswer ? '[]' : '' };
      return andThen(held.list({ keys: parentKeys(resource, parent), limit: Infinity }), (page) => ({ status, json: withoutLink(resource, page.json) }));
    });
  });
}

/** One member a body names: its key, and the members sent beside it (an object's), from which the record is made. */
interface NamedMember {
  key: string;
  fields: RecordValue;
}

/**
 * The members a write's body names (D291): a string key, an array of string keys or of objects carrying the key
 * property, or an object whose first array member holds either (`{"labels": ["bug"]}`); the same key once.
 * `undefined` when the body names none that way or an item is neither (an empty array names none, and is fine).
 */
function namedMembers(body: unknown, idProperty: string): NamedMember[] | undefined {
  let items: unknown[];
  if (typeof body === 'string') items = [body];
  else if (Array.isArray(body)) items = body;
  else if (body !== null && typeof body === 'object') {
    const found = Object.values(body).find((value): value is unknown[] => Array.isArray(value));
    if (found !== undefined) items = found;
    else if (typeof (body as RecordValue)[idProperty] === 'string') items = [body];
    else return undefined;
  } else return undefined;
  const members = new Map<string, NamedMember>();
  for (const item of items) {
    if (typeof item === 'string') members.set(item, { key: item, fields: {} });
    else if (item !== null && typeof item === 'object' && !Array.isArray(item) && typeof (item as RecordValue)[idProperty] === 'string') members.set((item as RecordValue)[idProperty] as string, { key: (item as RecordValue)[idProperty] as string, fields: item as RecordValue });
    else return undefined;
  }
  return [...members.values()];
}

/** The list keys that select one parent's records: no filter of the list's own, then the parent link (record-store.ts › storedFilters). */
function parentKeys(resource: ResourceModel, parent: RecordId): unknown[] {
  return [...resource.filters.map(() => undefined), filterKey(parent)];
}

/** The stored records under one parent, as exact values (their key members as the store holds them). */
function membersOf(store: AnyRecordStore, resource: ResourceModel, parent: RecordId): Maybe<RecordValue[]> {
  return andThen(store.list({ keys: parentKeys(resource, parent), limit: Infinity }), (page) => {
    const parsed = parseExact(page.json);
    return parsed.ok && Array.isArray(parsed.document.value) ? (parsed.document.value as RecordValue[]) : [];
  });
}

/**
 * Runs `step` on each item in order, each after the previous one settled (at once with the in-memory store);
 * the first step answering something other than `undefined` stops the run and is its answer.
 */
function inTurn<T, U>(items: readonly T[], step: (item: T) => Maybe<U | undefined>): Maybe<U | undefined> {
  let at = 0;
  const next = (): Maybe<U | undefined> => {
    if (at >= items.length) return undefined;
    return andThen(step(items[at++]!), (outcome) => (outcome === undefined ? next() : outcome));
  };
  return next();
}

