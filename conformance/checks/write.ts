import fc from 'fast-check';
import { toView } from '../../model/json.js';
import { keptAsSent, mayBeLeftOut, shows } from '../../judge/record-rules.js';
import { recordIn, renameMember } from '../../model/resources.js';
import type { OperationModel, ResourceModel } from '../../model/model.js';
import { objectShape, type Schema } from '../../model/schema.js';
import { bodyValues, ordinaryBody } from '../arbitraries/body.js';
import type { Exchange } from '../../judge/verdict.js';
import { Violation } from '../contract.js';
import type { CheckContext } from '../check-context.js';
import { idKey, idOf, memory, type Check, type ExactRecord } from './check.js';
import { itemRequest } from './identity.js';
import { largestPageQuery } from './population.js';
import { absentIds } from './read.js';
import { settleRead } from './read-after-write.js';
import { recordWindowQuery } from '../window-query.js';
import { resourceWindow } from '../../model/time-window.js';
import { endedByDelete, stateShown } from './ended.js';
import { createRecord, isReturned, returnedPart, listRecords, operation, readRecord, show, successStatuses } from './records.js';

/** What a record must hold after a write: these properties with these values (others are not judged). */
type Expected = Record<string, unknown>;

/** The first property of `expected` that `got` does not hold with the same value, as a message; or `undefined`. */
function mismatch(resource: ResourceModel, expected: Expected, got: ExactRecord): string | undefined {
  for (const [name, sent] of Object.entries(expected)) {
    if (!isReturned(resource, name) || !keptAsSent(resource, name, sent)) continue;
    if (!Object.hasOwn(got, name) && mayBeLeftOut(resource, name, sent)) continue;
    // The record's key in another JSON type (digits held, an integer in a replace's receipt) is the same key (D892).
    if (name === resource.idProperty && Object.hasOwn(got, name) && idKey(got[name]) === idKey(sent)) continue;
    const value = returnedPart(resource.properties[name], sent);
    if (!Object.hasOwn(got, name) || !shows(got[name], value, resource.properties[name])) return `${name} should be ${show(value)} but is ${Object.hasOwn(got, name) ? show(got[name]) : 'absent'}`;
  }
  return undefined;
}

/**
 * After a write acknowledged with a 2xx: the write's own answer (when it carries the record), a read (within the
 * consistency window) and the list (when the record is on its largest page, or the page is short) show `expected`.
 */
async function expectPersisted(context: CheckContext, resource: ResourceModel, id: string, expected: Expected, answer: { exchange: Exchange; body: unknown }, what: string): Promise<void> {
  if (answer.body !== null && typeof answer.body === 'object' && !Array.isArray(answer.body)) {
    const problem = mismatch(resource, expected, answer.body as ExactRecord);
    if (problem !== undefined) throw new Violation(`${what} answered a record where ${problem}`, answer.exchange);
  }
  if (resource.operations.read !== undefined) {
    const read = await settleRead(context, () => readRecord(context, resource, id), (r) => r.record !== undefined && mismatch(resource, expected, r.record) === undefined);
    const problem = mismatch(resource, expected, read.record!);
    if (problem !== undefined) throw new Violation(`after ${what}, a read of ${resource.name} ${id} shows ${problem}`, read.exchange);
  }
  if (resource.operations.list !== undefined) {
    const { exchange, records } = await listRecords(context, resource, largestPageQuery(resource));
    const listed = records.find((record) => idOf(resource, record) === id);
    const problem = listed === undefined ? undefined : mismatch(resource, listedExpectation(resource, expected), listed);
    if (problem !== undefined) throw new Violation(`after ${what}, the list shows ${resource.name} ${id} where ${problem}`, exchange);
  }
}

/**
 * What the list must show of `expected` (D203): the members whose value the list's own item schema admits. A list
 * whose items name another schema than the read pins some members to its own values (`object` is
 * `organization.certificate` listed, `certificate` read); a server following both schemas answers each, so a
 * member the item schema's `enum` or `const` excludes is not held to the read's value in the list.
 */
