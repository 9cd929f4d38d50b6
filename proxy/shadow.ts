import type { MockRequest } from '../mock/index.js';
import type { ShadowDifference } from '../mock/journal.js';
import { idText } from '../judge/exchange.js';
import type { OperationModel } from '../model/model.js';
import { keyOnlyAnswer, recordIn } from '../model/resources.js';
import { objectShape, type Schema } from '../model/schema.js';

export type { ShadowDifference } from '../mock/journal.js';

/** Records written through the proxy that are kept to check later answers against (the oldest go first). */
const WRITTEN_KEPT = 200;
/** Leaves kept of one written record: a larger body is checked on its first ones. */
const LEAVES_KEPT = 64;

/** One value the client wrote: where below its record (JSON pointer), and the value. */
interface Leaf {
  pointer: string;
  value: string | number | boolean | null;
}

/** One side's answer as the shadow compares it: its status and its body as JSON (`undefined`: none, or not JSON). */
export interface ShadowSide {
  status: number;
  body: unknown;
}

/**
 * The mock's side of `proxy --shadow` (DECISIONS D470-D473): every exchange forwarded to the upstream is replayed on
 * the mock, and the two answers are compared. The shadow keeps what makes the two stores comparable: the id the
 * upstream gave each record created through the proxy beside the id the mock gave the same record (a later request
 * naming the upstream's id reaches the mock with the mock's), and the records the client wrote (what either side
 * gives back of them is compared). It never changes what the client gets.
 */
export class Shadow {
  /** The upstream's id of a record → the mock's id of the same record. */
  private readonly toMockIds = new Map<string, string>();
  /** The mock's id → the upstream's. */
  private readonly toUpstreamIds = new Map<string, string>();
  private readonly written: Leaf[][] = [];

  /**
   * The request as the mock is asked it: every path segment, query value and JSON body string that is an id the
   * upstream gave becomes the id the mock gave the same record. A request naming no such id is returned as it is.
   */
  toMock(request: MockRequest): MockRequest {
    if (this.toMockIds.size === 0) return request;
    const queryAt = request.url.indexOf('?');
    const path = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
    const segments = path.split('/').map((segment) => {
      const mapped = this.toMockIds.get(safeDecode(segment));
      return mapped === undefined ? segment : encodeURIComponent(mapped);
    });
    let query = queryAt === -1 ? '' : request.url.slice(queryAt);
    if (queryAt !== -1) {
      const params = new URLSearchParams(query.slice(1));
      let changed = false;
      for (const [name, value] of [...params]) {
        const mapped = this.toMockIds.get(value);
        if (mapped === undefined) continue;
        params.set(name, mapped);
        changed = true;
      }
      if (changed) query = `?${params.toString()}`;
    }
    const url = `${segments.join('/')}${query}`;
    const parsed = jsonOf(request.body?.toString('utf8'));
    if (parsed === undefined) return url === request.url ? request : { ...request, url };
    const body = Buffer.from(JSON.stringify(this.mapStrings(parsed, this.toMockIds)));
    return { ...request, url, body, headers: { ...request.headers, 'content-length': String(body.length) } };
  }

  /**
   * Learns from one exchange both sides answered: a create both made pairs the upstream's new id with the mock's
   * (its resource's id member, in the answer's envelope, or the one member of an answer that holds the key alone), and a JSON body the client sent is kept as written records
   * (each object of an array body is one).
   */
  learn(op: OperationModel | undefined, requestBody: unknown, upstream: ShadowSide, mock: ShadowSide): void {
    if (op?.role === 'create' && op.resource !== undefined && upstream.status < 300 && mock.status < 300) {
      // A create that answers the key alone names it as its item path does (D431).
      const member = keyOnlyAnswer(op, op.resource) ?? op.resource.idProperty;
      const upstreamId = memberOf(recordIn(upstream.body, op.answerEnvelope), member);
      const mockId = memberOf(recordIn(mock.body, op.answerEnvelope), member);
      if (upstreamId !== undefined && mockId !== undefined && idText(upstreamId) !== idText(mockId)) {
        this.toMockIds.set(idText(upstreamId), idText(mockId));
        this.toUpstreamIds.set(idText(mockId), idText(upstreamId));
      }
    }
    if (upstream.status >= 300) return;
    for (const record of Array.isArray(requestBody) ? requestBody : [requestBody]) {
      if (!isObject(record)) continue;
      const leaves = leavesOf(record, '', []);
      if (leaves.length === 0) continue;
      this.written.push(leaves);
      if (this.written.length > WRITTEN_KEPT) this.written.shift();
    }
  }

