import { isLosslessNumber } from 'lossless-json';
import { canonicalJson, parseExact, toView } from '../model/json.js';
import type { ListModel, OperationModel, ResourceModel } from '../model/model.js';
import { keyOnlyAnswer, scalarAnswer } from '../model/resources.js';
import { validatorOf, validSample } from '../model/samples.js';
import { objectShape, type Schema, type Validator } from '../model/schema.js';
import { admitsNull } from './record-bodies.js';
import type { RecordValue } from './store/record-store.js';

/** A record operation's answer made to fit its own schema (see {@link answerFit}). */
export interface AnswerFit {
  /** The answer for a stored record's JSON text: as it is when it validates, else fit (see {@link answerFit}). */
  answer: (json: string) => string;
  /**
   * A record about to be stored (no id yet) with each record member the fit answer would change or add set to that
   * value where the record stays valid (a `role` the answer's enum allows), so the answer and a later read agree.
   */
  align: (record: RecordValue) => RecordValue;
}

/**
 * How a record operation's answer is made to fit its own documented schema where that schema is not the record's
 * (spec/DECISIONS.md › D155): a create that answers a record plus a one-time secret (`api_key` required only
 * there), or names a member's values in another enum than the read does. `undefined` when the answer schema admits
 * the stored records as they are, judged once from the record schema: then the answer is the stored record's text
 * untouched (the seed's hot path does no extra work). Otherwise an answer that does not validate becomes a valid
 * sample of the answer schema with the record's members lent to it one at a time, each kept only while the answer
 * stays valid; when even that sample is invalid, nothing is fit (the start-up log already names such a schema, D55).
 */
export function answerFit(op: OperationModel, resource: ResourceModel): AnswerFit | undefined {
  if (op.answerEnvelope !== undefined) return undefined;
  const response = op.responses.find((r) => r.status === String(op.successStatus) && r.schema !== undefined && r.validate !== undefined);
  if (response === undefined || response.schema === resource.recordSchema) return undefined;
  const validate = response.validate!;
  // A create that answers a scalar answers the new key where the scalar's schema takes it, else a valid sample (D552).
  const scalar = scalarAnswer(op);
  if (scalar !== undefined) {
    const sample = canonicalJson(validSample(response.schema!));
    const fits = (text: string): boolean => {
      const parsed = parseExact(text);
      return parsed.ok && validate(toView(parsed.document.value));
    };
    return {
      answer: (json) => {
        const parsed = parseExact(json);
        const record = parsed.ok ? parsed.document.value : undefined;
        const id = record !== null && typeof record === 'object' && !Array.isArray(record) ? (record as RecordValue)[resource.idProperty] : undefined;
        const idText = id === undefined || id === null ? undefined : typeof id === 'string' ? id : canonicalJson(id);
        const key = idText === undefined || scalar === 'boolean' ? undefined : scalar === 'string' ? JSON.stringify(idText) : /^-?\d+(?:\.\d+)?$/.test(idText) ? idText : undefined;
        return key !== undefined && fits(key) ? key : sample;
      },
      align: (record) => record,
    };
  }
  // A create whose answer holds nothing but the record's key answers that key alone (D431).
  const onlyKey = keyOnlyAnswer(op, resource);
  if (onlyKey !== undefined) {
    return {
      answer: (json) => {
        const parsed = parseExact(json);
        const record = parsed.ok ? parsed.document.value : undefined;
        if (record === null || typeof record !== 'object' || Array.isArray(record)) return json;
        // Typed as the answer types it (digits held, an integer answered: D892), the same key either way.
        const typed = numberedKey(response.schema!, resource, record as RecordValue, onlyKey)[onlyKey];
        return canonicalJson({ [onlyKey]: typed ?? (record as RecordValue)[resource.idProperty] });
      },
      align: (record) => record,
    };
  }
  const recordRequired = new Set(objectShape(resource.recordSchema).required);
  const extraRequired = objectShape(response.schema!).required.some((name) => !recordRequired.has(name));
  const recordSample = validSample(resource.recordSchema);
  // Members the record may hold as null but the answer may not (a nullable `username` sent, a create that answers
  // a string or nothing): the answer leaves such a null out (D306), as a client told "omit it" would read it.
  const answerMembers = objectShape(response.schema!).properties;
  const refusedNulls = Object.keys(resource.properties).filter((name) => admitsNull(resource.properties[name]) && answerMembers[name] !== undefined && !admitsNull(answerMembers[name]) && !objectShape(response.schema!).required.includes(name));
  if (!extraRequired && refusedNulls.length === 0 && validate(toView(recordSample))) return undefined;
  const base = validSample(response.schema!);
  if (base === null || typeof base !== 'object' || Array.isArray(base) || !validate(toView(base))) return undefined;
  const sampleId = recordSample !== null && typeof recordSample === 'object' ? (recordSample as RecordValue)[resource.idProperty] : undefined;
  const keyMember = keyMemberOf(response.schema!, resource);
  return {
    answer: (json) => {
      const parsed = parseExact(json);
      if (!parsed.ok) return json;
      const record = parsed.document.value;
      if (validate(toView(record)) || record === null || typeof record !== 'object' || Array.isArray(record)) return json;
      const trimmed = Object.fromEntries(Object.entries(record as RecordValue).filter(([name, value]) => value !== null || !refusedNulls.includes(name)));
      if (validate(toView(trimmed))) return canonicalJson(trimmed);
      // The key under the answer's own member name, or typed as the answer types it (digits answered as an integer).
      const lent = keyMember === undefined
        ? lend(base as RecordValue, { ...(record as RecordValue), ...numberedKey(response.schema!, resource, record as RecordValue) }, validate)
        : lend(base as RecordValue, { [keyMember]: (record as RecordValue)[resource.idProperty], ...(record as RecordValue) }, validate);
      // A null the answer refuses is left out, never replaced by the sample's value (D306).
      for (const name of refusedNulls) {
        if ((record as RecordValue)[name] !== null || !Object.hasOwn(lent, name)) continue;
        const without = { ...lent };
        delete without[name];
        if (validate(toView(without))) delete lent[name];
      }
      return canonicalJson(lent);
    },
    align: (record) => {
      const fitted = lend(base as RecordValue, record, validate);
      const aligned = { ...record };
      for (const [name, value] of Object.entries(fitted)) {
        if (name === resource.idProperty || !Object.hasOwn(resource.properties, name) || (Object.hasOwn(record, name) && canonicalJson(value) === canonicalJson(record[name]))) continue;
        // A null sent stays the record's: the answer leaves it out rather than lending the sample's value (D306).
        if (record[name] === null && refusedNulls.includes(name)) continue;
        const candidate = { ...aligned, [name]: value };
        if (resource.validateRecord(toView({ ...candidate, [resource.idProperty]: sampleId }))) aligned[name] = value;
      }
      return aligned;
    },
  };
}

