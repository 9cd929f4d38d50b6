import { itemsPathOf, referencesOf, type ReferenceModel } from '../model/references.js';
import { objectShape } from '../model/schema.js';
import type { OperationModel } from '../model/model.js';
import { ordinaryBody, pinMember } from './arbitraries/body.js';
import { createRecord } from './checks/records.js';
import type { CheckContext, Resolution } from './check-context.js';
import type { Exchange } from '../judge/verdict.js';
import { NotRun } from './arbitraries/bounded.js';
import { describedValue, hasGivenValue } from './described-values.js';
import { failingExchange } from './report/results.js';

// A write whose body names a record of another collection (`crossing_id`) is refused with 404 by a server that
// does not hold the record named (spec/DECISIONS.md › D95): a random id makes the set-up of every check fail. So
// before a check runs, each such member is pinned to the id of a record that exists on the target.

// What a run learns here (references resolved and unresolved, the ids served lists show, the queries that find
// records) lives in its `RunState.references` (conformance/check-context.ts).

const keyOf = (context: CheckContext, op: OperationModel, reference: ReferenceModel): string => `${context.target.baseUrl} ${op.operationId} ${reference.member}`;

/**
 * The query text of a list with each required parameter (and, with `withOptional`, each optional one that has an
 * example) set to its example, enum member or default (D95); `undefined` when one can only be an object.
 */
export function exampleQuery(list: OperationModel, withOptional: boolean): string | undefined {
  const parts: string[] = [];
  for (const parameter of list.queryParams) {
    if (!parameter.required && (!withOptional || !hasGivenValue(parameter))) continue;
    // The value the description gives that the parameter's own schema takes (D906).
    const value = describedValue(parameter);
    if (value === undefined || (typeof value === 'object' && value !== null)) return undefined;
    parts.push(`${encodeURIComponent(parameter.name)}=${encodeURIComponent(String(value))}`);
  }
  return parts.join('&');
}

/** The records of a list answer at `path` (`[]`: the answer itself). */
function recordsAt(body: unknown, path: readonly string[]): unknown[] {
  let current = body;
  for (const step of path) current = current !== null && typeof current === 'object' && !Array.isArray(current) ? (current as Record<string, unknown>)[step] : undefined;
  return Array.isArray(current) ? current : [];
}

/** The id of the first record a list shows, asked with its required parameters from the spec's examples. */
async function listedId(context: CheckContext, reference: ReferenceModel): Promise<unknown> {
  for (const withOptional of [false, true]) {
    const query = exampleQuery(reference.list, withOptional);
    if (query === undefined) return undefined;
    try {
      const { body } = await context.call(reference.list, { method: 'GET', path: query === '' ? reference.list.path : `${reference.list.path}?${query}` }, [200]);
      for (const record of recordsAt(body, reference.itemsPath)) {
        const id = record !== null && typeof record === 'object' ? (record as Record<string, unknown>)[reference.idMember] : undefined;
        if (id !== undefined && id !== null) return id;
      }
    } catch {
      // The list's own checks judge its answers; here an unusable answer only means no id was found this way.
    }
  }
  return undefined;
}

/** The JSON type and format of a schema, as one text (`string uuid`): what tells ids of one kind apart. */
function kindOf(schema: unknown): string {
  const node = (typeof schema === 'object' && schema !== null ? schema : {}) as Record<string, unknown>;
  return `${String(node['type'])} ${String(node['format'])}`;
}

/**
 * The ids the lists that need no parameter show (a GET without path or required query parameters whose answer
 * holds records with an `id`; their first page, at most six each), grouped by the kind of their id
 * ({@link kindOf}). Asked once per target: a spec with many references does not re-read every list for each.
 */
function servedIds(context: CheckContext): Promise<Map<string, unknown[]>> {
  const key = context.target.baseUrl.replace(/\/+$/, '');
  const served = context.run.references.served;
  let found = served.get(key);
  if (found === undefined) served.set(key, (found = readServedIds(context)));
  return found;
}

