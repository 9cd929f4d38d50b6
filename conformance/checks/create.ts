import fc from 'fast-check';
import type { OperationModel, ResourceModel } from '../../model/model.js';
import { bodyForm, bodyValues, fullestBody, isPinned, ordinaryBody, sampleFor, withDrawableMember, withProperty } from '../arbitraries/body.js';
import type { Canonical } from '../arbitraries/canonical.js';
import { integerBounds, integerIn, edgesWithin } from '../arbitraries/integers.js';
import { sendFixedCases } from '../fixed-cases.js';
import { invalidBodies, invalidBodyMakers, isRefused, readCase, markerProperties, markerValue, missingRequiredBodies, type InvalidBody, type Marker } from '../arbitraries/invalid-body.js';
import { CORNER_STRINGS, holdsUnusualString, unconstrainedStringProperties, valueOf } from '../arbitraries/schema-values.js';
import { requestOf } from '../context.js';
import type { CheckContext } from '../check-context.js';
import { idKey, idOf, type Check } from './check.js';
import { idValue, itemRequest, withClientId } from './identity.js';
import { absentIds, expectReadBack } from './read.js';
import { expectNothingCreated } from './population.js';
import { conflictStatuses, createRecord, operation, show, successStatuses } from './records.js';
import { sameJson } from '../../model/json.js';
import { objectShape } from '../../model/schema.js';
import { referencesOf } from '../../model/references.js';
import { Violation } from '../contract.js';
import type { Exchange } from '../../judge/verdict.js';

/**
 * Markers for a create body: `mark(first)` is a marking function whose every call puts a new value (numbered from
 * `first`) on the best property not in `avoid`, so each case of one family carries its own marker. `run`: the run's
 * number (`RunState.number`), which keeps its markers apart from those of other runs on the same target.
 */
function markers(form: Canonical, run: number): (first: number) => (avoid: readonly string[]) => Marker | undefined {
  const candidates = markerProperties(form);
  return (first) => {
    let index = first;
    return (avoid) => {
      const property = candidates.find((name) => !avoid.includes(name));
      return property === undefined ? undefined : { property, value: markerValue(form, property, run, index++) };
    };
  };
}

/** The bases of the fixed cases: only the required properties, then each value of each optional enum property. */
function fixedBases(context: CheckContext, resource: ResourceModel): Record<string, unknown>[] {
  const op = operation(resource, 'create');
  const form = bodyForm(op);
  const base = ordinaryBody(context, op, context.target.integers, 1, true);
  const bases = [base];
  if (form.kind === 'object') {
    for (const [name, sub] of Object.entries(form.properties)) {
      if (form.required.includes(name) || sub.kind !== 'enum') continue;
      for (const value of sub.values) {
        const changed = withProperty(op, base, name, value);
        if (changed !== undefined) bases.push(changed);
      }
    }
  }
  return bases;
}

/**
 * The echo check's fixed bodies (D215): for each optional top-level boolean or enum member and each of its values,
 * the fullest body (every optional member present, as a create whose schema requires nothing may need by its text,
 * D181) carrying that one value, placed after the other members and before the other booleans and enums: a body
 * refused with a documented 409 (D180) loses those first, then that member, before anything else. Only bodies the
 * draws could hold are sent (not the member asking for a stream, nor one pinned to a held record). A member lost on
 * the way to storage then shows on every run, whatever the draws hold: a draw may leave the member out, or carry
 * the one value a rule of the text refuses (a dog on a trip that takes none), after which it is dropped unjudged.
 */
function memberValueBodies(context: CheckContext, op: OperationModel): Record<string, unknown>[] {
  const form = bodyForm(op);
  if (form.kind !== 'object') return [];
  const chosen = Object.entries(form.properties).filter(([name, sub]) => !form.required.includes(name) && (sub.kind === 'boolean' || sub.kind === 'enum'));
  const base = fullestBody(context, op, context.target.integers, 2);
  const isChosen = (name: string): boolean => chosen.some(([one]) => one === name);
  const bodies: Record<string, unknown>[] = [];
  for (const [name, sub] of chosen) {
    for (const value of sub.kind === 'boolean' ? [false, true] : sub.kind === 'enum' ? sub.values : []) {
      const body = withDrawableMember(context, op, base, name, value);
      if (body === undefined) continue;
      const others = Object.entries(body).filter(([one]) => one !== name);
      bodies.push(Object.fromEntries([...others.filter(([one]) => !isChosen(one)), [name, value], ...others.filter(([one]) => isChosen(one))]));
    }
  }
  return [...bodies, ...branchBodies(context, op, base)];
}

