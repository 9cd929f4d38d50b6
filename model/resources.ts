import { expressionSource, linkParameter, linkTarget } from './links.js';
import { listItemSchema, listModelOf, sameRecords, shapeOfList, type ListExtension } from './lists.js';
import { withoutWindowFilters } from './windows.js';
import { numberPerParent } from './numbering.js';
import { PARENT_LINK, URL_KEY, type IdSource, type Reading, type ListModel, type Method, type OperationModel, type ParentModel, type ResourceModel, type Role } from './model.js';
import { admittedTypes, compile, isJsonMediaType, isMarked, mainType, objectShape, typesOf, type createAjv, type Schema } from './schema.js';
import { singular as singularOf } from './words.js';

/** `x-resource` on an operation (README › Resources): overrides the convention where it does not fit. */
export interface ResourceExtension extends ListExtension {
  name?: string;
  role?: Role | 'none';
  id?: string;
  /** Who chooses a new record's id, where the create body's schema does not say it (D50). */
  idSource?: IdSource;
  /** The member of single-record answers and write bodies that holds the record (D73), where the guess does not see it. */
  envelope?: string;
}

/**
 * Groups operations into resources by the convention of README › Resources, with `x-resource` overriding it:
 * a path without a trailing template is a collection (GET list, POST create); that path followed by one template
 * segment is its item (GET read, PUT replace, PATCH update, DELETE delete).
 */
export function findResources(operations: (OperationModel & { extension: ResourceExtension | undefined })[], ajv: ReturnType<typeof createAjv>): ResourceModel[] {
  const groups = new Map<string, { collection: string; item: string | undefined; ops: Partial<Record<Role, (typeof operations)[number]>>; extension: ResourceExtension; resource?: ResourceModel }>();
  const itemOf = (path: string): string | undefined => /^(.*)\/\{[^}/]+\}$/.exec(path)?.[1];
  // An operation that names its resource joins the group of that name: the one whose collection path ends with
  // it (`/pets` for `pets`), or one of its own. Those go last, so that the conventional groups exist by then.
  const keyOf = (name: string): string => [...groups.keys()].find((key) => key === name || key.split('/').at(-1) === name) ?? name;
  const isNamed = (op: (typeof operations)[number]): boolean => op.extension?.name !== undefined;
  const named: { parent: string; op: (typeof operations)[number] }[] = [];
  // `POST`s on a collection path whose body is an array of records (D436): creates of the list beside them, if it fits.
  const arrayCreates: (typeof operations)[number][] = [];
  // Item paths under no collection of their own (`/repos/{owner}/{repo}`): candidates for records created elsewhere (D141).
  const orphans: (typeof operations)[number][] = [];
  // A sub-collection whose GET answers one record, not a list, is a singleton: its other methods act on that record.
  const singletons = new Set(operations.filter((op) => op.method === 'GET' && parentItemOf(op.path) !== undefined && isSingleRecord(successSchema(op))).map((op) => op.path));
  // What a `GET` of each path answers: a `POST` on an item path whose body is a part of that record updates it (D150).
  const reads = new Map(operations.filter((op) => op.method === 'GET').map((op) => [op.path, successSchema(op)]));
  for (const op of [...operations.filter((op) => !isNamed(op)), ...operations.filter(isNamed)]) {
    const extension = op.extension ?? {};
    if (extension.role === 'none') {
      op.reading = { reason: 'its x-resource says role: none, so no resource holds it', decision: 'D32' };
      continue;
    }
    const collection = itemOf(op.path);
    // A collection below an item (`/owners/{ownerId}/pets`) is a sub-resource's (D53); other templates are not collections.
    const isCollection = (path: string): boolean => !path.includes('{') || parentItemOf(path) !== undefined;
    const isItem = collection !== undefined && isCollection(collection);
    // A collection path written with a trailing slash (`/workspaces/`) is the one its item path lies under (D500).
    const base = isItem ? collection : op.path.length > 1 ? op.path.replace(/\/$/, '') : op.path;
    if (!isCollection(base) && extension.name === undefined) {
      op.reading = collection !== undefined ? { reason: `its path is an item path under ${collection}, which is no collection, and no collection's create answers the record it reads`, decision: 'D141' } : { reason: 'its path is no collection: a path template sits before its last segment, and it is not the item path of one', decision: 'D32' };
      if (collection !== undefined && extension.role === undefined) orphans.push(op);
      continue;
    }
    const role: Role | undefined = extension.role ?? (singletons.has(op.path) ? singletonRole(op) : conventionalRole(op, isItem, reads.get(op.path)));
    if (role === undefined) {
      op.reading = noRoleReading(op, isItem);
      if (!isItem && op.method === 'POST' && extension.name === undefined && arrayBodyItems(op) !== undefined) arrayCreates.push(op);
      continue;
    }
    op.reading = roleReading(op, role, extension, singletons.has(op.path), isItem);
    const key = extension.name === undefined ? base : keyOf(extension.name);
    const group = groups.get(key) ?? { collection: base, item: undefined, ops: {}, extension: {} };
    // A second list that `x-resource` gives a resource (`/search/pets` named `pets`) is a view of it (D48), with its own parameters.
    if (role === 'list' && group.ops.list !== undefined && op.method === 'GET' && !isItem) {
      op.reading = { reason: `its x-resource gives it to ${group.collection}, whose list is another operation: a filtered view of the same records`, decision: 'D48' };
      named.push({ parent: group.collection, op });
      continue;
    }
    if (isItem) group.item = op.path;
    // The item path's operation wins over the collection's (`PUT /pets/{id}` over `PUT /pets` with the id in the body).
    const held = group.ops[role];
    // …and a `PATCH` of the item, when there is one, is its update rather than the form `POST`.
    if (held === undefined || (isItem && held.path !== op.path && itemOf(held.path) === undefined) || (held.method === 'POST' && op.method === 'PATCH')) group.ops[role] = op;
    Object.assign(group.extension, extension);
    groups.set(key, group);
  }
  joinSingularItems(groups);
  joinVerbCreates(groups);
  adoptArrayCreates(arrayCreates, groups);
  adoptOrphanItems(orphans, groups);
  const resources: ResourceModel[] = [];
  // A parent renamed below (`repos` taken, `user-repos`) is named again in its children's links once all are named.
  const parents = new Map<ResourceModel, ResourceModel>();
  const views = [...takeViews(groups), ...named];
  for (const [key, group] of groups) {
    const unheld = isAction(group)
      ? { reason: 'its path takes only a create whose body is no JSON or whose answer has no body: an action, no collection whose records could be read back', decision: 'D52' }
      : isReadOnly(group)
        ? { reason: 'its item path is only read: with no list, create or write beside it nothing could put a record there', decision: 'D72' }
        : undefined;
    group.resource = unheld !== undefined ? undefined : (buildResource(key, group, ajv) ?? buildResource(key, group, ajv, false));
    const listOnly = Object.keys(group.ops).length === 1 && group.ops.list !== undefined;
    const keyless = listOnly
      ? { reason: 'a list with nothing beside it to create, read or write, whose records show no key: its answer is served from the description', decision: 'D110' }
      : { reason: 'no record with members and a key could be read from its answers and bodies', decision: 'D32' };
    if (group.resource === undefined) explainGroup(group, unheld ?? keyless);
  }
  for (const group of groups.values()) {
    const resource = group.resource;
    if (resource === undefined) continue;
    const parentPath = parentItemOf(group.collection);
    if (parentPath !== undefined) {
      const parent = [...groups.values()].find((other) => other.item === parentPath)?.resource;
      // A collection under an item no resource holds has no parent to scope it: answered from examples, unless it
      // takes creates and the parent's read names records in its examples (D72).
      // A `POST` on a verb below the item that answers the item's own record acts on that record (D323): no resource.
      const action = parent === undefined ? undefined : actionOn(group, parent);
      if (action !== undefined) {
        action.acts = parent;
        action.reading = { reason: `a POST on a verb below ${parentPath} that answers that item's record: an action on the ${parent!.name} record, whose members it writes`, decision: 'D323' };
        group.resource = undefined;
        continue;
      }
      // One answering its parent's record with no resource to act on is answered from its examples (D304).
      if (isParentAction(group, reads)) {
        explainGroup(group, { reason: `its only operation is a create that answers the record of ${parentPath}: an action on that record, nothing new to hold`, decision: 'D304' });
        group.resource = undefined;
        continue;
      }
      const known = parent === undefined && group.ops.create !== undefined ? exampleParent(parentPath, operations, singletons.has(group.collection)) : undefined;
      // …or whose parent a declared link names: a create whose answer's id feeds the parent parameter (D118).
      const viaLink = parent === undefined && known === undefined ? linkedParent(group, parentPath, groups, operations) : undefined;
      if (viaLink !== undefined) {
        resource.parent = parentOf(resource, viaLink, parentPath, singletons.has(group.collection));
      } else if (parent === undefined && known === undefined) {
        explainGroup(group, { reason: `it lives under ${parentPath}, which no resource holds, and neither that path's examples nor a declared link name its parents`, decision: 'D72' });
        group.resource = undefined;
        continue;
      } else {
        resource.parent = known ?? parentOf(resource, parent!, parentPath, singletons.has(group.collection));
        if (known === undefined) parents.set(resource, parent!);
      }
    }
    // Names key the stores and the data files: `/a/pets` and `/b/pets` are `pets` and `b-pets`, `/owners/{id}/pets` `owners-pets`.
    // A name the path cannot tell apart (`/chat/completions` took `completions` before `/completions`) gets a number.
    if (resources.some((other) => other.name === resource.name)) resource.name = group.collection.split('/').filter((segment) => segment !== '' && !segment.startsWith('{')).join('-');
    for (let n = 2, base = resource.name; resources.some((other) => other.name === resource.name); n++) resource.name = `${base}-${n}`;
    for (const [role, op] of Object.entries(group.ops)) {
      op.resource = resource;
      op.role = role as Role;
      op.idIn = role === 'list' || role === 'create' ? undefined : atItem(op.path, group.item) ? 'path' : resource.parent?.singleton === true ? 'parent' : 'body';
      if (role !== 'list') setEnvelopes(op, resource);
    }
    resources.push(resource);
  }
  for (const [child, parent] of parents) if (child.parent !== undefined) child.parent.resource = parent.name;
  numberPerParent(resources);
  for (const view of views) attachView(view, resources);
  for (const op of operations) attachFieldWrite(op, resources);
  return resources;
}