function listedExpectation(resource: ResourceModel, expected: Expected): Expected {
  const list = resource.list;
  const response = list?.operation.responses.find((r) => r.status.startsWith('2') && r.schema !== undefined);
  let array: Schema | undefined = response?.schema;
  if (list?.shape.kind === 'object') for (const name of list.shape.itemsPath) array = array === undefined ? undefined : objectShape(array).properties[name];
  const items = array?.['items'];
  if (items === null || typeof items !== 'object' || Array.isArray(items) || items === resource.recordSchema) return expected;
  const members = objectShape(items as Schema).properties;
  const admits = (name: string, value: unknown): boolean => {
    const member = members[name];
    if (member === undefined || !['string', 'number', 'boolean'].includes(typeof value)) return true;
    const pinned = Array.isArray(member['enum']) ? (member['enum'] as unknown[]) : Object.hasOwn(member, 'const') ? [member['const']] : undefined;
    return pinned === undefined || pinned.includes(value);
  };
  return Object.fromEntries(Object.entries(expected).filter(([name, value]) => admits(name, value)));
}

/**
 * How a write `op` bears on the members of the record it writes (D263), as its body schema states it: `kept(name)`,
 * whether an update that leaves `name` out must leave it as it was (a member no write body names, `closed_at` or a
 * count, is the server's to keep and may change with the write); `taken(name)`, whether a value written to it must
 * show (not when its description says it is "ignored unless" (or "when", "if") another condition holds, or
 * "silently dropped" for some callers: the server sets it with the member it depends on, so neither holds).
 */
export function writeBearing(op: OperationModel): { kept(name: string): boolean; taken(name: string): boolean } {
  const bodySchema = op.body === undefined ? undefined : objectShape(op.body.schema);
  const own = op.bodyEnvelope === undefined ? bodySchema : objectShape(bodySchema?.properties[op.bodyEnvelope] ?? {});
  const writable = own === undefined ? [] : Object.keys(own.properties);
  const conditional = (name: string): boolean => {
    const text = own?.properties[name]?.['description'];
    return typeof text === 'string' && /\bignored (?:unless|when|if)\b|\bsilently dropped\b/i.test(text);
  };
  return { kept: (name) => !conditional(name) && (writable.length === 0 || writable.includes(name)), taken: (name) => !conditional(name) };
}

/**
 * What a record must show after `op` wrote `changed` to `created` (D34): the members written with their values
 * (a `null` removes one and is not judged), and, for an update, the members it left out as they were, both as far
 * as {@link writeBearing} holds them.
 */
function writeExpectation(resource: ResourceModel, op: OperationModel, created: ExactRecord, changed: Record<string, unknown>, role: 'replace' | 'update'): Expected {
  const bearing = writeBearing(op);
  const kept = role === 'update' ? Object.fromEntries(Object.entries(created).filter(([name]) => !Object.hasOwn(changed, name) && bearing.kept(name))) : {};
  const written = Object.entries(changed).filter(([name, value]) => value !== null && bearing.taken(name));
  return { ...kept, ...Object.fromEntries(written), [resource.idProperty]: created[resource.idProperty] };
}

/** Whether the spec documents `status` for an operation (then the behaviour that needs it is held to it). */
function documents(op: OperationModel, status: string): boolean {
  return op.responses.some((response) => response.status === status);
}

/** Sends a write to the item `id` and checks its answer against the contract (a documented 2xx). */
async function writeItem(context: CheckContext, op: OperationModel, resource: ResourceModel, id: string, body: unknown): Promise<{ exchange: Exchange; body: unknown }> {
  return context.call(op, itemRequest(context, resource, op, id, body as Record<string, unknown> | undefined), successStatuses(op));
}

