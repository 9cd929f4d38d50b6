import type { ApiModel, OperationModel, ParameterModel } from '../model/model.js';
import type { Schema } from '../model/schema-refs.js';
import { validSample } from '../model/samples.js';
import type { MockRequest, MockResponse } from './messages.js';
import type { Refusal } from './refusals.js';

/**
 * Records addressed by a file path (spec/DECISIONS.md › D460-D465): an item path whose last segment is a path
 * parameter that names a file path (`/api/contents/{path}`, `/repos/{owner}/{repo}/contents/{path}`) is a tree of
 * files and directories, not a collection of records with ids. Its parameter takes slashes and the empty path (the
 * root); a `PUT` at a path creates there; a directory answers its items; a `POST` on a directory makes a copy or an
 * untitled item in it; a `PATCH` naming a new path moves; a sub-collection under a file whose create takes no body
 * keeps the file as it was, and a `POST` on one of its items puts it back. The tree is kept per mock, beside the
 * resources' stores, and answers before the routes of the model (mock/pipeline.ts), after authentication.
 */

/** Names and descriptions that say a path parameter is a file path (D460). */
const FILE_PATH_NAME = /^(path|file_?path|file-path|filepath|filename_?path)$/i;
const FILE_PATH_TEXT = /\b(file|directory|folder)[ _-]?path\b|\bpath (of|to) the (file|directory|folder)\b/i;
/** The enum value of a `type` member that marks a directory (D462). */
const DIRECTORY_VALUE = /^(dir|directory|folder)$/i;
/** A body member naming the path of a record to copy (D463), and one naming a file's extension. */
const COPY_FROM = /^(copy_?from|copy-from|source_?path|from_?path)$/i;
const EXTENSION = /^(ext|extension)$/i;
/** A body member naming the new path of a move (D464), besides the tree parameter's own name. */
const NEW_PATH = /^(new_?path|destination|to_?path)$/i;
/** Members the tree fills itself (D461): the item's name, the moment it was made and last changed, its size. */
const NAME_MEMBER = /^(name|file_?name|basename)$/i;
const CREATED_MEMBER = /^(created|created_?at|creation_?time)$/i;
const CHANGED_MEMBER = /^(last_?modified|modified|modified_?at|updated|updated_?at|mtime)$/i;

type Json = Record<string, unknown>;

/** One item of the tree: its answer's members, whether it is a directory, and the checkpoints kept of it (D465). */
interface Item {
  record: Json;
  directory: boolean;
  snapshots: Map<string, { record: Json; kept: Json }>;
  nextSnapshot: number;
}

/** The operations of one tree, found once: on the item path, and on the snapshot sub-collection and its items. */
interface Tree {
  /** Matches the path after the base path: group 1 is the prefix (its own parameters included), group 2 the file path. */
  pattern: RegExp;
  parameter: ParameterModel;
  byMethod: Map<string, OperationModel>;
  /** The read's answer schema (an object; its array branch, if any, is how a directory is answered). */
  schema: Schema | undefined;
  directoryValue: string | undefined;
  fileValue: string | undefined;
  /** The member that holds a file's content and a directory's items: the schema's `content`, `contents`, `children`, `items` or `entries`. */
  contentMember: string | undefined;
  /** Whether the read may answer a list (its schema is an array, or has an array branch): a directory is then answered as the list of its items. */
  listsItems: boolean;
  /** The member that holds the item's full path: the one named as the tree parameter, else `path`. */
  pathMember: string | undefined;
  /** A read of the prefix itself (Gitea's `/repos/{owner}/{repo}/contents` beside `…/contents/{filepath}`) that answers a list: the root's items. */
  rootList: OperationModel | undefined;
  snapshots: { segment: string; list?: OperationModel; create?: OperationModel; restore?: OperationModel; remove?: OperationModel; schema: Schema | undefined } | undefined;
}

/** What a request to a tree asks, once routed: the operation (for its credentials and error shapes) and the paths. */
export interface TreeRoute {
  op: OperationModel;
  answer(request: MockRequest, search: string): MockResponse;
}