/**
 * The operation of a group that acts on its parent's record (spec/DECISIONS.md › D323): the group's only operation
 * is a `POST` (a create by the convention) on one fixed segment below the parent's item path
 * (`/payment_intents/{intent}/cancel`), with no item path of its own, and its success answer is the parent's record
 * (the same members). Such a path names no collection: what it answers is the record it changes. `undefined` for
 * any other group.
 */
function actionOn(group: Group & { resource?: ResourceModel }, parent: ResourceModel): OperationModel | undefined {
  const create = group.ops.create;
  if (create === undefined || group.item !== undefined || Object.keys(group.ops).length !== 1 || group.extension.name !== undefined || group.extension.role !== undefined) return undefined;
  const answer = successSchema(create);
  return answer !== undefined && sameSchema(answer, parent.recordSchema) ? create : undefined;
}

/**
 * Makes a `POST` on a resource's item path that takes no body, documents a 2xx and whose query parameters (one or
 * more) each name a writable scalar top-level member of the record, other than its id, a field write of that
 * resource (D116). Any other such operation stays answered from its examples.
 */
function attachFieldWrite(op: OperationModel, resources: ResourceModel[]): void {
  if (op.resource !== undefined || op.method !== 'POST' || op.body !== undefined || op.queryParams.length === 0 || !op.responses.some((r) => r.status.startsWith('2'))) return;
  const resource = resources.find((r) => r.itemPath === op.path && r.operations.read !== undefined);
  if (resource === undefined) return;
  const writable = (name: string): boolean => {
    const schema = resource.properties[name];
    if (schema === undefined || name === resource.idProperty || isMarked(schema, 'readOnly')) return false;
    const type = mainType(schema);
    return type === 'string' || type === 'integer' || type === 'number' || type === 'boolean';
  };
  if (!op.queryParams.every((parameter) => writable(parameter.name) && parameter.type !== 'array')) return;
  resource.fieldWrites.push(op);
  op.resource = resource;
  op.idIn = 'path';
  op.reading = { reason: `a POST on ${resource.name}'s item path without a body, whose query parameters each name a writable member of the record: a field write`, decision: 'D116' };
}

/**
 * Gives a collection with no item path of its own the item path where its records are addressed elsewhere
 * (spec/DECISIONS.md › D141): `POST /user/repos` creates what `GET /repos/{owner}/{repo}` reads, and
 * `POST /repos/{o}/{r}/issues/{n}/comments` what `GET /repos/{o}/{r}/issues/comments/{comment_id}` reads. An item
 * path whose parent segment is no collection joins the one collection without an item path whose create answers
 * the same record (same members) as the item's read; its `GET`, `PUT`, `PATCH` and `DELETE` play their usual
 * parts, and where the path does not name the record's parent the parent is not checked (the mock handlers).
 * None or several such collections: the item path stays answered from its examples.
 */
function adoptOrphanItems(orphans: readonly (OperationModel & { extension: ResourceExtension | undefined })[], groups: Map<string, Group>): void {
  const paths = new Set(orphans.map((op) => op.path));
  for (const path of paths) {
    const ops = orphans.filter((op) => op.path === path);
    const read = successSchema(ops.find((op) => op.method === 'GET'));
    if (read === undefined || typesOf(read).includes('array')) continue;
    // A top-level collection (`/user/repos`), or a sub-collection whose records are also addressed without their
    // parent (`/repos/{o}/{r}/issues/comments/{comment_id}` for the comments of `/repos/{o}/{r}/issues/{n}/comments`).
    // A top-level one first: a fork (`POST /repos/{o}/{r}/forks`) answers a repository too, yet repositories are made at the top.
    const creating = [...groups.values()].filter((group) => group.item === undefined && group.ops.create !== undefined && sameSchema(successSchema(group.ops.create), read));
    const topLevel = creating.filter((group) => !group.collection.includes('{'));
    const fits = topLevel.length > 0 ? topLevel : creating.filter((group) => parentItemOf(group.collection) !== undefined);
    if (fits.length !== 1) continue;
    const group = fits[0]!;
    group.item = path;
    for (const op of ops) {
      const role = conventionalRole(op, true, read);
      if (role !== undefined && group.ops[role] === undefined) {
        group.ops[role] = op;
        op.reading = { reason: `its item path lies under no collection, and ${group.collection} is the one collection whose create answers the record it reads`, decision: 'D141' };
      }
    }
  }
}

/**
 * Joins an item path named in the singular to the list named in the plural beside it (spec/DECISIONS.md › D430):
 * `/silence/{silenceID}` holds the records `GET /silences` lists and `POST /silences` makes. A group with an item
 * path and no operation on its own collection path (`/silence` answers nothing) joins the group whose collection
 * is the same path with the last segment in the plural (`s`, `es`, `y` → `ies`), when that group has a list and
 * no item path of its own, and the item's read answers the record the list's items (or the create) answer. The
 * item's operations play their usual parts in the joined group; `x-resource` on either keeps them apart.
 */
function joinSingularItems(groups: Map<string, Group>): void {
  for (const [key, group] of [...groups]) {
    const { item, ops } = group;
    if (item === undefined || ops.list !== undefined || ops.create !== undefined || group.extension.name !== undefined) continue;
    const read = successSchema(ops.read);
    const slash = group.collection.lastIndexOf('/');
    const prefix = group.collection.slice(0, slash + 1);
    const last = group.collection.slice(slash + 1);
    if (read === undefined || last === '' || last.includes('{')) continue;
    const plurals = [`${last}s`, `${last}es`, `${last.replace(/y$/i, 'ies')}`].filter((name) => name !== last);
    const target = [...groups.values()].find((other) => other !== group && other.item === undefined && other.ops.list !== undefined && other.extension.name === undefined && plurals.includes(other.collection.slice(prefix.length)) && other.collection.startsWith(prefix));
    if (target === undefined) continue;
    const listSchema = successSchema(target.ops.list);
    const listShape = listSchema === undefined ? undefined : shapeOfList(listSchema);
    const listed = listSchema === undefined || listShape === undefined ? undefined : listItemSchema(listSchema, listShape);
    if (!sameSchema(listed, read) && !sameSchema(successSchema(target.ops.create), read)) continue;
    target.item = item;
    for (const [role, op] of Object.entries(ops) as [Role, NonNullable<Group['ops'][Role]>][]) {
      if (target.ops[role] !== undefined) continue;
      target.ops[role] = op;
      op.reading = { reason: `its item path, named in the singular, holds the records of the plural list ${target.collection} beside it: its ${role}`, decision: 'D430' };
    }
    groups.delete(key);
  }
}

