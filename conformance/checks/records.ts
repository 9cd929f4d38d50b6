import { documentedStatuses } from '../../judge/documented.js';
import { canonicalJson, exactInteger } from '../../model/json.js';
import { isLosslessNumber } from 'lossless-json';
import { memberAt } from '../../model/lists.js';
import type { OperationModel, ResourceModel } from '../../model/model.js';
import { limitRange, queryText, type ListQuery } from '../arbitraries/query-strings.js';
import { inWindow } from '../window-query.js';
import type { Exchange } from '../../judge/verdict.js';
import { Violation } from '../contract.js';
import { GenerationGaveUp, NotRun } from '../arbitraries/bounded.js';
import { bodyForm, isPinned } from '../arbitraries/body.js';
import { answerOnlyMembers, echoProblems, isReturned as isReturnedByJudge, keptAsSent, mayBeLeftOut, recordHolds, returnedPart, shows } from '../../judge/record-rules.js';
import { arrayBodyItems, keyOnlyAnswer, recordIn, scalarAnswer } from '../../model/resources.js';
import { requestOf } from '../context.js';
import { refusalIn } from '../refusals.js';
import type { CheckContext } from '../check-context.js';
import { idKey, idOf, memory, rememberRecords, type ExactRecord } from './check.js';
import { idValue, itemRequest, withClientId } from './identity.js';
import { settleRead } from './read-after-write.js';
import { withScope } from './list-scope.js';

/** A record as exact JSON, for messages. */
export function show(record: unknown): string {
  return canonicalJson(record);
}

/** The operation playing `role` for a resource. Errors: throws when the resource has none (a bug of the catalogue). */
export function operation(resource: ResourceModel, role: keyof ResourceModel['operations']): OperationModel {
  const op = resource.operations[role];
  if (op === undefined) throw new Error(`resource ${resource.name} has no ${role} operation`);
  return op;
}

/**
 * The statuses a successful call of `op` may answer: every documented 2xx (seed: listPets 200, createPet 201); where
 * none is documented, every documented 3xx (an OAuth start that answers only its `301` redirect, D554); else the
 * operation's success status.
 */
export function successStatuses(op: OperationModel): number[] {
  const documented = op.responses.map((r) => Number(r.status)).filter((status) => status >= 200 && status < 300);
  if (documented.length > 0) return documented;
  const redirects = op.responses.map((r) => Number(r.status)).filter((status) => status >= 300 && status < 400);
  return redirects.length === 0 ? [op.successStatus] : redirects;
}

/**
 * The statuses a read may answer for a well-formed id that names no record: 404, and also its documented 2xx where
 * the read documents no 404 (nor `4XX`): such a description promises no 404, and a server that answers an empty
 * record of that name (a workspace that "exists" once asked for) is inside it (spec/DECISIONS.md › D540).
 */
export function absentStatuses(op: OperationModel): number[] {
  return op.responses.some((r) => r.status === '404' || r.status === '4XX') ? [404] : [404, ...successStatuses(op)];
}

/** The records of a list answer: the bare array (seed, Pets), or the array property of a wrapper object. */
export function recordsOf(resource: ResourceModel, body: unknown): ExactRecord[] {
  const list = resource.listShape?.kind === 'object' ? memberAt(body, resource.listShape.itemsPath) : body;
  if (!Array.isArray(list)) return [];
  // A list of scalars (template names) names each record by its key, the value its item path takes (D231).
  return (list as unknown[]).map((item) => (item !== null && typeof item === 'object' && !isLosslessNumber(item) ? (item as ExactRecord) : { [resource.idProperty]: item }));
}

/** Whether a list answer names its records by their keys alone (`ticketIds: ["1", "2"]`, D231): its items are no objects. */
export function listsKeys(resource: ResourceModel, body: unknown): boolean {
  const list = resource.listShape?.kind === 'object' ? memberAt(body, resource.listShape.itemsPath) : body;
  return Array.isArray(list) && list.length > 0 && list.every((item) => item === null || typeof item !== 'object' || isLosslessNumber(item));
}

/**
 * The records of a list of keys (D231) as the run knows them: each key's record as this run created it, where it did
 * (records no write changes, D7); keys of records the run did not make are left out, as nothing shows their members
 * (D825).
 */
export function knownRecords(context: CheckContext, resource: ResourceModel, records: readonly ExactRecord[]): ExactRecord[] {
  const created = memory(context, resource).created;
  return records.flatMap((record) => {
    const known = created.get(idOf(resource, record));
    return known === undefined ? [] : [known];
  });
}