/** Routes and answers the requests to the trees of `api`; `undefined` when the API has none. `refuse` writes an error in the operation's shape. */
export function fileTrees(api: ApiModel, refuse: (op: OperationModel, refusal: Refusal) => MockResponse): ((method: string, pathname: string) => TreeRoute | undefined) | undefined {
  const trees = findTrees(api);
  if (trees.length === 0) return undefined;
  // Items per tree and per prefix: `/repos/a/b/contents` and `/repos/a/c/contents` are two trees of one template.
  const roots = new Map<string, Map<string, Item>>();
  return (method, pathname) => {
    if (!pathname.startsWith(api.basePath)) return undefined;
    const below = pathname.slice(api.basePath.length);
    for (const tree of trees) {
      const match = tree.pattern.exec(below);
      if (match === null) continue;
      const prefix = match[1]!;
      const rest = decodePath(match[2] ?? '');
      if (rest === undefined) continue;
      let items = roots.get(prefix);
      if (items === undefined) roots.set(prefix, (items = new Map()));
      const routed = routeIn(tree, method, rest);
      if (routed === undefined) continue;
      const context: Context = { tree, items, prefix: `${api.basePath}${prefix}`, refuse: (refusal) => refuse(routed.op, refusal) };
      return { op: routed.op, answer: (request, search) => routed.run(context, request, search) };
    }
    return undefined;
  };
}

interface Context {
  tree: Tree;
  items: Map<string, Item>;
  prefix: string;
  refuse(refusal: Refusal): MockResponse;
}

type Run = (context: Context, request: MockRequest, search: string) => MockResponse;

/** The operation and handler a method and a path below the tree's prefix ask for; the snapshot sub-collection first. */
function routeIn(tree: Tree, method: string, rest: string): { op: OperationModel; run: Run } | undefined {
  const snapshots = tree.snapshots;
  if (snapshots !== undefined) {
    const segments = rest.split('/');
    const at = segments.lastIndexOf(snapshots.segment);
    if (at === segments.length - 1 && at > 0) {
      const file = segments.slice(0, at).join('/');
      if (method === 'GET' && snapshots.list !== undefined) return { op: snapshots.list, run: (c) => listSnapshots(c, file) };
      if (method === 'POST' && snapshots.create !== undefined) return { op: snapshots.create, run: (c) => createSnapshot(c, file) };
    }
    if (at === segments.length - 2 && at > 0) {
      const file = segments.slice(0, at).join('/');
      const id = segments[at + 1]!;
      if (method === 'POST' && snapshots.restore !== undefined) return { op: snapshots.restore, run: (c) => restoreSnapshot(c, file, id) };
      if (method === 'DELETE' && snapshots.remove !== undefined) return { op: snapshots.remove, run: (c) => removeSnapshot(c, file, id) };
    }
  }
  if (rest === '' && tree.rootList !== undefined && (method === 'GET' || method === 'HEAD')) return { op: tree.rootList, run: (c) => json(200, listingOf(c, '')) };
  const op = tree.byMethod.get(method === 'HEAD' ? 'GET' : method);
  if (op === undefined) return undefined;
  switch (op.method) {
    case 'GET': return { op, run: (c, _request, search) => read(c, rest, search) };
    case 'PUT': return { op, run: (c, request) => save(c, rest, request) };
    case 'POST': return { op, run: (c, request) => createIn(c, rest, request) };
    case 'PATCH': return { op, run: (c, request) => move(c, rest, request) };
    case 'DELETE': return { op, run: (c) => remove(c, rest) };
    default: return undefined;
  }
}

/**
 * The trees of an API (D460): each item path `P/{p}` whose last parameter names a file path (by its name or its
 * description), of type string with no enum, format or pattern, with a read and a `PUT` at that path. A literal
 * sub-collection `P/{p}/s` with a bodyless `POST`, and its items `P/{p}/s/{id}`, are the tree's snapshots (D465).
 */