/**
 * Joins a create named by the verb `create` below a collection (`POST /volumes/create`, `POST /networks/create`) to
 * that collection (spec/DECISIONS.md › D602): the path's only operation is a create, and the group on the path
 * without `/create` has a list or an item read and no create of its own. It joins when the create answers the record
 * that group reads (the same schema), or answers that record's `id`-named member beside little else (at most two
 * members) while at least three in four of the members its body names are members of the record. The create then
 * makes the records the list shows and the item path reads; `x-resource` on either keeps them apart.
 */
function joinVerbCreates(groups: Map<string, Group>): void {
  for (const [key, group] of [...groups]) {
    const create = group.ops.create;
    if (create === undefined || group.item !== undefined || Object.keys(group.ops).length !== 1 || group.extension.name !== undefined || !group.collection.endsWith('/create')) continue;
    const target = groups.get(group.collection.slice(0, -'/create'.length));
    if (target === undefined || target === group || target.ops.create !== undefined || target.extension.name !== undefined || (target.ops.list === undefined && target.ops.read === undefined)) continue;
    const listSchema = successSchema(target.ops.list);
    const listShape = listSchema === undefined ? undefined : shapeOfList(listSchema);
    const record = successSchema(target.ops.read) ?? (listSchema === undefined || listShape === undefined ? undefined : listItemSchema(listSchema, listShape));
    if (record === undefined) continue;
    const answer = successSchema(create);
    if (!sameSchema(answer, record)) {
      const shown = objectShape(record).properties;
      const answered = answer === undefined ? [] : Object.keys(objectShape(answer).properties);
      const written = create.body === undefined ? [] : Object.keys(objectShape(create.body.schema).properties);
      const keyed = answered.length > 0 && answered.length <= 2 && answered.some((name) => /^id$/i.test(name) && Object.hasOwn(shown, name));
      if (!keyed || written.length === 0 || written.filter((name) => Object.hasOwn(shown, name)).length * 4 < written.length * 3) continue;
    }
    target.ops.create = create;
    create.reading = { reason: `a POST on the verb create below ${target.collection}, whose records it answers: that collection's create`, decision: 'D602' };
    groups.delete(key);
  }
}

/**
 * The item schema of a JSON body that is an array of objects (`POST /alerts` takes `[{labels, annotations}, …]`),
 * or `undefined` for any other body.
 */
export function arrayBodyItems(op: OperationModel): Schema | undefined {
  const body = op.body;
  if (body === undefined || !body.mediaTypes.some(isJsonMediaType) || mainType(body.schema) !== 'array') return undefined;
  const items = body.schema['items'];
  if (typeof items !== 'object' || items === null || Array.isArray(items)) return undefined;
  // An `allOf` of object parts names no type of its own.
  return mainType(items as Schema) === 'object' || (mainType(items as Schema) === undefined && Object.keys(objectShape(items as Schema).properties).length > 0) ? (items as Schema) : undefined;
}

/**
 * Makes a `POST` whose body is an array of records the create of the list on the same path (spec/DECISIONS.md ›
 * D436): Alertmanager's `POST /alerts` takes the alerts `GET /alerts` lists. It fits when the group has a list and
 * no create, the list's items are objects, and every member the body's items name is a member of the listed record
 * (what the client writes, the list shows). Each item of a body is then made a record.
 */
function adoptArrayCreates(creates: readonly (OperationModel & { extension: ResourceExtension | undefined })[], groups: Map<string, Group>): void {
  for (const op of creates) {
    const group = groups.get(op.path);
    if (group === undefined || group.ops.create !== undefined || group.ops.list === undefined || group.collection !== op.path) continue;
    const listSchema = successSchema(group.ops.list);
    const listShape = listSchema === undefined ? undefined : shapeOfList(listSchema);
    const listed = listSchema === undefined || listShape === undefined ? undefined : listItemSchema(listSchema, listShape);
    const written = Object.keys(objectShape(arrayBodyItems(op)!).properties);
    const shown = listed === undefined ? {} : objectShape(listed).properties;
    if (written.length === 0 || !written.every((name) => Object.hasOwn(shown, name))) continue;
    group.ops.create = op;
    op.reading = { reason: 'a POST whose body is an array of the records the list on its path shows: each item is created', decision: 'D436' };
  }
}

/**
 * The one member of a create's success answer when that answer holds nothing but the new record's key
 * (spec/DECISIONS.md › D431): `{"silenceID": …}` beside `/silence/{silenceID}` (the item path's parameter, no member
 * of the record), or `{"batchUuid": …}` (the record's own key). The mock answers that member alone; the suite reads
 * the record back by it. `undefined` for any other operation or answer.
 */
export function keyOnlyAnswer(op: OperationModel, resource: ResourceModel): string | undefined {
  if (op.role !== 'create' || op.answerEnvelope !== undefined) return undefined;
  const response = op.responses.find((r) => r.status === String(op.successStatus) && r.schema !== undefined);
  if (response === undefined || response.schema === resource.recordSchema) return undefined;
  const names = Object.keys(objectShape(response.schema!).properties);
  if (names.length !== 1) return undefined;
  const name = names[0]!;
  if (name === resource.idProperty) return name;
  return name === resource.idParameter && !Object.hasOwn(resource.properties, name) ? name : undefined;
}

/**
 * The type of a create's success answer when it is a scalar (spec/DECISIONS.md › D552): `integer`, `number` or
 * `string` (an answer that can hold the new record's key: Magento's `POST /V1/sharedCatalog` answers the new id as an
 * integer, `POST /V1/taxClasses` as a string), or `boolean` (a bare acknowledgement, `POST /V1/carts/mine/gift-message`).
 * The mock answers the new key where the scalar can hold it, else a valid sample; the suite reads the record back by
 * the key so answered. `undefined` for any other operation or answer.
 */
export function scalarAnswer(op: OperationModel): 'integer' | 'number' | 'string' | 'boolean' | undefined {
  if (op.role !== 'create' || op.answerEnvelope !== undefined) return undefined;
  const response = op.responses.find((r) => r.status === String(op.successStatus) && r.schema !== undefined);
  if (response === undefined) return undefined;
  const type = mainType(response.schema!);
  return type === 'integer' || type === 'number' || type === 'string' || type === 'boolean' ? type : undefined;
}

/**
 * Words of an operation's text that say it creates a record or updates the one its body names: "Post a new silence
 * or update an existing one", slicebox.local.json's "Inserts or updates a filter", "Create or update a flow",
 * "create-or-update", "upsert" (spec/DECISIONS.md › D432).
 */
const CREATES_OR_UPDATES = /\b(?:creates?|created|adds?|posts?|inserts?|new)\b[^.]{0,60}?\bor[\s-]+(?:updates?|updated|replaces?|replaced|modif(?:y|ies))\b|\bupsert/i;

/** Whether an operation's summary or description says it creates or updates (D432): the text alone, whatever its role. */
export function saysCreatesOrUpdates(op: OperationModel): boolean {
  return op.description !== undefined && CREATES_OR_UPDATES.test(op.description);
}

/**
 * Whether a create also updates the record its body names (spec/DECISIONS.md › D432): the operation's text says it
 * creates or updates ({@link saysCreatesOrUpdates}), and the client may send the record's key in the body (the key
 * is not the server's alone, D50). The mock replaces the record such a create names; the suite does not take a
 * second create naming a held key for a refused duplicate.
 */
export function createsOrUpdates(op: OperationModel, resource: ResourceModel): boolean {
  return op.role === 'create' && resource.idSource !== 'server' && saysCreatesOrUpdates(op);
}

/** Sets the reading of every operation of a group that no resource holds in the end. */
function explainGroup(group: { ops: Partial<Record<Role, OperationModel>> }, reading: Reading): void {
  for (const op of Object.values(group.ops)) op.reading = reading;
}