async function readServedIds(context: CheckContext): Promise<Map<string, unknown[]>> {
  const byKind = new Map<string, unknown[]>();
  for (const list of context.model.operations) {
    if (list.method !== 'GET' || list.pathParams.length > 0 || list.queryParams.some((parameter) => parameter.required)) continue;
    const records = itemsPathOf(list.responses.find((response) => response.status.startsWith('2') && response.schema !== undefined)?.schema);
    const idSchema = records === undefined ? undefined : objectShape(records.items).properties['id'];
    if (records === undefined || idSchema === undefined) continue;
    try {
      const { body } = await context.call(list, { method: 'GET', path: list.path }, [200]);
      const ids = recordsAt(body, records.path)
        .map((record) => (record !== null && typeof record === 'object' ? (record as Record<string, unknown>)['id'] : undefined))
        .filter((id) => typeof id === 'string' || typeof id === 'number')
        .slice(0, 6);
      const kind = kindOf(idSchema);
      byKind.set(kind, [...(byKind.get(kind) ?? []), ...ids]);
    } catch {
      // That list's own checks judge its answers; here it only offers no ids.
    }
  }
  return byKind;
}

/**
 * The queries of `list` whose required parameters of an id's kind (`origin`, `destination`: uuids) take the ids the
 * parameterless lists show (D124): a server holding its own data (a timetable whose ports are not the spec's
 * examples) is still reached. Distinct values for distinct parameters come first; at most 36 queries. Empty when
 * the list needs no parameter or no list shows an id of a needed kind.
 */
async function servedIdQueries(context: CheckContext, list: OperationModel): Promise<string[]> {
  const required = list.queryParams.filter((parameter) => parameter.required);
  if (required.length === 0) return [];
  const ids = await servedIds(context);
  const choices = required.map((parameter) => ids.get(kindOf(parameter.schema)) ?? []);
  if (choices.some((values) => values.length === 0)) return [];
  let combos: unknown[][] = [[]];
  for (const values of choices) combos = combos.flatMap((combo) => values.map((value) => [...combo, value]));
  combos.sort((one, other) => Number(new Set(one).size !== one.length) - Number(new Set(other).size !== other.length));
  return combos.slice(0, 36).map((combo) => required.map((parameter, index) => `${encodeURIComponent(parameter.name)}=${encodeURIComponent(String(combo[index]))}`).join('&'));
}

/** The records `list` answers to `query` (at `itemsPath`), or none when it answers no 200. */
export async function recordsFor(context: CheckContext, list: OperationModel, query: string, itemsPath: readonly string[]): Promise<unknown[]> {
  try {
    const { body } = await context.call(list, { method: 'GET', path: query === '' ? list.path : `${list.path}?${query}` }, [200]);
    return recordsAt(body, itemsPath);
  } catch {
    // The list's own checks judge its answers; here an unusable answer only means nothing was found this way.
    return [];
  }
}

/** The id of the first record `reference`'s list shows when asked with ids other lists show (D124). */
async function listedIdFromServed(context: CheckContext, reference: ReferenceModel): Promise<unknown> {
  for (const query of await servedIdQueries(context, reference.list)) {
    for (const record of await recordsFor(context, reference.list, query, reference.itemsPath)) {
      const id = record !== null && typeof record === 'object' ? (record as Record<string, unknown>)[reference.idMember] : undefined;
      if (id !== undefined && id !== null) return id;
    }
  }
  return undefined;
}

/**
 * The query of required parameters that a list no create fills is asked with (D112, D124): the spec's examples,
 * enums or defaults ({@link exampleQuery}) when the list holds records for them, else the first query built from
 * the ids the parameterless lists show that does, else the examples' query. `undefined` when no query can be built.
 * Worked out once per target and list.
 */
export function queryHoldingRecords(context: CheckContext, list: OperationModel, itemsPath: readonly string[]): Promise<string | undefined> {
  const key = `${context.target.baseUrl.replace(/\/+$/, '')} ${list.operationId}`;
  const heldQueries = context.run.references.heldQueries;
  let found = heldQueries.get(key);
  if (found === undefined) {
    heldQueries.set(
      key,
      (found = (async () => {
        const examples = exampleQuery(list, false);
        if (examples !== undefined && (await recordsFor(context, list, examples, itemsPath)).length > 0) return examples;
        for (const query of await servedIdQueries(context, list)) if ((await recordsFor(context, list, query, itemsPath)).length > 0) return query;
        return examples;
      })()),
    );
  }
  return found;
}

