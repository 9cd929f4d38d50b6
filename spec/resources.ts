import { listItemSchema, listModelOf, sameRecords, shapeOfList, type ListExtension } from './lists.js';
import type { ListModel, Method, OperationModel, ResourceModel, Role } from './model.js';
import { compile, isJsonMediaType, isMarked, mainType, objectShape, type createAjv, type Schema } from './schema.js';

/** `x-resource` on an operation (README › Resources): overrides the convention where it does not fit. */
export interface ResourceExtension extends ListExtension {
  name?: string;
  role?: Role | 'none';
  id?: string;
}

/**
 * Groups operations into resources by the convention of README › Resources, with `x-resource` overriding it:
 * a path without a trailing template is a collection (GET list, POST create); that path followed by one template
 * segment is its item (GET read, PUT replace, PATCH update, DELETE delete).
 */
export function findResources(operations: (OperationModel & { extension: ResourceExtension | undefined })[], ajv: ReturnType<typeof createAjv>): ResourceModel[] {
  const groups = new Map<string, { collection: string; item: string | undefined; ops: Partial<Record<Role, (typeof operations)[number]>>; extension: ResourceExtension }>();
  const itemOf = (path: string): string | undefined => /^(.*)\/\{[^}/]+\}$/.exec(path)?.[1];
  // An operation that names its resource joins the group of that name: the one whose collection path ends with
  // it (`/pets` for `pets`), or one of its own. Those go last, so that the conventional groups exist by then.
  const keyOf = (name: string): string => [...groups.keys()].find((key) => key === name || key.split('/').at(-1) === name) ?? name;
  const isNamed = (op: (typeof operations)[number]): boolean => op.extension?.name !== undefined;
  const named: { parent: string; op: (typeof operations)[number] }[] = [];
  for (const op of [...operations.filter((op) => !isNamed(op)), ...operations.filter(isNamed)]) {
    const extension = op.extension ?? {};
    if (extension.role === 'none') continue;
    const collection = itemOf(op.path);
    const isItem = collection !== undefined && !collection.includes('{');
    const base = isItem ? collection : op.path;
    if (base.includes('{') && extension.name === undefined) continue;
    const role: Role | undefined = extension.role ?? conventionalRole(op, isItem);
    if (role === undefined) continue;
    const key = extension.name === undefined ? base : keyOf(extension.name);
    const group = groups.get(key) ?? { collection: base, item: undefined, ops: {}, extension: {} };
    // A second list that `x-resource` gives a resource (`/search/pets` named `pets`) is a view of it (D48), with its own parameters.
    if (role === 'list' && group.ops.list !== undefined && op.method === 'GET' && !isItem) {
      named.push({ parent: group.collection, op });
      continue;
    }
    if (isItem) group.item = op.path;
    if (group.ops[role] === undefined) group.ops[role] = op;
    Object.assign(group.extension, extension);
    groups.set(key, group);
  }
  const resources: ResourceModel[] = [];
  const views = [...takeViews(groups), ...named];
  for (const [key, group] of groups) {
    const resource = buildResource(key, group, ajv);
    if (resource === undefined) continue;
    // Names key the stores and the data files: `/a/pets` and `/b/pets` are `pets` and `b-pets`.
    if (resources.some((other) => other.name === resource.name)) resource.name = group.collection.split('/').filter(Boolean).join('-');
    for (const [role, op] of Object.entries(group.ops)) {
      op.resource = resource;
      op.role = role as Role;
    }
    resources.push(resource);
  }
  for (const view of views) attachView(view, resources);
  return resources;
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
  const resource = resources.find((r) => r.collectionPath === view.parent);
  if (resource === undefined) return;
  const model = listModelOf(view.op, true, resource.properties, view.op.extension ?? {});
  if (model === undefined) return;
  const schema = view.op.responses.find((r) => r.status.startsWith('2') && r.schema !== undefined)!.schema!;
  const item = listItemSchema(schema, model.shape);
  if (item === undefined || !sameRecords(item, resource.recordSchema)) return;
  resource.views.push(model);
  // Its records are the resource's (the mock serves it from that store); it plays no role of the resource's own.
  view.op.resource = resource;
}

/**
 * The part an operation plays by the convention, when its shape fits it: a write (create, replace, update) takes a
 * JSON body, a create also answers the record, a list answers an array (bare or in a wrapper) and a read a record.
 * Otherwise it plays none and is answered from its examples (the classic Petstore's `POST /pets` takes no body and
 * answers none: no create). `x-resource` names the part where the shape does not show it.
 */