/**
 * For each top-level member that may take several forms (`oneOf`/`anyOf`: a payment's source, a card or a bank
 * account), the fullest body carrying one value of each branch, with its optional members (D215): a member of one
 * branch mishandled on storage or answered when it must not be (a card's write-only `cvc`) shows on every run, not
 * only when the draws happen to pick that branch. A branch no drawn value of which the body admits is left out.
 */
function branchBodies(context: CheckContext, op: OperationModel, base: Record<string, unknown>): Record<string, unknown>[] {
  const form = bodyForm(op);
  if (form.kind !== 'object') return [];
  const bodies: Record<string, unknown>[] = [];
  for (const [name, sub] of Object.entries(form.properties)) {
    if (sub.kind !== 'union') continue;
    for (const branch of sub.branches) {
      const values = fc.sample(valueOf(branch, { integers: context.target.integers, strings: 'ordinary', full: true }), { numRuns: 10, seed: 5 });
      const body = values.map((value) => withDrawableMember(context, op, base, name, value)).find((one) => one !== undefined);
      if (body !== undefined) bodies.push(body);
    }
  }
  return bodies;
}

/** The roles whose request body the refusal checks test: every write that takes a body. */
export type WriteRole = 'create' | 'replace' | 'update';

/**
 * Where the refusals of one check go, and how "nothing changed" is seen: a create is sent to the collection and
 * no record may carry its marker; a replace or update is sent to one record made for the purpose, which must
 * read back as it was.
 */
interface RefusalTarget {
  /** The id of the record a replace or update is sent to. */
  recordId: string | undefined;
  send(body: InvalidBody): Promise<void>;
  /** After the fixed cases and after the random ones: the record written to is unchanged (writes only). */
  unchanged(): Promise<void>;
}

/**
 * The statuses a refused body may get: 400 (seed, Errors), or 422 where the operation documents 422, beside a 400
 * or instead of it (D74), or documents no client error at all, under `default` (D120) or not at all (D278): with
 * both documented the spec does not say which refusal is "invalid input" and which a "validation exception", and
 * where none is documented a framework's 422 for schema violations is as fitting as a 400.
 */
export function refusalStatuses(op: OperationModel): number[] {
  const documents = (status: string): boolean => op.responses.some((r) => r.status === status);
  // No 4xx documented (a bare `default`, or nothing at all): the server chose its refusal, and either fits
  // (D264, D278; as D123 for `default`).
  const noClientError = !op.responses.some((r) => /^4/.test(r.status));
  return documents('422') || noClientError ? [400, 422] : [400];
}

async function refusalTarget(context: CheckContext, resource: ResourceModel, role: WriteRole): Promise<RefusalTarget> {
  const op = operation(resource, role);
  const expected = refusalStatuses(op);
  if (role === 'create') {
    return {
      recordId: undefined,
      async send(body) {
        const ignorable = readOnlySent(context, body);
        // A server that ignores the read-only member reads an otherwise valid create, which a rule of its text may
        // refuse with the documented 409 (D180): a refusal all the same.
        const { exchange, body: answer } = await context.call(op, requestOf(context, op, { body: body.text, contentType: body.contentType }), ignorable === undefined ? expected : [...expected, ...conflictStatuses(op), ...successStatuses(op)]);
        if (ignorable !== undefined && exchange.response.status < 300) return expectIgnored(context, op, ignorable, body, answer, exchange);
        await expectNothingCreated(context, resource, body.marker, exchange);
      },
      async unchanged() {},
    };
  }
  const created = (await createRecord(context, resource, ordinaryBody(context, operation(resource, 'create'), context.target.integers, 5)))!;
  const recordId = idOf(resource, created);
  return {
    recordId,
    async send(body) {
      // Where the body names the record (D50), a case that drops or changes its id names another one: not sent.
      if (op.idIn === 'body' && !namesRecord(op, resource, body, recordId)) return;
      const ignorable = readOnlySent(context, body);
      const { exchange, body: answer } = await context.call(op, itemRequest(context, resource, op, recordId, undefined, body), ignorable === undefined ? expected : [...expected, ...successStatuses(op)]);
      if (ignorable !== undefined && exchange.response.status < 300) expectIgnored(context, op, ignorable, body, answer, exchange);
    },
    async unchanged() {
      // Without a read the record cannot be looked at alone: the refusals' statuses are the whole check.
      if (resource.operations.read === undefined) return;
      await expectReadBack(context, resource, created, `${op.operationId} refused invalid bodies, yet the record`);
    },
  };
}