/** The list operation with a query (a {@link ListQuery} or raw query text), checked against the contract (2xx only). */
export async function listRecords(context: CheckContext, resource: ResourceModel, query: ListQuery | string = ''): Promise<{ exchange: Exchange; records: ExactRecord[]; keys: boolean }> {
  const op = operation(resource, 'list');
  // A required filter is asked with the value the records were made with (D570), not a sample of its own.
  const text = withScope(context, resource, typeof query === 'string' ? query : queryText(resource.limit, query));
  const { exchange, body } = await context.call(op, requestOf(context, op, { query: text }), successStatuses(op));
  const records = recordsOf(resource, body);
  // A list of keys (D231) shows no member of a record but the key that names it: nothing else to hold it to (D825).
  const keys = listsKeys(resource, body);
  if (!keys) expectAsCreated(resource, records, exchange, op.operationId, context);
  rememberRecords(context, resource, records);
  return { exchange, records, keys };
}

/** The read operation for one id, checked against the contract; `expected` the statuses allowed (default: success). */
export async function readRecord(context: CheckContext, resource: ResourceModel, id: string, expected?: number[]): Promise<{ exchange: Exchange; record: ExactRecord | undefined }> {
  const op = operation(resource, 'read');
  const { exchange, body } = await context.call(op, itemRequest(context, resource, op, id), expected ?? successStatuses(op));
  const found = exchange.response.status < 300 ? (body as ExactRecord) : undefined;
  if (found !== undefined) expectAsCreated(resource, [found], exchange, op.operationId, context);
  if (found !== undefined) rememberRecords(context, resource, [found]);
  return { exchange, record: found };
}

/**
 * Whether the id of a create is new (seed, createPet rule 2): no other create carried it, and no response seen
 * before the create was sent (`sentAt`, a tick of the memory) held it. A list answered while the create was in
 * flight may show the new record first; that is not a repeat.
 */
function isNewId(context: CheckContext, resource: ResourceModel, id: string, sentAt: number): boolean {
  const remembered = memory(context, resource);
  const seen = remembered.knownIds.get(id);
  return !remembered.createdIds.has(id) && (seen === undefined || seen > sentAt);
}

/**
 * The create operation with a valid body; checks the answer (seed, createPet rule 2: it repeats the submitted
 * fields and carries a new id) and returns the created record. When `mayRefuse` is `true` (a string at the corners
 * of an unconstrained property, DECISIONS D2), a 400 is accepted unless `--strict`, with advice, and `undefined`
 * returned. When it is `'reference'` (a member naming a record of another collection set to a value the suite did
 * not see exist, D172), any documented client error but 401/403/429, and a 404, are accepted the same way.
 */
export async function createRecord(context: CheckContext, resource: ResourceModel, drawn: ExactRecord, mayRefuse: boolean | 'reference' = false): Promise<ExactRecord | undefined> {
  const op = operation(resource, 'create');
  const value = withClientId(context, resource, drawn);
  const sentAt = memory(context, resource).tick;
  const refusals = mayRefuse === 'reference' ? [...new Set([...documentedStatuses(op).filter((status) => status >= 400 && status < 500 && ![401, 403, 429].includes(status)), 404])] : mayRefuse && !context.target.strict ? [400] : [];
  const { exchange, body, sentValue } = await createConflictAware(context, resource, op, value, [...successStatuses(op), ...refusals]);
  if (refusals.includes(exchange.response.status)) {
    context.advise(
      mayRefuse === 'reference'
        ? `${op.operationId} refused a body naming a record it may not hold with ${exchange.response.status} (allowed: a reference to no record), e.g. ${show(value).slice(0, 80)}`
        : `${op.operationId} refused a value at the corners of an unconstrained string with 400 (allowed: its constraints are not shown), e.g. ${show(value).slice(0, 80)}`,
    );
    return undefined;
  }
  // A body of many records (D436) is found item by item in the list (D441).
  if (Array.isArray(sentValue) && arrayBodyItems(op) !== undefined && resource.operations.list !== undefined) return createdFromArray(context, resource, sentValue, exchange);
  // The record sent is the body's, or its envelope's member (D73).
  const sent = (recordIn(sentValue, op.bodyEnvelope) ?? {}) as ExactRecord;
  // A create that answers only the new key (D431) is read back by it, as one that answers nothing is.
  const keyMember = keyOnlyAnswer(op, resource);
  const answered = body !== null && typeof body === 'object' && !Array.isArray(body) && !isLosslessNumber(body) ? (body as ExactRecord) : undefined;
  // A create that answers a scalar (D552) is read back by it where it can be the record's key.
  const scalarKey = keyMember === undefined ? answeredScalarKey(resource, op, body) : undefined;
  const created =
    answered !== undefined && keyMember === undefined
      ? answered
      : await createdWithoutAnswer(context, resource, sent, exchange, scalarKey ?? (keyMember === undefined || answered?.[keyMember] === undefined ? undefined : idKey(answered[keyMember])));
  expectEcho(context, resource, op, sent, created, exchange);
  const id = idOf(resource, created);
  if (!isNewId(context, resource, id, sentAt)) throw new Violation(`the ${exchange.response.status} carries ${resource.idProperty} ${id}, which another record already has (ids must be new)`, exchange);
  const remembered = memory(context, resource);
  remembered.createdIds.add(id);
  if (resource.operations.replace === undefined && resource.operations.update === undefined) remembered.created.set(id, created);
  if (!inWindow(resource, created)) remembered.outOfView.add(id);
  if (resource.idType === 'integer') remembered.lastCreatedId = exactInteger(id);
  rememberRecords(context, resource, [created]);
  return created;
}