/**
 * An existing record's id for `reference`, in this order (D95): one the suite creates (the referenced list
 * belongs to a resource with a create, and the run may write); the first record the list shows when asked with
 * its required parameters (then also its optional ones) set from the spec's examples and enums, then with its
 * required id parameters set from the ids other lists show (D124); else an id the
 * spec shows (the member's examples, the list's response examples). A reason when there is none.
 */
async function resolve(context: CheckContext, reference: ReferenceModel): Promise<Resolution> {
  const resource = reference.list.resource;
  const create = resource?.operations.create;
  if (resource !== undefined && create !== undefined && !context.target.readOnly && referencesOf(create, context.model.operations).length === 0) {
    try {
      const created = await createRecord(context, resource, ordinaryBody(context, create, context.target.integers, 13));
      if (created !== undefined && created[resource.idProperty] !== undefined) return { value: created[resource.idProperty] };
    } catch {
      // Fall through to what the list holds: the create's own checks judge its answer.
    }
  }
  const listed = (await listedId(context, reference)) ?? (await listedIdFromServed(context, reference));
  if (listed !== undefined) return { value: listed };
  if (reference.examples.length > 0) {
    const unverified = `${reference.member} names a record of ${reference.list.method} ${reference.list.path}; that list showed none when asked with the spec's example parameters, so the suite sent the id the spec shows (${JSON.stringify(reference.examples[0])}), which the target does not hold`;
    return { value: reference.examples[0], unverified };
  }
  return { reason: `${reference.member} names a record of ${reference.list.method} ${reference.list.path}, and the suite found none: that list showed no record when asked with the spec's example parameters, and the spec shows no id` };
}

/**
 * Pins every reference member of every write of the spec to an existing record's id on the context's target
 * (resolved once per run and member, see {@link resolve}). A member left unresolved keeps its drawn values and
 * is remembered, so that a 404 its write answers is reported as a skip with the reason ({@link unresolvedReason}).
 */
export async function prepareReferences(context: CheckContext): Promise<void> {
  const { resolved, unresolved } = context.run.references;
  for (const op of context.model.operations) {
    if (op.body === undefined) continue;
    for (const reference of referencesOf(op, context.model.operations)) {
      const key = keyOf(context, op, reference);
      let found = resolved.get(key);
      if (found === undefined) resolved.set(key, (found = resolve(context, reference)));
      const outcome = await found;
      if ('value' in outcome) {
        pinMember(context, op, reference.member, outcome.value);
        // An id only the spec shows may not exist on the target: a 404 to its write is then no verdict either.
        if (outcome.unverified === undefined) unresolved.delete(key);
        else unresolved.set(key, outcome.unverified);
      } else {
        pinMember(context, op, reference.member, undefined);
        unresolved.set(key, outcome.reason);
      }
    }
  }
}

/**
 * Why a failure is no verdict: its exchange is a 404 answered to a write whose reference the suite could not fill
 * on this target (D95: the set-up failed honestly, the checks that need a record are not run). `undefined` otherwise.
 */
export function unresolvedReason(context: CheckContext, exchange: Exchange | undefined): string | undefined {
  if (exchange === undefined || exchange.response.status !== 404) return undefined;
  const path = exchange.request.path.split('?')[0] ?? '';
  for (const op of context.model.operations) {
    if (op.method !== exchange.request.method || !op.pattern.test(path)) continue;
    for (const reference of referencesOf(op, context.model.operations)) {
      const reason = context.run.references.unresolved.get(keyOf(context, op, reference));
      if (reason !== undefined) return `not verifiable: ${reason}`;
    }
  }
  return undefined;
}

/**
 * A record that could not be made because a reference in its create could not be filled (D95): thrown where a
 * parent record is prepared, so that only the checks that reach that parent's sub-resources are skipped, with
 * `reason`, and the others still run.
 */
export class ReferenceUnfilled extends NotRun {
  constructor(reason: string) {
    super('record', reason);
    this.name = 'ReferenceUnfilled';
  }
}

/** `create` (a parent's maker), with a 404 its write gets for an unfilled reference turned into {@link ReferenceUnfilled}. */
export function honestly<T>(context: CheckContext, create: (value: T) => Promise<string | undefined>): (value: T) => Promise<string | undefined> {
  return async (value) => {
    try {
      return await create(value);
    } catch (failure) {
      const reason = unresolvedReason(context, failingExchange(failure));
      if (reason === undefined) throw failure;
      throw new ReferenceUnfilled(reason);
    }
  };
}
