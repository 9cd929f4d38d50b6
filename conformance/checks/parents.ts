import type { ApiModel, OperationModel, ResourceModel } from '../../model/model.js';
import { recordIn } from '../../model/resources.js';
import { ordinaryBody } from '../arbitraries/body.js';
import { GenerationGaveUp, NotRun } from '../arbitraries/bounded.js';
import type { CheckContext } from '../check-context.js';
import { TargetRefusing } from '../client.js';
import { unresolvedReason } from '../references.js';
import { failingExchange } from '../report/results.js';
import { idKey, idOf, memory, otherPathValues, type ExactRecord } from './check.js';
import { itemRequest } from './identity.js';
import { requestOf, unreachableReason } from '../context.js';
import { largestPageQuery } from './population.js';
import { createRecord, listRecords, recordsOf, successStatuses } from './records.js';

/**
 * The set-up of a parent record (D53): the record sub-resources live under, made or found once per target before
 * their checks run. A set-up that cannot be made costs only the checks that need it (D160-D163).
 */

/** Most reads spent on confirming candidate values of a parent that can only be read. */
const MOST_READS = 10;

/** The seeds of the ordinary bodies a parent's create is tried with, in order, before the set-up gives up. */
const SEEDS = [9, 21, 33];

/**
 * A record for sub-resources to live under, as `prepareParents` asks for one, by the value that names it in their
 * paths. In this order: created (unless `--read-only`) from an ordinary body; when the target refuses that with a
 * 4xx, again with only the required members, with the body the spec exemplifies, and with other ordinary draws
 * (D162); else, for a parent that can only be read, the first value its list, the lists of records like it, or
 * the spec's examples show that a read of the parent answers with a 2xx (D161).
 * Errors: a {@link NotRun} naming what was tried and the target's last answer when none is found; the original
 * failure when the target answered a set-up request with a 5xx (that is the target's failure, D162).
 */
export function parentRecord(context: CheckContext): (parent: ResourceModel) => Promise<string | undefined> {
  return async (parent) => {
    const tried: string[] = [];
    const create = parent.operations.create;
    if (create !== undefined && !context.target.readOnly) {
      const made = await createParent(context, parent, create, tried);
      if (made !== undefined) return made;
    }
    const found = await readableParent(context, parent, tried);
    if (found !== undefined) return found;
    throw new NotRun(parent.name, `set-up: no ${parent.name} record could be made or found for the records under it to live under (${tried.join('; ') || 'the spec offers no create, list or example of one'})`);
  };
}

/**
 * The resources of `model` whose records the context's run can reach, for the checks that go over every resource
 * (`responses.conformance`, `stateful.model`, `concurrency.create`): a resource under a parent no set-up could make
 * or find is left out, and the check's advice names it with the reason, so that one unreachable sub-resource costs
 * those checks its own requests, not their whole verdict (D915).
 */
export function reachableResources(context: CheckContext, model: Pick<ApiModel, 'resources'>): ResourceModel[] {
  return model.resources.filter((resource) => {
    const why = unreachableReason(context, resource);
    if (why !== undefined) context.advise(`${resource.name} left out, not fully tested: ${why.reason}`);
    return why === undefined;
  });
}