  /**
   * Where the mock's answer differs from the upstream's (DECISIONS D471, D532): the status; else, where both bodies
   * are JSON, each member one side has and the other lacks (objects at every depth, array items paired), the length
   * of an array that shows a written value, the type of two values (a date-time apart from other text), and each
   * value a written record shows in the upstream's answer that no object of the mock's answer shows (ids compared
   * through the pairs learned). What a value the client did not write holds is never compared: the server makes it
   * (ids, names, times, fingerprints, how many items its own state gives a list) and no two servers make it alike.
   */
  compare(upstream: ShadowSide, mock: ShadowSide, pending: unknown, schema?: Schema): ShadowDifference[] {
    if (upstream.status !== mock.status) return [{ kind: 'status', pointer: '', upstream: String(upstream.status), mock: String(mock.status) }];
    if (upstream.body === undefined || mock.body === undefined) return [];
    const out: ShadowDifference[] = [];
    const toUpstream = (value: unknown): unknown => (typeof value === 'string' ? (this.toUpstreamIds.get(value) ?? value) : value);
    const records = [...this.written];
    for (const record of Array.isArray(pending) ? pending : [pending]) if (isObject(record)) records.push(leavesOf(record, '', []));
    const writtenValues = new Set(records.flatMap((leaves) => leaves.map((leaf) => leaf.value)).filter((value) => typeof value === 'string' || typeof value === 'number'));
    compareMembers(upstream.body, mock.body, '', out, { toUpstream, writtenValues }, schema);
    const upstreamObjects = objectsOf(upstream.body, '', []);
    const mockObjects = objectsOf(mock.body, '', []);
    const reported = new Set<string>();
    for (const leaves of records) {
      const held = bestHolder(upstreamObjects, leaves, (value) => value)?.held ?? [];
      // One shared value (a common creator's name) does not say which record an object is.
      if (held.length === 0 || (held.length < 2 && leaves.length > 1)) continue;
      const best = bestHolder(mockObjects, held, toUpstream);
      if (best !== undefined && best.held.length === held.length) continue;
      for (const leaf of held) {
        if (best?.held.includes(leaf) === true) continue;
        const pointer = `${best?.pointer ?? ''}${leaf.pointer}`;
        const key = `${pointer} ${JSON.stringify(leaf.value)}`;
        if (reported.has(key)) continue;
        reported.add(key);
        const got = best === undefined ? undefined : valueAt(best.object, leaf.pointer);
        out.push({ kind: 'written', pointer, upstream: JSON.stringify(leaf.value), mock: got === undefined ? 'absent' : JSON.stringify(got) });
      }
    }
    return out;
  }

  private mapStrings(value: unknown, ids: ReadonlyMap<string, string>): unknown {
    if (typeof value === 'string') return ids.get(value) ?? value;
    if (Array.isArray(value)) return value.map((item) => this.mapStrings(item, ids));
    if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, this.mapStrings(item, ids)]));
    return value;
  }
}