/** Why an operation plays `role`: its `x-resource`, a singleton's path (D53), or the convention's rule that fits (D32, D50, D70, D150). */
function roleReading(op: OperationModel, role: Role, extension: ResourceExtension, singleton: boolean, isItem: boolean): Reading {
  if (extension.role !== undefined) return { reason: `its x-resource says role: ${role}`, decision: 'D32' };
  if (singleton) return { reason: `its path is a sub-collection whose GET answers one record: a singleton, whose ${op.method} is its ${role}`, decision: 'D53' };
  if (isItem && op.method === 'POST') return isFormOnly(op) ? { reason: 'a POST of a form on the item path changes the fields it sends: an update', decision: 'D70' } : { reason: 'a POST on the item path whose body is a part of the record the path reads: an update', decision: 'D150' };
  if (!isItem && (role === 'replace' || role === 'update')) return { reason: `a ${op.method} on the collection path with a body: it ${role === 'replace' ? 'replaces' : 'updates'} the record the body's id names`, decision: 'D50' };
  const named = extension.name === undefined ? '' : ` (its x-resource names the resource ${extension.name})`;
  return { reason: `by the convention, ${op.method} on ${isItem ? 'an item' : 'a collection'} path is the ${role}${named}`, decision: role === 'list' ? 'D33' : 'D32' };
}

/** Why the convention gives an operation no part ({@link conventionalRole} returned none). */
function noRoleReading(op: OperationModel, isItem: boolean): Reading {
  if (!op.responses.some((r) => r.status.startsWith('2')) && describesError(op.responses.find((r) => r.status === 'DEFAULT')?.schema)) return { reason: 'it documents no success, and its default response describes an error: what it answers is not shown', decision: 'D77' };
  if (isItem && op.method === 'POST') return { reason: 'a POST on an item path that is neither a form nor a part of the record the path reads: an action', decision: 'D150' };
  const answer = successSchema(op);
  if (!isItem && op.method === 'POST') return { reason: answer !== undefined && mainType(answer) === 'array' ? 'a POST whose success answers a list creates no one record' : 'a POST that takes no JSON or form object body creates no record', decision: 'D52' };
  if (!isItem && op.method === 'GET') return { reason: 'a GET on a collection path whose success answer is no list of records', decision: 'D33' };
  if (isItem && op.method === 'GET') return { reason: 'a GET on an item path whose success answers no body', decision: 'D32' };
  if (op.method === 'PUT' || op.method === 'PATCH') return { reason: `a ${op.method} without a JSON or form object body writes no record`, decision: 'D32' };
  return { reason: `the convention gives ${op.method} on ${isItem ? 'an item' : 'a collection'} path no part`, decision: 'D32' };
}

/** Whether two schemas describe the same record: the very schema object, or the same members (lists.ts sameRecords). */
function sameSchema(a: Schema | undefined, b: Schema): boolean {
  return a !== undefined && (a === b || sameRecords(a, b));
}

type Group = { collection: string; item: string | undefined; ops: Partial<Record<Role, OperationModel & { extension: ResourceExtension | undefined }>>; extension: ResourceExtension };

/**
 * Takes out of `groups` the lists on a sub-path of another group's collection (`/pet/findByStatus` below `/pet`,
 * `/pets/search` below `/pets`): candidates for views of that collection (spec/DECISIONS.md › D48). A group that
 * `x-resource` names, or that holds any other operation, stays a resource of its own.
 */
function takeViews(groups: Map<string, Group>): { parent: string; op: OperationModel & { extension: ResourceExtension | undefined } }[] {
  const out: { parent: string; op: OperationModel & { extension: ResourceExtension | undefined } }[] = [];
  for (const [key, group] of groups) {
    const list = group.ops.list;
    if (list === undefined || Object.keys(group.ops).length !== 1 || group.extension.name !== undefined || group.item !== undefined) continue;
    const parent = [...groups.values()].filter((other) => other !== group && group.collection.startsWith(`${other.collection}/`)).sort((a, b) => b.collection.length - a.collection.length)[0];
    if (parent === undefined) continue;
    out.push({ parent: parent.collection, op: list });
    groups.delete(key);
  }
  return out;
}

/**
 * Makes a sub-path list a view of the resource whose collection it lies under, when its records have that
 * resource's record schema (D48): `op.resource` is that resource, `op.role` stays `undefined`, and the resource's
 * `views` hold its list model. Otherwise it is answered from examples, as any operation no resource holds.
 */
function attachView(view: { parent: string; op: OperationModel & { extension: ResourceExtension | undefined } }, resources: ResourceModel[]): void {
  view.op.reading = { reason: `a list on a sub-path of ${view.parent} whose records are not that collection's (or which no resource holds)`, decision: 'D48' };
  const resource = resources.find((r) => r.collectionPath === view.parent);
  if (resource === undefined) return;
  const model = withoutWindowFilters(listModelOf(view.op, true, resource.properties, view.op.extension ?? {}));
  if (model === undefined) return;
  const schema = view.op.responses.find((r) => r.status.startsWith('2') && r.schema !== undefined)!.schema!;
  const item = listItemSchema(schema, model.shape);
  if (item === undefined || !sameRecords(item, resource.recordSchema)) return;
  resource.views.push(model);
  // Its records are the resource's (the mock serves it from that store); it plays no role of the resource's own.
  view.op.resource = resource;
  view.op.reading = { reason: `a list on a sub-path of ${resource.collectionPath}${view.op.extension?.name === undefined ? '' : ' (its x-resource names the resource)'} whose records are ${resource.name}'s: a filtered view of them`, decision: 'D48' };
}

/**
 * The part an operation plays by the convention, when its shape fits it: a write (create, replace, update) takes a
 * body (JSON or a form, D54), a list answers an array (bare or in a wrapper) and a read a record. A create may
 * answer the record or nothing (201/204, D52). On a collection path, `PUT` and `PATCH` replace and update the
 * record the body's id names (the classic Petstore's `PUT /pet`, D50). Otherwise an operation plays no part and
 * is answered from its examples (a `POST` that takes no body: no create). `x-resource` names the part where the
 * shape does not show it.
 */
function conventionalRole(op: OperationModel, isItem: boolean, read: Schema | undefined): Role | undefined {
  // No success documented and a `default` that describes an error: what the operation answers is not shown (D77).
  if (!op.responses.some((r) => r.status.startsWith('2')) && describesError(op.responses.find((r) => r.status === 'DEFAULT')?.schema)) return undefined;
  const byMethod: Partial<Record<Method, Role>> = isItem ? { GET: 'read', PUT: 'replace', PATCH: 'update', DELETE: 'delete' } : { GET: 'list', POST: 'create', PUT: 'replace', PATCH: 'update' };
  // A form `POST` on an item path (Swagger 2.0's `updatePetWithForm`) changes the fields it sends: an update (D70);
  // so does a JSON `POST` whose body is a part of the record the path reads (`modifyAssistant`, Stripe's style; D150).
  const role = isItem && op.method === 'POST' ? (isFormOnly(op) || isPostUpdate(op, read) ? 'update' : undefined) : byMethod[op.method];
  const takesBody = op.body !== undefined && op.body.mediaTypes.some(isWritableMediaType) && mainType(op.body.schema) !== 'array';
  const answer = successSchema(op);
  if (role === 'create') return takesBody && (answer === undefined || mainType(answer) !== 'array') ? role : undefined;
  if (role === 'replace' || role === 'update') return takesBody ? role : undefined;
  if (role === 'list') return answer !== undefined && shapeOfList(answer) !== undefined ? role : undefined;
  if (role === 'read') return answer !== undefined ? role : undefined;
  return role;
}

/** Words of an operation's id or summary that name a change of what is there (`modifyAssistant`, `update-group`). */
const UPDATE_WORDS = /^(modif(y|ies)|updates?|edit|edits|change|changes|rename|renames|patch|patches)$/;

/**
 * Whether a `POST` on an item path is an update of the record that path reads (spec/DECISIONS.md › D150): it takes a
 * JSON object body, documents no 201 (a 201 makes something new), and its body's members are the record's: all of
 * them, or at least one where its operationId or summary says so with a word such as modify or update (the body
 * may carry a setting the record does not show, such as a model option). Anything else stays answered from
 * its examples: an action (`/cancel`) lies on a path of its own, and a body of other names is not a part.
 */
