import { judgeResponseBody } from '../judge/exchange.js';
import type { Exchange } from '../judge/verdict.js';
import { canonicalJson, parseExact, sameJson, toView } from '../model/json.js';
import type { OperationModel } from '../model/model.js';
import { saysCreatesOrUpdates } from '../model/resources.js';
import { isLosslessNumber } from 'lossless-json';
import { objectShape, type Schema } from '../model/schema.js';
import { isEmptyValue, narrow, setAt, valueAt } from './arbitraries/narrowed.js';
import { isPinned } from './arbitraries/body.js';
import { encodeBody } from './body-encoding.js';
import type { CheckContext, RequestSpec } from './check-context.js';
import { DocumentedUnavailable, Violation } from './contract.js';

export { DocumentedUnavailable };

// A server written from a description's text enforces rules its schema does not encode ("Must be a six-digit
// number", "start time must be before end time", "Body cannot be blank"), and answers a value that breaks one with a
// refusal the operation documents. Such a refusal of a value the suite drew is the server's rule, not a failure
// (D490): the suite sends the description's own example instead, fails the target only when that is refused too,
// and draws the member the refusal named as the example from then on (D491).

/**
 * A documented refusal (a 4xx the operation lists, its body in the documented shape) of a request whose body the
 * suite drew and meant to be taken. Thrown by `CheckContext.call`; the property runner and the check runner excuse
 * it with {@link excuseRefusal}. Unhandled, it fails the check as the status it is (a {@link Violation}).
 */
export class DocumentedRefusal extends Violation {
  constructor(
    problem: string,
    exchange: Exchange,
    readonly op: OperationModel,
    readonly request: RequestSpec,
    readonly expected: readonly number[],
  ) {
    super(problem, exchange);
    this.name = 'DocumentedRefusal';
  }
}

/** The 4xx `op` lists itself: each exact status and each status of a `4XX` range (not `default`, which says nothing of a rule). */
export function listedClientErrors(op: OperationModel): number[] {
  const statuses = new Set<number>();
  for (const response of op.responses) {
    const exact = Number(response.status);
    if (Number.isInteger(exact) && exact >= 400 && exact < 500) statuses.add(exact);
    if (response.status === '4XX') for (let status = 400; status < 500; status++) statuses.add(status);
  }
  return [...statuses];
}

/**
 * The member of a body that names the record an operation that "creates or updates" updates (D492): `id`, or a
 * member ending in `id`/`Id`/`_id` the body schema declares at its top, when the operation's summary or description
 * says it creates or updates; `undefined` otherwise.
 */
export function updatedIdMember(op: OperationModel, value: unknown): string | undefined {
  if (op.body === undefined || !saysCreatesOrUpdates(op) || value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const declared = Object.keys(objectShape(op.body.schema).properties);
  return Object.keys(value).find((name) => declared.includes(name) && (name === 'id' || /(?:_id|Id|ID)$/.test(name)) && (value as Record<string, unknown>)[name] !== undefined);
}

/**
 * The refusal to excuse behind `violation`, when the answer in `exchange` is one (see {@link DocumentedRefusal}):
 * the request carried a body the suite drew (`request.value`, still what the body encodes), sent with the target's
 * own credentials, and meant to be taken (`expected` holds a 2xx); the status is not among `expected`, but a 4xx
 * the operation lists, neither 401, 403 nor 429 (credentials and rate are not the drawn value's), and 404 only on
 * an operation that creates or updates whose body names an id (D492); and the answer is in the documented shape.
 * Such a refusal whose body is outside the documented shape is a {@link Violation} saying so; `undefined` otherwise.
 */
export function documentedRefusal(op: OperationModel, request: RequestSpec, expected: readonly number[], exchange: Exchange, violation: Violation): Violation | undefined {
  const status = exchange.response.status;
  if (expected.includes(status) || !expected.some((one) => one >= 200 && one < 300) || request.credentials !== undefined) return undefined;
  if (request.value === undefined || request.body === undefined || op.body === undefined || encodeBody(op, request.value).text !== request.body) return undefined;
  if ([401, 403, 429].includes(status) || !listedClientErrors(op).includes(status)) return undefined;
  if (status === 404 && updatedIdMember(op, request.value) === undefined) return undefined;
  const accept = Object.entries(exchange.request.headers).find(([name]) => name.toLowerCase() === 'accept')?.[1];
  const outside = judgeResponseBody(op, exchange.response, exchange.request.method, false, accept).violations[0];
  if (outside !== undefined) return new Violation(`${violation.problem}: a refusal ${op.operationId} documents, but outside its documented shape (${outside.message})`, exchange);
  return new DocumentedRefusal(`${violation.problem} (a refusal ${op.operationId} documents, of a value the suite drew)`, exchange, op, request, expected);
}

/** The documented refusal behind an error (a check or a property may wrap it as a cause), if any. */
export function refusalIn(error: unknown): DocumentedRefusal | undefined {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (current instanceof DocumentedRefusal) return current;
  }
  return undefined;
}

