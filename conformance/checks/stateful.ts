import fc from 'fast-check';
import { exactJson, sameJson } from '../../model/json.js';
import type { ApiModel, FilterModel, ResourceModel } from '../../model/model.js';
import { recordIn, renameMember } from '../../model/resources.js';
import { keptAsSent } from '../../judge/record-rules.js';
import { bodyValues, withProperty } from '../arbitraries/body.js';
import { allowedSize, limitRange, sentSize, validLimit } from '../arbitraries/query-strings.js';
import { Violation } from '../contract.js';
import type { CheckContext } from '../check-context.js';
import { idOf, isKnownId, memory, shownUnfiltered, type Check, type ExactRecord } from './check.js';
import { itemRequest } from './identity.js';
import { settleRead } from './read-after-write.js';
import { endedByDelete, stateShown } from './ended.js';
import { writeBearing } from './write.js';
import { inListScope, listScope } from './list-scope.js';
import { absentIds } from './read.js';
import { createRecord, expectSameRecord, listRecords, operation, readRecord, show, successStatuses } from './records.js';
import { reachableResources } from './parents.js';

/**
 * The model of a run: per resource, only the records this run created, as the target last acknowledged them, so
 * the suite works on a target that already holds data. A property absent at creation may be filled later.
 */
type Model = Map<string, ExactRecord[]>;
type RecordCommand = fc.AsyncCommand<Model, CheckContext>;

const recordsIn = (model: Readonly<Model>, resource: ResourceModel): ExactRecord[] => model.get(resource.name) ?? [];

/** create: a success with the submitted fields and a new id (seed, Endpoints §2). */
class CreateCommand implements RecordCommand {
  constructor(readonly resource: ResourceModel, readonly value: ExactRecord) {}
  check = (): boolean => true;
  async run(model: Model, context: CheckContext): Promise<void> {
    const created = (await createRecord(context, this.resource, this.value))!;
    model.set(this.resource.name, [...recordsIn(model, this.resource), created]);
  }
  toString = (): string => `${operation(this.resource, 'create').operationId}(${exactJson(this.value)})`;
}

/** read of a record this run created: the same fields (seed, Endpoints §3). */
class ReadCommand implements RecordCommand {
  constructor(readonly resource: ResourceModel, readonly pick: number) {}
  check = (model: Readonly<Model>): boolean => recordsIn(model, this.resource).length > 0;
  async run(model: Model, context: CheckContext): Promise<void> {
    const records = recordsIn(model, this.resource);
    const expected = records[this.pick % records.length]!;
    const { exchange, record } = await settleRead(context, () => readRecord(context, this.resource, idOf(this.resource, expected)), (r) => r.record !== undefined);
    expectSameRecord(this.resource, expected, record!, exchange, operation(this.resource, 'read').operationId);
  }
  toString = (): string => `${operation(this.resource, 'read').operationId}(created #${this.pick})`;
}

/** read of an id no record has: 404 (seed, Endpoints §3). */
class ReadAbsentCommand implements RecordCommand {
  constructor(readonly resource: ResourceModel, readonly id: string) {}
  check = (): boolean => true;
  async run(_model: Model, context: CheckContext): Promise<void> {
    if (isKnownId(context, this.resource, this.id)) return;
    await readRecord(context, this.resource, this.id, [404]);
  }
  toString = (): string => `${operation(this.resource, 'read').operationId}(${this.id}, absent)`;
}

/**
 * list: rules 1-3 (seed, Endpoints §1), each listed record this run created has its fields, and a page shorter
 * than its limit is complete: it holds every record of the run that matches the filter.
 */