function isPostUpdate(op: OperationModel, read: Schema | undefined): boolean {
  if (read === undefined || op.body === undefined || !op.body.mediaTypes.some(isJsonMediaType) || mainType(op.body.schema) === 'array') return false;
  if (op.responses.some((r) => r.status === '201') || !op.responses.some((r) => r.status.startsWith('2'))) return false;
  const sent = Object.keys(objectShape(op.body.schema).properties);
  const held = new Set(Object.keys(objectShape(read).properties));
  const shared = sent.filter((name) => held.has(name)).length;
  if (shared === 0) return false;
  if (shared === sent.length) return true;
  const summary = (op.description ?? '').split(/[.\n]/)[0] ?? '';
  const words = [...op.operationId.split(/[^A-Za-z]+|(?<=[a-z])(?=[A-Z])/), ...summary.split(/[^A-Za-z]+/)].map((word) => word.toLowerCase());
  return words.some((word) => UPDATE_WORDS.test(word));
}

/** Whether a schema is an error's: an object naming a message, an error or errors, and no record of its own. */
function describesError(schema: Schema | undefined): boolean {
  if (schema === undefined) return false;
  const names = Object.keys(objectShape(schema).properties).map(flat);
  return names.some((name) => ['message', 'error', 'errors', 'detail', 'errormessage', 'errordescription'].includes(name));
}

/** The part an operation plays on a singleton's path (D53): `GET` read, `PUT` replace, `PATCH` update, `DELETE` delete, `POST` create. */
function singletonRole(op: OperationModel): Role | undefined {
  const takesBody = op.body !== undefined && op.body.mediaTypes.some(isWritableMediaType) && mainType(op.body.schema) !== 'array';
  switch (op.method) {
    case 'GET':
      return 'read';
    case 'DELETE':
      return 'delete';
    case 'PUT':
      return takesBody ? 'replace' : undefined;
    case 'PATCH':
      return takesBody ? 'update' : undefined;
    case 'POST':
      return takesBody ? 'create' : undefined;
    default:
      return undefined;
  }
}

/** Members of a wrapper object that hold a list's records. */
const LIST_MEMBERS = ['items', 'data', 'results', 'records', 'content', 'elements', 'entries'];

/** Members a list wrapper carries beside its records: an envelope's own, and page facts. */
const PAGE_MEMBERS = new Set(['total', 'count', 'totalcount', 'next', 'previous', 'prev', 'page', 'pages', 'cursor', 'nextcursor', 'hasmore', 'offset', 'limit']);

/**
 * Whether an answer is one record (an object with properties), not a list: an array, a wrapper of `data`, `items`…,
 * or an object whose one array of objects sits beside only links, metadata, page facts and an envelope's own lists
 * (`{"actions": [...], "links": {...}, "meta": {...}}`, `{"transactions": [...], "errors": [...], "cursor": …}`).
 */
function isSingleRecord(schema: Schema | undefined): boolean {
  if (schema === undefined || typesOf(schema).includes('array')) return false;
  const properties = Object.entries(objectShape(schema).properties);
  if (properties.length === 0 || properties.some(([name, sub]) => LIST_MEMBERS.includes(name) && mainType(sub) === 'array')) return false;
  // An envelope's own list (`errors: [Error]` beside `transactions: [Transaction]`) holds no records (D935).
  const records = properties.filter(([name, sub]) => !ENVELOPE_EXTRAS.has(flat(name)) && typesOf(sub).includes('array') && Object.keys(objectShape((sub['items'] as Schema | undefined) ?? {}).properties).length > 0);
  const wrapper = records.length === 1 && properties.every(([name]) => name === records[0]![0] || ENVELOPE_EXTRAS.has(flat(name)) || PAGE_MEMBERS.has(flat(name)));
  return !wrapper;
}

/**
 * A top-level path whose only operation is a create that the convention did not see before forms and empty answers
 * counted (a form-only body, or no answer body: `POST /oauth2/introspect`, `POST /login`) is an action, not a
 * collection: no record it stores could be read back. It is answered from its examples (D52).
 */
function isAction(group: { collection: string; ops: Partial<Record<Role, OperationModel>>; extension: ResourceExtension }): boolean {
  const create = group.ops.create;
  // `x-resource` naming the part or the resource says it is one.
  if (group.extension.role !== undefined || group.extension.name !== undefined) return false;
  if (create === undefined || Object.keys(group.ops).length > 1 || parentItemOf(group.collection) !== undefined) return false;
  return !(create.body?.mediaTypes.some(isJsonMediaType) ?? false) || successSchema(create) === undefined;
}

/**
 * A sub-collection whose only operation is a create answering its parent's own record (the schema the parent's
 * item path reads: `POST …/reviews/{review_id}/events` answers the review it submits) acts on that parent rather
 * than adding a record of its own beside it (D304): nothing it answers is new, so it is no collection. It is
 * answered from its examples. `reads` holds what a `GET` of each path answers.
 */
function isParentAction(group: { collection: string; ops: Partial<Record<Role, OperationModel>>; extension: ResourceExtension }, reads: ReadonlyMap<string, Schema | undefined>): boolean {
  const create = group.ops.create;
  if (group.extension.role !== undefined || group.extension.name !== undefined) return false;
  if (create === undefined || Object.keys(group.ops).length > 1) return false;
  const parentPath = parentItemOf(group.collection);
  const parentRecord = parentPath === undefined ? undefined : reads.get(parentPath);
  const answer = successSchema(create);
  return parentRecord !== undefined && answer !== undefined && sameSchema(answer, parentRecord);
}

/**
 * An item path whose only operation is a read (`GET /members/{username}`), with no list, create or write beside it,
 * is not a resource: nothing could ever put a record there, so it is answered from its examples (D72).
 * `x-resource` naming the part or the resource says it is one.
 */
function isReadOnly(group: { item: string | undefined; ops: Partial<Record<Role, OperationModel>>; extension: ResourceExtension }): boolean {
  if (group.extension.role !== undefined || group.extension.name !== undefined) return false;
  const roles = Object.keys(group.ops);
  return group.item !== undefined && roles.length === 1 && roles[0] === 'read';
}

/** Whether an operation's body comes only as a form (D54): no JSON media type. */
function isFormOnly(op: OperationModel): boolean {
  return op.body !== undefined && op.body.mediaTypes.length > 0 && op.body.mediaTypes.every(isFormMediaType);
}

/** Media types a write may take: JSON, and the two form encodings (D54). */
function isWritableMediaType(mediaType: string): boolean {
  return isJsonMediaType(mediaType) || isFormMediaType(mediaType);
}

/** `application/x-www-form-urlencoded` or `multipart/form-data` (D54). */
export function isFormMediaType(mediaType: string): boolean {
  const type = mediaType.split(';')[0]!.trim().toLowerCase();
  return type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data';
}

/** The item path a sub-collection lives under: `/owners/{ownerId}` for `/owners/{ownerId}/pets`; `undefined` for another path. */
function parentItemOf(path: string): string | undefined {
  const match = /^(.*\/\{[^}/]+\})\/[^{}/]+$/.exec(path);
  return match === null ? undefined : match[1];
}

/**
 * How a sub-resource names its parent (D53): the path parameter after the parent's collection, and the record
 * property holding it: one named like the parameter (`ownerId`, `owner_id`, `ownerID`), else the mock's own link.
 */
function parentOf(resource: ResourceModel, parent: ResourceModel, parentPath: string, singleton: boolean): ParentModel {
  const parameter = /\{([^}/]+)\}$/.exec(parentPath)![1]!;
  const flat = (name: string): string => name.replace(/[_-]/g, '').toLowerCase();
  const property = Object.keys(resource.properties).find((name) => name !== resource.idProperty && flat(name) === flat(parameter));
  return { resource: parent.name, parameter, property: property ?? PARENT_LINK, inSchema: property !== undefined, singleton };
}

/**
 * The parent of a sub-resource whose parent's item path no resource holds, named by a declared link (D118): the
 * resource whose create's success links to one of the sub-resource's operations with the parent path's last
 * parameter taken from the created record's id (`boardRef: $response.body#/key` where `key` is the id).
 */