/**
 * The record's key as the answer types it where the record holds it as digits and the answer as an integer (or a
 * `number`, D892)
 * (`connectionid` a string in the record, an integer in the create's answer), or the record as a whole number and
 * the answer as a string (a payment read back with a numeric `id`, created with `"id": "digits (9)"`): the same id,
 * not the sample's `0` or `"string"` shared by every record (D350, D720). Empty when the types agree or the key is
 * no whole number. `name`: the answer's member that holds the key (the record's own key name unless the answer
 * holds nothing but the key under another, D892).
 */
function numberedKey(schema: Schema, resource: ResourceModel, record: RecordValue, name: string = resource.idProperty): RecordValue {
  const id = record[resource.idProperty];
  const member = objectShape(schema).properties[name];
  if (member === undefined) return {};
  // A stored number is a lossless literal (model/json.ts): its text is the key's digits, int64 beyond 2^53 included.
  if (isLosslessNumber(id) && /^-?\d+$/.test(id.toString()) && member['type'] === 'string') return { [name]: id.toString() };
  if (typeof id !== 'string' || !/^-?\d+$/.test(id) || (member['type'] !== 'integer' && member['type'] !== 'number')) return {};
  const number = Number(id);
  return Number.isSafeInteger(number) ? { [name]: number } : {};
}

/**
 * The member of an answer schema that carries the record's key under the item path's parameter name
 * (`{"schedule_id": "…"}` answered by a create whose record is read at `/schedules/{schedule_id}` with `id`):
 * the answer names the record by it, so it is the record's id, never the sample's `"string"` (D226). `undefined`
 * when the schema names no such member, the record itself holds one of that name, or the parameter is the key.
 */
function keyMemberOf(schema: Schema, resource: ResourceModel): string | undefined {
  const name = resource.idParameter;
  if (name === undefined || name === resource.idProperty || Object.hasOwn(resource.properties, name)) return undefined;
  return Object.hasOwn(objectShape(schema).properties, name) ? name : undefined;
}

/**
 * `base` with each member of `record` set in turn, kept only while `validate` passes. An object member that the
 * schema refuses as it is (an `account` whose schema asks for more members than the record's holds) is tried again
 * laid over the sample's own object, the record's nested members winning ({@link laidOver}): the answer then keeps
 * every nested value the record holds instead of the sample's (D230).
 */
function lend(base: RecordValue, record: RecordValue, validate: Validator): RecordValue {
  let current = { ...base };
  for (const [name, value] of Object.entries(record)) {
    if (value === undefined) continue;
    const next = { ...current, [name]: value };
    if (validate(toView(next))) {
      current = next;
      continue;
    }
    const merged = laidOver(current[name], value);
    if (merged === value) continue;
    const deeper = { ...current, [name]: merged };
    if (validate(toView(deeper))) current = deeper;
  }
  return current;
}

