import { isLosslessNumber } from 'lossless-json';
import { refusedEvenCompleted } from './refused-values.js';
import { canonicalJson, sameJson, toView } from '../model/json.js';
import { validatorOf } from '../model/samples.js';
import type { OperationModel, ResourceModel } from '../model/model.js';
import { admittedTypes, isMarked, jsonType, objectShape, type Schema } from '../model/schema.js';
import { parameterValue } from './parameter-values.js';
import type { ExchangeRule } from './verdict.js';

/**
 * The seed's rules that one answer shows about records (seed, Endpoints: listPets rules 1-3, createPet rule 2),
 * as pure functions of the model and the exact JSON: the judge (conformance/exchange.ts) and the suite's checks
 * (checks/list.ts, checks/records.ts) both call them.
 */

/** The records of a list answer: the bare array (seed, Pets), or the array property of a wrapper object. */
export function listedRecords(resource: ResourceModel, body: unknown): Record<string, unknown>[] {
  const list = resource.listShape?.kind === 'object' ? (body as Record<string, unknown> | null)?.[resource.listShape.itemsProperty] : body;
  return Array.isArray(list) ? (list as Record<string, unknown>[]) : [];
}

/** Where a list answer holds its records, as a JSON pointer prefix (`` for a bare array). */
function listPointer(resource: ResourceModel): string {
  return resource.listShape?.kind === 'object' ? `/${resource.listShape.itemsProperty}` : '';
}

/** The first listed record whose `property` is not `value` (seed, listPets rule 1), as an index and a sentence. */
export function filterStranger(records: readonly Record<string, unknown>[], property: string, value: unknown): { index: number; message: string } | undefined {
  const index = records.findIndex((record) => !sameJson(record[property], value));
  if (index === -1) return undefined;
  return { index, message: `item ${index} has ${property} ${canonicalJson(records[index]![property] ?? null)}, but the query asks for ${canonicalJson(value)}` };
}

/**
 * The list rules one answer shows (seed, listPets rules 1-3; Limits): each single, valid filter value held by
 * every record; never more records than the page size asked for; without one, at most the default page size
 * (the maximum when the spec gives no default, DECISIONS D33); an invalid page size still never beyond the maximum.
 */
export function listProblems(resource: ResourceModel, op: OperationModel, query: URLSearchParams, body: unknown): { rule: ExchangeRule; pointer: string; expected: string; got: string; message: string }[] {
  const problems: { rule: ExchangeRule; pointer: string; expected: string; got: string; message: string }[] = [];
  const records = listedRecords(resource, body);
  const at = listPointer(resource);
  // A list of keys (`ticketIds: ["1"]`, D231) shows no member a filter could be judged by (D825).
  const keys = records.length > 0 && records.every((record) => record === null || typeof record !== 'object' || isLosslessNumber(record));
  for (const filter of keys ? [] : resource.filters) {
    const texts = query.getAll(filter.parameter.name);
    if (texts.length !== 1) continue;
    // A value asking for every record (`state=all`, D142) filters nothing.
    if (filter.any?.some((any) => String(any) === texts[0]) === true) continue;
    const { value, view } = parameterValue(filter.parameter, texts[0]!);
    if (!filter.parameter.validate(view)) continue;
    const stranger = filterStranger(records, filter.property, value);
    if (stranger !== undefined) problems.push({ rule: 'list.filter', pointer: `${at}/${stranger.index}/${filter.property}`, expected: canonicalJson(value), got: canonicalJson(records[stranger.index]![filter.property] ?? null), message: `${filter.parameter.name}=${texts[0]} was answered with ${stranger.message}` });
  }
  const limit = resource.limit;
  if (limit !== undefined) {
    const texts = query.getAll(limit.parameter);
    const param = op.queryParams.find((p) => p.name === limit.parameter);
    const asked = texts.length === 1 && param !== undefined && param.validate(parameterValue(param, texts[0]!).view) ? Number(texts[0]) : undefined;
    if (asked !== undefined && records.length > asked) {
      problems.push({ rule: 'list.limit', pointer: `${at}/${asked}`, expected: `at most ${asked} records`, got: `${records.length} records`, message: `${limit.parameter}=${asked} was answered with ${records.length} records` });
    } else if (texts.length === 0) {
      const bound = limit.default ?? limit.maximum;
      if (bound !== undefined && records.length > bound) problems.push({ rule: 'list.default-limit', pointer: `${at}/${bound}`, expected: `at most ${bound} records (the default page size)`, got: `${records.length} records`, message: `without ${limit.parameter}, the answer holds ${records.length} records, more than the default page size ${bound}` });
    } else if (asked === undefined && limit.maximum !== undefined && records.length > limit.maximum) {
      problems.push({ rule: 'list.limit', pointer: `${at}/${limit.maximum}`, expected: `at most ${limit.maximum} records (the largest page)`, got: `${records.length} records`, message: `an invalid ${limit.parameter} was answered with ${records.length} records, more than the largest page ${limit.maximum}` });
    }
  }
  return problems;
}