/**
 * The member a refusal case sends although it is `readOnly` (`with the read-only id`), when the run is not
 * `--strict` (D96): OpenAPI says such a member SHOULD NOT be sent, not that a server must refuse it, so a server
 * may refuse it (400, as the mock does, D35) or ignore it. `''` for a nested member; `undefined` for other cases.
 */
function readOnlySent(context: CheckContext, body: InvalidBody): string | undefined {
  if (context.target.strict) return undefined;
  const match = /(?:^|\s)with the read-only (\S+)$/.exec(body.kind);
  if (match === null) return undefined;
  return body.kind.startsWith('with the read-only ') ? match[1]! : '';
}

/**
 * A write that carried a `readOnly` member and succeeded must have ignored it (D96): the record answered does not
 * hold the value sent. Advice says the server ignores what others refuse. Errors: a {@link Violation}.
 */
function expectIgnored(context: CheckContext, op: OperationModel, member: string, body: InvalidBody, answer: unknown, exchange: Exchange): void {
  const sent = readCase(op, body.text);
  if (member !== '' && sent !== null && typeof sent === 'object' && answer !== null && typeof answer === 'object') {
    const value = (sent as Record<string, unknown>)[member];
    if (value !== undefined && sameJson((answer as Record<string, unknown>)[member], value) && !fewValues(op, member)) {
      throw new Violation(`${op.operationId} took the read-only ${member} ${show(value)} from the request: a server assigns a read-only member, it may refuse it or ignore it, never keep the client's`, exchange);
    }
  }
  context.advise(`${op.operationId} ignored a read-only member sent in the body (allowed: OpenAPI says it SHOULD NOT be sent, not that it is refused; --strict expects 400)`);
}

/**
 * Whether the body's `member` takes one of a few values (an `enum`, a `const`, a boolean) (D183): a server that
 * assigns it itself (a payment's `status: pending`) may assign the very value the request sent, so an answer
 * holding it shows nothing taken from the request.
 */
function fewValues(op: OperationModel, member: string): boolean {
  // The body's schema forbids the member (a request does not send it): the record's schema says what it holds.
  const schemas = [op.body === undefined ? undefined : objectShape(op.body.schema).properties[member], op.resource?.properties[member]];
  return schemas.some((schema) => typeof schema === 'object' && (Array.isArray(schema['enum']) || Object.hasOwn(schema, 'const') || schema['type'] === 'boolean'));
}

/** Whether a refused body still names the record `recordId` by its id property (or is no object at all). */
function namesRecord(op: OperationModel, resource: ResourceModel, body: InvalidBody, recordId: string): boolean {
  const value = readCase(op, body.text);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return true;
  const id = (value as Record<string, unknown>)[resource.idProperty];
  return id !== undefined && idKey(id) === recordId;
}

/**
 * The bases a refusal check builds its cases from, as sent: for a create, with a fresh id where the client
 * chooses it (D50); for a write whose body names the record, with that record's id.
 */
function asSent(context: CheckContext, resource: ResourceModel, role: WriteRole, base: Record<string, unknown>, recordId: string | undefined): Record<string, unknown> {
  if (role === 'create') return withClientId(context, resource, base);
  const op = operation(resource, role);
  return op.idIn === 'body' && recordId !== undefined ? { ...base, [resource.idProperty]: idValue(resource, recordId) } : base;
}

/**
 * One refused body of a family built from a valid body of `op`: `family(base, n)` lists the cases of a drawn
 * base, with markers numbered by `n` (below 10,000, so that the runs of one check never share a marker), and the
 * first case from a drawn position on that `refused` accepts is taken (only that one is read back: a large body
 * has hundreds of cases, each made only when taken); `undefined` when a base gives no case.
 */
function drawnCases(context: CheckContext, op: OperationModel, family: (base: Record<string, unknown>, n: number) => (() => InvalidBody)[], refused: (candidate: InvalidBody) => boolean = () => true): fc.Arbitrary<InvalidBody | undefined> {
  const values = bodyValues(context, op, { integers: context.target.integers, strings: 'ordinary' });
  return fc.tuple(values, fc.nat(), fc.nat()).map(([base, n, start]) => {
    const cases = family(base, n % 10_000);
    for (let offset = 0; offset < cases.length; offset++) {
      const candidate = cases[(start + offset) % cases.length]!();
      if (refused(candidate)) return candidate;
    }
    return undefined;
  });
}

