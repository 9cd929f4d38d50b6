import fc from 'fast-check';
import { exactInteger, toView } from '../../model/json.js';
import type { OperationModel, ParameterModel, ResourceModel } from '../../model/model.js';
import { createsOrUpdates } from '../../model/resources.js';
import { secondCreateTakesPlace } from '../../model/singleton-create.js';
import { compile, createAjv, objectShape, type Schema, type Validator } from '../../model/schema.js';
import { GenerationGaveUp, NotRun } from '../arbitraries/bounded.js';
import { TargetRefusing } from '../client.js';
import { failingExchange } from '../report/results.js';
import { documentedStatuses } from '../../judge/documented.js';
import { canonicalise } from '../arbitraries/canonical.js';
import { validValues } from '../arbitraries/schema-values.js';
import { requestOf, setExampleParent, setParent, setResources, setUnprepared } from '../context.js';
import type { CheckContext, RequestSpec } from '../check-context.js';
import { Violation } from '../contract.js';
import { bodyValues, ordinaryBody } from '../arbitraries/body.js';
import { survivesEncoding } from '../body-encoding.js';
import { addressOfId, isKnownId, memory, idKey, type Check, type ExactRecord } from './check.js';

// The validators below are derived from the spec alone (no run learns anything there): shared by every run.
const ajv = createAjv();
const idValidators = new WeakMap<ResourceModel, { schema: Schema; validate: Validator } | null>();

/** The create body's schema of the id property, when the spec lets a client choose the id (D50: `client`, `either`). */
function clientIdSchema(resource: ResourceModel): { schema: Schema; validate: Validator } | undefined {
  const known = idValidators.get(resource);
  if (known !== undefined) return known ?? undefined;
  const create = resource.operations.create;
  // Within the body's envelope, where the create takes the record in one (`{"taxClass": {…}}`, D73; D559).
  const record = create?.body === undefined ? undefined : create.bodyEnvelope === undefined ? create.body.schema : objectShape(create.body.schema).properties[create.bodyEnvelope];
  const schema = resource.idSource === 'server' || record === undefined || typeof record !== 'object' ? undefined : objectShape(record).properties[resource.idProperty];
  const found = schema === undefined || typeof schema !== 'object' ? null : { schema, validate: compile(ajv, schema, resource.idProperty) };
  idValidators.set(resource, found);
  return found ?? undefined;
}

/**
 * An id no record of `resource` on this target has, valid for the create body's id property: integers high in
 * the id's range, numbered by run and by call; strings drawn from the property's schema with a seed of the same
 * numbering. Errors: {@link GenerationGaveUp} when the schema admits no fresh value the suite can draw.
 */
function freshId(context: CheckContext, resource: ResourceModel, id: { schema: Schema; validate: Validator }): unknown {
  const remembered = memory(context, resource);
  // The run's number keeps the ids it chooses apart from those of other runs on the same target.
  const run = context.run.number;
  const form = canonicalise(id.schema);
  for (let attempt = 0; attempt < 50; attempt++) {
    const n = BigInt(remembered.clientIds++);
    let candidate: unknown;
    if (form.kind === 'integer') {
      const min = form.min ?? -(2n ** 63n);
      const max = form.max ?? 2n ** 63n - 1n;
      const wanted = 4n * 10n ** 15n + run * 1_000_000n + n;
      candidate = wanted >= min && wanted <= max ? wanted : min + ((run * 1_000n + n) % (max - min + 1n));
    } else {
      // Where the item path types the key as a number, the text key is written in digits, or no read could name it (D902).
      const plain = pathTakesNumbers(resource) ? String(4n * 10n ** 15n + run * 1_000_000n + n) : `c${run}x${n}`;
      candidate = id.validate(plain) ? plain : fc.sample(validValues(id.schema, id.validate, { integers: context.target.integers, strings: 'ordinary' }), { numRuns: 1, seed: Number((run * 1_000n + n) % 2_147_483_647n) })[0];
    }
    if (candidate === undefined || !id.validate(toView(candidate)) || !pathNames(resource, candidate)) continue;
    const key = idKey(candidate);
    // Chosen ids are held at once: creates in flight together never share one.
    if (isKnownId(context, resource, key) || remembered.createdIds.has(key) || remembered.chosenIds.has(key)) continue;
    remembered.chosenIds.add(key);
    return candidate;
  }
  throw new GenerationGaveUp(`${resource.idProperty} for a new ${resource.name}`);
}