/**
 * Whether the record can hold a value sent for `name` as it was sent: the record does not mark it `readOnly`, and
 * its schema admits the value's JSON type (or says no type). A member a write names in another type than the record (DigitalOcean sends a `size` slug and
 * answers a `size` object) is the server's to turn into its own value: no echo is expected of it (D77), nor of a
 * value outside the enum the record's member lists (D221).
 */
export function keptAsSent(resource: ResourceModel, name: string, value: unknown): boolean {
  const schema = resource.properties[name];
  if (schema === undefined) return true;
  // A member the record marks `readOnly` is the server's, whatever a write body may carry.
  if (isMarked(schema, 'readOnly')) return false;
  // The member holding the parent's key is the path's: the record lives under the parent its path names (D828).
  if (resource.parent?.inSchema === true && resource.parent.property === name) return false;
  // A value outside the enum the record lists (a free text sent where one of four regions is answered) cannot come
  // back as sent from any server that answers as documented: the server picks its own value (D221).
  const listed = schema['enum'];
  if (Array.isArray(listed) && listed.length > 0 && !(value === null && admittedTypes(schema).includes('null')) && !listed.some((member) => sameJson(member, value))) return false;
  // A member (or list of members) that may be either a name or the object it names (`labels: ["bug"]` answered
  // as label objects) is the server's to answer in its own form (D261).
  if (namesOrObjects(schema)) return false;
  // A value the description says the server changes ("spaces are replaced with hyphens", "converted to lower case")
  // is the server's own form (D269); without such words the value is expected as sent.
  if (typeof schema['description'] === 'string' && CHANGED.test(schema['description'])) return false;
  const types = admittedTypes(schema);
  if (types.length === 0) return true;
  const type = isLosslessNumber(value) || typeof value === 'bigint' ? (Number.isInteger(Number(String(value))) ? 'integer' : 'number') : jsonType(value);
  if (!(types.includes(type) || (type === 'integer' && types.includes('number')))) return false;
  // Likewise a value of the right type that the record's member refuses (an empty `homepage` sent where the record's
  // is a `uri`): no documented answer can carry it (D235).
  // A list sent with items of another type than the record's items (user ids sent, the users' objects answered) is
  // the server's to turn into its own items, as a single member is (D77, D626, D727).
  if (Array.isArray(value) && !itemsAdmitted(schema, value)) return false;
  // And an object or list whose own members the record holds in another type or form, once what it requires is
  // filled in (an id sent where the record holds the object it names): the server's to read into its own (D891);
  // judged on what an answer shows of it, without its `writeOnly` members.
  if (value !== null && typeof value === 'object' && !isLosslessNumber(value)) return !refusedEvenCompleted(schema, returnedPart(schema, value));
  const validate = validatorOf(schema);
  return validate === undefined || validate(toView(value));
}

/** Whether every item of `list` is of a JSON type the items of array schema `schema` admit (no types said: any). */
function itemsAdmitted(schema: Schema, list: readonly unknown[]): boolean {
  const items = schema['items'];
  if (items === null || typeof items !== 'object' || Array.isArray(items)) return true;
  const types = admittedTypes(items as Schema);
  if (types.length === 0) return true;
  return list.every((item) => {
    const type = isLosslessNumber(item) || typeof item === 'bigint' ? (Number.isInteger(Number(String(item))) ? 'integer' : 'number') : jsonType(item);
    return types.includes(type) || (type === 'integer' && types.includes('number'));
  });
}