/** The bodies a parent's create is tried with (D162), drawn lazily: a body no schema branch admits is skipped. */
function* setupBodies(context: CheckContext, create: OperationModel): Generator<Record<string, unknown> | Error> {
  const draws: (() => Record<string, unknown> | undefined)[] = [
    () => ordinaryBody(context, create, context.target.integers, SEEDS[0]!),
    () => ordinaryBody(context, create, context.target.integers, SEEDS[0]!, true),
    () => exampleBody(create),
    ...SEEDS.slice(1).map((seed) => () => ordinaryBody(context, create, context.target.integers, seed)),
  ];
  const seen = new Set<string>();
  for (const draw of draws) {
    let body: Record<string, unknown> | undefined;
    try {
      body = draw();
    } catch (error) {
      if (!(error instanceof GenerationGaveUp)) throw error;
      yield error;
      continue;
    }
    if (body === undefined) continue;
    const key = JSON.stringify(body, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
    if (seen.has(key)) continue;
    seen.add(key);
    yield body;
  }
}

/** The create body the spec exemplifies (its schema's `example`, or the first of its `examples`), when it is valid. */
function exampleBody(create: OperationModel): Record<string, unknown> | undefined {
  const schema = create.body?.schema;
  if (schema === undefined) return undefined;
  const examples = schema['examples'];
  const example = schema['example'] ?? (Array.isArray(examples) ? (examples as unknown[])[0] : undefined);
  if (example === null || typeof example !== 'object' || Array.isArray(example) || !create.body!.validate(example)) return undefined;
  return { ...(example as Record<string, unknown>) };
}

/**
 * Creates the parent with each of {@link setupBodies} until the target makes one; a 4xx moves on to the next body,
 * with the answer noted in `tried`. A 404 to a write whose reference could not be filled, a 5xx, or any other
 * failure is thrown as it is (the caller turns a reference's 404 into a skip).
 */
async function createParent(context: CheckContext, parent: ResourceModel, create: OperationModel, tried: string[]): Promise<string | undefined> {
  for (const body of setupBodies(context, create)) {
    if (body instanceof Error) {
      tried.push(`a body for ${create.method} ${create.path} could not be drawn: ${body.message}`);
      continue;
    }
    try {
      const created = await createRecord(context, parent, body);
      if (created !== undefined) {
        memory(context, parent).address = otherPathValues(parent, created);
        return await addressOf(context, parent, [created], tried);
      }
    } catch (failure) {
      if (failure instanceof TargetRefusing) throw failure;
      const exchange = failingExchange(failure);
      const status = exchange?.response.status;
      if (exchange === undefined || status === undefined || status < 400 || status >= 500 || unresolvedReason(context, exchange) !== undefined) throw failure;
      tried.push(`${create.method} ${exchange.request.path} answered ${status}${answerText(exchange.response.text)}`);
    }
  }
  return undefined;
}

/** A short text of an answer's body, for a reason: ` (message)` or ``. */
function answerText(body: string | undefined): string {
  if (body === undefined || body === '') return '';
  return `: ${body.length > 160 ? `${body.slice(0, 160)}…` : body}`;
}

/**
 * The member names a path parameter designates (D163), most likely first: the member named like it, the member
 * its last word names (`issue_number` → `number`, `team_slug` → `slug`), the members its description names
 * (`The organization name` → `name`), then the record's id.
 */
export function designatedMembers(resource: ResourceModel, parameter: string | undefined, description: string | undefined): string[] {
  const names = Object.keys(resource.properties);
  const flat = (name: string): string => name.replace(/[_-]/g, '').toLowerCase();
  const words = (parameter ?? '').split(/[_-]|(?<=[a-z0-9])(?=[A-Z])/).filter(Boolean);
  const last = words.length > 1 ? words.at(-1)! : undefined;
  const described = new Set((description ?? '').toLowerCase().match(/[a-z_]+/g) ?? []);
  const chosen = [
    ...names.filter((name) => parameter !== undefined && flat(name) === flat(parameter)),
    ...names.filter((name) => last !== undefined && flat(name) === flat(last)),
    ...names.filter((name) => described.has(name.toLowerCase())),
    resource.idProperty,
  ];
  return [...new Set(chosen)];
}

/** The values of `record` that may name it in a path: scalars of the designated members first, then its other scalars. */
function candidateValues(resource: ResourceModel, record: ExactRecord, members: readonly string[]): string[] {
  const scalar = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' && !value.includes('/')) || typeof value === 'number' || typeof value === 'bigint' || (typeof value === 'object' && value !== null && !Array.isArray(value) && 'isLosslessNumber' in value) ? idKey(value) : undefined;
  const values = [...members, ...Object.keys(resource.properties).filter((name) => !members.includes(name))].map((name) => scalar(record[name]));
  return values.filter((value): value is string => value !== undefined);
}

/**
 * The value that names one of `records` in the parent's item path (D163): the first candidate a read of the
 * parent answers with a 2xx. Without a read operation, the designated member's value. `undefined` when none reads.
 */
async function addressOf(context: CheckContext, parent: ResourceModel, records: readonly ExactRecord[], tried: string[], budget = { reads: MOST_READS }): Promise<string | undefined> {
  const read = parent.operations.read;
  const description = read?.pathParams.find((parameter) => parameter.name === parent.idParameter)?.description;
  const members = designatedMembers(parent, parent.idParameter, description);
  if (read === undefined || parent.idParameter === undefined || read.idIn !== 'path') {
    const record = records[0];
    return record === undefined ? undefined : (candidateValues(parent, record, members)[0] ?? idOf(parent, record));
  }
  const seen = new Set<string>();
  for (const record of records) {
    for (const value of candidateValues(parent, record, members).slice(0, 4)) {
      if (seen.has(value) || budget.reads <= 0) continue;
      seen.add(value);
      budget.reads -= 1;
      // The record's other path values (`{owner}` beside `{repo}`, D145) go with its key (D236).
      const address = otherPathValues(parent, record);
      if (await reads(context, parent, read, value, address)) {
        if (Object.keys(address).length > 0) memory(context, parent).address ??= address;
        return value;
      }
      tried.push(`${read.method} ${read.path} with ${value} found no record`);
    }
  }
  return undefined;
}

/** Whether a read of the parent named by `value` answers with a 2xx; any other answer or failure: no. */
async function reads(context: CheckContext, parent: ResourceModel, read: OperationModel, value: string, address: Record<string, string> = {}): Promise<boolean> {
  try {
    const statuses = [...new Set([...successStatuses(read), ...read.responses.map((response) => Number(response.status)).filter((status) => status >= 400 && status < 500), 404])];
    const request = Object.keys(address).length === 0 ? itemRequest(context, parent, read, value) : requestOf(context, read, { path: { ...address, [parent.idParameter ?? '']: value } });
    const { exchange } = await context.call(read, request, statuses);
    return exchange.response.status < 300;
  } catch (failure) {
    if (failure instanceof TargetRefusing) throw failure;
    // The read's own checks judge its answers; here an unusable one only means this value names no parent.
    return false;
  }
}

/**
 * A parent that exists on the target, found by reading (D161): records its own list shows, then records of the
 * lists of like records (top-level resources whose members are mostly the parent's), then the spec's examples of
 * the parent's read answer and its path parameter; each confirmed by a read before use, and without a read only
 * the records of its own list (D307).
 */
async function readableParent(context: CheckContext, parent: ResourceModel, tried: string[]): Promise<string | undefined> {
  const budget = { reads: MOST_READS };
  const records: ExactRecord[] = [];
  let ownCount = 0;
  for (const source of [parent, ...likeResources(context, parent)]) {
    if (source.operations.list === undefined || source.operations.list.method !== 'GET') continue;
    try {
      records.push(...(source === parent ? (await listRecords(context, parent, largestPageQuery(parent))).records : await listedBy(context, source)).slice(0, 3));
      if (source === parent) ownCount = records.length;
    } catch (failure) {
      if (failure instanceof TargetRefusing) throw failure;
      // That list's own checks judge its answers; here it only shows no parent.
    }
  }
  const read = parent.operations.read;
  // Without a read to confirm a value, only the parent's own list vouches that the record is there (D307): a
  // record of a like list, or of the spec's examples, may be none of this parent's.
  const confirmable = read !== undefined && parent.idParameter !== undefined && read.idIn === 'path';
  const found = await addressOf(context, parent, confirmable ? [...records, ...exampleRecords(parent)] : records.slice(0, ownCount), tried, budget);
  if (found !== undefined) return found;
  const parameter = read?.pathParams.find((candidate) => candidate.name === parent.idParameter);
  const own = parameter?.example;
  if (read !== undefined && (typeof own === 'string' || typeof own === 'number') && budget.reads > 0) {
    if (await reads(context, parent, read, String(own))) return String(own);
    tried.push(`${read.method} ${read.path} with the parameter's example ${String(own)} found no record`);
  }
  return undefined;
}

/** The records of a list of like records, read without the memory of the list's own resource (its ids are another kind). */
async function listedBy(context: CheckContext, source: ResourceModel): Promise<ExactRecord[]> {
  const list = source.operations.list!;
  const { body } = await context.call(list, { method: 'GET', path: list.path }, successStatuses(list));
  return recordsOf(source, body);
}

/** Top-level resources with a list whose records hold the parent's id member and mostly the parent's members. */
function likeResources(context: CheckContext, parent: ResourceModel): ResourceModel[] {
  const own = new Set(Object.keys(parent.properties));
  return context.model.resources.filter((candidate) => {
    if (candidate === parent || candidate.parent !== undefined || candidate.operations.list === undefined || candidate.operations.list.pathParams.length > 0) return false;
    const names = Object.keys(candidate.properties);
    const shared = names.filter((name) => own.has(name)).length;
    return names.includes(parent.idProperty) && shared >= Math.ceil(0.6 * Math.min(names.length, own.size));
  });
}

/** The records the spec shows as success answers of the parent's read (inside their envelope, D73). */
function exampleRecords(parent: ResourceModel): ExactRecord[] {
  const read = parent.operations.read;
  if (read === undefined) return [];
  return read.responses
    .filter((response) => response.status.startsWith('2'))
    .flatMap((response) => response.examples.map((example) => recordIn(example.value, read.answerEnvelope)))
    .filter((record): record is ExactRecord => record !== null && typeof record === 'object' && !Array.isArray(record));
}