/** `value` laid over `under` member by member, at every depth where both are plain objects; else `value` itself. */
function laidOver(under: unknown, value: unknown): unknown {
  if (!isPlain(under) || !isPlain(value)) return value;
  const merged: Record<string, unknown> = { ...under };
  for (const [name, member] of Object.entries(value)) merged[name] = laidOver(under[name], member);
  return merged;
}

function isPlain(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A record of `resource` made to agree with what its list answers where the list's item schema asks more than the
 * record holds (spec/DECISIONS.md › D230): each member {@link listItemFit} would change or add, nested objects laid
 * over the item schema's sample, set on the record where the record schema still admits it. One truth per record:
 * stored this way (a starting record of the examples, a create), the record reads back as it is listed, instead of
 * the list showing a sample's `account` beside the read's. `undefined` when the lists of the resource need no fit.
 */
export function listAlign(resource: ResourceModel): ((record: RecordValue) => RecordValue) | undefined {
  const fits = [resource.list, ...resource.views].flatMap((list) => {
    if (list === undefined) return [];
    const item = listItemSchemaOf(list, resource);
    return item === undefined ? [] : [item];
  });
  if (fits.length === 0) return undefined;
  return (record) => {
    let aligned = { ...record };
    for (const { base, validate } of fits) {
      if (validate(toView(aligned))) continue;
      const fitted = lend(base, aligned, validate);
      for (const [name, fit] of Object.entries(fitted)) {
        if (name === resource.idProperty || !Object.hasOwn(resource.properties, name)) continue;
        // A member the record holds keeps every value it holds, at every depth: only members it lacks are added.
        const value = Object.hasOwn(aligned, name) ? laidOver(fit, aligned[name]) : fit;
        if (Object.hasOwn(aligned, name) && canonicalJson(value) === canonicalJson(aligned[name])) continue;
        const candidate = { ...aligned, [name]: value };
        if (resource.validateRecord(toView(candidate))) aligned = candidate;
      }
    }
    return aligned;
  };
}

/**
 * The record a collection no request can add to is made up as (spec/DECISIONS.md › D942): where a list of `resource`
 * refuses `sample` (the record schema's own valid sample) under its own item schema, that item schema's valid sample
 * when the record schema admits it too, so that the read and the list show one record; else `sample`.
 */
export function listedSample(resource: ResourceModel, sample: RecordValue): RecordValue {
  for (const list of [resource.list, ...resource.views]) {
    const item = list === undefined ? undefined : listItemSchemaOf(list, resource);
    if (item === undefined || item.validate(toView(sample))) continue;
    if (resource.validateRecord(toView(item.base))) return item.base;
  }
  return sample;
}

/** The item schema of `list` with its validator and a valid sample, when it is not the record's and needs a fit. */
function listItemSchemaOf(list: ListModel, resource: ResourceModel): { base: RecordValue; validate: Validator } | undefined {
  const response = list.operation.responses.find((r) => r.status === String(list.operation.successStatus) && r.schema !== undefined);
  let array: Schema | undefined = response?.schema;
  if (list.shape.kind === 'object') for (const name of list.shape.itemsPath) array = array === undefined ? undefined : objectShape(array).properties[name];
  const items = array?.['items'];
  if (items === null || typeof items !== 'object' || Array.isArray(items) || items === resource.recordSchema) return undefined;
  const itemSchema = items as Schema;
  const validate = validatorOf(itemSchema);
  if (validate === undefined) return undefined;
  const recordRequired = new Set(objectShape(resource.recordSchema).required);
  const extraRequired = objectShape(itemSchema).required.some((name) => !recordRequired.has(name));
  if (!extraRequired && validate(toView(validSample(resource.recordSchema)))) return undefined;
  const base = validSample(itemSchema);
  if (base === null || typeof base !== 'object' || Array.isArray(base) || !validate(toView(base))) return undefined;
  return { base: base as RecordValue, validate };
}

/**
 * The records of a list page made to fit the list's own item schema where it is not the record's (D203): the
 * same fit as {@link answerFit}, item by item, for a list whose items name another schema than the create and the
 * read answer (an `organization.certificate` listed, a `certificate` created). `undefined` when the item schema
 * admits the stored records as they are, or when no valid sample of it can be made; otherwise a function of the
 * page's JSON array text that answers it untouched when every item validates.
 */
export function listItemFit(list: ListModel, resource: ResourceModel): ((page: string) => string) | undefined {
  const fit = listItemSchemaOf(list, resource);
  if (fit === undefined) return undefined;
  const { base, validate } = fit;
  return (page) => {
    const parsed = parseExact(page);
    if (!parsed.ok || !Array.isArray(parsed.document.value)) return page;
    const records = parsed.document.value as unknown[];
    if (records.every((record) => validate(toView(record)))) return page;
    return canonicalJson(records.map((record) => (record === null || typeof record !== 'object' || Array.isArray(record) || validate(toView(record)) ? record : lend(base, record as RecordValue, validate))));
  };
}