/** Words of a description saying the server changes a value it is sent (D269). */
const CHANGED = /\b(?:(?:is|are|will be|gets?) (?:converted|normali[sz]ed|replaced|lower-?cased|upper-?cased|slugified|trimmed|truncated|rounded)|normali[sz]es|slugifies)\b/i;

/**
 * Whether a record's member schema, or the schema of its items, admits both an object and a scalar (`oneOf: [string,
 * {name, color}]`): the scalar names the object, and a server may answer either form whichever was sent (D261).
 */
function namesOrObjects(schema: Schema): boolean {
  const items = schema['items'];
  const forms = (one: Schema): string[] => admittedTypes(one).filter((type) => type !== 'null');
  const mixed = (one: Schema): boolean => forms(one).includes('object') && forms(one).some((type) => type === 'string' || type === 'integer' || type === 'number');
  return mixed(schema) || (typeof items === 'object' && items !== null && !Array.isArray(items) && mixed(items as Schema));
}

/**
 * Whether the record's own schema admits `value` for member `name` (a member it does not name: yes). A create whose
 * answer is another schema than the read's may answer a member the record types otherwise (`approved: 0` in a
 * payment's receipt, `approved: true|false` in the payment read back; `message_id` digits in one, a number in the
 * other): such a value is the answer's own, and no read of the record can show it (D721).
 */
export function recordHolds(resource: ResourceModel, name: string, value: unknown): boolean {
  const schema = resource.properties[name];
  if (schema === undefined) return true;
  const validate = validatorOf(schema);
  return validate === undefined || validate(toView(value));
}

/**
 * Whether `value`, sent for member `name`, sends nothing (`null` or an empty list) for a member the record need
 * not hold: an answer that leaves the member out shows it (D260).
 */
export function mayBeLeftOut(resource: ResourceModel, name: string, value: unknown): boolean {
  return (value === null || (Array.isArray(value) && value.length === 0)) && !resource.required.includes(name);
}

/**
 * Whether the record as responses carry it shows `name` (declared and not `writeOnly`, or kept as an extra property).
 * A secret (`format: password`, or a member named a password or secret) is not expected back even when the spec
 * forgot to mark it `writeOnly` (D122): a server that never answers with a credential is correct, not lossy.
 */
export function isReturned(resource: ResourceModel, name: string): boolean {
  if (answerOnlyMembers(resource).has(name)) return false;
  const schema = resource.properties[name] as unknown;
  if (isSecret(name, schema)) return false;
  if (schema === undefined) return resource.keepsOtherProperties;
  return typeof schema === 'object' && schema !== null;
}

/** Whether member `name` of schema `schema` holds a credential: OpenAPI's `format: password`, or its name says so. */
function isSecret(name: string, schema: unknown): boolean {
  const format = typeof schema === 'object' && schema !== null ? (schema as Record<string, unknown>)['format'] : undefined;
  return format === 'password' || /(?:^|[a-z_-])(?:password|passwd|secret)$/i.test(name);
}

const answerOnly = new WeakMap<ResourceModel, ReadonlySet<string>>();

/**
 * Members a single-record answer's composition adds that the list's items lack (D97): a read answering
 * `allOf: [Reservation, {links}]` while the list's items are plain `Reservation`. They are hypermedia of that one
 * answer, not part of the record, so no comparison of a record across answers looks at them. Empty when the list's
 * items name no members (nothing to tell the record by) or keep other members; computed once per resource.
 */
export function answerOnlyMembers(resource: ResourceModel): ReadonlySet<string> {
  let found = answerOnly.get(resource);
  if (found !== undefined) return found;
  const names = new Set<string>();
  const list = resource.operations.list;
  const schema = list?.responses.find((response) => response.status.startsWith('2') && response.schema !== undefined)?.schema;
  const shape = resource.listShape;
  if (schema !== undefined && shape !== undefined) {
    let array: Schema | undefined = schema;
    for (const step of shape.kind === 'array' ? [] : shape.itemsPath) array = array === undefined ? undefined : objectShape(array).properties[step];
    const items = array === undefined ? [] : itemsParts(array);
    const item = objectShape({ allOf: items });
    const listed = Object.keys(item.properties);
    const closed = item.additional === false || !items.some((part) => part['additionalProperties'] !== undefined);
    if (listed.length > 0 && closed) {
      for (const name of Object.keys(resource.properties)) if (name !== resource.idProperty && !listed.includes(name)) names.add(name);
    }
  }
  found = names;
  answerOnly.set(resource, found);
  return found;
}