/** The item path's parameter naming a record of `resource` (the read's, else another item operation's); `undefined` when none. */
function keyParameter(resource: ResourceModel): ParameterModel | undefined {
  const ops = [resource.operations.read, resource.operations.replace, resource.operations.update, resource.operations.delete];
  for (const op of ops) {
    const found = op?.idIn === 'path' ? op.pathParams.find((p) => p.name === resource.idParameter) : undefined;
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Whether the item path types a text key as an integer or a number (bunq's `uuid` read at `/avatar/{itemId: integer}`). */
function pathTakesNumbers(resource: ResourceModel): boolean {
  const type = keyParameter(resource)?.type;
  return resource.idType === 'string' && (type === 'integer' || type === 'number');
}

/**
 * Whether the item path's parameter, where it types the key as a number, takes `key` as its text (D902): a chosen key
 * the path refuses could never be read, replaced or deleted. Keys of integer records, and other paths, always do.
 */
function pathNames(resource: ResourceModel, key: unknown): boolean {
  const parameter = keyParameter(resource);
  if (parameter === undefined || typeof key !== 'string') return true;
  if (parameter.type === 'integer') return /^-?\d{1,15}$/.test(key) && parameter.validate(Number(key));
  if (parameter.type === 'number') return Number.isFinite(Number(key)) && key.trim() !== '' && parameter.validate(Number(key));
  return true;
}

/**
 * Whether the record's key is a natural key the client sends (D94): an optional, writable text member that names
 * the record in its path and is no identifier by its name (`username`, `code`, `slug`, not `id` or `petId`) nor by
 * its format (`uuid`). A server may refuse a create without one (it could never be read back): the suite always
 * sends one, new to the run, and never expects the server to make one up.
 */
export function naturalKey(resource: ResourceModel): boolean {
  if (resource.idSource !== 'either' || resource.idType === 'integer' || resource.idParameter === undefined) return false;
  const schema = clientIdSchema(resource);
  return schema !== undefined && schema.schema['format'] === undefined && !/id$/i.test(resource.idProperty);
}

/**
 * A create body as the suite sends it: where the spec lets the client choose the id (D50: required in the create
 * body, or optional and writable), the id it carries, if any, is replaced by a fresh one, so that no create of
 * the run names an id the target already holds (a 409 then would be right). Where the id is required, one is
 * always added. Elsewhere the body is unchanged: the id is the server's.
 */
export function withClientId(context: CheckContext, resource: ResourceModel, body: Record<string, unknown>): Record<string, unknown> {
  const id = clientIdSchema(resource);
  if (id === undefined) return body;
  // The record sits in the body's envelope where the create takes one (D559).
  const envelope = resource.operations.create?.bodyEnvelope;
  const inner = envelope === undefined ? body : body[envelope];
  if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return body;
  const record = inner as Record<string, unknown>;
  // A body without the id leaves it to the server, unless the client must choose it; an id the suite chose stays.
  if (!Object.hasOwn(record, resource.idProperty) && resource.idSource !== 'client' && !naturalKey(resource)) return body;
  // A body the run's earlier call made carries a fresh id already (a body passed on keeps it).
  if (context.run.chosenBodies.has(body)) return body;
  const fresh = { ...record, [resource.idProperty]: freshId(context, resource, id) };
  const chosen = envelope === undefined ? fresh : { ...body, [envelope]: fresh };
  context.run.chosenBodies.add(chosen);
  return chosen;
}

/** Whether the spec lets a client choose the id of a new record of `resource` (then a sent id must come back). */
export function clientChoosesId(resource: ResourceModel): boolean {
  return clientIdSchema(resource) !== undefined;
}

/** The JSON value of an id from its key text: an exact integer for integer ids, the text otherwise. */
export function idValue(resource: ResourceModel, key: string): unknown {
  return resource.idType === 'integer' ? (exactInteger(key) ?? key) : key;
}

/**
 * A request of an item operation (read, replace, update, delete) naming the record `id` (its key text): in the
 * path (`/pets/{petId}`), or, where the operation takes it in the body (D50: the classic `PUT /pet`), as the body's
 * id property. `value` is the body to send (the id added where it goes there); `raw`, a body text written by hand.
 */
export function itemRequest(context: CheckContext, resource: ResourceModel, op: OperationModel, id: string, value?: Record<string, unknown>, raw?: { text: string; contentType: string }): RequestSpec {
  if (op.idIn === 'body') {
    if (raw !== undefined) return requestOf(context, op, { body: raw.text, contentType: raw.contentType });
    // Inside the record's envelope where the write takes one (`{data: {id, type, attributes}}`, D73): where the server
    // reads the record, and so its key (D927).
    return requestOf(context, op, { value: withRecordMember(op, value ?? {}, resource.idProperty, idValue(resource, id)) });
  }
  // A key is named beside the record's other path values (`{owner}` of `/repos/{owner}/{repo}`, D236).
  // The operation's own last parameter: an item path spelled with another name than the read's is the same route (D904).
  const path = { ...addressOfId(context, resource, op, id), [(op.idIn === 'path' ? op.pathParams.at(-1)?.name : undefined) ?? resource.idParameter ?? '']: id };
  if (raw !== undefined) return requestOf(context, op, { path, body: raw.text, contentType: raw.contentType });
  return requestOf(context, op, { path, ...(value === undefined ? {} : { value }) });
}

/**
 * Makes sure every sub-resource of the model has a parent record on the target to live under (created once per
 * target and process, or the first one listed under `--read-only`), and points the requests of the check about
 * to run at it. Parents of parents first.
 */
export async function prepareParents(context: CheckContext, create: (resource: ResourceModel) => Promise<string | undefined>): Promise<void> {
  const done = new Set<ResourceModel>();
  const prepare = async (resource: ResourceModel): Promise<void> => {
    if (done.has(resource) || resource.parent === undefined) return;
    done.add(resource);
    const known = resource.parent.byExample;
    if (known !== undefined) {
      const values = exampleParentValues(context.model.operations, resource, known);
      setExampleParent(context, resource, values);
      // Confirmed by a read once per target (D161): values the target does not hold leave the checks under it not run.
      const remembered = memory(context, resource);
      remembered.exampleParent ??= confirmExampleParent(context, resource, values);
      setUnprepared(context, resource, await remembered.exampleParent);
      return;
    }
    const parent = context.model.resources.find((candidate) => candidate.name === resource.parent!.resource);
    if (parent === undefined) return;
    await prepare(parent);
    const remembered = memory(context, parent);
    remembered.fixture ??= create(parent);
    setResources(context, resource, context.model.resources);
    let id: string | undefined;
    try {
      id = await remembered.fixture;
    } catch (error) {
      if (error instanceof TargetRefusing) throw error;
      // A parent that could not be made leaves its own sub-resources untested, not the whole suite (D160).
      setUnprepared(context, resource, setupFailure(`a ${parent.name} record`, error));
      return;
    }
    if (id === undefined) {
      setUnprepared(context, resource, new NotRun(parent.name, `set-up: no ${parent.name} record was found for the records under it to live under`));
      return;
    }
    setUnprepared(context, resource, undefined);
    setParent(context, resource, id);
    // The parent's other path values (`{owner}` beside `{repo}`, D145), as its record gave them.
    const address = memory(context, parent).address;
    if (address !== undefined && Object.keys(address).length > 0) setExampleParent(context, resource, address);
  };
  for (const resource of context.model.resources) await prepare(resource);
}

/**
 * Whether the target holds the parent the spec exemplifies (D161): `undefined` when the read of its path (the GET
 * whose path its sub-resource's paths extend, with exactly its parameters) answers a 2xx, or when there is no such
 * read to ask; else a {@link NotRun} with the answer. A 5xx is the target's failure, thrown where a check needs it.
 */
async function confirmExampleParent(context: CheckContext, resource: ResourceModel, values: Record<string, string>): Promise<Error | undefined> {
  const known = resource.parent!.byExample!;
  const read = exampleRead(context.model.operations, resource, known);
  if (read === undefined) return undefined;
  if (known.parameters.some((name) => values[name] === undefined || values[name] === '')) return new NotRun(resource.name, `set-up: the spec's examples of ${read.path} name no value for each of ${known.parameters.join(', ')}`);
  try {
    const { exchange } = await context.call(read, requestOf(context, read, { path: values }), documentedStatuses(read));
    if (exchange.response.status < 300) return undefined;
    return new NotRun(resource.name, `set-up: the parent the spec exemplifies, ${read.method} ${exchange.request.path}, answered ${exchange.response.status}`);
  } catch (failure) {
    if (failure instanceof TargetRefusing) throw failure;
    return setupFailure(`the parent at ${read.path}`, failure);
  }
}

/**
 * What the checks under a parent that could not be made meet (D160, D162): the failure itself when the target
 * answered the set-up with a 5xx (the target's failure), else a {@link NotRun} with the reason.
 */
function setupFailure(what: string, error: unknown): Error {
  const status = failingExchange(error)?.response.status;
  if (status !== undefined && status >= 500 && error instanceof Error) return error;
  if (error instanceof NotRun) return error;
  const message = error instanceof Error ? (error.message.split('\n').find((line) => line.trim() !== '') ?? error.name) : String(error);
  return new NotRun(what, `set-up: making or finding ${what} for the records under it to live under failed: ${message.trim()}`);
}

/**
 * The path values of a parent no resource holds, known by the success examples of its read (D72: `GET
 * /repos/{owner}/{repo}` exemplifies `ada/compiler`), so that its sub-resource's requests name a parent that
 * exists, never an empty segment. Per parameter, in this order: an example string with one `/`-separated part
 * per parameter (`full_name: ada/compiler`); the example's member named like the parameter (a text, or the first
 * text inside it: `owner: {login: ada}`); the parameter schema's own `example`; else the first value the examples
 * hold (one the spec names, at least).
 */
function exampleParentValues(operations: readonly OperationModel[], resource: ResourceModel, known: NonNullable<NonNullable<ResourceModel['parent']>['byExample']>): Record<string, string> {
  const read = exampleRead(operations, resource, known);
  const examples = (read?.responses ?? []).filter((r) => r.status.startsWith('2')).flatMap((r) => r.examples.map((example) => example.value));
  const texts = (value: unknown): string[] => typeof value === 'string' || typeof value === 'number' ? [String(value)] : Array.isArray(value) ? value.flatMap(texts) : value !== null && typeof value === 'object' ? Object.values(value).flatMap(texts) : [];
  const flat = (name: string): string => name.replace(/[_-]/g, '').toLowerCase();
  const values: Record<string, string> = {};
  const joined = examples.flatMap(texts).find((text) => text.split('/').length === known.parameters.length && text.split('/').every((part) => part !== '' && known.values.includes(part)));
  known.parameters.forEach((name, index) => {
    const member = examples.flatMap((example) => example !== null && typeof example === 'object' && !Array.isArray(example) ? Object.entries(example).filter(([key]) => flat(key) === flat(name)).flatMap(([, value]) => texts(value)) : []).find(segmentLike);
    const parameter = read?.pathParams.find((candidate) => candidate.name === name);
    const own = parameter !== undefined && typeof parameter.schema === 'object' && (typeof parameter.schema.example === 'string' || typeof parameter.schema.example === 'number') ? String(parameter.schema.example) : undefined;
    // A URL or a sentence among the example's values names no record in one path segment.
    const chosen = joined?.split('/')[index] ?? member ?? own ?? known.values.find(segmentLike) ?? known.values[0];
    if (chosen !== undefined) values[name] = chosen;
  });
  return values;
}

/** The read of a parent known by its examples: the GET whose path the sub-resource's paths extend, with exactly its parameters. */
function exampleRead(operations: readonly OperationModel[], resource: ResourceModel, known: NonNullable<NonNullable<ResourceModel['parent']>['byExample']>): OperationModel | undefined {
  const paths = Object.values(resource.operations).map((op) => op.path);
  return operations.find((op) => op.method === 'GET' && paths.some((path) => path.startsWith(`${op.path}/`)) && sameList([...op.path.matchAll(/\{([^}/]+)\}/g)].map((match) => match[1]!), known.parameters));
}

/** Whether a text can name a record in one path segment: no `/`, `:`, `#`, `?` nor white space. */
function segmentLike(text: string): boolean {
  return /^[^/\s:#?]+$/.test(text);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

/**
 * A client-chosen id (D50: the create body may carry the record's id): a create naming a fresh id is answered
 * with that id and the record is read back by it; a second create naming the same id is refused (409, or the
 * 400/422 the operation documents, or either where it documents no client error at all) and leaves the first
 * record as it was, except on a create that also updates (D432: "Inserts or updates a filter"), where it is an
 * update, and on a singleton's create that documents no 409, where it takes the place of the first (D78, D930):
 * there it is not sent.
 */
export function clientIdCheck(resource: ResourceModel, id: string, rule: string, helpers: ClientIdHelpers): Check {
  return {
    id,
    rule,
    writes: true,
    async run(context) {
      const create = resource.operations.create!;
      // Where no client error is documented (only `default`), 409 is no more documented than 400/422 (D123).
      const documentsNone = !create.responses.some((r) => /^4/.test(r.status));
      const refusals = [409, ...(documentsNone ? [400, 422] : create.responses.map((r) => Number(r.status)).filter((status) => status === 400 || status === 422))];
      // Only bodies the write's schema still admits with an id are sent (D234): where the body is one of several
      // forms (`oneOf`: an id, or an owner, a name and a number), an id added to the other form breaks it.
      const probe = idProbe(context, resource);
      const admitsId = (drawn: Record<string, unknown>): boolean => create.body === undefined || probe === undefined || survivesEncoding(create, create.body, withRecordMember(create, drawn, resource.idProperty, probe));
      await context.forAll(bodyValues(context, create, { integers: context.target.integers, strings: 'ordinary' }).filter(admitsId), async (drawn) => {
        const chosen = withClientId(context, resource, withRecordMember(create, drawn, resource.idProperty, null));
        const created = await helpers.create(context, resource, chosen);
        const key = idKey(recordOfBody(create, chosen)[resource.idProperty]);
        if (created === undefined) return;
        if (idKey(created[resource.idProperty]) !== key) throw new Violation(`a create naming ${resource.idProperty} ${key} made a record whose ${resource.idProperty} is ${idKey(created[resource.idProperty])}: the spec lets the client choose it`);
        if (resource.operations.read !== undefined) await helpers.readBack(context, resource, created, `${create.operationId} with a chosen ${resource.idProperty}`);
        // A create that also updates (D432) takes a second create naming the id for an update, not a duplicate; a
        // singleton's second create takes the place of the first where no 409 is documented (D78, D930).
        if (createsOrUpdates(create, resource) || secondCreateTakesPlace(create, resource)) return;
        const ordinary = ordinaryBodyOf(context, create);
        const again = withRecordMember(create, admitsId(ordinary) ? ordinary : drawn, resource.idProperty, recordOfBody(create, chosen)[resource.idProperty]);
        await context.call(create, requestOf(context, create, { value: again }), refusals);
        if (resource.operations.read !== undefined) await helpers.readBack(context, resource, created, `a second create naming ${resource.idProperty} ${key} was refused, yet the first record`);
      }, { runs: Math.min(context.target.runs, 10) });
    },
  };
}

/** The record a create body holds: the body, or its envelope's member where the create takes one (D73, D559). */
function recordOfBody(create: OperationModel, body: Record<string, unknown>): Record<string, unknown> {
  const inner = create.bodyEnvelope === undefined ? body : body[create.bodyEnvelope];
  return inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Record<string, unknown>) : {};
}

/** A copy of a create body whose record (in its envelope, where the create takes one) holds `value` as `member`. */
function withRecordMember(create: OperationModel, body: Record<string, unknown>, member: string, value: unknown): Record<string, unknown> {
  if (create.bodyEnvelope === undefined) return { ...body, [member]: value };
  return { ...body, [create.bodyEnvelope]: { ...recordOfBody(create, body), [member]: value } };
}

/** One value of the create body's id schema, to ask whether a body admits an id at all; `undefined` when none can be drawn. */
function idProbe(context: CheckContext, resource: ResourceModel): unknown {
  const id = clientIdSchema(resource);
  if (id === undefined) return undefined;
  try {
    return fc.sample(validValues(id.schema, id.validate, { integers: context.target.integers, strings: 'ordinary' }), { numRuns: 1, seed: 7 })[0];
  } catch (error) {
    if (error instanceof GenerationGaveUp) return undefined;
    throw error;
  }
}

/** What {@link clientIdCheck} borrows from the record helpers (passed in: they import this module). */
export interface ClientIdHelpers {
  create(context: CheckContext, resource: ResourceModel, body: Record<string, unknown>): Promise<ExactRecord | undefined>;
  readBack(context: CheckContext, resource: ResourceModel, expected: ExactRecord, where: string): Promise<unknown>;
}

function ordinaryBodyOf(context: CheckContext, create: OperationModel): Record<string, unknown> {
  return ordinaryBody(context, create, context.target.integers, 11);
}
