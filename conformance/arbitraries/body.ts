import fc from 'fast-check';
import type { OperationModel } from '../../model/model.js';
import { arrayBodyItems } from '../../model/resources.js';
import { sampleOf } from '../../model/error-shape.js';
import { compile, createAjv, objectShape, type Schema, type Validator } from '../../model/schema.js';
import { canonicalJson, toView } from '../../model/json.js';
import { canonicalise, type Canonical } from './canonical.js';
import { survivesEncoding, takesForm } from '../body-encoding.js';
import { boundedFilter, GenerationGaveUp, orElse, reusable } from './bounded.js';
import { admitsValue, drawsValue, validValues, type ValueOptions } from './schema-values.js';
import { withNarrowings, type Narrowings } from './narrowed.js';

// The WeakMaps of this module other than a run's pins are caches of what an operation's schemas alone determine
// (canonical forms, compiled bounds, the bodies a seed draws before pins are set): no run learns anything there.
const forms = new WeakMap<Schema, Canonical>();

/** The canonical form of an operation's request body (an object for a create of this style), computed once. */
export function bodyForm(op: OperationModel): Canonical {
  const schema = op.body?.schema ?? {};
  let form = forms.get(schema);
  if (form === undefined) forms.set(schema, (form = canonicalise(schema)));
  return form;
}

/**
 * Members of a body set to one value for every body drawn, by operation (a reference to an existing record, D95):
 * a run's (`RunState.pins`), reached through the check's context.
 */
export type BodyPins = Map<OperationModel, Map<string, unknown>>;

/** What the body arbitraries read of a check's context: its run's pins, and the narrowings its refusals taught it (D491). */
export interface PinsHolder {
  run: { pins: BodyPins; refusals?: { narrowings: Narrowings } };
}

/**
 * Sets `member` of every body of `op` the context's run draws to `value` from now on (`undefined` lifts the pin):
 * a member naming a record of another collection must name one the target holds (conformance/references.ts, D95).
 * A body without the member (an optional one left out) keeps it out.
 */
export function pinMember(context: PinsHolder, op: OperationModel, member: string, value: unknown): void {
  const pins = context.run.pins;
  let pinned = pins.get(op);
  if (pinned === undefined) pins.set(op, (pinned = new Map()));
  if (value === undefined) pinned.delete(member);
  else pinned.set(member, value);
}

/** Whether `member` of the bodies of `op` is pinned to a record the target holds (see {@link pinMember}). */
export function isPinned(context: PinsHolder, op: OperationModel, member: string): boolean {
  return context.run.pins.get(op)?.has(member) === true;
}

/**
 * `body` with the pinned members of `op` set (a copy when any is), as {@link pinMember} asks, and the members a
 * documented refusal named drawn as the description's example (D491).
 */
function withPins<T extends Record<string, unknown>>(context: PinsHolder, op: OperationModel, drawn: T): T {
  const body = withNarrowings(context.run.refusals?.narrowings, op, drawn);
  const pinned = context.run.pins.get(op);
  if (pinned === undefined || pinned.size === 0 || Array.isArray(body) || (body as unknown) === null || typeof body !== 'object') return body;
  const copy: Record<string, unknown> = { ...body };
  for (const [member, value] of pinned) if (Object.hasOwn(copy, member)) copy[member] = value;
  return copy as T;
}

/**
 * Valid request bodies of `op` (objects), by the spec's own validator (seed, Resources › NewPet for createPet), with
 * the members the context's run pinned.
 */
export function bodyValues(context: PinsHolder, op: OperationModel, options: ValueOptions): fc.Arbitrary<Record<string, unknown>> {
  // Read at each draw: a refusal met during the property narrows the draws after it (D491).
  return drawnBodies(op, options).map((body) => withPins(context, op, body));
}