/** Every `items` schema of an array schema, its `allOf` parts' included (a wrapper's `data` refined by a part). */
function itemsParts(schema: Schema): Schema[] {
  const own = schema['items'];
  const parts = typeof own === 'object' && own !== null && !Array.isArray(own) ? [own as Schema] : [];
  for (const part of (schema['allOf'] as Schema[] | undefined) ?? []) parts.push(...itemsParts(part));
  return parts;
}

/**
 * The fields of a create's answer that do not repeat the submitted ones exactly (seed, createPet rule 2: int64
 * digit for digit, strings code unit for code unit). A field left out of the request may come back filled.
 */
export function echoProblems(resource: ResourceModel, sent: Readonly<Record<string, unknown>>, got: unknown): { name: string; expected: string; got: string; message: string }[] {
  const record = (got !== null && typeof got === 'object' ? got : {}) as Record<string, unknown>;
  const problems: { name: string; expected: string; got: string; message: string }[] = [];
  for (const [name, member] of Object.entries(sent)) {
    if (!isReturned(resource, name) || !keptAsSent(resource, name, member)) continue;
    const value = returnedPart(resource.properties[name], member);
    // Nothing sent for a member the record need not hold may come back as the member left out (D260).
    if (!Object.hasOwn(record, name) && mayBeLeftOut(resource, name, member)) continue;
    if (!Object.hasOwn(record, name)) problems.push({ name, expected: canonicalJson(value), got: '(absent)', message: `${name} was sent as ${canonicalJson(value)} but the answer leaves it out` });
    else if (!shows(record[name], value, resource.properties[name])) problems.push({ name, expected: canonicalJson(value), got: canonicalJson(record[name]), message: `${name} was sent as ${canonicalJson(value)} but came back as ${canonicalJson(record[name])}` });
  }
  return problems;
}

/**
 * Whether an answer's value shows a value sent: the same JSON (int64 exact), except that an object sent may come
 * back with more members than it had (a server fills `readOnly` and default members inside it, and a merge patch
 * keeps those not sent: spec/DECISIONS.md › D75); arrays item by item, in order, except that a list of days or
 * instants may come back in time order (D189). Inside an object, nothing sent (`null`, an empty list) for a member
 * its schema does not require may come back left out, as at the record's top (D260, D722).
 */
export function shows(got: unknown, sent: unknown, schema?: unknown): boolean {
  if (isObject(sent) && isObject(got)) return Object.entries(sent).every(([name, member]) => (Object.hasOwn(got, name) ? shows(got[name], member, partOf(schema, 'properties', name)) : nothingSent(member) && !requires(schema, name)));
  if (Array.isArray(sent) && Array.isArray(got)) {
    if (sent.length !== got.length) return false;
    if (sent.every((item, i) => shows(got[i], item, partOf(schema, 'items')))) return true;
    // A list of days or instants is a calendar: a server may keep it in time order rather than as sent (D189).
    return isCalendar(sent) && isCalendar(got) && calendarOrder(got).every((item, i) => item === calendarOrder(sent)[i]);
  }
  return sameJson(got, sent) || maskedEcho(got, sent) || sameHex(schema, got, sent);
}

/** Whether `value` sends no value: `null` or an empty list (D260). */
function nothingSent(value: unknown): boolean {
  return value === null || (Array.isArray(value) && value.length === 0);
}

/** Whether object schema `schema` (its `allOf` parts included) requires member `name`; no schema requires nothing. */
function requires(schema: unknown, name: string): boolean {
  return isObject(schema) && objectShape(schema as Schema).required.includes(name);
}