/**
 * The fixed case an update must survive, whatever the random runs draw: a record created with as many members as
 * ordinary bodies hold, then changed in one member only. Every other member keeps its value (D34: a `PATCH`
 * merges); a server that replaces the record, or drops the members the change does not name, fails here.
 */
async function expectNarrowUpdateKeepsTheRest(context: CheckContext, resource: ResourceModel, op: OperationModel): Promise<void> {
  const integers = context.target.integers;
  const create = operation(resource, 'create');
  const fullest = Array.from({ length: 12 }, (_, seed) => ordinaryBody(context, create, integers, 100 + seed)).reduce((a, b) => (Object.keys(b).length > Object.keys(a).length ? b : a));
  // A body wrapping the record in an envelope (D73) has one member: no narrower change to send than the random runs'.
  if (op.bodyEnvelope !== undefined) return;
  const donor = ordinaryBody(context, op, integers, 7);
  // A rename (`new_name`, D144) moves the record to another key: not a change this check can read back by its id.
  const rename = renameMember(op, resource);
  const change = Object.entries(donor).filter(([name, value]) => value !== null && name !== rename).map(([name, value]) => ({ [name]: value })).find((one) => op.body?.validate(toView(one)) !== false);
  if (change === undefined) return;
  const created = (await createRecord(context, resource, fullest))!;
  const recordId = idOf(resource, created);
  const answer = await writeItem(context, op, resource, recordId, change);
  await expectPersisted(context, resource, recordId, writeExpectation(resource, op, created, change, 'update'), answer, `${op.operationId} with only ${show(change)}`);
}

/**
 * Replace (`PUT`) and update (`PATCH`) persist (DECISIONS D34): after a create and a write of valid values, the
 * write's answer, a read and the list show the new values; an update leaves the properties it does not name as
 * they were (JSON Merge Patch: a `null` removes a member and is not judged).
 */
export function persistedCheck(resource: ResourceModel, role: 'replace' | 'update', id: string, rule: string): Check {
  return {
    id,
    rule,
    writes: true,
    async run(context) {
      const create = operation(resource, 'create');
      const op = operation(resource, role);
      const options = { integers: context.target.integers, strings: 'ordinary' } as const;
      if (role === 'update') await expectNarrowUpdateKeepsTheRest(context, resource, op);
      // A rename (`new_name`, D144) moves the record to another key: the changes read back by its id leave it out.
      const rename = renameMember(op, resource);
      const changes = rename === undefined ? bodyValues(context, op, options) : bodyValues(context, op, options).map((body) => withoutMember(body, rename));
      await context.forAll(fc.tuple(bodyValues(context, create, options), changes, absentIds(context, resource)), async ([initial, change, absent]) => {
        const created = (await createRecord(context, resource, initial))!;
        const recordId = idOf(resource, created);
        const changed = (recordIn(change, op.bodyEnvelope) ?? {}) as Record<string, unknown>;
        // An update that names no member changes nothing: a server may refuse it with its documented 400 (D277).
        const empty = role === 'update' && Object.keys(changed).length === 0;
        const answer = await context.call(op, itemRequest(context, resource, op, recordId, change as Record<string, unknown> | undefined), [...successStatuses(op), ...(empty && documents(op, '400') ? [400] : [])]);
        if (answer.exchange.response.status === 400) return;
        const expected = writeExpectation(resource, op, created, changed, role);
        await expectPersisted(context, resource, recordId, expected, answer, `${op.operationId} with ${show(change)}`);
        // The same valid write to an id that names no record is the documented 404, not a 2xx. A singleton under a
        // parent the description exemplifies has no such id to name: its parent is the one the examples show, and its
        // record the one there (D926).
        const noAbsentId = op.idIn === 'parent' && resource.parent?.byExample !== undefined;
        if (documents(op, '404') && !noAbsentId) await context.call(op, itemRequest(context, resource, op, absent, change), [404]);
      }, { runs: Math.min(context.target.runs, 20) });
    },
  };
}