/**
 * Create rule 1 (seed, Endpoints §2), and the same rule for a replace's or update's body: without a required
 * property, a 400 in the error shape, and nothing created or changed. Every required property is dropped from
 * fixed bases first (every run), then from random valid bodies.
 */
export function requiredFieldsCheck(resource: ResourceModel, id: string, rule: string, role: WriteRole = 'create'): Check {
  return {
    id,
    rule,
    writes: true,
    async run(context) {
      const op = operation(resource, role);
      const form = bodyForm(op);
      const mark = role === 'create' ? markers(form, Number(context.run.number)) : () => () => undefined;
      const fixed = mark(0);
      const target = await refusalTarget(context, resource, role);
      const bases = (role === 'create' ? fixedBases(context, resource) : [fullestBody(context, op, context.target.integers, 2), ordinaryBody(context, op, context.target.integers, 1, true)]).map((base) => asSent(context, resource, role, base, target.recordId));
      for (const base of bases) {
        for (const body of missingRequiredBodies(op, form, base, fixed)) await target.send(body);
      }
      await target.unchanged();
      const random = drawnCases(context, op, (base, n) => missingRequiredBodies(op, form, asSent(context, resource, role, base, target.recordId), mark(10_000 + n * 100)).map((body) => () => body));
      await context.forAll(random, async (body) => (body === undefined ? undefined : target.send(body)), { runs: Math.min(context.target.runs, 30) });
      await target.unchanged();
    },
  };
}

/**
 * Create, Errors (seed), and the same for a replace's or update's body: invalid values (every kind derived from
 * the body's schema, each keyword of each member), non-objects, malformed JSON and empty required bodies are a
 * 400 in the error shape; nothing is created or changed. The fixed catalogue, built from the fullest valid body
 * (every optional member present, arrays not empty), runs first on every run, so a server that ignores one
 * keyword is caught every time; random valid bodies made invalid follow.
 */
export function invalidBodyCheck(resource: ResourceModel, id: string, rule: string, role: WriteRole = 'create'): Check {
  return {
    id,
    rule,
    writes: true,
    async run(context) {
      const op = operation(resource, role);
      const form = bodyForm(op);
      const mark = role === 'create' ? markers(form, Number(context.run.number)) : () => () => undefined;
      const forbidden = (name: string): unknown => sampleFor(resource.properties[name]);
      const target = await refusalTarget(context, resource, role);
      const base = asSent(context, resource, role, fullestBody(context, op, context.target.integers, 2), target.recordId);
      // Each case is made, judged and sent in turn: a large body has thousands of cases, and made all at once they
      // held gigabytes (D866); a time budget ends the list as it ends a property's runs (D910).
      const cases = invalidBodyMakers(op, form, base, mark(1000), forbidden).map((make) => (): InvalidBody | undefined => {
        const body = make();
        return isRefused(op, body) ? body : undefined;
      });
      await sendFixedCases(context, cases, (body) => target.send(body), 'invalid bodies');
      await target.unchanged();
      const random = drawnCases(context, op, (value, n) => invalidBodyMakers(op, form, asSent(context, resource, role, value, target.recordId), mark(2_000_000 + n * 1000), forbidden), (candidate) => isRefused(op, candidate));
      await context.forAll(random, async (body) => (body === undefined ? undefined : target.send(body)));
      await target.unchanged();
    },
  };
}

/**
 * A replace or update whose path names the record and that documents both 404 and 400 (or 422), sent an invalid
 * body for an id no record has (spec/DECISIONS.md › D117): the server may judge either first, so the answer is the
 * documented 404 or the documented refusal, never a success, a 5xx or another status. The invalid bodies are those
 * of `<op>.invalid-body`; the absent ids those of `<read>.not-found`.
 */
export function absentInvalidCheck(resource: ResourceModel, id: string, rule: string, role: 'replace' | 'update'): Check {
  return {
    id,
    rule,
    writes: true,
    async run(context) {
      const op = operation(resource, role);
      const cases = invalidBodies(op, bodyForm(op), fullestBody(context, op, context.target.integers, 2), () => undefined, (name) => sampleFor(resource.properties[name]));
      if (cases.length === 0) return;
      const expected = [...refusalStatuses(op), 404];
      await context.forAll(fc.tuple(absentIds(context, resource), fc.constantFrom(...cases)), async ([absent, body]) => {
        await context.call(op, itemRequest(context, resource, op, absent, undefined, body), expected);
      });
    },
  };
}