/** The documented 501/503 behind an error, if any. */
export function unavailableIn(error: unknown): DocumentedUnavailable | undefined {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (current instanceof DocumentedUnavailable) return current;
  }
  return undefined;
}

/**
 * Judges a documented refusal of a drawn value (D490, D491). The first time an operation refuses one in a run, the
 * suite sends the description's own example in its place: the body example the description gives (with the members
 * the run pinned to records the target holds, D95, and the drawn id where the client chooses it), else the drawn
 * body with each member that has an example set to it; on an operation that creates or updates, a 404 to a body
 * naming an id is tried again without the id (D492). The trial is judged by the statuses the check expected:
 * - taken: the refusal was the server's rule, and this one is excused; each member the refusal's text names (its
 *   name, or its words: `sort_code`, "sort code", `startsAt`, "starts at") is drawn as the example from then on;
 * - refused with a documented 4xx: a {@link Violation}, "refuses the description's own example";
 * - anything else: the violation of the trial's answer.
 * Without an example to try, the refusal is excused and counted (advice: not every value could be judged).
 * Resolves `true` when the run learnt a new narrowing (a check may then be run again with it).
 */
export async function excuseRefusal(context: CheckContext, refusal: DocumentedRefusal): Promise<boolean> {
  const { op, request, expected } = refusal;
  const status = refusal.exchange!.response.status;
  const state = context.run.refusals;
  const key = `${op.operationId} ${status}`;
  const counted = state.counts.get(key);
  if (counted === undefined) state.counts.set(key, { count: 1, text: excerpt(refusal.exchange!.response.text) });
  else counted.count += 1;
  context.advise(`${op.operationId} refused a value the suite drew with its documented ${status} (${excerpt(refusal.exchange!.response.text)}): the server's own rule, not a failure while it takes the description's example (D490)`, `refusal ${key}`);
  const drawn = request.value;
  const idMember = status === 404 ? updatedIdMember(op, drawn) : undefined;
  const named = namedMembers(refusal.exchange!.response.text, drawn, op);
  // A refusal naming a member whose drawn value the schema itself promises is no rule of the server's (D498).
  const promised = idMember === undefined ? named.find((path) => promisedValue(op, path, valueAt(drawn, path))) : undefined;
  if (promised !== undefined) throw new Violation(`${refusal.problem}: it refuses ${promised.join('.')} = ${JSON.stringify(toView(valueAt(drawn, promised)))}, a value the member's schema admits by name (null where nullable, an enum value, a number or boolean in range) and its text sets no further rule on (D498)`, refusal.exchange);
  const trial = idMember !== undefined ? withoutMember(drawn, idMember) : exampleTrial(context, op, drawn, named);
  if (trial === undefined || (state.examples.get(op) === 'taken' && idMember === undefined)) {
    if (trial === undefined) state.examples.set(op, state.examples.get(op) ?? 'none');
    return learn(context, op, drawn, trial, named);
  }
  const encoded = encodeBody(op, trial);
  const sent: RequestSpec = { method: request.method, path: request.path, headers: { ...request.headers, 'content-type': encoded.contentType }, body: encoded.text, value: trial };
  try {
    await context.call(op, sent, expected);
  } catch (error) {
    const again = refusalIn(error);
    if (again === undefined) throw error;
    // The body without the id, refused for another of its drawn values: judged as a refusal of that body (its
    // own example trial), and the id is left out from now on all the same (D492).
    if (idMember !== undefined && again.exchange!.response.status !== 404) {
      const learnt = await excuseRefusal(context, again);
      return narrow(state.narrowings, op, { path: [idMember], value: undefined, replaces: 'absent' }) || learnt;
    }
    const why = idMember === undefined ? "the description's own example" : `the same body without \`${idMember}\``;
    throw new Violation(`${op.operationId} refused a drawn value with its documented ${status}, and refuses ${why} too (${again.exchange!.response.status}): a server that follows the description takes it`, again.exchange);
  }
  if (idMember === undefined) state.examples.set(op, 'taken');
  else if (narrow(state.narrowings, op, { path: [idMember], value: undefined, replaces: 'absent' })) {
    // The body taken without the id: the run's later bodies create, and leave the id out (D492).
    context.advise(`${op.operationId} answered its documented 404 to a drawn \`${idMember}\` (an operation that creates or updates): the suite leaves \`${idMember}\` out of its bodies from now on (D492)`);
    return true;
  }
  return learn(context, op, drawn, trial, named);
}