function findTrees(api: ApiModel): Tree[] {
  const byPath = new Map<string, OperationModel[]>();
  for (const op of api.operations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  const trees: Tree[] = [];
  for (const [path, ops] of byPath) {
    const last = /^(.*)\/\{([^}/]+)\}$/.exec(path);
    if (last === null) continue;
    const read = ops.find((op) => op.method === 'GET');
    if (read === undefined || !ops.some((op) => op.method === 'PUT')) continue;
    const parameter = read.pathParams.find((one) => one.name === last[2]);
    if (parameter === undefined || !namesFilePath(parameter)) continue;
    const prefix = last[1]!;
    const whole = successSchema(read);
    const schema = objectSchema(whole);
    const properties = propertiesOf(schema);
    const listed = arraySchema(whole);
    const typeEnum = [...enumOf(properties['type']), ...enumOf(propertiesOf(objectSchema(listed?.['items'] as Schema | undefined))['type'])];
    const directoryValue = typeEnum.find((value) => DIRECTORY_VALUE.test(value));
    trees.push({
      pattern: new RegExp(`^(${templateSource(prefix)})(?:/(.*))?$`),
      parameter,
      byMethod: new Map(ops.map((op) => [op.method, op])),
      schema,
      directoryValue,
      fileValue: typeEnum.find((value) => value === 'file') ?? typeEnum.find((value) => value !== directoryValue),
      listsItems: listed !== undefined,
      contentMember: ['content', 'contents', 'children', 'items', 'entries'].find((name) => name in properties),
      pathMember: parameter.name in properties ? parameter.name : 'path' in properties ? 'path' : undefined,
      snapshots: snapshotsOf(api, path),
      rootList: (byPath.get(prefix) ?? []).find((op) => op.method === 'GET' && arraySchema(successSchema(op)) !== undefined),
    });
  }
  return trees;
}

/** The snapshot sub-collection under a tree's item path, when it has a create that takes no body (D465). */
function snapshotsOf(api: ApiModel, itemPath: string): Tree['snapshots'] {
  const below = api.operations.filter((op) => op.path.startsWith(`${itemPath}/`));
  const create = below.find((op) => op.method === 'POST' && op.body === undefined && /^\/[^/{}]+$/.test(op.path.slice(itemPath.length)));
  if (create === undefined) return undefined;
  const collection = create.path;
  const items = below.filter((op) => /^\/\{[^}/]+\}$/.test(op.path.slice(collection.length)) && op.path.startsWith(`${collection}/`));
  return {
    segment: collection.slice(itemPath.length + 1),
    create,
    list: below.find((op) => op.path === collection && op.method === 'GET'),
    restore: items.find((op) => op.method === 'POST' && op.body === undefined),
    remove: items.find((op) => op.method === 'DELETE'),
    schema: objectSchema(successSchema(create)),
  };
}

/** Whether a path parameter names a file path: free text, named or described so (D460). */
function namesFilePath(parameter: ParameterModel): boolean {
  const schema = parameter.schema;
  if (parameter.type !== 'string' || schema['enum'] !== undefined || schema['pattern'] !== undefined || (schema['format'] !== undefined && schema['format'] !== 'path')) return false;
  return FILE_PATH_NAME.test(parameter.name) || FILE_PATH_TEXT.test(parameter.description ?? '');
}

/** A path template as a regular expression's source: each parameter one segment. */
function templateSource(template: string): string {
  return template.split(/(\{[^}/]+\})/).map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('');
}

/** The object schema of an answer: the schema itself, or its object branch where it may also be an array (a directory listed as one). */
function objectSchema(schema: Schema | undefined): Schema | undefined {
  if (schema === undefined) return undefined;
  if (schema['type'] === 'object' || schema['properties'] !== undefined) return schema;
  for (const keyword of ['oneOf', 'anyOf']) {
    const branches = schema[keyword];
    if (Array.isArray(branches)) {
      const object = (branches as Schema[]).find((branch) => branch['type'] === 'object' || branch['properties'] !== undefined);
      if (object !== undefined) return object;
    }
  }
  return undefined;
}