/** Whether a write names its record in the path and documents both a 404 and a refusal of its body (D117). */
export function judgesEitherFirst(op: OperationModel): boolean {
  const documented = (status: string): boolean => op.responses.some((response) => response.status === status);
  return op.idIn === 'path' && op.body !== undefined && documented('404') && (documented('400') || documented('422'));
}

/**
 * Create rule 2 (seed, Endpoints §2), positive data: every valid body is a success that repeats the submitted
 * fields exactly and carries a new id. Ordinary strings must be accepted; in an unconstrained string, the corner
 * strings and unusual ones may be refused with 400 (DECISIONS D2) unless `--strict`. Each optional boolean or enum
 * member is sent alone with each of its values before the draws (D215).
 */
export function echoCheck(resource: ResourceModel, id: string, rule: string): Check {
  return {
    id,
    rule,
    writes: true,
    async run(context) {
      const op = operation(resource, 'create');
      const form = bodyForm(op);
      const base = ordinaryBody(context, op, context.target.integers, 3);
      // A member pinned to a record the target holds (a reference, D95) keeps it: another value names no record (D252).
      for (const property of unconstrainedStringProperties(form).filter((name) => !isPinned(context, op, name))) {
        for (const corner of CORNER_STRINGS) {
          const value = withProperty(op, base, property, corner);
          if (value !== undefined) await createRecord(context, resource, value, true);
        }
      }
      for (const body of memberValueBodies(context, op)) await createRecord(context, resource, body);
      await describedRuleCase(context, op);
      await context.forAll(bodyValues(context, op, { integers: context.target.integers, strings: 'any' }), async (value) => {
        await createRecord(context, resource, value, holdsUnusualString(form, value));
      });
    },
  };
}

/** The top-level int64 properties of a create body (on the seed's spec, NewPet's category). */
export function int64Properties(form: Canonical): string[] {
  return form.kind === 'object' ? Object.entries(form.properties).filter(([, sub]) => sub.kind === 'integer' && sub.int64).map(([name]) => name) : [];
}

/**
 * int64 (seed, Resources › NewPet, Pet): every int64 value of the create body's int64 properties, the edges
 * first, comes back digit for digit; the id's int64 format is checked by the contract on every response.
 */
export function int64Check(resource: ResourceModel, id: string, rule: string): Check {
  return {
    id,
    rule,
    writes: true,
    async run(context) {
      const op = operation(resource, 'create');
      const form = bodyForm(op) as Extract<Canonical, { kind: 'object' }>;
      // A member naming a record of another collection (D95) is pinned to an id that exists; sent at the int64
      // edges it may be refused with a documented client error (an order for a pet the store does not hold,
      // D172), and when it is taken it must come back digit for digit. The drawn bodies roam the other members.
      const references = new Set(referencesOf(op, context.model.operations).map((reference) => reference.member));
      const all = int64Properties(form);
      const properties = all.filter((name) => !references.has(name));
      const bounds = (name: string): [bigint, bigint] => {
        const sub = form.properties[name] as Extract<Canonical, { kind: 'integer' }>;
        return integerBounds(sub.min, sub.max, context.target.integers, true);
      };
      // A member with a `multipleOf` takes only its multiples: the edges that are, and multiples drawn between them.
      const step = (name: string): bigint | undefined => (form.properties[name] as Extract<Canonical, { kind: 'integer' }>).multipleOf;
      const multiples = (name: string): [bigint, bigint] | undefined => {
        const by = step(name);
        if (by === undefined) return undefined;
        const [min, max] = bounds(name);
        const first = min >= 0n ? (min + by - 1n) / by : min / by;
        const last = max >= 0n ? max / by : -((-max + by - 1n) / by);
        return first > last ? undefined : [first, last];
      };
      const drawn = (name: string): fc.Arbitrary<bigint> => {
        const by = step(name);
        const range = multiples(name);
        if (by === undefined) return integerIn(...bounds(name));
        return range === undefined ? fc.constant(0n) : fc.bigInt({ min: range[0], max: range[1] }).map((k) => k * by);
      };
      const edgesOf = (name: string): bigint[] => {
        const by = step(name);
        const range = multiples(name);
        if (by === undefined) return edgesWithin(...bounds(name));
        return range === undefined ? [] : [...new Set([range[0] * by, range[1] * by, ...edgesWithin(...bounds(name)).filter((edge) => edge % by === 0n)])];
      };
      const base = ordinaryBody(context, op, context.target.integers, 4, true);
      for (const name of all) {
        for (const edge of edgesOf(name)) {
          const value = withProperty(op, base, name, edge);
          if (value !== undefined) await createRecord(context, resource, value, references.has(name) ? 'reference' : false);
        }
      }
      if (properties.length === 0) return;
      const values = fc.tuple(bodyValues(context, op, { integers: context.target.integers, strings: 'ordinary' }), fc.record(Object.fromEntries(properties.map((name) => [name, drawn(name)]))));
      await context.forAll(values.map(([value, integers]) => ({ ...value, ...integers })), async (value) => void (await createRecord(context, resource, value)), { runs: Math.min(context.target.runs, 30) });
    },
  };
}