function drawnBodies(op: OperationModel, options: ValueOptions): fc.Arbitrary<Record<string, unknown>> {
  const body = op.body;
  if (body === undefined) return fc.constant({});
  const base = recordBound(op) ?? body;
  const within = wholeBody(op, base);
  // A whole body (D181) no draw can satisfy within the bounds (dozens of optional members, each with its own rules)
  // gives way to the body as its schema requires it (D327); at once where its schema shows no draw can (D913).
  if (within === base) return drawnFrom(op, body, base, options);
  return drawable(within.schema) ? orElse(drawnFrom(op, body, within, options), drawnFrom(op, body, base, options)) : drawnFrom(op, body, base, options);
}

/** Whether a whole body's schema draws any value (D913), read once per schema: bodies are drawn at every property run. */
function drawable(schema: Schema): boolean {
  let known = drawables.get(schema);
  if (known === undefined) drawables.set(schema, (known = drawsValue(canonicalise(schema))));
  return known;
}
const drawables = new WeakMap<Schema, boolean>();

/** Valid bodies of `op` drawn from `within` (its body schema, bound or whole), with the stream, uses and form rules applied. */
function drawnFrom(op: OperationModel, body: NonNullable<OperationModel['body']>, within: { schema: Schema; validate: Validator }, options: ValueOptions): fc.Arbitrary<Record<string, unknown>> {
  const drawn = validValues(within.schema, within.validate, options) as fc.Arbitrary<Record<string, unknown>>;
  // The member that asks for a stream is set `false` (D86): a check of the JSON answer asks for the JSON answer, as
  // a server that streams whatever `Accept` says would otherwise fail it; `<operationId>.stream` asks for the stream.
  const member = op.streamMember;
  const streamed = member === undefined ? drawn : drawn.map((value) => (value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...value, [member]: false } : value));
  const needs = requiredWhenUsing(body.schema);
  const members = needs.length === 0 ? streamed : streamed.map((value) => withoutUnmetUses(value, needs));
  // A required body of text drawn empty is no body on the wire: a server may refuse it as missing (D346).
  const texts = body.required ? members.filter((value) => (value as unknown) !== '') : members;
  // A create that takes an array of records (D436) is drawn with one record at least: a check of what it made needs one (D441).
  const values = op.role === 'create' && arrayBodyItems(op) !== undefined ? texts.filter((value) => !Array.isArray(value) || value.length > 0) : texts;
  if (!takesForm(op)) return values;
  // A form cannot say `null` nor tell a number from its digits: only values that read back as they were sent.
  // Nor can it send an empty object at any depth (no pair names it, D328): such members are left out.
  const bracketed = new Set(body.deepObjects ?? []);
  const formable = values.map((value) => withoutUnsendable(value, bracketed));
  return boundedFilter(formable, (value) => survivesEncoding(op, body, value), `form body of ${op.operationId}`);
}

/**
 * A form body without what no form pair can carry (D328): `null`, empty lists at the top (an empty list sends no
 * pair), and empty objects at any depth (`metadata: {}`, `product_data.metadata: {}`), left out of their parents;
 * inside a member sent in bracket notation (`bracketed`, its `deepObject` encoding), `null` and empty lists at any
 * depth too, which bracket notation cannot say either (D880).
 */
function withoutUnsendable(value: Record<string, unknown>, bracketed: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value)) {
    if (member === null || (Array.isArray(member) && member.length === 0)) continue;
    const kept = isPlainObject(member) ? withoutEmptyObjects(member, bracketed.has(name)) : bracketed.has(name) && Array.isArray(member) ? itemsSendable(member) : member;
    if (kept !== undefined) out[name] = kept;
  }
  return out;
}

/**
 * `value` without its empty objects at any depth, and when `bracketed` its `null` and empty lists too; `undefined`
 * when it is an empty object itself, or holds nothing else.
 */