/** Records a narrowing for each member the refusal named that the trial gives another value (D491); `true` when one is new. */
function learn(context: CheckContext, op: OperationModel, drawn: unknown, trial: unknown, named: readonly string[][]): boolean {
  const example = trial ?? exampleBody(op);
  let learnt = false;
  for (const path of named) {
    const refused = valueAt(drawn, path);
    const value = example === undefined ? memberExample(op, path) : valueAt(example, path) ?? memberExample(op, path);
    if (value === undefined || sameJson(value, refused)) continue;
    if (narrow(context.run.refusals.narrowings, op, { path, value, replaces: isEmptyValue(refused) ? 'empty' : 'always' })) {
      learnt = true;
      context.advise(`${op.operationId} refused ${path.join('.')} = ${excerpt(canonicalJson(refused), 60)} with a documented status: the suite draws it as the description's example ${excerpt(canonicalJson(value), 60)} from now on`);
    }
  }
  return learnt;
}

/**
 * After a refusal whose text names no member the run could narrow (D491): every member of the drawn body that the
 * description's example gives another value is drawn as the example from then on, so that a check whose fixed
 * cases were refused can be run again on values the server takes. `true` when a narrowing is new.
 */
export function narrowToExample(context: CheckContext, refusal: DocumentedRefusal): boolean {
  const { op } = refusal;
  const drawn = refusal.request.value;
  const example = exampleBody(op);
  let learnt = false;
  for (const path of leafPaths(drawn)) {
    if (isPinned(context, op, path[0]!) || path[0] === op.resource?.idProperty) continue;
    const value = (example === undefined ? undefined : valueAt(example, path)) ?? memberExample(op, path);
    if (value === undefined || sameJson(value, valueAt(drawn, path))) continue;
    learnt = narrow(context.run.refusals.narrowings, op, { path, value, replaces: 'always' }) || learnt;
  }
  if (learnt) context.advise(`${op.operationId}: a refusal named no member the suite could tell, so its bodies are drawn with the description's example values from now on (D491)`);
  return learnt;
}

/** `value` (an object) without `member`. */
function withoutMember(value: unknown, member: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([name]) => name !== member));
}

/** The description's first body example of `op` that its own validator accepts, if any. */
function exampleBody(op: OperationModel): unknown {
  return op.body?.examples?.find((example) => op.body!.validate(toView(example)));
}

/**
 * The trial body in place of the drawn `value` (see {@link excuseRefusal}): the body example, with the members the run
 * pinned and the drawn id member kept as drawn; else the drawn body with each member that has an example of its own
 * set to it. `undefined` when neither differs from what was drawn.
 */