class ListCommand implements RecordCommand {
  constructor(readonly resource: ResourceModel, readonly limit: number | undefined, readonly filter: { model: FilterModel; value: unknown } | undefined) {}
  check = (): boolean => true;
  async run(model: Model, context: CheckContext): Promise<void> {
    const bound = this.limit ?? this.resource.limit?.default ?? this.resource.limit?.maximum;
    const matches = (record: ExactRecord): boolean => this.filter === undefined || sameJson(record[this.filter.model.property], this.filter.value);
    // Without a filter, a record must be listed only when it also has every defaulted filter's default (D78); and
    // only when it holds the value each required filter is asked with (D570, D934).
    const due = (record: ExactRecord): boolean => matches(record) && inListScope(context, this.resource, record, this.filter?.model.parameter.name) && (this.filter !== undefined || shownUnfiltered(this.resource, record));
    const wanted = recordsIn(model, this.resource).filter(due).map((record) => idOf(this.resource, record));
    // Read again within the consistency window while a short page lacks a record this run wrote.
    const complete = (page: { records: ExactRecord[] }): boolean => bound === undefined || page.records.length >= bound || wanted.every((id) => page.records.some((record) => idOf(this.resource, record) === id));
    const { exchange, records, keys } = await settleRead(context, () => listRecords(context, this.resource, { limit: this.limit, filter: this.filter }), complete);
    if (bound !== undefined && records.length > bound) throw new Violation(`the page holds ${records.length} records, more than limit ${bound}`, exchange);
    // A list of keys (D231) shows no member to match: a key names the record the model holds, judged by its members (D825).
    const modelled = new Map(recordsIn(model, this.resource).map((record) => [idOf(this.resource, record), record]));
    const shown = keys
      ? records.flatMap((record): ExactRecord[] => {
          const known = modelled.get(idOf(this.resource, record));
          return known === undefined ? [] : [known];
        })
      : records;
    if (shown.some((record) => !matches(record))) throw new Violation(`a record with another ${this.filter!.model.property} than ${show(this.filter!.value)} is listed`, exchange);
    const listed = new Map(records.map((record) => [idOf(this.resource, record), record]));
    for (const record of recordsIn(model, this.resource)) {
      const seen = listed.get(idOf(this.resource, record));
      if (seen !== undefined) {
        if (!keys) expectSameRecord(this.resource, record, seen, exchange, operation(this.resource, 'list').operationId);
      } else if (bound !== undefined && records.length < bound && due(record)) {
        throw new Violation(`the page holds ${records.length} records, fewer than limit ${bound}, so it is the whole list, yet it lacks ${show(record)} created earlier in this run`, exchange);
      }
    }
  }
  toString = (): string => `${operation(this.resource, 'list').operationId}(limit=${this.limit ?? '-'}, ${this.filter === undefined ? 'no filter' : `${this.filter.model.parameter.name}=${show(this.filter.value)}`})`;
}

/** replace or update of a record this run created: a documented 2xx; the model takes the new values. */
class WriteCommand implements RecordCommand {
  constructor(readonly resource: ResourceModel, readonly role: 'replace' | 'update', readonly pick: number, readonly value: ExactRecord) {}
  check = (model: Readonly<Model>): boolean => recordsIn(model, this.resource).length > 0;
  async run(model: Model, context: CheckContext): Promise<void> {
    const records = recordsIn(model, this.resource);
    const index = this.pick % records.length;
    const old = records[index]!;
    const op = operation(this.resource, this.role);
    await context.call(op, itemRequest(context, this.resource, op, idOf(this.resource, old), this.value), successStatuses(op));
    // A member sent in another type than the record's, or one the record marks readOnly, is the server's to make
    // (D77): the model forgets it rather than expect the value sent.
    const sent = (recordIn(this.value, op.bodyEnvelope) ?? {}) as ExactRecord;
    // Members the write bears on only as the server decides (D263) are forgotten too.
    const bearing = writeBearing(op);
    const taken = Object.fromEntries(Object.entries(sent).filter(([name, value]) => keptAsSent(this.resource, name, value) && bearing.taken(name)));
    const before = Object.fromEntries(Object.entries(old).filter(([name]) => bearing.kept(name)));
    // The record keeps its id whatever the body says (where the body names the record, its id is the one sent).
    const merged: ExactRecord = { ...(this.role === 'update' ? before : {}), ...taken, [this.resource.idProperty]: old[this.resource.idProperty] };
    for (const name of Object.keys(sent)) if (!Object.hasOwn(taken, name) && name !== this.resource.idProperty) delete merged[name];
    // A null in a merge patch removes the member, and a replace may fill defaults: neither is judged later.
    const next = Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== null));
    model.set(this.resource.name, records.map((record, i) => (i === index ? next : record)));
  }
  toString = (): string => `${operation(this.resource, this.role).operationId}(created #${this.pick}, ${exactJson(this.value)})`;
}

/**
 * delete of a record this run created: a documented 2xx, then a read is a 404, or the record in its ended state
 * where a delete ends a record that outlives its end (D434, D440); the model forgets it.
 */
class DeleteCommand implements RecordCommand {
  constructor(readonly resource: ResourceModel, readonly pick: number) {}
  check = (model: Readonly<Model>): boolean => recordsIn(model, this.resource).length > 0;
  async run(model: Model, context: CheckContext): Promise<void> {
    const records = recordsIn(model, this.resource);
    const index = this.pick % records.length;
    const id = idOf(this.resource, records[index]!);
    const op = operation(this.resource, 'delete');
    memory(context, this.resource).deletedIds.add(id);
    // A delete that ends the record (D434) changes its end and state: it is no longer as created.
    memory(context, this.resource).created.delete(id);
    await context.call(op, itemRequest(context, this.resource, op, id), successStatuses(op));
    model.set(this.resource.name, records.filter((_, i) => i !== index));
    if (this.resource.operations.read !== undefined) {
      const read = await settleRead(context, () => readRecord(context, this.resource, id, [...successStatuses(this.resource.operations.read!), 404]), (r) => r.record === undefined || endedByDelete(this.resource, r.record));
      if (read.record !== undefined && !endedByDelete(this.resource, read.record)) throw new Violation(`${this.resource.name} ${id} was deleted, yet a read still returns it (state ${stateShown(this.resource, read.record)})`, read.exchange);
    }
  }
  toString = (): string => `${operation(this.resource, 'delete').operationId}(created #${this.pick})`;
}