/**
 * The key a create's scalar answer names (spec/DECISIONS.md › D552): its text where the answer's schema is an
 * integer, number or string and the text can be the resource's id (digits for an integer id), else `undefined`
 * (a boolean, `"OK"` beside integer ids), when the record is found as for a create that answers nothing.
 */
function answeredScalarKey(resource: ResourceModel, op: OperationModel, body: unknown): string | undefined {
  const scalar = scalarAnswer(op);
  if (scalar === undefined || scalar === 'boolean' || body === null || body === undefined || (typeof body === 'object' && !isLosslessNumber(body))) return undefined;
  const key = idKey(body);
  return resource.idType === 'integer' && !/^-?\d+$/.test(key) ? undefined : key;
}

/**
 * A create whose body is an array of records (spec/DECISIONS.md › D436), answered with a documented 2xx: each object
 * item sent is then listed (within the consistency window, on the largest page) as a record that shows every member
 * the item wrote, by the judge's echo rules; the answer need carry neither record nor key (D441). Answers the record
 * listed for the last item, `undefined` for a body with no object item. The records found are remembered as created
 * but not held to later reads as created, nor to new ids: an item names its record by what it holds, so a later
 * item (or run) holding the same may rightly update it. Errors: a {@link Violation} naming the first item no listed
 * record shows.
 */
async function createdFromArray(context: CheckContext, resource: ResourceModel, items: readonly unknown[], exchange: Exchange): Promise<ExactRecord | undefined> {
  const sent = items.filter((item): item is ExactRecord => item !== null && typeof item === 'object' && !Array.isArray(item));
  if (sent.length === 0) return undefined;
  const showing = (records: readonly ExactRecord[], item: ExactRecord): ExactRecord | undefined => records.find((record) => echoProblems(resource, item, record).length === 0);
  const query = { limit: resource.limit === undefined ? undefined : limitRange(resource.limit)[1], filter: undefined };
  const listed = await settleRead(context, () => listRecords(context, resource, query), (l) => sent.every((item) => showing(l.records, item) !== undefined));
  const found: ExactRecord[] = [];
  for (const [index, item] of sent.entries()) {
    const record = showing(listed.records, item);
    if (record === undefined) {
      const near = listed.records.map((r) => echoProblems(resource, item, r)[0]?.message).find((message) => message !== undefined);
      throw new Violation(`the create answered ${exchange.response.status} to ${sent.length} records, yet no listed ${resource.name} shows item #${index + 1} ${show(item).slice(0, 160)}${near === undefined ? '' : ` (nearest: ${near})`}`, listed.exchange);
    }
    found.push(record);
  }
  const remembered = memory(context, resource);
  for (const record of found) {
    const id = idOf(resource, record);
    remembered.createdIds.add(id);
    if (!inWindow(resource, record)) remembered.outOfView.add(id);
  }
  rememberRecords(context, resource, found);
  return found.at(-1);
}

/**
 * `[409]` where a create documents it, else `[]`: the refusal a rule of the target's text may give a valid body the
 * suite drew (D180), accepted where a check sends one it does not retry.
 */
export function conflictStatuses(op: OperationModel): number[] {
  return op.responses.some((response) => response.status === '409') ? [409] : [];
}