/** A body text as JSON, or `undefined` when it is empty or not JSON. */
export function jsonOf(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** What {@link compareMembers} reads besides the two answers: the mock's ids as the upstream's, and every value written. */
interface Reading {
  toUpstream: (value: unknown) => unknown;
  /** The texts and numbers of every written record (the kept ones and the exchange's own body). */
  writtenValues: ReadonlySet<unknown>;
}

function compareMembers(upstream: unknown, mock: unknown, pointer: string, out: ShadowDifference[], reading: Reading, schema: Schema | undefined): void {
  if (Array.isArray(upstream) && Array.isArray(mock)) {
    // How many items a list the server fills from its own state holds (an alert's receivers, a cluster's peers) is
    // that state's, which no client sees: only a list that shows what a client wrote is compared by length (D532).
    const written = holdsWritten(upstream, reading, (value) => value) || holdsWritten(mock, reading, reading.toUpstream);
    if (upstream.length !== mock.length && written) out.push({ kind: 'items', pointer, upstream: `${upstream.length} items`, mock: `${mock.length} items` });
    const partners = alignItems(upstream, mock, reading.toUpstream);
    upstream.forEach((item, i) => {
      const partner = partners[i];
      if (partner !== undefined) compareMembers(item, mock[partner], `${pointer}/${i}`, out, reading, schema === undefined ? undefined : itemsOf(schema));
    });
    return;
  }
  if (isObject(upstream) && isObject(mock)) {
    const members = schema === undefined ? undefined : membersOf(schema);
    for (const name of Object.keys(upstream)) {
      const at = `${pointer}/${escapePointer(name)}`;
      if (!(name in mock)) out.push({ kind: 'missing', pointer: at, upstream: summary(upstream[name]), mock: 'absent' });
      else compareMembers(upstream[name], mock[name], at, out, reading, members?.properties[name]);
    }
    for (const name of Object.keys(mock)) {
      if (name in upstream) continue;
      // The mock shows every member its description documents; one documented as optional that the upstream leaves
      // out is the upstream's state (a cluster run alone has no name), unless the client wrote it (D531).
      if (members !== undefined && Object.hasOwn(members.properties, name) && !members.required.has(name) && !holdsWritten(mock[name], reading, reading.toUpstream)) continue;
      out.push({ kind: 'added', pointer: `${pointer}/${escapePointer(name)}`, upstream: 'absent', mock: summary(mock[name]) });
    }
    return;
  }
  // A container on one side and not the other is a shape apart; two values compare by their type and date-time form,
  // never by what they hold, which the server makes (D532); a null is no type, as either side may have none yet.
  if (shapeOf(upstream) !== shapeOf(mock) && upstream !== null && mock !== null) out.push({ kind: 'type', pointer, upstream: summary(upstream), mock: summary(mock) });
}

/**
 * The members an object's schema documents, by name (its own, its `allOf` parts' and each `oneOf`/`anyOf` branch's,
 * the first schema found for a name), and those it requires (its own and its `allOf` parts').
 */
function membersOf(schema: Schema): { properties: Record<string, Schema>; required: ReadonlySet<string> } {
  const { properties, required } = objectShape(schema);
  const found: Record<string, Schema> = { ...properties };
  for (const keyword of ['oneOf', 'anyOf']) {
    const branches = schema[keyword];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches as Schema[]) {
      if (typeof branch !== 'object' || branch === null) continue;
      for (const [name, sub] of Object.entries(objectShape(branch).properties)) found[name] ??= sub;
    }
  }
  return { properties: Object.fromEntries(Object.entries(found).filter(([, sub]) => typeof sub === 'object' && sub !== null)), required: new Set(required) };
}

/** The schema of an array's items (its own or its `allOf` parts'), or `undefined`. */
function itemsOf(schema: Schema): Schema | undefined {
  const parts = [schema, ...((schema['allOf'] as Schema[] | undefined) ?? [])];
  return parts.map((part) => part['items']).find((items): items is Schema => typeof items === 'object' && items !== null && !Array.isArray(items));
}

/** RFC 3339's date-time, as a server makes a time: the one form of a text the shadow compares. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/** What the shadow compares of a value: `array`, `object`, `number`, `boolean`, `date-time`, `string`, `null`. */
function shapeOf(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value === 'string') return DATE_TIME.test(value) ? 'date-time' : 'string';
  return typeof value;
}

/** Whether a text or number of `value`, at any depth (read through `read`), is one a client wrote. */
function holdsWritten(value: unknown, reading: Reading, read: (value: unknown) => unknown): boolean {
  if (reading.writtenValues.size === 0) return false;
  if (Array.isArray(value)) return value.some((item) => holdsWritten(item, reading, read));
  if (isObject(value)) return Object.values(value).some((item) => holdsWritten(item, reading, read));
  return (typeof value === 'string' || typeof value === 'number') && reading.writtenValues.has(read(value));
}