/** The array schema of an answer: the schema itself, or its array branch (GitHub's contents: a directory, or one of three kinds of file). */
function arraySchema(schema: Schema | undefined): Schema | undefined {
  if (schema === undefined) return undefined;
  if (schema['type'] === 'array') return schema;
  for (const keyword of ['oneOf', 'anyOf']) {
    const branches = schema[keyword];
    if (Array.isArray(branches)) {
      const array = (branches as Schema[]).find((branch) => branch['type'] === 'array');
      if (array !== undefined) return array;
    }
  }
  return undefined;
}

/** The text values a schema's `enum` (or `const`) lists. */
function enumOf(schema: Schema | undefined): string[] {
  const values = Array.isArray(schema?.['enum']) ? (schema['enum'] as unknown[]) : schema?.['const'] !== undefined ? [schema['const']] : [];
  return values.filter((value): value is string => typeof value === 'string');
}

function propertiesOf(schema: Schema | undefined): Record<string, Schema> {
  const properties = schema?.['properties'];
  return typeof properties === 'object' && properties !== null ? (properties as Record<string, Schema>) : {};
}

/** A file path as sent, its segments decoded, without leading or trailing slashes; `undefined` when an escape is malformed. */
function decodePath(raw: string): string | undefined {
  try {
    return raw.split('/').filter((segment) => segment !== '').map((segment) => decodeURIComponent(segment)).join('/');
  } catch {
    return undefined;
  }
}

const nameOf = (path: string): string => path.slice(path.lastIndexOf('/') + 1);
const now = (): string => new Date().toISOString();

/** Whether `path` is a directory: the root, one made as a directory, or the parent of an item (D462). */
function isDirectory(context: Context, path: string): boolean {
  if (path === '') return true;
  const item = context.items.get(path);
  if (item !== undefined) return item.directory;
  for (const key of context.items.keys()) if (key.startsWith(`${path}/`)) return true;
  return false;
}

/** A new record for `path`: a sample of the answer's schema, then what the tree knows (D461), then the members written. */
function newRecord(context: Context, path: string, directory: boolean, written: Json): Json {
  const { tree } = context;
  const sample = tree.schema === undefined ? {} : validSample(tree.schema);
  const record: Json = typeof sample === 'object' && sample !== null && !Array.isArray(sample) ? { ...(sample as Json) } : {};
  const properties = propertiesOf(tree.schema);
  const stamp = now();
  for (const [name, schema] of Object.entries(properties)) {
    if (CREATED_MEMBER.test(name) || CHANGED_MEMBER.test(name)) record[name] = stamp;
    else if (schema['type'] === 'boolean' && /writ|edit/i.test(name)) record[name] = true;
  }
  return fill(context, { ...record, ...writtenMembers(context, written) }, path, directory);
}

/** The members of a body the answer's schema holds (the tree's own name and path members are the URL's). */
function writtenMembers(context: Context, body: Json): Json {
  const properties = propertiesOf(context.tree.schema);
  const kept: Json = {};
  for (const [name, value] of Object.entries(body)) {
    if (!(name in properties) || name === context.tree.pathMember || NAME_MEMBER.test(name)) continue;
    kept[name] = value;
  }
  return kept;
}

/** Sets what the URL says of a record: its path, its name, its kind, its size (the bytes of its content as written). */
function fill(context: Context, record: Json, path: string, directory: boolean): Json {
  const { tree } = context;
  const properties = propertiesOf(tree.schema);
  if (tree.pathMember !== undefined) record[tree.pathMember] = path;
  for (const name of Object.keys(properties)) if (NAME_MEMBER.test(name)) record[name] = nameOf(path);
  if ('type' in properties) {
    if (directory && tree.directoryValue !== undefined) record['type'] = tree.directoryValue;
    else if (!directory && (typeof record['type'] !== 'string' || record['type'] === tree.directoryValue || !enumHas(properties['type'], record['type']))) record['type'] = tree.fileValue ?? record['type'];
  }
  const content = tree.contentMember === undefined ? undefined : record[tree.contentMember];
  if ('size' in properties && !directory && content !== undefined && content !== null) record['size'] = Buffer.byteLength(typeof content === 'string' ? content : JSON.stringify(content));
  return record;
}