/**
 * Sends a create whose operation documents `409`, and when a valid body is refused with it, sends it again with
 * fewer optional members, the last ones first, until one is taken (D180): a rule of the text the schema does not
 * encode (a booking with a dog on a trip that allows none) refuses a combination the suite drew, not every
 * record, so a set-up refused that way is no failure of the target. Members pinned to a record the target holds
 * (D95), required ones and a client-chosen id stay. `sentValue` is the body of the answered request; errors: a
 * {@link Violation} when even the body without optional members is refused with 409 (as any 409 was before).
 */
async function createConflictAware(context: CheckContext, resource: ResourceModel, op: OperationModel, value: unknown, allowed: number[]): Promise<Awaited<ReturnType<CheckContext['call']>> & { sentValue: unknown }> {
  const mayConflict = resource.parent?.singleton !== true && op.bodyEnvelope === undefined && conflictStatuses(op).length > 0 && value !== null && typeof value === 'object' && !Array.isArray(value);
  if (!mayConflict) return { ...(await createSingleAware(context, resource, op, value, allowed)), sentValue: value };
  const form = bodyForm(op);
  const required = form.kind === 'object' ? form.required : [];
  let current = value as Record<string, unknown>;
  const optional = Object.keys(current).filter((name) => !required.includes(name) && !isPinned(context, op, name) && name !== resource.idProperty);
  for (;;) {
    let answer: Awaited<ReturnType<CheckContext['call']>>;
    try {
      answer = await context.call(op, requestOf(context, op, { value: current }), [...allowed, 409]);
    } catch (error) {
      // The body the suite cut down after a 409 is its own, not a drawn one: a refusal of it leaves the 409 unexplained.
      const refusal = current === value ? undefined : refusalIn(error);
      if (refusal === undefined) throw error;
      throw new Violation(`${op.operationId} answered 409 to a valid body, and ${refusal.exchange!.response.status} to it without its optional members: a rule of the text refuses some combinations of members, not every record`, refusal.exchange);
    }
    if (answer.exchange.response.status !== 409) return { ...answer, sentValue: current };
    const dropped = optional.pop();
    if (dropped === undefined) throw new Violation(`${op.operationId} answered 409 to a valid body${optional.length === 0 && current === value ? '' : ' even without its optional members'}: a rule of the text refuses some combinations of members, not every record`, answer.exchange);
    context.advise(`${op.operationId} refused ${show(current).slice(0, 80)} with its documented 409 (a rule of the text the schema does not encode): sent again without ${dropped}`);
    current = Object.fromEntries(Object.entries(current).filter(([name]) => name !== dropped));
  }
}

/**
 * Sends a create. A singleton sub-resource (one record per parent, D53) whose create documents `409` may refuse a
 * second one under the same parent: the one there is deleted and the create sent again; without a delete
 * operation the check gives up (no verdict: the target's state, not the target, stops it).
 */
async function createSingleAware(context: CheckContext, resource: ResourceModel, op: OperationModel, value: unknown, allowed: number[]): ReturnType<CheckContext['call']> {
  const refusesSecond = resource.parent?.singleton === true && op.responses.some((response) => response.status === '409');
  if (!refusesSecond) return context.call(op, requestOf(context, op, { value }), allowed);
  const first = await context.call(op, requestOf(context, op, { value }), [...allowed, 409]);
  if (first.exchange.response.status !== 409) return first;
  const remove = resource.operations.delete;
  if (remove === undefined) throw new GenerationGaveUp(resource.name, `${op.operationId} answered 409: the parent holds its one ${resource.name} already, and the spec has no delete to clear it`);
  await context.call(remove, requestOf(context, remove), [...successStatuses(remove), 404]);
  return context.call(op, requestOf(context, op, { value }), allowed);
}

/**
 * The record a create made when its answer carries none (D52: 201/204 without a body): read back by the id in
 * its `Location` header, else by the id the client sent; without a read operation, the body sent with that id.
 * Errors: when neither names the record, a {@link Violation} for a 201 of a resource with a read (a client could
 * never find what it created), else {@link NotRun} (a 202 or 200 promises no key; D541).
 */