function linkedParent(group: Group, parentPath: string, groups: ReadonlyMap<string, Group & { resource?: ResourceModel }>, operations: readonly OperationModel[]): ResourceModel | undefined {
  const parameter = /\{([^}/]+)\}$/.exec(parentPath)?.[1];
  if (parameter === undefined) return undefined;
  const own = new Set<OperationModel>(Object.values(group.ops));
  for (const other of groups.values()) {
    const candidate = other.resource;
    const create = other.ops.create;
    if (other === group || candidate === undefined || create === undefined || candidate.parent !== undefined) continue;
    const feeds = create.responses
      .filter((response) => response.status.startsWith('2'))
      .flatMap((response) => response.links ?? [])
      .some((link) => {
        const target = linkTarget(link, operations);
        const source = expressionSource(linkParameter(link, parameter, 'path'));
        return target !== undefined && own.has(target) && source?.from === 'response' && source.part === 'body' && source.pointer.length === 1 && source.pointer[0] === candidate.idProperty;
      });
    if (feeds) return candidate;
  }
  return undefined;
}

/**
 * The parent of a sub-resource whose parent path no resource holds but has a read with examples (D72): it exists
 * when its examples, or the examples of the read's path parameters themselves (D924), name each of the path's
 * parameters' values. A singleton's path (D53) keeps its one record per parent so (D926). `undefined` when that read
 * or its success examples are missing.
 */
function exampleParent(parentPath: string, operations: readonly OperationModel[], singleton: boolean): ParentModel | undefined {
  const read = operations.find((op) => op.method === 'GET' && op.path === parentPath);
  const examples = read?.responses.filter((r) => r.status.startsWith('2')).flatMap((r) => r.examples.map((example) => example.value)) ?? [];
  if (examples.length === 0) return undefined;
  const values = new Set<string>();
  const collect = (value: unknown): void => {
    if (typeof value === 'string' || typeof value === 'number') values.add(String(value));
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(collect);
  };
  examples.forEach(collect);
  const parameters = [...parentPath.matchAll(/\{([^}/]+)\}/g)].map((match) => match[1]!);
  // The values the read's own path parameters exemplify name a parent the description shows too (D924).
  for (const parameter of read?.pathParams ?? []) {
    if (!parameters.includes(parameter.name)) continue;
    for (const example of [parameter.example, parameter.schema['example']]) if (typeof example === 'string' || typeof example === 'number') values.add(String(example));
  }
  const name = parentPath.split('/').filter((segment) => segment !== '' && !segment.startsWith('{')).join('-') || 'parent';
  return { resource: name, parameter: parameters.at(-1)!, property: PARENT_LINK, inSchema: false, singleton, byExample: { parameters, values: [...values] } };
}

function successSchema(op: OperationModel | undefined): Schema | undefined {
  return op?.responses.find((r) => r.status.startsWith('2') && r.schema !== undefined)?.schema;
}

function buildResource(
  key: string,
  group: { collection: string; item: string | undefined; ops: Partial<Record<Role, OperationModel>>; extension: ResourceExtension; resource?: ResourceModel },
  ajv: ReturnType<typeof createAjv>,
  enveloped = true,
): ResourceModel | undefined {
  const { ops, extension } = group;
  const listSchema = successSchema(ops.list);
  const listShape = listSchema === undefined ? undefined : shapeOfList(listSchema);
  const listItem = listShape === undefined || listSchema === undefined ? undefined : listItemSchema(listSchema, listShape);
  const createAnswer = successSchema(ops.create);
  const plural = extension.name ?? key.split('/').filter((segment) => segment !== '' && !segment.startsWith('{')).at(-1) ?? key;
  const singular = singularOf(plural);
  // A single-record answer may wrap the record in an envelope (D73): the record is the member holding it. When the
  // member's record names no id, the answer is read as the record itself, as before envelopes were read.
  const names = [flat(singular), flat(plural), ...(extension.envelope === undefined ? [] : [flat(extension.envelope)])];
  const inner = (schema: Schema | undefined): Schema | undefined => {
    const member = enveloped ? envelopeMember(schema, listItem, names) : undefined;
    return member === undefined ? schema : objectShape(schema!).properties[member];
  };
  // The record a create body is read against names members: a list item that names none (the node of a tree whose
  // members are not written out) gives way to the read's answer or the create's (D627).
  const named = (schema: Schema | undefined): Schema | undefined => (schema !== undefined && Object.keys(objectShape(schema).properties).length > 0 ? schema : undefined);
  const createBody = ops.create?.body === undefined ? undefined : bodyRecordSchema(arrayBodyItems(ops.create) ?? ops.create.body.schema, named(listItem) ?? named(inner(successSchema(ops.read))) ?? named(inner(createAnswer)) ?? listItem ?? inner(successSchema(ops.read)) ?? inner(createAnswer), names, enveloped);
  // A create that answers nothing (D52) still shows the record in the body it takes, when nothing else does.
  // A read that answers one of several shapes (the record, or what its delete leaves) reads the record's branch (D320).
  const others = [inner(createAnswer), listItem, inner(successSchema(ops.replace)), inner(successSchema(ops.update))];
  const recordSchema = recordBranch(inner(successSchema(ops.read)), others) ?? inner(createAnswer) ?? listItem ?? inner(successSchema(ops.replace)) ?? inner(successSchema(ops.update)) ?? createBody;
  if (recordSchema === undefined || mainType(recordSchema) !== 'object' && objectShape(recordSchema).properties === undefined) return undefined;
  const shape = objectShape(recordSchema);
  if (Object.keys(shape.properties).length === 0) return undefined;
  // Only an item path names the record (`PUT /pet` takes its id in the body, and `/owners/{ownerId}/pets` names the owner).
  const itemParameter = (op: OperationModel | undefined): string | undefined => (op !== undefined && atItem(op.path, group.item) ? op.pathParams.at(-1)?.name : undefined);
  const idParameter = itemParameter(ops.read) ?? itemParameter(ops.replace) ?? itemParameter(ops.update) ?? itemParameter(ops.delete);
  const createShape = createBody === undefined ? undefined : objectShape(createBody);
  const idDescription = [ops.read, ops.replace, ops.update, ops.delete].find((op) => op !== undefined && atItem(op.path, group.item))?.pathParams.at(-1)?.description;
  const shownKey = group.item === undefined || idParameter === undefined ? undefined : addressedMember(group.item, Object.values(ops), shape.properties, shape.required);
  const picked = extension.id ?? pickIdProperty(shape.properties, idParameter, createShape?.properties, singular, idDescription, shownKey);
  // Records with no key member of their own that a PUT at their item path writes and a GET there reads are keyed by
  // that URL (D502): the path's last segment, kept beside the record and never answered.
  const urlKeyed = picked === undefined && idParameter !== undefined && ops.create === undefined && ops.replace?.path === group.item && ops.read?.path === group.item;
  const idProperty = urlKeyed ? URL_KEY : picked;
  if (idProperty === undefined) return undefined;
  const idSchema = urlKeyed ? { type: 'string' } : (shape.properties[idProperty] ?? {});
  const idType = mainType(idSchema) === 'integer' || mainType(idSchema) === 'number' ? 'integer' : 'string';

  const list: ListModel | undefined = ops.list === undefined ? undefined : withoutWindowFilters(listModelOf(ops.list, false, shape.properties, extension));
  // The stores index the main list's equality filters; the others (membership, views) are checked record by record.
  const filters = (list?.filters ?? []).filter((filter) => filter.match === undefined || filter.match === 'equal');
  const limit = list?.limit;
  const additional = recordSchema['additionalProperties'];
  return {
    name: extension.name ?? (key.split('/').filter(Boolean).at(-1) ?? key),
    envelopeNames: names,
    collectionPath: group.collection,
    itemPath: group.item,
    recordSchema,
    properties: shape.properties,
    required: shape.required,
    keepsOtherProperties: additional === true || (typeof additional === 'object' && additional !== null),
    idProperty,
    idType,
    idSchema,
    idParameter,
    idSource: extension.idSource ?? (urlKeyed ? 'client' : idSourceOf(idProperty, createBody)),
    parent: undefined,
    createAnswer: ops.create === undefined || createAnswer !== undefined ? 'record' : 'none',
    operations: ops,
    filters,
    limit,
    listShape,
    list,
    views: [],
    fieldWrites: [],
    validateRecord: compile(ajv, recordSchema, ''),
  };
}