/** A drawn body without `member` (an object body; anything else as it is). */
function withoutMember<T>(body: T, member: string): T {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !Object.hasOwn(body, member)) return body;
  return Object.fromEntries(Object.entries(body).filter(([name]) => name !== member)) as T;
}

/**
 * Delete (DECISIONS D34): after a create and a delete answered with a documented 2xx, a read is a 404 and no list
 * shows the record again, or, where the delete ends a record that outlives its end (D434), shows it only ended (D440).
 */
export function goneCheck(resource: ResourceModel, id: string, rule: string): Check {
  return {
    id,
    rule,
    writes: true,
    async run(context) {
      const create = operation(resource, 'create');
      const op = operation(resource, 'delete');
      await context.forAll(bodyValues(context, create, { integers: context.target.integers, strings: 'ordinary' }), async (initial) => {
        const created = (await createRecord(context, resource, initial))!;
        const recordId = idOf(resource, created);
        await writeItem(context, op, resource, recordId, undefined);
        memory(context, resource).deletedIds.add(recordId);
        // A delete that ends the record (D434) changes its end and state: it is no longer as created.
        memory(context, resource).created.delete(recordId);
        const ended = await expectGone(context, resource, created, op.operationId);
        // Deleting it again names no record: the documented 404, not a 2xx. A record the delete ended (D440) is
        // still there: ending it again may be taken as well.
        if (documents(op, '404')) await context.call(op, itemRequest(context, resource, op, recordId), ended ? [...successStatuses(op), 404] : [404]);
      }, { runs: Math.min(context.target.runs, 20) });
    },
  };
}

/**
 * A deleted record: a read is a 404 (within the consistency window), and the largest list page, asked within the
 * narrowest window that held the record (D186), does not show it. A record whose delete ends it instead (its
 * records outlive their end, D434) may still be read and listed, in its ended state only (D440). Answers whether
 * the record was read or listed so.
 */
async function expectGone(context: CheckContext, resource: ResourceModel, deleted: ExactRecord, deletedBy: string): Promise<boolean> {
  const recordId = idOf(resource, deleted);
  const readOp = resource.operations.read;
  const still = (record: ExactRecord | undefined): boolean => record !== undefined && !endedByDelete(resource, record);
  let ended = false;
  if (readOp !== undefined) {
    const read = await settleRead(context, () => readRecord(context, resource, recordId, [...successStatuses(readOp), 404]), (r) => !still(r.record));
    if (still(read.record)) throw new Violation(`${resource.name} ${recordId} was deleted by ${deletedBy}, yet a read still returns it${endingNote(resource, read.record!)}`, read.exchange);
    ended = read.record !== undefined;
  }
  if (resource.operations.list !== undefined) {
    // Asked with the widest window, a list full of other records may hold the deleted one past its first page.
    const query = [largestPageQuery(resource), recordWindowQuery(resource, deleted) ?? ''].filter((part) => part !== '').join('&');
    const shown = (records: ExactRecord[]): ExactRecord | undefined => records.find((record) => idOf(resource, record) === recordId);
    const { exchange, records } = await settleRead(context, () => listRecords(context, resource, query), (l) => !still(shown(l.records)));
    const listed = shown(records);
    if (still(listed)) throw new Violation(`${resource.name} ${recordId} was deleted by ${deletedBy}, yet the list still shows it${endingNote(resource, listed!)}`, exchange);
    ended ||= listed !== undefined;
  }
  return ended;
}

/** For a resource whose delete may end a record (D434), the state shown and the one an ended record has; else nothing. */
function endingNote(resource: ResourceModel, record: ExactRecord): string {
  const window = resourceWindow(resource);
  return window?.outlives === true ? ` in state ${stateShown(resource, record)}, not its ended ${JSON.stringify(window.after)}` : '';
}