async function createdWithoutAnswer(context: CheckContext, resource: ResourceModel, sent: ExactRecord, exchange: Exchange, answeredKey?: string): Promise<ExactRecord> {
  const location = exchange.response.headers['location'];
  const fromLocation = location === undefined ? undefined : decodeURIComponent(new URL(location, 'http://target').pathname.split('/').filter(Boolean).at(-1) ?? '');
  const id = answeredKey ?? fromLocation ?? (Object.hasOwn(sent, resource.idProperty) ? idKey(sent[resource.idProperty]) : undefined);
  if (id === undefined) {
    // Only a 201 names what it made (RFC 9110 § 15.3.2), and only a record with an item path can be named: a 202
    // that accepts a job, or a record no read reaches, promises no key, so the record cannot be judged (D541).
    const promised = exchange.response.status === 201 && resource.operations.read !== undefined;
    const problem = `the ${exchange.response.status} answers no record and no Location header, and the body named no ${resource.idProperty}: the new record cannot be found`;
    if (!promised) throw new NotRun(resource.name, problem);
    throw new Violation(problem, exchange);
  }
  // Without a read, the record is what was sent, less what the server makes its own (the parent's key, D828).
  if (resource.operations.read === undefined) return { ...Object.fromEntries(Object.entries(sent).filter(([name, value]) => keptAsSent(resource, name, value))), [resource.idProperty]: idValue(resource, id) };
  const read = await settleRead(context, () => readRecord(context, resource, id, [...successStatuses(resource.operations.read!), 404]), (r) => r.record !== undefined);
  if (read.record === undefined) throw new Violation(`the create answered ${exchange.response.status}${fromLocation === undefined ? '' : ` with Location ${location}`}, yet a read of ${resource.name} ${id} is 404`, read.exchange);
  return read.record;
}

/** Whether the record as responses carry it shows `name` (the judge's rule, conformance/record-rules.ts). */
export const isReturned = isReturnedByJudge;

export { returnedPart };

/**
 * The answer repeats every submitted field exactly (seed, createPet rule 2; "byte for byte": int64 digit for
 * digit, strings code unit for code unit). A property left out of the request may come back filled (a server
 * default, seed Gaps: the default status is not shown): advice, never a failure.
 */
function expectEcho(context: CheckContext, resource: ResourceModel, op: OperationModel, sent: ExactRecord, got: ExactRecord, exchange: Exchange): void {
  const problem = echoProblems(resource, sent, got)[0];
  if (problem !== undefined) throw new Violation(problem.message, exchange);
  for (const [name, value] of Object.entries(got)) {
    if (name === resource.idProperty || Object.hasOwn(sent, name) || resource.properties[name] === undefined || answerOnlyMembers(resource).has(name)) continue;
    context.advise(`${op.operationId} without ${name} answered ${name} ${show(value)} (allowed: a default the spec does not show)`, `${op.operationId} default ${name}`);
  }
}

/**
 * Every record this process created, wherever it is read back (a list item, a read), holds every field as its
 * create acknowledged it, byte for byte. Only for resources whose records never change (no replace or update
 * operation: the seed's pets, DECISIONS D7); writable records are held to their writes by the checks that write.
 */
function expectAsCreated(resource: ResourceModel, records: readonly ExactRecord[], exchange: Exchange, where: string, context: CheckContext): void {
  const created = memory(context, resource).created;
  if (created.size === 0) return;
  for (const record of records) {
    const expected = created.get(idOf(resource, record));
    if (expected !== undefined) expectSameRecord(resource, expected, record, exchange, where);
  }
}

/**
 * Same fields as a record seen before (persistence: every field read back, byte for byte). A property absent
 * from `expected` may be present (a server default); one present must be equal.
 */
export function expectSameRecord(resource: ResourceModel, expected: ExactRecord, got: ExactRecord, exchange: Exchange, where: string): void {
  // Nothing sent for a member the record need not hold may be answered as the member left out (D260).
  // The key is the same key when its text is (a create answering `13` for the record read as `"13"`: each schema types it its own way).
  const sameKey = (name: string, value: unknown): boolean => name === resource.idProperty && Object.hasOwn(got, name) && idKey(got[name]) === idKey(value);
  // A value the record's own schema refuses (a create answering its own schema, D721) is no member of the record.
  const differs = Object.entries(expected).some(([name, value]) => isReturned(resource, name) && !sameKey(name, value) && recordHolds(resource, name, value) && (Object.hasOwn(got, name) ? !shows(got[name], value, resource.properties[name]) : !mayBeLeftOut(resource, name, value)));
  if (differs) throw new Violation(`${where}: ${resource.name} ${idOf(resource, expected)} is ${show(got)} but was ${show(expected)}`, exchange);
}