/**
 * The record a read answers when its answer is one of several shapes with no members of its own (spec/DECISIONS.md ›
 * D320): the `anyOf`/`oneOf` branch that holds the same members as the record another operation of the resource
 * answers (its create, list, replace or update), such as the record beside the form its delete leaves. Any other
 * schema is returned as it is; no branch of that kind gives the schema as it is too.
 */
function recordBranch(read: Schema | undefined, others: readonly (Schema | undefined)[]): Schema | undefined {
  if (read === undefined || Object.keys(objectShape(read).properties).length > 0) return read;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = read[key];
    if (!Array.isArray(branches)) continue;
    const found = (branches as Schema[]).find((branch) => typeof branch === 'object' && branch !== null && others.some((other) => other !== undefined && sameSchema(other, branch)));
    if (found !== undefined) return found;
  }
  return read;
}

/**
 * The record's identifier: the property named like the item's path parameter (`petId`), else `id`, else the one
 * the parameter name ends with (`petId` → `Id`-suffixed names), else the resource's singular name followed by the
 * parameter (`client_id` of `/clients/{id}`, D50), else the first `readOnly` one, else the first property ending
 * in `id` the create body does not take.
 */
function pickIdProperty(all: Record<string, Schema>, parameter: string | undefined, createProperties: Record<string, Schema> | undefined, singular: string, description?: string, shownKey?: string): string | undefined {
  // An id is a scalar: an object or array member (an envelope's record, a list) never names a record, and neither
  // does a member that can only be true or false (an envelope's `ok`, whose name `{webhook}` happens to end with).
  const properties = Object.fromEntries(
    Object.entries(all).filter(([, schema]) => {
      const types = admittedTypes(schema);
      return !types.some((type) => type === 'object' || type === 'array') && !(types.length > 0 && types.every((type) => type === 'boolean' || type === 'null'));
    }),
  );
  const names = Object.keys(properties);
  const flat = (name: string): string => name.replace(/[_-]/g, '').toLowerCase();
  if (parameter !== undefined && names.includes(parameter)) return parameter;
  // The key named in the path (D141): `{issue_number}` of issues is the record's `number`, a per-parent key
  // rather than the global `id`; a parameter described as "the name of" the record is its `name`.
  const named = parameter === undefined ? undefined : names.find((name) => name !== 'id' && flat(`${singular}${name}`) === flat(parameter) && mainType(properties[name]!) === 'integer');
  if (named !== undefined) return named;
  // The member the examples' own address shows in the item path's key segment (D300): `login` of an
  // organization whose `url` ends in `/orgs/github`, when `{org}` names no member.
  if (shownKey !== undefined && names.includes(shownKey)) return shownKey;
  if (description !== undefined && /^\s*(?:the\s+)?name\s+of\b/i.test(description) && names.includes('name') && mainType(properties['name']!) === 'string') return 'name';
  if (names.includes('id')) return 'id';
  const lower = parameter?.toLowerCase();
  // An id member compared without `_` and `-`: `{taxClassId}` names `class_id` as it names `classId` (D559).
  const similar = names.find((name) => lower !== undefined && (lower.endsWith(name.toLowerCase()) || name.toLowerCase() === `${lower}` || (/[a-z]id$/.test(flat(name)) && flat(lower).endsWith(flat(name)))));
  if (similar !== undefined) return similar;
  const prefixed = parameter === undefined ? undefined : names.find((name) => flat(name) === flat(`${singular}${parameter}`));
  if (prefixed !== undefined) return prefixed;
  // The record's own `<singular>Id` (`projectId` of projects) names it before a read-only member naming another
  // thing (`accountName`, the owner's), where no item path says which member the key is (D556); where the readings
  // below find no key at all, it makes no resource of records the mock would otherwise serve as examples.
  const ownId = names.find((name) => flat(name) === flat(`${singular}id`) && ['integer', 'string'].includes(mainType(properties[name]!) ?? ''));
  const other = otherIdProperty(properties, names, parameter, createProperties);
  return other === undefined ? undefined : (ownId ?? other);
}

/** The last readings of {@link pickIdProperty}: a read-only member naming a record, an address, a member ending in `id` the create does not take, a fingerprint. */
function otherIdProperty(properties: Record<string, Schema>, names: readonly string[], parameter: string | undefined, createProperties: Record<string, Schema> | undefined): string | undefined {
  // A timestamp (`created_at`) or a measure (`storage_usage_bytes`) is read-only too, but names no record.
  const readOnly = names.find((name) => isMarked(properties[name]!, 'readOnly') && namesRecord(name, properties[name]!));
  if (readOnly !== undefined) return readOnly;
  // An address names its record (DigitalOcean's reserved IPs: `/v2/reserved_ipv6/{reserved_ipv6}` holds `ip`).
  const address = names.find((name) => ['ipv4', 'ipv6'].includes(String(properties[name]!['format'])));
  if (address !== undefined && parameter !== undefined) return address;
  const idLike = names.find((name) => createProperties !== undefined && createProperties[name] === undefined && /id$/i.test(name));
  // A member the server makes whose name says it identifies (an alert's `fingerprint`, D436), where nothing else does.
  return idLike ?? names.find((name) => /^(fingerprint|uuid|uid|key|hash|digest)$/i.test(name) && createProperties !== undefined && createProperties[name] === undefined && namesRecord(name, properties[name]!));
}

/**
 * The member the spec's example records show as their key in the item path (spec/DECISIONS.md › D300): each
 * example record of a success answer (a list's items too) whose URL member's path ends in the item path, with the
 * key segment's value, say `github` for `url: https://api.github.com/orgs/github` against `/orgs/{org}`; the
 * member is a scalar member holding that very value in every such record, a required and not nullable one first.
 * `undefined` when no example shows an address, when the values disagree, or when `id` holds the value (the
 * ordinary choice already reads it).
 */
function addressedMember(itemPath: string, operations: readonly (OperationModel | undefined)[], properties: Record<string, Schema>, required: readonly string[]): string | undefined {
  const segments = itemPath.split(/(\{[^}/]+\})/);
  const pattern = new RegExp(`${segments.map((segment) => (segment.startsWith('{') ? '([^/]+)' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('')}$`);
  const records: Record<string, unknown>[] = [];
  const take = (value: unknown): void => {
    if (Array.isArray(value)) value.slice(0, 5).forEach(take);
    else if (value !== null && typeof value === 'object') records.push(value as Record<string, unknown>);
  };
  for (const op of operations) {
    if (op === undefined || op.method !== 'GET') continue;
    for (const response of op.responses) if (response.status.startsWith('2')) response.examples.forEach((example) => take(example.value));
  }
  let common: string[] | undefined;
  for (const record of records) {
    const key = addressKey(record, pattern);
    if (key === undefined) continue;
    const holders = Object.keys(properties).filter((name) => { const value = record[name]; return (typeof value === 'string' || typeof value === 'number') && String(value) === key; });
    common = common === undefined ? holders : common.filter((name) => holders.includes(name));
  }
  if (common === undefined || common.length === 0 || common.includes('id')) return undefined;
  const firm = (name: string): number => (required.includes(name) ? 0 : 2) + (admittedTypes(properties[name]!).includes('null') ? 1 : 0);
  return [...common].sort((a, b) => firm(a) - firm(b)).find((name) => namesRecord(name, properties[name]!) || mainType(properties[name]!) === 'integer');
}