/** `value` with each required filter's member set to the value the run's lists ask it with (D570), where the create can send it. */
function inScopeBody<T extends Record<string, unknown>>(context: CheckContext, resource: ResourceModel, value: T): T {
  const create = resource.operations.create!;
  return listScope(context, resource).reduce<T>((body, pinned) => (withProperty(create, body, pinned.filter.property, pinned.value) as T | undefined) ?? body, value);
}

/** The commands of one resource, one class per operation, so a shrunk sequence reads as calls, with their arbitraries. */
function commandsOf(context: CheckContext, resource: ResourceModel): fc.Arbitrary<RecordCommand>[] {
  const options = { integers: context.target.integers, strings: 'ordinary' } as const;
  const { create, read, list, replace, update } = resource.operations;
  // A singleton holds one record per parent (D53): a second create replaces or is refused, so records of a run do not accumulate as the model's do.
  if (create === undefined || resource.parent?.singleton === true) return [];
  // An operation served at its own server (D78, another host) is not the target's: its resource is left out (D207).
  if (Object.values(resource.operations).some((op) => op?.servedElsewhere !== undefined)) return [];
  // Where the list requires equality filters, half the creates carry the value each is asked with (D570), so that
  // short pages are held to them; the others are drawn freely, and are not due on any page (D934).
  const creates = listScope(context, resource).length === 0 ? bodyValues(context, create, options) : fc.tuple(bodyValues(context, create, options), fc.boolean()).map(([value, scoped]) => (scoped ? inScopeBody(context, resource, value) : value));
  const commands: fc.Arbitrary<RecordCommand>[] = [creates.map((value) => new CreateCommand(resource, value))];
  if (read !== undefined) commands.push(fc.nat().map((pick) => new ReadCommand(resource, pick)), absentIds(context, resource).map((id) => new ReadAbsentCommand(resource, id)));
  if (list !== undefined) {
    const limit = resource.limit === undefined ? fc.constant(undefined) : fc.option(fc.oneof(fc.integer({ min: limitRange(resource.limit)[0], max: Math.max(limitRange(resource.limit)[0], 6) }).map((size) => allowedSize(resource.limit!, size)), validLimit(resource.limit)), { nil: undefined });
    const filters = resource.filters.filter((f) => f.values !== undefined && f.values.length > 0).map((model) => fc.constantFrom(...model.values!).map((value) => ({ model, value })));
    const filter = filters.length === 0 ? fc.constant(undefined) : fc.option(fc.oneof(...filters), { nil: undefined });
    commands.push(fc.tuple(limit, filter).map(([size, which]) => new ListCommand(resource, sentSize(resource.limit, size), which)));
  }
  for (const [role, op] of [['replace', replace], ['update', update]] as const) {
    if (op === undefined) continue;
    // A rename (`new_name`, D144) moves the record to another key: the model follows records by their id, so the
    // writes it sends leave the rename out (as the persisted check does).
    const rename = renameMember(op, resource);
    const values = bodyValues(context, op, options).map((value) => (rename === undefined || !Object.hasOwn(value, rename) ? value : (Object.fromEntries(Object.entries(value).filter(([name]) => name !== rename)) as typeof value)));
    commands.push(fc.tuple(fc.nat(), values).map(([pick, value]) => new WriteCommand(resource, role, pick, value)));
  }
  if (resource.operations.delete !== undefined) commands.push(fc.nat().map((pick) => new DeleteCommand(resource, pick)));
  return commands;
}

/** Stateful, model-based: random sequences of every operation of every resource against a model of what the run wrote. */
export function statefulCheck(api: ApiModel, id: string, rule: string): Check {
  return {
    id,
    rule,
    writes: true,
    async run(context) {
      const resources = reachableResources(context, api);
      const commands = resources.flatMap((resource) => commandsOf(context, resource));
      if (commands.length === 0) return context.advise('no resource has a create the model could follow, so no sequence was run: not fully tested');
      const outside = new Map(resources.map((resource) => [resource, new Set(memory(context, resource).outOfView)]));
      await context.forAll(fc.commands(commands, { maxCommands: 40, size: '+1' }), (sequence) => fc.asyncModelRun(() => ({ model: new Map(), real: context }), sequence), {
        runs: Math.min(context.target.runs, 25),
      });
      // Records created outside a list's window are left out of what its pages must show (D90): said, never a silent pass.
      for (const [resource, before] of outside) {
        const added = [...memory(context, resource).outOfView].filter((id) => !before.has(id)).length;
        if (added > 0) context.advise(`${added} created ${resource.name} hold no value in the range ${resource.operations.list?.operationId ?? 'the list'}'s window bounds, so the model could not hold its pages to them: their membership was not verifiable`);
      }
    },
  };
}