/** The schema of a member (`properties`, `name`) or of the items (`items`) of `schema`, when it says one. */
function partOf(schema: unknown, key: 'properties' | 'items', name?: string): unknown {
  if (!isObject(schema)) return undefined;
  const part = schema[key];
  return name === undefined ? part : isObject(part) ? part[name] : undefined;
}

/**
 * Whether `got` is `sent` in another case, where both are hexadecimal digits and the member's schema says they are:
 * a pattern that admits both cases of `a-f`, or a description of a hex code or colour (D495). Hexadecimal digits
 * have no case: a server may keep `FFAA00` as `ffaa00`.
 */
function sameHex(schema: unknown, got: unknown, sent: unknown): boolean {
  if (typeof got !== 'string' || typeof sent !== 'string' || got.toLowerCase() !== sent.toLowerCase() || !HEX_TEXT.test(sent) || !isObject(schema)) return false;
  const pattern = typeof schema['pattern'] === 'string' ? schema['pattern'] : '';
  const text = typeof schema['description'] === 'string' ? schema['description'] : '';
  return (pattern.includes('a-f') && pattern.includes('A-F')) || /\bhex(?:adecimal)?\b/i.test(text);
}
const HEX_TEXT = /^#?[0-9a-fA-F]+$/;

const CALENDAR_ITEM = /^\d{4}-\d{2}-\d{2}(?:[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2}))?$/;

/** Whether every item of `list` is a day (`2023-09-05`) or an instant with its offset: a calendar (D189). */
function isCalendar(list: readonly unknown[]): list is string[] {
  return list.length > 1 && list.every((item) => typeof item === 'string' && CALENDAR_ITEM.test(item));
}

/** The items of a calendar in time order (their text kept; equal instants by their text). */
function calendarOrder(list: readonly string[]): string[] {
  return [...list].sort((one, other) => Date.parse(one) - Date.parse(other) || (one < other ? -1 : one > other ? 1 : 0));
}

/**
 * Whether `got` is `sent` masked as a card number is (D122): the same length, every character but the last four
 * at most replaced by one mask character (`*`, `x`, `X`, `•`, `#`), the rest kept: `************4242`.
 */
function maskedEcho(got: unknown, sent: unknown): boolean {
  if (typeof got !== 'string' || typeof sent !== 'string' || got === sent) return false;
  // Characters counted as code points (a server masking by characters) or as UTF-16 units (one masking by
  // JavaScript string indices): both are correct readings of "the last four digits" (D183).
  return maskedOver(Array.from(got), Array.from(sent)) || maskedOver(got.split(''), sent.split(''));
}

/** {@link maskedEcho} over one way of counting characters: `got` and `sent` cut into them. */
function maskedOver(got: readonly string[], sent: readonly string[]): boolean {
  if (got.length !== sent.length) return false;
  let masked = 0;
  while (masked < got.length && '*xX•#'.includes(got[masked]!) && got[masked] === got[0]) masked += 1;
  return masked > 0 && masked >= got.length - 4 && got.slice(masked).join('') === sent.slice(masked).join('');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !isLosslessNumber(value);
}

/**
 * What an answer shows of a value sent in a member of schema `schema` (the record's, as responses see it): the
 * members a response may not carry (`writeOnly`, a `false` schema in the response view), at any depth and in any
 * `allOf`/`oneOf`/`anyOf` part, left out.
 */
export function returnedPart(schema: unknown, value: unknown): unknown {
  if (schema === null || typeof schema !== 'object' || value === null || typeof value !== 'object') return value;
  const node = schema as Record<string, unknown>;
  if (Array.isArray(value)) return value.map((item) => returnedPart(node['items'], item));
  if (isLosslessNumber(value)) return value;
  const parts = [node, ...(['allOf', 'oneOf', 'anyOf'] as const).flatMap((key) => (Array.isArray(node[key]) ? (node[key] as unknown[]) : []))].filter((part): part is Record<string, unknown> => part !== null && typeof part === 'object');
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value as Record<string, unknown>)) {
    const subs = parts.map((part) => (part['properties'] as Record<string, unknown> | undefined)?.[name]).filter((sub) => sub !== undefined);
    if (subs.some((sub) => sub === false)) continue;
    out[name] = returnedPart(subs.find((sub) => sub !== null && typeof sub === 'object'), member);
  }
  return out;
}