/** A string member at `path` of a body whose description states a rule its schema does not encode (D98). */
interface DescribedMember {
  path: string[];
  pattern: string | undefined;
  minLength: number;
  says: string;
}

/** The members of `value` (as drawn from `form`) whose form carries a described rule, at any depth. */
function describedMembers(form: Canonical, value: unknown, path: string[] = []): DescribedMember[] {
  if (form.kind === 'string' && form.described !== undefined && typeof value === 'string') return [{ path, pattern: form.pattern, minLength: form.minLength, says: form.described }];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const members = value as Record<string, unknown>;
  if (form.kind === 'union') {
    const fitting = form.branches.find((branch) => branch.kind === 'object' && Object.keys(members).every((name) => Object.hasOwn(branch.properties, name)));
    return fitting === undefined ? [] : describedMembers(fitting, value, path);
  }
  if (form.kind !== 'object') return [];
  return Object.entries(members).flatMap(([name, member]) => (form.properties[name] === undefined ? [] : describedMembers(form.properties[name]!, member, [...path, name])));
}

/** `body` with the member at `path` set to `value` (copies along the path). */
function setAt(body: Record<string, unknown>, path: readonly string[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = path;
  if (head === undefined) return body;
  return { ...body, [head]: rest.length === 0 ? value : setAt((body[head] ?? {}) as Record<string, unknown>, rest, value) };
}

/**
 * Rules only a description states (D98): one create whose member breaks its described rule ("two-letter country
 * code" sent as `a`) with a value the schema admits. A server that follows the description refuses it with a
 * documented 4xx: a warning ("refused a value only the schema's looseness admits"), a failure only under
 * `--strict`, which holds the target to the schema as written. A success is judged by the echo rules as usual.
 */
async function describedRuleCase(context: CheckContext, op: OperationModel): Promise<void> {
  const form = bodyForm(op);
  for (let seed = 20; seed < 40; seed++) {
    const base = ordinaryBody(context, op, context.target.integers, seed);
    const member = describedMembers(form, base)[0];
    if (member === undefined) continue;
    const pattern = member.pattern === undefined ? undefined : new RegExp(member.pattern, 'u');
    const top = member.path[0]!;
    const admitted = (text: string): boolean => withProperty(op, base, top, setAt(base, member.path, text)[top]) !== undefined;
    const breaks = (text: string): boolean => (pattern !== undefined ? !pattern.test(text) : [...text].length < member.minLength);
    const breaking = ['a', 'a1', 'aaaa'].find((text) => breaks(text) && admitted(text));
    if (breaking === undefined) return;
    const body = setAt(base, member.path, breaking);
    const documented = op.responses.map((response) => Number(response.status)).filter((status) => status >= 400 && status < 500 && status !== 401 && status !== 403);
    const { exchange } = await context.call(op, requestOf(context, op, { value: body }), [...successStatuses(op), ...documented]);
    const status = exchange.response.status;
    if (status < 400) return;
    const note = `${op.operationId} refused a value only the schema's looseness admits: ${member.path.join('.')} = ${show(breaking)} (${status}), which its description rules out ("${member.says}")`;
    if (context.target.strict) throw new Violation(`${note}; --strict holds the target to the schema as written`, exchange);
    context.advise(`${note} (a warning: allowed unless --strict)`);
    return;
  }
}