function conventionalRole(op: OperationModel, isItem: boolean): Role | undefined {
  const byMethod: Partial<Record<Method, Role>> = isItem ? { GET: 'read', PUT: 'replace', PATCH: 'update', DELETE: 'delete' } : { GET: 'list', POST: 'create' };
  const role = byMethod[op.method];
  const takesJson = op.body !== undefined && op.body.mediaTypes.some(isJsonMediaType);
  const answer = successSchema(op);
  // A create answers the record: that is how a client learns the id the server assigned.
  if (role === 'create') return takesJson && answer !== undefined ? role : undefined;
  if (role === 'replace' || role === 'update') return takesJson ? role : undefined;
  if (role === 'list') return answer !== undefined && shapeOfList(answer) !== undefined ? role : undefined;
  if (role === 'read') return answer !== undefined ? role : undefined;
  return role;
}

function successSchema(op: OperationModel | undefined): Schema | undefined {
  return op?.responses.find((r) => r.status.startsWith('2') && r.schema !== undefined)?.schema;
}

function buildResource(
  key: string,
  group: { collection: string; item: string | undefined; ops: Partial<Record<Role, OperationModel>>; extension: ResourceExtension },
  ajv: ReturnType<typeof createAjv>,
): ResourceModel | undefined {
  const { ops, extension } = group;
  const listSchema = successSchema(ops.list);
  const listShape = listSchema === undefined ? undefined : shapeOfList(listSchema);
  const listItem = listShape === undefined || listSchema === undefined ? undefined : listItemSchema(listSchema, listShape);
  const recordSchema = successSchema(ops.read) ?? successSchema(ops.create) ?? listItem ?? successSchema(ops.replace) ?? successSchema(ops.update);
  if (recordSchema === undefined || mainType(recordSchema) !== 'object' && objectShape(recordSchema).properties === undefined) return undefined;
  const shape = objectShape(recordSchema);
  if (Object.keys(shape.properties).length === 0) return undefined;
  const idParameter = ops.read?.pathParams.at(-1)?.name ?? ops.replace?.pathParams.at(-1)?.name ?? ops.update?.pathParams.at(-1)?.name ?? ops.delete?.pathParams.at(-1)?.name;
  const createShape = ops.create?.body === undefined ? undefined : objectShape(ops.create.body.schema);
  const idProperty = extension.id ?? pickIdProperty(shape.properties, idParameter, createShape?.properties);
  if (idProperty === undefined) return undefined;
  const idSchema = shape.properties[idProperty] ?? {};
  const idType = mainType(idSchema) === 'integer' || mainType(idSchema) === 'number' ? 'integer' : 'string';

  const list: ListModel | undefined = ops.list === undefined ? undefined : listModelOf(ops.list, false, shape.properties, extension);
  // The stores index the main list's equality filters; the others (membership, views) are checked record by record.
  const filters = (list?.filters ?? []).filter((filter) => filter.match === undefined || filter.match === 'equal');
  const limit = list?.limit;
  const additional = recordSchema['additionalProperties'];
  return {
    name: extension.name ?? (key.split('/').filter(Boolean).at(-1) ?? key),
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
    operations: ops,
    filters,
    limit,
    listShape,
    list,
    views: [],
    validateRecord: compile(ajv, recordSchema, ''),
  };
}

/**
 * The record property the server assigns: the one named like the item's path parameter (`petId`), else `id`,
 * else the one the parameter name ends with (`petId` → `Id`-suffixed names), else the first `readOnly` one, else
 * the first required property the create body does not take.
 */
function pickIdProperty(properties: Record<string, Schema>, parameter: string | undefined, createProperties: Record<string, Schema> | undefined): string | undefined {
  const names = Object.keys(properties);
  if (parameter !== undefined && names.includes(parameter)) return parameter;
  if (names.includes('id')) return 'id';
  const lower = parameter?.toLowerCase();
  const similar = names.find((name) => lower !== undefined && (lower.endsWith(name.toLowerCase()) || name.toLowerCase() === `${lower}`));
  if (similar !== undefined) return similar;
  const readOnly = names.find((name) => isMarked(properties[name]!, 'readOnly'));
  if (readOnly !== undefined) return readOnly;
  return names.find((name) => createProperties !== undefined && createProperties[name] === undefined && /id$/i.test(name));
}