function exampleTrial(context: CheckContext, op: OperationModel, value: unknown, named: readonly string[][] = []): unknown {
  const updated = updatedIdMember(op, value);
  if (updated !== undefined) {
    // On an operation that creates or updates, a drawn id names a record to update: the trial creates (D492).
    const trial = exampleTrial(context, op, withoutMember(value, updated), named);
    return trial ?? withoutMember(value, updated);
  }
  const example = exampleBody(op);
  const id = op.resource?.idProperty;
  if (example !== undefined) {
    if (example === null || typeof example !== 'object' || Array.isArray(example) || value === null || typeof value !== 'object' || Array.isArray(value)) return sameJson(example, value) ? undefined : example;
    const kept: Record<string, unknown> = structuredClone(example as Record<string, unknown>);
    for (const [name, member] of Object.entries(value as Record<string, unknown>)) if (isPinned(context, op, name) || name === id) kept[name] = member;
    return sameJson(kept, value) ? undefined : kept;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  let changed = value as Record<string, unknown>;
  // The members the body holds, and those the refusal named that it left out (an optional member a server wants).
  const absent = named.filter((path) => valueAt(value, path) === undefined);
  for (const path of [...leafPaths(value), ...absent]) {
    if (isPinned(context, op, path[0]!) || path[0] === id) continue;
    const own = memberExample(op, path);
    if (own !== undefined && (path.length === 1 || valueAt(changed, path.slice(0, -1)) !== undefined)) changed = setAt(changed, path, own);
  }
  return changed === value || !op.body!.validate(toView(changed)) ? undefined : changed;
}

/** The example a member's own schema gives (`example`, the first of `examples`), found along `path` through objects and their branches. */
function memberExample(op: OperationModel, path: readonly string[]): unknown {
  let schemas: Schema[] = op.body === undefined ? [] : [op.body.schema];
  for (const step of path) {
    schemas = schemas.flatMap((schema) => {
      const member = objectShape(schema).properties[step];
      const branches = ['oneOf', 'anyOf'].flatMap((key) => (Array.isArray(schema[key]) ? (schema[key] as Schema[]) : []));
      return [...(typeof member === 'object' && member !== null ? [member] : []), ...branches.flatMap((branch) => {
        const inBranch = objectShape(branch).properties[step];
        return typeof inBranch === 'object' && inBranch !== null ? [inBranch] : [];
      })];
    });
  }
  for (const schema of schemas) {
    const examples = schema['examples'];
    const found = schema['example'] ?? (Array.isArray(examples) ? examples[0] : undefined);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The paths of the scalar (and empty) members of an object value, nested objects walked. */
function leafPaths(value: unknown, path: string[] = []): string[][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || (path.length > 0 && isEmptyValue(value))) return path.length === 0 ? [] : [path];
  return Object.entries(value as Record<string, unknown>).flatMap(([name, member]) => leafPaths(member, [...path, name]));
}

/**
 * The members of the drawn body (paths, deepest first) that a refusal's text names (D491), in any text of the answer
 * (a `detail`, a `message`, an `errors[].field`), case aside: the member's name as a whole word (`sort_code`), or
 * every word of its name of three letters or more, each as a word or the start of one once a final `s` is dropped
 * (`startsAt` in "start time must be before end time", `sortCode` in "the sort code"). A member named inside one also
 * named is the one meant.
 */
export function namedMembers(text: string, value: unknown, op?: OperationModel): string[][] {
  const parsed = parseExact(text);
  const texts: string[] = [];
  const collect = (node: unknown): void => {
    if (typeof node === 'string') texts.push(node);
    else if (Array.isArray(node)) node.forEach(collect);
    else if (node !== null && typeof node === 'object') Object.values(node as Record<string, unknown>).forEach(collect);
  };
  if (parsed.ok) collect(parsed.document.value);
  else texts.push(text);
  const said = ` ${texts.join(' ').toLowerCase().replace(/[^a-z0-9_]+/g, ' ')} `;
  const saidWords = said.replace(/_/g, ' ').split(' ').filter((word) => word !== '');
  const names = (name: string): boolean => {
    if (said.includes(` ${name.toLowerCase()} `)) return true;
    const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase().split(' ').filter((word) => word.length >= 3);
    return words.length > 0 && words.every((word) => {
      const stem = word.length > 3 && word.endsWith('s') ? word.slice(0, -1) : word;
      return saidWords.some((one) => one === word || one.startsWith(stem));
    });
  };
  const paths: string[][] = [];
  const walk = (node: unknown, path: string[]): void => {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
    for (const [name, member] of Object.entries(node as Record<string, unknown>)) {
      if (name.length > 1 && names(name)) paths.push([...path, name]);
      walk(member, [...path, name]);
    }
  };
  walk(value, []);
  // A member the body's schema declares at its top, left out of the drawn body, may be the one named (a server that
  // wants a member its schema leaves optional).
  const declared = op?.body === undefined ? [] : Object.keys(objectShape(op.body.schema).properties);
  for (const name of declared) if (name.length > 1 && !paths.some((path) => path[0] === name) && names(name) && (value === null || typeof value !== 'object' || !Object.hasOwn(value, name))) paths.push([name]);
  const deepest = paths.filter((path) => !paths.some((other) => other.length > path.length && path.every((step, i) => other[i] === step)));
  return deepest.sort((one, other) => other.length - one.length);
}

function excerpt(text: string, max = 160): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** Words by which a member's text states a rule its schema does not (a range, an order, a count of digits). */
const RULE_WORDS = /\b(must|only|at (least|most)|between|before|after|digits?|greater|less|more than|fewer|positive|negative|non-?zero|unique|valid|range|not be|cannot|exceed)\b/i;

/**
 * Whether `value`, at `path` of `op`'s body, is one the member's schema promises outright (spec/DECISIONS.md ›
 * D498): `null` where the member is nullable, a value its `enum` lists, or a number or boolean the schema admits,
 * while the member's `description` states no rule beside it. A documented refusal of such a value is a
 * violation of the description, not a rule of the server's that D490 excuses; a string is never promised this
 * way (a text may carry a rule only prose states: "Must be a six-digit number").
 */
function promisedValue(op: OperationModel, path: readonly string[], value: unknown): boolean {
  let schema: Schema | undefined = op.body?.schema;
  for (const step of path) schema = schema === undefined ? undefined : objectShape(schema).properties[step];
  if (schema === undefined || typeof schema !== 'object') return false;
  const text = typeof schema['description'] === 'string' ? schema['description'] : '';
  if (RULE_WORDS.test(text)) return false;
  const types = Array.isArray(schema['type']) ? (schema['type'] as unknown[]) : [schema['type']];
  if (value === null) return schema['nullable'] === true || types.includes('null');
  if (Array.isArray(schema['enum'])) return (schema['enum'] as unknown[]).some((one) => sameJson(one, value));
  if (typeof value === 'boolean') return types.includes('boolean');
  const numeric = typeof value === 'number' || typeof value === 'bigint' || isLosslessNumber(value);
  return numeric && (types.includes('integer') || types.includes('number'));
}