function enumHas(schema: Schema | undefined, value: unknown): boolean {
  const values = schema?.['enum'];
  return !Array.isArray(values) || values.includes(value);
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): MockResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

function empty(status: number): MockResponse {
  return { status, headers: {}, body: '' };
}

/** The body of a request as a JSON object (`{}` when none was sent), or the refusal of one that is not a JSON object. */
function bodyOf(request: MockRequest): { body: Json } | { refusal: Refusal } {
  if (request.body === undefined || request.body.length === 0) return { body: {} };
  try {
    const parsed: unknown = JSON.parse(request.body.toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return { body: parsed as Json };
    return { refusal: { error: 'INVALID_BODY', detail: 'The body must be a JSON object.' } };
  } catch {
    return { refusal: { error: 'MALFORMED_JSON' } };
  }
}

const notFound = (context: Context, path: string): MockResponse => context.refuse({ error: 'RECORD_NOT_FOUND', detail: `Nothing is at the path ${JSON.stringify(path)}.` });

/** The status of a write that made a record: the documented 201, else the operation's success status. */
function createdStatus(op: OperationModel | undefined): number {
  return op?.responses.some((response) => response.status === '201') === true ? 201 : (op?.successStatus ?? 201);
}

/** The record at `path` as a read answers it: a directory with its items (each without content), a file with its content unless the query asks for none (D462). */
function answerOf(context: Context, path: string, withContent: boolean): Json | Json[] | undefined {
  const { tree, items } = context;
  const directory = isDirectory(context, path);
  const item = items.get(path);
  if (item === undefined && !directory) return undefined;
  const record = item?.record ?? fill(context, newRecord(context, path, true, {}), path, true);
  if (tree.contentMember === undefined && !(directory && tree.listsItems)) return { ...record };
  if (!directory) return withContent || tree.contentMember === undefined ? { ...record } : { ...record, [tree.contentMember]: null };
  if (!withContent && !tree.listsItems) return { ...record, [tree.contentMember!]: null };
  const listed = listingOf(context, path);
  return tree.listsItems ? listed : { ...record, [tree.contentMember!]: listed };
}

/** The items directly in the directory at `path`, each without its content, in the order of their paths (D462). */
function listingOf(context: Context, path: string): Json[] {
  const { tree, items } = context;
  // Items listed in a record's content member carry it as null (Jupyter's); items of a listed array leave it out (GitHub's).
  const withoutContent = (one: Json): Json => {
    if (tree.contentMember === undefined) return { ...one };
    const { [tree.contentMember]: _content, ...rest } = one;
    return tree.listsItems ? rest : { ...rest, [tree.contentMember]: null };
  };
  const children = new Map<string, Json>();
  for (const [key, child] of items) {
    if (key === path || !(path === '' || key.startsWith(`${path}/`))) continue;
    const rest = path === '' ? key : key.slice(path.length + 1);
    const first = rest.split('/')[0]!;
    const childPath = path === '' ? first : `${path}/${first}`;
    if (children.has(childPath)) continue;
    const direct = rest === first;
    const childRecord = direct ? child.record : (items.get(childPath)?.record ?? fill(context, newRecord(context, childPath, true, {}), childPath, true));
    children.set(childPath, withoutContent(childRecord));
  }
  const listed = [...children.values()].sort((a, b) => String(a[tree.pathMember ?? 'name']).localeCompare(String(b[tree.pathMember ?? 'name'])));
  return listed;
}

/** A query parameter named as the content member, given as `0` or `false`, asks for the record without its content (D462). */
function asksNoContent(context: Context, search: string): boolean {
  const member = context.tree.contentMember;
  if (member === undefined) return false;
  const value = new URLSearchParams(search).get(member);
  return value === '0' || value === 'false';
}

function read(context: Context, path: string, search: string): MockResponse {
  const answer = answerOf(context, path, !asksNoContent(context, search));
  return answer === undefined ? notFound(context, path) : json(200, answer);
}

/** `PUT` at a path (D461): creates the record there (the documented 201) or replaces the one there (200). */
function save(context: Context, path: string, request: MockRequest): MockResponse {
  const parsed = bodyOf(request);
  if ('refusal' in parsed) return context.refuse(parsed.refusal);
  const body = parsed.body;
  if (path === '') return context.refuse({ error: 'INVALID_BODY', detail: 'The root cannot be written.' });
  const { tree, items } = context;
  const existing = items.get(path);
  const directory = tree.directoryValue !== undefined && body['type'] === tree.directoryValue;
  const stamp = now();
  if (existing === undefined) {
    items.set(path, { record: newRecord(context, path, directory, body), directory, snapshots: new Map(), nextSnapshot: 1 });
    return json(createdStatus(tree.byMethod.get('PUT')), writeAnswer(context, tree.byMethod.get('PUT'), path), { location: locationOf(context, path) });
  }
  existing.record = fill(context, { ...existing.record, ...writtenMembers(context, body) }, path, existing.directory);
  for (const name of Object.keys(propertiesOf(tree.schema))) if (CHANGED_MEMBER.test(name)) existing.record[name] = stamp;
  const put = tree.byMethod.get('PUT');
  const status = put?.responses.some((response) => response.status === '200') === true ? 200 : (put?.successStatus ?? 200);
  return json(status, writeAnswer(context, put, path), { location: locationOf(context, path) });
}

/** `POST` on a directory (D463): a copy of the file a body member names, else a new untitled item of the kind the body says. */
function createIn(context: Context, directory: string, request: MockRequest): MockResponse {
  const parsed = bodyOf(request);
  if ('refusal' in parsed) return context.refuse(parsed.refusal);
  const body = parsed.body;
  const { tree, items } = context;
  const op = tree.byMethod.get('POST');
  // A POST on a file is a request the operation cannot serve: its documented refusal of the request (400, or the 422 it documents).
  if (items.has(directory) && !isDirectory(context, directory)) return context.refuse({ error: 'INVALID_BODY', detail: `A file is at ${JSON.stringify(directory)}: a POST makes an item in a directory.` });
  if (!isDirectory(context, directory)) {
    // Nothing at the path: a POST whose body can carry the content makes the item there, as a PUT would (Gitea's
    // create of a file at its path); one that cannot (Jupyter's copy_from, type, ext) names a directory that is not there.
    const carries = tree.contentMember !== undefined && op?.body !== undefined && tree.contentMember in propertiesOf(objectSchema(op.body.schema));
    if (!carries) return notFound(context, directory);
    const made = tree.directoryValue !== undefined && body['type'] === tree.directoryValue;
    items.set(directory, { record: newRecord(context, directory, made, body), directory: made, snapshots: new Map(), nextSnapshot: 1 });
    return json(createdStatus(op), writeAnswer(context, op, directory), { location: locationOf(context, directory) });
  }
  const source = Object.entries(body).find(([name, value]) => COPY_FROM.test(name) && typeof value === 'string')?.[1] as string | undefined;
  if (source !== undefined) {
    const from = decodePath(source) ?? source;
    const original = items.get(from);
    if (original === undefined || original.directory) return notFound(context, from);
    const name = nameOf(from);
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    const path = freePath(context, directory, (n) => `${stem}-Copy${n}${ext}`);
    const record = fill(context, { ...original.record, ...stamps(context) }, path, false);
    items.set(path, { record, directory: false, snapshots: new Map(), nextSnapshot: 1 });
    return json(createdStatus(op), writeAnswer(context, op, path), { location: locationOf(context, path) });
  }
  const makesDirectory = tree.directoryValue !== undefined && body['type'] === tree.directoryValue;
  const extension = Object.entries(body).find(([name, value]) => EXTENSION.test(name) && typeof value === 'string')?.[1] as string | undefined;
  const ext = makesDirectory || extension === undefined || extension === '' ? '' : extension.startsWith('.') ? extension : `.${extension}`;
  const path = freePath(context, directory, (n) => `untitled${n === 0 ? '' : n}${ext}`, 0);
  const kind = makesDirectory ? {} : typeof body['type'] === 'string' && enumHas(propertiesOf(tree.schema)['type'], body['type']) ? { type: body['type'] } : {};
  const written = tree.contentMember === undefined || makesDirectory ? kind : { ...kind, [tree.contentMember]: '' };
  items.set(path, { record: newRecord(context, path, makesDirectory, written), directory: makesDirectory, snapshots: new Map(), nextSnapshot: 1 });
  return json(createdStatus(op), writeAnswer(context, op, path), { location: locationOf(context, path) });
}

/** The first path in `directory` named by `name(n)`, n counting from `from`, that nothing holds. */
function freePath(context: Context, directory: string, name: (n: number) => string, from = 1): string {
  for (let n = from; ; n++) {
    const path = directory === '' ? name(n) : `${directory}/${name(n)}`;
    if (!context.items.has(path) && !isDirectory(context, path)) return path;
  }
}

/** Fresh values of the record's timestamp members. */
function stamps(context: Context): Json {
  const stamp = now();
  return Object.fromEntries(Object.keys(propertiesOf(context.tree.schema)).filter((name) => CREATED_MEMBER.test(name) || CHANGED_MEMBER.test(name)).map((name) => [name, stamp]));
}

/** `PATCH` naming a new path (D464): the item, and what lies under it, move there; the old path names nothing. */
function move(context: Context, path: string, request: MockRequest): MockResponse {
  const parsed = bodyOf(request);
  if ('refusal' in parsed) return context.refuse(parsed.refusal);
  const body = parsed.body;
  const { tree, items } = context;
  const target = Object.entries(body).find(([name, value]) => (name === tree.parameter.name || NEW_PATH.test(name)) && typeof value === 'string')?.[1] as string | undefined;
  if (target === undefined) return context.refuse({ error: 'INVALID_BODY', detail: `The body names no new path (${tree.parameter.name}).` });
  const to = decodePath(target) ?? target;
  if (path === '' || !(items.has(path) || isDirectory(context, path))) return notFound(context, path);
  if (to === '' || items.has(to) || isDirectory(context, to)) return context.refuse({ error: 'RECORD_EXISTS', detail: `Something is at ${JSON.stringify(to)} already.` });
  const moving = [...items].filter(([key]) => key === path || key.startsWith(`${path}/`));
  for (const [key] of moving) items.delete(key);
  for (const [key, item] of moving) {
    const moved = `${to}${key.slice(path.length)}`;
    item.record = fill(context, item.record, moved, item.directory);
    items.set(moved, item);
  }
  if (!items.has(to)) items.set(to, { record: newRecord(context, to, true, {}), directory: true, snapshots: new Map(), nextSnapshot: 1 });
  return json(tree.byMethod.get('PATCH')?.successStatus ?? 200, writeAnswer(context, tree.byMethod.get('PATCH'), to), { location: locationOf(context, to) });
}

/** `DELETE` (D461): the item and what lies under it; 404 when nothing is there. */
function remove(context: Context, path: string): MockResponse {
  if (path === '') return context.refuse({ error: 'INVALID_BODY', detail: 'The root cannot be deleted.' });
  if (!(context.items.has(path) || isDirectory(context, path))) return notFound(context, path);
  for (const key of [...context.items.keys()]) if (key === path || key.startsWith(`${path}/`)) context.items.delete(key);
  const op = context.tree.byMethod.get('DELETE');
  const member = op === undefined ? undefined : envelopeOf(context, op);
  if (op === undefined || successSchema(op) === undefined) return empty(op?.successStatus ?? 204);
  return json(op.successStatus, member === undefined ? sampleObject(successSchema(op)) : { ...sampleObject(successSchema(op)), [member]: null });
}

/** The members of a snapshot as its create answers it: a sample of that schema, its id, its timestamps (D465). */
function snapshotRecord(context: Context, id: string): Json {
  const schema = context.tree.snapshots?.schema;
  const sample = schema === undefined ? {} : validSample(schema);
  const record: Json = typeof sample === 'object' && sample !== null && !Array.isArray(sample) ? { ...(sample as Json) } : {};
  const properties = propertiesOf(schema);
  const stamp = now();
  for (const name of Object.keys(properties)) if (CREATED_MEMBER.test(name) || CHANGED_MEMBER.test(name)) record[name] = stamp;
  record['id'] = properties['id']?.['type'] === 'integer' ? Number(id) : id;
  return record;
}

function fileItem(context: Context, path: string): Item | undefined {
  const item = context.items.get(path);
  return item === undefined || item.directory ? undefined : item;
}

function listSnapshots(context: Context, path: string): MockResponse {
  const item = fileItem(context, path);
  return item === undefined ? notFound(context, path) : json(200, [...item.snapshots.values()].map((one) => one.record));
}

function createSnapshot(context: Context, path: string): MockResponse {
  const item = fileItem(context, path);
  if (item === undefined) return notFound(context, path);
  const id = String(item.nextSnapshot++);
  const record = snapshotRecord(context, id);
  item.snapshots.set(id, { record, kept: structuredClone(item.record) });
  return json(createdStatus(context.tree.snapshots?.create), record);
}

function restoreSnapshot(context: Context, path: string, id: string): MockResponse {
  const item = fileItem(context, path);
  const snapshot = item?.snapshots.get(id);
  if (item === undefined || snapshot === undefined) return notFound(context, item === undefined ? path : `${path} (checkpoint ${id})`);
  item.record = { ...structuredClone(snapshot.kept), ...stamps(context), ...createdOf(context, item.record) };
  return answered(context.tree.snapshots?.restore);
}

function removeSnapshot(context: Context, path: string, id: string): MockResponse {
  const item = fileItem(context, path);
  if (item === undefined || !item.snapshots.delete(id)) return notFound(context, item === undefined ? path : `${path} (checkpoint ${id})`);
  return answered(context.tree.snapshots?.remove);
}

/** The record's creation members, kept when it is restored. */
function createdOf(context: Context, record: Json): Json {
  return Object.fromEntries(Object.keys(propertiesOf(context.tree.schema)).filter((name) => CREATED_MEMBER.test(name)).map((name) => [name, record[name]]));
}

/** The success of an action without a documented body: its status, empty. */
function answered(op: OperationModel | undefined): MockResponse {
  return empty(op?.successStatus ?? 204);
}

/** The 2xx answer schema of an operation in JSON (`application/json` before a vendor's own media types), if it documents one. */
function successSchema(op: OperationModel): Schema | undefined {
  const contents = op.responses.find((response) => response.status.startsWith('2'))?.contents ?? [];
  return (contents.find((content) => content.mediaType === 'application/json') ?? contents.find((content) => content.mediaType.endsWith('json')) ?? contents[0])?.schema;
}

/** A valid sample of an object schema, `{}` for anything else. */
function sampleObject(schema: Schema | undefined): Json {
  const sample = schema === undefined ? undefined : validSample(schema);
  return typeof sample === 'object' && sample !== null && !Array.isArray(sample) ? { ...(sample as Json) } : {};
}

/**
 * The member of a write's answer that holds the item, when the answer wraps it (GitHub's `{content, commit}` for a
 * file written): the write's answer schema does not hold the path member itself but one of its members does.
 */
function envelopeOf(context: Context, op: OperationModel): string | undefined {
  const key = context.tree.pathMember ?? 'name';
  const properties = propertiesOf(objectSchema(successSchema(op)));
  if (Object.keys(properties).length === 0 || key in properties) return undefined;
  return Object.entries(properties).find(([, schema]) => key in propertiesOf(objectSchema(schema) ?? objectSchema({ oneOf: schema['allOf'] })))?.[0];
}

/** A write's answer: the item as a read answers it, inside the envelope the write's answer documents, if any. */
function writeAnswer(context: Context, op: OperationModel | undefined, path: string): unknown {
  const item = answerOf(context, path, true);
  const member = op === undefined ? undefined : envelopeOf(context, op);
  return member === undefined ? item : { ...sampleObject(successSchema(op!)), [member]: item };
}

/** The URL of the item at `path`, its segments escaped (a create's and a move's `Location`). */
function locationOf(context: Context, path: string): string {
  return `${context.prefix}/${path.split('/').map(encodeURIComponent).join('/')}`;
}