/**
 * Which item of the mock's array stands for each item of the upstream's: two servers need not list in the same
 * order, so objects are paired by the most top-level values they share (ids through the pairs learned), the best
 * pairs first; the items left pair by position. Arrays of more than 200 items go by position alone.
 */
function alignItems(upstream: readonly unknown[], mock: readonly unknown[], toUpstream: (value: unknown) => unknown): (number | undefined)[] {
  const partners: (number | undefined)[] = upstream.map(() => undefined);
  const used = new Set<number>();
  if (upstream.length <= 200 && mock.length <= 200) {
    const pairs: { i: number; j: number; score: number }[] = [];
    upstream.forEach((item, i) => {
      if (!isObject(item)) return;
      mock.forEach((candidate, j) => {
        const score = isObject(candidate) ? Object.keys(item).filter((name) => isScalar(item[name]) && toUpstream(candidate[name]) === item[name]).length : 0;
        if (score > 0) pairs.push({ i, j, score });
      });
    });
    // The best-matched pairs first, so that an item is not taken by a weaker match before its own.
    pairs.sort((x, y) => y.score - x.score || x.i - y.i || x.j - y.j);
    for (const { i, j } of pairs) {
      if (partners[i] !== undefined || used.has(j)) continue;
      partners[i] = j;
      used.add(j);
    }
  }
  let j = 0;
  for (let i = 0; i < upstream.length; i++) {
    if (partners[i] !== undefined) continue;
    while (j < mock.length && used.has(j)) j++;
    if (j >= mock.length) break;
    partners[i] = j;
    used.add(j);
  }
  return partners;
}

function isScalar(value: unknown): boolean {
  return value === null || (typeof value !== 'object' && value !== undefined);
}

/** Every scalar below a written record, by JSON pointer (array items by position). */
function leavesOf(value: unknown, pointer: string, out: Leaf[]): Leaf[] {
  if (out.length >= LEAVES_KEPT) return out;
  if (Array.isArray(value)) value.forEach((item, i) => leavesOf(item, `${pointer}/${i}`, out));
  else if (isObject(value)) for (const [name, item] of Object.entries(value)) leavesOf(item, `${pointer}/${escapePointer(name)}`, out);
  else if (pointer !== '' && (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null)) out.push({ pointer, value });
  return out;
}

/** Every object of an answer at any depth, with its pointer. */
function objectsOf(value: unknown, pointer: string, out: { pointer: string; object: Record<string, unknown> }[]): { pointer: string; object: Record<string, unknown> }[] {
  if (Array.isArray(value)) value.forEach((item, i) => objectsOf(item, `${pointer}/${i}`, out));
  else if (isObject(value)) {
    out.push({ pointer, object: value });
    for (const [name, item] of Object.entries(value)) objectsOf(item, `${pointer}/${escapePointer(name)}`, out);
  }
  return out;
}

/** The object that holds the most of `leaves` (the first of the best), and which it holds; `undefined` when none holds any. */
function bestHolder(objects: readonly { pointer: string; object: Record<string, unknown> }[], leaves: readonly Leaf[], read: (value: unknown) => unknown): { pointer: string; object: Record<string, unknown>; held: Leaf[] } | undefined {
  let best: { pointer: string; object: Record<string, unknown>; held: Leaf[] } | undefined;
  for (const { pointer, object } of objects) {
    const held = leaves.filter((leaf) => read(valueAt(object, leaf.pointer)) === leaf.value);
    if (held.length > 0 && (best === undefined || held.length > best.held.length)) best = { pointer, object, held };
    if (best !== undefined && best.held.length === leaves.length) break;
  }
  return best;
}

function valueAt(value: unknown, pointer: string): unknown {
  let at: unknown = value;
  for (const part of pointer.split('/').slice(1)) {
    const name = part.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(at)) at = at[Number(name)];
    else if (isObject(at)) at = Object.hasOwn(at, name) ? at[name] : undefined;
    else return undefined;
  }
  return at;
}

function memberOf(value: unknown, member: string): unknown {
  return isObject(value) ? value[member] : undefined;
}

/** A value as a log line shows it: JSON, cut to 80 characters. */
function summary(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function escapePointer(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