/** The key segment's value of the first URL member of `record` whose path ends in the item path `pattern`. */
function addressKey(record: Record<string, unknown>, pattern: RegExp): string | undefined {
  for (const value of Object.values(record)) {
    if (typeof value !== 'string' || !/^(?:https?:\/\/[^/]+)?\//.test(value)) continue;
    let path: string;
    try {
      path = value.startsWith('/') ? value.split(/[?#]/)[0]! : new URL(value).pathname;
    } catch {
      continue;
    }
    const match = pattern.exec(path);
    const key = match?.at(-1);
    if (key !== undefined) {
      try {
        return decodeURIComponent(key);
      } catch {
        return key;
      }
    }
  }
  return undefined;
}

/** Formats of a moment or a span of time: such a property never identifies a record. */
const TIMESTAMP_FORMATS: ReadonlySet<string> = new Set(['date-time', 'date', 'time', 'duration']);

/**
 * Whether a read-only member could be a record's identifier: a string that is no timestamp, or an integer named
 * like an id; never a member of listed values (`enum`, `const`: a kind such as a user's role), which new records
 * could not each take a value of their own from (D253).
 */
function namesRecord(name: string, schema: Schema): boolean {
  if (Array.isArray(schema['enum']) || schema['const'] !== undefined) return false;
  const type = mainType(schema);
  if (type === 'string') return !TIMESTAMP_FORMATS.has(String(schema['format']));
  return type === 'integer' && /id$/i.test(name);
}

/**
 * Who chooses a new record's id (D50), from the create body's schema as a request sees it: absent or `readOnly`
 * there, the server; required there, the client (a natural key); optional there, either.
 */
function idSourceOf(idProperty: string, createBody: Schema | undefined): IdSource {
  if (createBody === undefined) return 'server';
  const { properties, required } = objectShape(createBody);
  const sub = properties[idProperty] as Schema | boolean | undefined;
  if (sub === undefined || sub === false) return 'server';
  if (typeof sub === 'object' && (isMarked(sub, 'readOnly') || (typeof sub['not'] === 'object' && sub['not'] !== null && Object.keys(sub['not']).length === 0))) return 'server';
  return required.includes(idProperty) ? 'client' : 'either';
}


/** A name compared loosely: lower case, without `_`, `-`, `.`. */
function flat(name: string): string {
  return name.replace(/[_\-.]/g, '').toLowerCase();
}

/** Members an envelope carries beside the record (links, metadata, JSON:API's top level, a status flag): never a record's own fields. */
const ENVELOPE_EXTRAS = new Set(['links', 'link', 'meta', 'metadata', 'included', 'jsonapi', 'errors', 'error', 'warnings', 'messages', 'message', 'success', 'ok', 'requestid', 'traceid']);

/** Usual names of the member holding a single record. */
const ENVELOPE_NAMES = new Set(['data', 'item', 'result', 'record', 'resource', 'object', 'entity', 'payload']);

/**
 * The member of a single-record answer or write body that holds the record (spec/DECISIONS.md › D73): an object
 * member with properties whose siblings are only envelope members (`links`, `meta`, `included`, `jsonapi`, a status
 * flag), and that is the record `record` (same properties), or is named like the resource (`droplet`, `droplets`;
 * `names` are flat), or by a usual name (`data`, `item`, `result`…), or is the answer's only member. `undefined`
 * when the schema is the record itself (the seed's `Pet`) or is not an object.
 */
export function envelopeMember(schema: Schema | undefined, record: Schema | undefined, names: readonly string[]): string | undefined {
  if (schema === undefined || typesOf(schema).includes('array')) return undefined;
  // An answer that is one of several shapes (DigitalOcean's create: one droplet, or several) wraps the record in the branch that holds it.
  const branch = record === undefined ? undefined : envelopeBranch(schema, (sub) => envelopeMember(sub, record, names));
  if (branch !== undefined) return branch.member;
  const properties = objectShape(schema).properties;
  const all = Object.keys(properties);
  const objects = Object.entries(properties).filter(([, sub]) => typeof sub === 'object' && sub !== null && !typesOf(sub).includes('array') && Object.keys(objectShape(sub).properties).length > 0);
  const candidates = objects.filter(([name]) => all.every((other) => other === name || ENVELOPE_EXTRAS.has(flat(other))));
  const found =
    (record === undefined ? undefined : candidates.find(([, sub]) => sameRecords(sub, record))) ??
    candidates.find(([name]) => names.includes(flat(name))) ??
    candidates.find(([name]) => ENVELOPE_NAMES.has(flat(name))) ??
    (all.length === 1 ? candidates[0] : undefined) ??
    // A member named like the resource that holds its very record, beside what the operation also answers (a
    // create's `action`, `next_actions`, `root_password`): the record is that member (D865).
    (record === undefined ? undefined : objects.find(([name, sub]) => names.includes(flat(name)) && sameRecords(sub, record)));
  return found?.[0];
}

/**
 * The branch of a `oneOf`/`anyOf` answer whose envelope holds the record, and its member (D73); `undefined` when the
 * schema has no such branch. `memberOf` reads one branch.
 */
export function envelopeBranch(schema: Schema, memberOf: (branch: Schema) => string | undefined): { schema: Schema; member: string } | undefined {
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches as Schema[]) {
      const member = typeof branch === 'object' && branch !== null ? memberOf(branch) : undefined;
      if (member !== undefined) return { schema: branch, member };
    }
  }
  return undefined;
}

/**
 * The record a write body carries: the body itself, or its envelope's member (D73) when the body names none of the
 * record's properties and that member does (`{"user": {...}}`, JSON:API's `{"data": {"type", "attributes"}}`).
 */
function bodyRecordSchema(body: Schema, record: Schema | undefined, names: readonly string[], enveloped: boolean): Schema {
  const member = enveloped ? bodyEnvelopeMember(body, record, names) : undefined;
  return member === undefined ? body : objectShape(body).properties[member]!;
}

function bodyEnvelopeMember(body: Schema, record: Schema | undefined, names: readonly string[]): string | undefined {
  if (record === undefined) return undefined;
  const fields = new Set(Object.keys(objectShape(record).properties));
  const properties = objectShape(body).properties;
  if (Object.keys(properties).some((name) => fields.has(name))) return undefined;
  const member = envelopeMember(body, undefined, names);
  if (member === undefined) return undefined;
  return Object.keys(objectShape(properties[member]!).properties).some((name) => fields.has(name)) ? member : undefined;
}

/** Marks the envelopes of a record operation's answer and body (D73), read against its resource's record schema. */
function setEnvelopes(op: OperationModel, resource: ResourceModel): void {
  const names = resource.envelopeNames;
  const answer = successSchema(op);
  const member = answer === undefined || sameRecords(answer, resource.recordSchema) ? undefined : envelopeMember(answer, resource.recordSchema, names);
  const holder = member === undefined ? undefined : (envelopeBranch(answer!, (branch) => (objectShape(branch).properties[member] === undefined ? undefined : member))?.schema ?? answer!);
  // The member holds this resource's record when it names the record's id (a create may answer fewer members than a read).
  if (member !== undefined && (sameRecords(objectShape(holder!).properties[member]!, resource.recordSchema) || objectShape(objectShape(holder!).properties[member]!).properties[resource.idProperty] !== undefined)) op.answerEnvelope = member;
  const body = op.body?.mediaTypes.some(isJsonMediaType) === true ? op.body.schema : undefined;
  const bodyMember = body === undefined ? undefined : bodyEnvelopeMember(body, resource.recordSchema, names);
  if (bodyMember !== undefined) op.bodyEnvelope = bodyMember;
}

/**
 * The record a single-record answer or write body carries (spec/DECISIONS.md › D73): the value of its envelope's
 * `member` (`{"droplet": {...}}` → the droplet), or the value itself where the operation has no envelope
 * (`member` undefined). A body that is not an object, or lacks the member, gives `undefined`.
 */
export function recordIn(value: unknown, member: string | undefined): unknown {
  if (member === undefined) return value;
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[member] : undefined;
}

/**
 * The body member of an update that renames its record (spec/DECISIONS.md › D144): `new_<key>` (`new_name`) where
 * the record's key is a member the client chose (`name`) and the update's body schema names that member beside
 * the key's own; `undefined` for any other operation.
 */
export function renameMember(op: OperationModel, resource: ResourceModel): string | undefined {
  if ((op.role !== 'update' && op.role !== 'replace') || resource.idSource === 'server' || op.body === undefined) return undefined;
  const member = `new_${resource.idProperty}`;
  return objectShape(op.body.schema).properties[member] === undefined ? undefined : member;
}

/**
 * Whether `path` is the item path `item` (D904): the same template, its parameters' names aside. OpenAPI calls paths
 * that differ only there identical (`/products/{param}` and `/products/{productId}`), and a server routes them as one,
 * so an operation at either spelling names the record by its own last parameter.
 */
export function atItem(path: string, item: string | undefined): boolean {
  return item !== undefined && (path === item || path.replace(/\{[^}]*\}/g, '{}') === item.replace(/\{[^}]*\}/g, '{}'));
}