function withoutEmptyObjects(value: Record<string, unknown>, bracketed: boolean): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value)) {
    if (bracketed && (member === null || (Array.isArray(member) && member.length === 0))) continue;
    const kept = isPlainObject(member) ? withoutEmptyObjects(member, bracketed) : bracketed && Array.isArray(member) ? itemsSendable(member) : member;
    if (kept !== undefined) out[name] = kept;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/**
 * A list inside a member sent in bracket notation, each object item without what bracket notation cannot say
 * (`items[0][metadata]={}` sends no pair); an item left empty stays, and the form filter judges the list.
 */
function itemsSendable(items: unknown[]): unknown[] {
  return items.map((item) => (isPlainObject(item) ? (withoutEmptyObjects(item, true) ?? item) : item));
}

/**
 * A JSON object as drawn (not an array, not null, not an exact number): fast-check's `record` draws some objects
 * without a prototype, which are objects all the same (D880).
 */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * The members of a body that its text makes required by another (D268): `[member, used]` for each top-level member
 * whose description says "Required when using `used`" (`merge_commit_title` for `merge_commit_message`).
 */
export function requiredWhenUsing(schema: Schema): [string, string][] {
  const shape = objectShape(schema);
  return Object.entries(shape.properties).flatMap(([name, member]): [string, string][] => {
    const text = typeof member === 'object' && member !== null ? member['description'] : undefined;
    const match = typeof text === 'string' ? /\bRequired when using `([^`]+)`/i.exec(text) : null;
    // A member the schema itself requires is always sent: nothing to drop.
    return match === null || match[1] === name || shape.required.includes(match[1]!) ? [] : [[name, match[1]!]];
  });
}

/**
 * `value` without each member another one must accompany where that one is absent (D268): a server written from
 * the text refuses `merge_commit_message` without `merge_commit_title`, so a body the suite means to be taken does
 * not send one alone. Dropping rather than adding keeps the body valid by the schema, whose optional members these are.
 */
function withoutUnmetUses(value: Record<string, unknown>, needs: readonly [string, string][]): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const unmet = needs.filter(([name, used]) => Object.hasOwn(value, used) && !Object.hasOwn(value, name)).map(([, used]) => used);
  return unmet.length === 0 ? value : Object.fromEntries(Object.entries(value).filter(([name]) => !unmet.includes(name)));
}

const wholes = new WeakMap<OperationModel, { schema: Schema; validate: Validator }>();

/**
 * A create's body schema whose object requires none of its members, held to carry every member it declares that a
 * write may send (not `readOnly`) (D181): a description that marks nothing required (Train Travel's `Booking`, its
 * `BookingPayment`) leaves the rule to its text ("a booking is a hold on a trip", "a payment of an amount"), and a
 * server written from it refuses an empty booking or payment with its documented 400. The bodies a check expects
 * to be taken are the whole ones; a documented 409 to one of them drops optional members again (D180). `base`
 * otherwise.
 */
function wholeBody(op: OperationModel, base: { schema: Schema; validate: Validator }): { schema: Schema; validate: Validator } {
  const known = wholes.get(op);
  if (known !== undefined) return known;
  let found = base;
  const form = bodyForm(op);
  if (op.role === 'create' && op.body !== undefined && form.kind === 'object' && form.required.length === 0) {
    const members = objectShape(op.body.schema).properties;
    const writable = Object.keys(form.properties).filter((name) => !(typeof members[name] === 'object' && members[name]['readOnly'] === true));
    if (writable.length > 0) {
      const schema: Schema = { allOf: [base.schema, { type: 'object', required: writable }] };
      found = { schema, validate: compile(boundsAjv, schema, `${op.operationId}-whole`) };
    }
  }
  wholes.set(op, found);
  return found;
}

const bounds = new WeakMap<OperationModel, { schema: Schema; validate: Validator } | null>();
const boundsAjv = createAjv();

/**
 * A write's body schema held to the record's schema for the members both name (D61), when the body's is looser
 * (a form's `status: string` writing the record's `status: enum [...]`): a write that would leave the record
 * invalid is refused by a conforming server (400, or the 4xx the operation documents), so the bodies a check
 * expects to be stored are drawn within both. `undefined` when the body names no member differently from the record.
 */
function recordBound(op: OperationModel): { schema: Schema; validate: Validator } | undefined {
  const known = bounds.get(op);
  if (known !== undefined) return known ?? undefined;
  let found: { schema: Schema; validate: Validator } | null = null;
  const resource = op.resource;
  if (op.body !== undefined && resource !== undefined && (op.role === 'create' || op.role === 'replace' || op.role === 'update')) {
    const members = objectShape(op.body.schema).properties;
    const shared = Object.fromEntries(
      Object.entries(resource.properties)
        .filter(([name, schema]) => members[name] !== undefined && !flagged(members[name]) && !flagged(schema) && canonicalJson(members[name]) !== canonicalJson(schema))
        .map(([name, schema]) => [name, sendable(schema, members[name])] as const)
        // A member the write names by another kind than the record holds (a milestone's number, the record's
        // milestone object) has no value within both: the body's own schema rules it (D165), else no body is drawn.
        .filter(([name, schema]) => admitsValue(canonicalise({ allOf: [members[name] as Schema, schema] }))),
    );
    if (Object.keys(shared).length > 0) {
      const schema: Schema = { allOf: [op.body.schema, { type: 'object', properties: shared }] };
      found = { schema, validate: compile(boundsAjv, schema, `${op.operationId}-record-bound`) };
    }
  }
  bounds.set(op, found);
  return found ?? undefined;
}

/**
 * A record member's schema as a write may send it: the record's schemas are seen as responses see them, where a
 * nested `writeOnly` member (a card's `cvc`) is `false`; a write sends it, and the body's own schema still rules
 * it, so the bound admits it (else no body holding it could be drawn: every card would be out of bounds). Only the
 * nested members `written` (the write's schema of the member) names are kept, and the record's requirements (D883):
 * an optional member only the record names (`settings.using_merchant_default`, a card's `fingerprint`) is no member
 * of the write, and held in the bound it was drawn into bodies, which a form then read back as text.
 */
function sendable(schema: Schema, written: Schema | undefined): Schema {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const out: Schema = { ...schema };
  const properties = schema['properties'];
  const names = written === undefined ? undefined : writtenMembers(written);
  // What the record requires stays required: a write that cannot name it cannot make a valid record, and no value
  // is drawn for such an object (a list of them is drawn empty), as before.
  if (typeof properties === 'object' && properties !== null) {
    const kept = Object.entries(properties as Record<string, unknown>).filter(([name]) => names === undefined || Object.hasOwn(names, name));
    out['properties'] = Object.fromEntries(kept.map(([name, sub]) => [name, sub === false ? {} : sendable(sub as Schema, names?.[name])]));
  }
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    if (Array.isArray(schema[key])) out[key] = (schema[key] as Schema[]).map((part) => sendable(part, written));
  }
  if (typeof schema['items'] === 'object' && schema['items'] !== null) out['items'] = sendable(schema['items'] as Schema, written === undefined ? undefined : writtenItems(written));
  return out;
}

/** The members a write's schema names, in itself, its `allOf` parts and its `anyOf`/`oneOf` branches (the first schema of each name). */
function writtenMembers(written: Schema): Record<string, Schema> {
  const names: Record<string, Schema> = {};
  for (const shape of shapesOf(written)) for (const [name, sub] of Object.entries(objectShape(shape).properties)) names[name] ??= sub;
  return names;
}

/** The items of a write's schema that is a list, or of its first `anyOf`/`oneOf` branch that is one; `undefined` when none. */
function writtenItems(written: Schema): Schema | undefined {
  for (const shape of shapesOf(written)) if (typeof shape['items'] === 'object' && shape['items'] !== null) return shape['items'] as Schema;
  return undefined;
}

/** `schema` and its `anyOf`/`oneOf` branches at any depth (objects only). */
function shapesOf(schema: Schema): Schema[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const branches = (['anyOf', 'oneOf'] as const).flatMap((key) => (Array.isArray(schema[key]) ? (schema[key] as Schema[]) : []));
  return [schema, ...branches.flatMap(shapesOf)];
}

/** A member only one side of the exchange carries (`readOnly`, `writeOnly`): the record's schema says nothing of what a write may send. */
function flagged(schema: Schema | undefined): boolean {
  return typeof schema === 'object' && (schema['readOnly'] === true || schema['writeOnly'] === true);
}

/**
 * One valid body of `op` with ordinary values, the same for a given `seed` (bases of fixed cases: population,
 * markers, probes), with the members the context's run pinned. Only the required properties when `requiredOnly`.
 */
export function ordinaryBody(context: PinsHolder, op: OperationModel, integers: ValueOptions['integers'], seed: number, requiredOnly = false): Record<string, unknown> {
  return withPins(context, op, unpinnedBody(op, integers, seed, requiredOnly));
}

/**
 * The ordinary body of {@link ordinaryBody} before pins: a copy of the one a seed draws, drawn once. A seed whose
 * draw gave up ({@link GenerationGaveUp}) gives up again at once with the same error: a draw that gives up has spent
 * its bounds (seconds, and hundreds of MB of garbage on a large form body), and every later check asking the same
 * seed of the same operation would spend them again.
 */
function unpinnedBody(op: OperationModel, integers: ValueOptions['integers'], seed: number, requiredOnly = false): Record<string, unknown> {
  const key = `${integers} ${seed} ${requiredOnly}`;
  let drawn = ordinary.get(op);
  if (drawn === undefined) ordinary.set(op, (drawn = new Map()));
  const known = drawn.get(key);
  if (known instanceof GenerationGaveUp) throw known;
  if (known !== undefined) return shallowCopy(known);
  let body: Record<string, unknown>;
  try {
    body = drawOrdinary(op, integers, seed, requiredOnly);
  } catch (error) {
    if (error instanceof GenerationGaveUp) drawn.set(key, error);
    throw error;
  }
  drawn.set(key, body);
  return shallowCopy(body);
}

/**
 * A copy of a drawn body one level deep that stays an array where the body is one (an array body is not an object of
 * indices), and a scalar body (a JSON string, number or boolean) as it is: a string spread is an object of its
 * characters, which its schema refuses (D553).
 */
function shallowCopy(body: Record<string, unknown>): Record<string, unknown> {
  if ((body as unknown) === null || typeof body !== 'object') return body;
  return Array.isArray(body) ? ([...(body as unknown[])] as unknown as Record<string, unknown>) : { ...body };
}

/**
 * Ordinary bodies already drawn, by operation, then range, seed and `requiredOnly` (a seed always draws the same),
 * or the error of a draw that gave up.
 * Keyed by the operation of one loaded spec, not by its method and path: two specs in one process (an edited
 * copy beside the original) have the same paths with other schemas.
 */
const ordinary = new WeakMap<OperationModel, Map<string, Record<string, unknown> | GenerationGaveUp>>();

/**
 * The arbitrary of the bodies of `op` that one draw of {@link ordinaryBody} or {@link fullestBody} samples, built
 * once for the last few operations asked and drawn from afresh each time (D802): a check asks many seeds of one
 * operation in a row (a list's population, the twelve bodies of a narrow update, a parent's set-up), and building a
 * large body's arbitraries cost as much as drawing from them. Errors: what building throws (NotRun).
 */
function seedDraws(op: OperationModel, options: ValueOptions): fc.Arbitrary<Record<string, unknown>> {
  const key = `${options.integers} ${options.full === true}`;
  let built = recentDraws.get(op);
  if (built === undefined) built = new Map();
  recentDraws.delete(op);
  recentDraws.set(op, built);
  if (recentDraws.size > RECENT_DRAWS) recentDraws.delete(recentDraws.keys().next().value!);
  let fresh = built.get(key);
  if (fresh === undefined) built.set(key, (fresh = reusable(() => drawnBodies(op, options))));
  return fresh();
}

/** Operations whose draws' arbitraries are kept, most recent last: few, as a large body's tree holds megabytes. */
const recentDraws = new Map<OperationModel, Map<string, () => fc.Arbitrary<Record<string, unknown>>>>();
const RECENT_DRAWS = 4;

function drawOrdinary(op: OperationModel, integers: ValueOptions['integers'], seed: number, requiredOnly: boolean): Record<string, unknown> {
  const [value] = fc.sample(seedDraws(op, { integers, strings: 'ordinary' }), { numRuns: 1, seed });
  const body = value ?? {};
  if (!requiredOnly) return body;
  const form = bodyForm(op);
  const required = form.kind === 'object' ? form.required : [];
  // A create that marks nothing required is sent whole (D181): its text, not its schema, says what it needs.
  if (required.length === 0 && op.role === 'create') return body;
  const narrowed = Object.fromEntries(Object.entries(body).filter(([name]) => required.includes(name)));
  // A body whose requirements sit in its `oneOf`/`anyOf` branches names none at the top: the whole body is kept
  // rather than an invalid one sent where a valid one is meant.
  return op.body?.validate(toView(narrowed)) === false ? body : narrowed;
}

/**
 * The fullest valid body of `op` the generator finds for a seed: every optional member present, arrays not empty
 * (the base of the fixed invalid cases, so that `maxItems`, `uniqueItems` and each nested member's keywords have
 * a value to break every run). Falls back to an ordinary body, then to the members that do fit, when the spec
 * allows no body with all of them (`oneOf` branches that exclude each other, `not`).
 */
export function fullestBody(context: PinsHolder, op: OperationModel, integers: ValueOptions['integers'], seed: number): Record<string, unknown> {
  if (op.body === undefined) return {};
  const drawn = fullest.get(op);
  const key = `${integers} ${seed}`;
  const known = drawn?.get(key);
  if (known !== undefined) return withPins(context, op, structuredClone(known));
  let body: Record<string, unknown>;
  try {
    [body = unpinnedBody(op, integers, seed)] = fc.sample(seedDraws(op, { integers, strings: 'ordinary', full: true }), { numRuns: 1, seed });
  } catch (error) {
    if (!(error instanceof GenerationGaveUp)) throw error;
    body = unpinnedBody(op, integers, seed);
  }
  if (drawn === undefined) fullest.set(op, new Map([[key, body]]));
  else drawn.set(key, body);
  return withPins(context, op, structuredClone(body));
}
const fullest = new WeakMap<OperationModel, Map<string, Record<string, unknown>>>();

/** `body` with `property` set to `value`, when the spec's validator still accepts it; otherwise `undefined`. */
export function withProperty(op: OperationModel, body: Record<string, unknown>, property: string, value: unknown): Record<string, unknown> | undefined {
  const changed = { ...body, [property]: value };
  return op.body === undefined || survivesEncoding(op, op.body, changed) ? changed : undefined;
}

/**
 * `body` with `member` set to `value` when {@link bodyValues} could have drawn it, otherwise `undefined`: valid by
 * the write's schema held to its record's (D61) and whole where a create requires nothing (D181), the member neither
 * the one that asks for a stream (D86) nor one the context's run pinned to a record the target holds (D95), and read back unchanged
 * when sent as a form.
 */
export function withDrawableMember(context: PinsHolder, op: OperationModel, body: Record<string, unknown>, member: string, value: unknown): Record<string, unknown> | undefined {
  if (op.body === undefined || member === op.streamMember || isPinned(context, op, member)) return undefined;
  const changed = { ...body, [member]: value };
  if (!wholeBody(op, recordBound(op) ?? op.body).validate(toView(changed))) return undefined;
  return !takesForm(op) || survivesEncoding(op, op.body, changed) ? changed : undefined;
}

/** A value for a property the request must not send (`readOnly`), from the record's schema. */
export function sampleFor(schema: Schema | undefined): unknown {
  return schema === undefined ? 1 : sampleOf(schema);
}
