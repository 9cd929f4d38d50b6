import type { ResourceModel } from '../model/model.js';
import { randomBytes } from 'node:crypto';
import { isLosslessNumber } from 'lossless-json';
import { admittedTypes, isMarked, objectShape, typesOf, type Schema, type Validator } from '../model/schema.js';
import { validatorOf } from '../model/samples.js';
import { sampleOf } from '../model/error-shape.js';
import { serverMadeSample } from '../model/made-up.js';
import { canonicalJson, toView } from '../model/json.js';
import type { RecordValue } from './store/record-store.js';
import { singular } from '../model/words.js';
import { writtenTwins, type WrittenTwin } from '../model/written-twins.js';
import { fitValue } from './record-fit.js';

/**
 * The record a create or replace body makes (README › Resources): the body's properties the record schema
 * names (others only when its `additionalProperties` allows them), the id left to the store, then the
 * record's own values for what the body lacks: `previous` values for properties a request may not send
 * (`readOnly`, on replace), each absent property's `default`, and for other required properties and scalar
 * `readOnly` ones a schema-valid value (the current time for a `date-time`, else a sample of the schema).
 */
export function recordFromBody(resource: ResourceModel, body: RecordValue, previous?: RecordValue): RecordValue {
  const { idProperty, known, fills, readOnlyNames, converted, enumerated, bounded, unnamedByReplace, twins, nested } = plan(resource);
  const others = resource.keepsOtherProperties;
  const record: RecordValue = {};
  for (const name in body) {
    // A readOnly member the body schema does not name (Pet's `createdAt`, absent from NewPet) is the server's to set.
    if (name !== idProperty && (others || known.has(name)) && !readOnlyNames.has(name) && Object.hasOwn(body, name)) record[name] = body[name];
  }
  // What the create body writes under another name than the record's, where the description links the two (D700).
  for (let i = 0; i < twins.length; i++) {
    const { from, to } = twins[i]!;
    // Only a value the record's member takes: the twin holds the same shape, but may say more of it.
    if (record[to] === undefined && Object.hasOwn(body, from) && (validatorOf(resource.properties[to] ?? {})?.(toView(body[from])) ?? true)) record[to] = body[from];
  }
  // A member the body names in another type than the record (a `size` slug sent, a `size` object answered) is the
  // server's to make (D77): the record gets its own valid value, never one its schema rejects.
  for (let i = 0; i < converted.length; i++) {
    const { name, types, keys } = converted[i]!;
    // A member the record marks readOnly but a write body names (`region` sent as a slug) is still read from the body.
    const value = record[name] !== undefined ? record[name] : readOnlyNames.has(name) && Object.hasOwn(body, name) && keys.size > 0 ? body[name] : undefined;
    if (value === undefined || types.has(valueType(value))) continue;
    delete record[name];
    // The key the value names, where the record's object has one for it (D337): the slug sent is the answer's
    // `size.slug`, and a sibling `size_slug` the same text.
    const key = keys.get(valueType(value)) ?? (valueType(value) === 'integer' ? keys.get('number') : undefined);
    if (key === undefined) continue;
    const keyed = keyedObject(resource.properties[name] ?? {}, key.member, value);
    if (keyed !== undefined) record[name] = keyed;
    for (const sibling of key.siblings) if (!Object.hasOwn(body, sibling)) record[sibling] = value;
  }
  // Likewise a value outside the record's enum where a write body allows more (a free `location` text sent, one of
  // four regions answered, D221): the record gets one of its own values, never one its schema rejects.
  for (let i = 0; i < enumerated.length; i++) {
    const { name, values } = enumerated[i]!;
    const value = record[name];
    if (value !== undefined && !(value === null && admitsNull(resource.properties[name])) && !values.has(canonicalJson(value))) delete record[name];
  }
  // And any other value the record's member refuses where the body's schema for it says less (an empty `homepage`
  // the body takes, a `uri` the record holds, D235).
  for (let i = 0; i < bounded.length; i++) {
    const { name, validate } = bounded[i]!;
    const value = record[name];
    if (value !== undefined && !validate(toView(value))) delete record[name];
  }
  // An object or list of objects sent in the write body's own form, where the record's form requires more members
  // in it (a broadcast's `id` and `status`): the server completes each with values of its own (D723), as it fills
  // the record's own required members below. A value still refused is read into the record's form where it can be
  // (an id sent where the record holds the object it names, digits where it holds an integer, D890), else left out
  // for the server's own value: the record never holds what its own schema refuses.
  for (let i = 0; i < nested.length; i++) {
    const { name, schema, validate } = nested[i]!;
    const value = record[name];
    if (value === undefined || value === null || validate(toView(value))) continue;
    const completed = completedValue(schema, value);
    if (validate(toView(completed))) record[name] = completed;
    else {
      const found = fitValue(schema, completed, (part) => generated(part, true));
      if (found === undefined) delete record[name];
      else record[name] = found.value;
    }
  }
  // A replace body that cannot name a member (DigitalOcean's `PUT` of an SSH key takes only `name`) leaves it as it
  // was (D355): the client had no way to send it, so its absence asks for no change.
  if (previous !== undefined && unnamedByReplace !== undefined) {
    for (const name of unnamedByReplace) if (record[name] === undefined && previous[name] !== undefined) record[name] = previous[name];
  }
  for (let i = 0; i < fills.length; i++) {
    const { name, readOnly, fill } = fills[i]!;
    if (record[name] !== undefined) continue;
    if (previous !== undefined && readOnly && previous[name] !== undefined) record[name] = previous[name];
    else if (fill !== undefined) record[name] = fill();
  }
  return record;
}

/** The JSON types an array schema's `items` admit, as one text (`''` when it says none), to tell two lists' items apart. */
function itemTypes(schema: Schema): string {
  const items = schema['items'];
  return typeof items === 'object' && items !== null && !Array.isArray(items) ? admittedTypes(items as Schema).slice().sort().join(',') : '';
}

/** What {@link recordFromBody} needs of a resource, worked out once per resource (it runs on every create). */
interface Plan {
  idProperty: string;
  known: ReadonlySet<string>;
  /** The record's properties other than the id that may need a value: readOnly ones, those with a default, required ones. */
  fills: { name: string; readOnly: boolean; fill: (() => unknown) | undefined }[];
  /** The record's `readOnly` properties: never taken from a request body. */
  readOnlyNames: ReadonlySet<string>;
  /**
   * Properties a write body names in another JSON type than the record (D77), with the types the record allows and,
   * where the record holds an object, the member of it a sent scalar names by its JSON type, with the record's
   * scalar siblings that repeat it (D337).
   */
  converted: { name: string; types: ReadonlySet<string>; keys: ReadonlyMap<string, { member: string; siblings: string[] }> }[];
  /** Properties whose record schema lists an enum that a write body's schema does not hold to, with its values (canonical JSON). */
  enumerated: { name: string; values: ReadonlySet<string> }[];
  /** Properties whose record schema says more than a write body's schema for them (a format, a bound), with its validator. */
  bounded: { name: string; validate: Validator }[];
  /** The record's properties (not the id) that the replace body's schema names nowhere; `undefined` without a replace. */
  unnamedByReplace: readonly string[] | undefined;
  /** Create body members the record answers under another name (D700): `DriverOpts` written, `Options` read. */
  twins: readonly WrittenTwin[];
  /**
   * Object and list members a write body names in a schema other than the record's (a broadcast sent with its
   * settings, held with its own `id` and `status`), with the record's schema for them and its validator (D723).
   */
  nested: { name: string; schema: Schema; validate: Validator }[];
}

const SCALARS: ReadonlySet<string> = new Set(['string', 'integer', 'number', 'boolean']);

const plans = new WeakMap<ResourceModel, Plan>();

function plan(resource: ResourceModel): Plan {
  let found = plans.get(resource);
  if (found !== undefined) return found;
  const fills: Plan['fills'] = [];
  const namedBy = (role: 'create' | 'replace' | 'update'): Record<string, Schema>[] => {
    const op = resource.operations[role];
    const schema = op?.body?.schema;
    if (schema === undefined) return [];
    const record = op!.bodyEnvelope === undefined ? schema : (objectShape(schema).properties[op!.bodyEnvelope] ?? {});
    // A body that is one of several shapes (one record, or several) names the member in each branch.
    const branches = (['oneOf', 'anyOf'] as const).flatMap((key) => (Array.isArray(record[key]) ? (record[key] as Schema[]) : []));
    return [record, ...branches].map((part) => objectShape(part).properties);
  };
  // What a create may send: its body's members, in each of its branches where it is one of several shapes.
  const clientSets = new Set(namedBy('create').flatMap((properties) => Object.keys(properties)));
  const bodies = (['create', 'replace', 'update'] as const).flatMap(namedBy);
  // The schemas the write bodies give a member, one per body naming it.
  const namedIn = (name: string): Schema[] => bodies.flatMap((properties) => (properties[name] === undefined ? [] : [properties[name]!]));
  // What some write body names and does not mark readOnly is the client's to write, though the record's schema marks
  // it (D71 "that no request may send"; a read schema written with every member readOnly, D782).
  const writable = new Set(bodies.flatMap((properties) => Object.entries(properties).filter(([, member]) => typeof member === 'object' && member !== null && !isMarked(member, 'readOnly')).map(([name]) => name)));
  for (const [name, schema] of Object.entries(resource.properties)) {
    if (name === resource.idProperty) continue;
    const readOnly = isMarked(schema, 'readOnly') && !writable.has(name);
    const fallback = schema['default'];
    // A scalar readOnly member (a payment's `status`, a `created_at`) is the server's to set, so it sets it (D71).
    const serverSet = readOnly && typesOf(schema).length > 0 && typesOf(schema).every((type) => SCALARS.has(type));
    // A required member the client may set but left out, whose schema admits null, is null: not given (D156).
    const unset = !readOnly && clientSets.has(name) && admitsNull(schema);
    // A default the member's own schema refuses (`default: ""` of a `uri`) is no value to answer (D237).
    const usable = fallback !== undefined && (validatorOf(schema)?.(toView(fallback)) ?? true);
    const unique = serverSet && !usable ? uniqueLike(schema) : undefined;
    // A required list the client may send but left out is empty (D356): tags not given are no tags, not the example's.
    const none = !readOnly && !usable && clientSets.has(name) && !admitsNull(schema) && admitsEmptyList(schema);
    const fill = usable ? () => fallback : unique !== undefined ? unique : unset && resource.required.includes(name) ? () => null : none && resource.required.includes(name) ? () => [] : resource.required.includes(name) || serverSet ? () => generated(schema, clientSets.has(name)) : undefined;
    if (readOnly || fill !== undefined) fills.push({ name, readOnly, fill });
  }
  // A member the record's schema requires but never describes (`required: [label]` with no `label` property) still
  // must be there: any value fits its absent schema, so it gets the sample of an empty schema.
  for (const name of resource.required) {
    if (name !== resource.idProperty && !Object.hasOwn(resource.properties, name)) fills.push({ name, readOnly: false, fill: () => generated({}, false) });
  }
  const converted: Plan['converted'] = [];
  const replaced = namedBy('replace');
  // Only a closed list of names counts: a body schema that names nothing (or takes any member) may send anything.
  const replaceNames = new Set(replaced.flatMap((properties) => Object.keys(properties)));
  const unnamedByReplace = replaced.length === 0 || replaceNames.size === 0 ? undefined : Object.keys(resource.properties).filter((name) => name !== resource.idProperty && !replaceNames.has(name));
  for (const [name, schema] of Object.entries(resource.properties)) {
    const types = new Set(admittedTypes(schema).flatMap((type) => (type === 'number' ? ['number', 'integer'] : [type])));
    if (types.size === 0) continue;
    const named = namedIn(name);
    const sent = named.flatMap(admittedTypes);
    // Checked where the body's types and the record's differ, or where the body does not say (a value may not fit).
    const differ = sent.some((type) => !types.has(type) && !(type === 'integer' && types.has('number')));
    if (named.length > 0 && (differ || sent.length === 0)) converted.push({ name, types, keys: types.has('object') ? keyMembers(name, schema, named, resource.properties, resource.idProperty) : new Map() });
  }
  const enumerated: Plan['enumerated'] = [];
  for (const [name, schema] of Object.entries(resource.properties)) {
    const listed = schema['enum'];
    if (!Array.isArray(listed) || listed.length === 0) continue;
    const values = new Set(listed.map(canonicalJson));
    const named = namedIn(name);
    // A body member bound to the same values (or fewer) never sends one the record refuses: nothing to check.
    const bound = (part: Schema): boolean => Array.isArray(part['enum']) && (part['enum'] as unknown[]).every((value) => values.has(canonicalJson(value)));
    if (named.some((part) => !bound(part))) enumerated.push({ name, values });
  }
  const bounded: Plan['bounded'] = [];
  for (const [name, schema] of Object.entries(resource.properties)) {
    if (converted.some((one) => one.name === name) || enumerated.some((one) => one.name === name)) continue;
    const named = namedIn(name);
    // Scalar members, whose schemas say the same thing when their text is the same (the seed's `name`: no work), and
    // lists whose items a write body sends in another type than the record holds them (names sent where the record
    // lists the objects they name, D626).
    const scalar = typesOf(schema).length > 0 && typesOf(schema).every((type) => SCALARS.has(type) || type === 'null');
    const otherItems = typesOf(schema).includes('array') && named.some((part) => itemTypes(part) !== itemTypes(schema));
    if (named.length === 0 || !(scalar || otherItems) || named.every((part) => canonicalJson(part) === canonicalJson(schema))) continue;
    const validate = validatorOf(schema);
    if (validate !== undefined) bounded.push({ name, validate });
  }
  const nested: Plan['nested'] = [];
  for (const [name, schema] of Object.entries(resource.properties)) {
    // A member held as an object or null (`anyOf: [{$ref}]`, `nullable`) is completed too (D884), and one a write
    // also names by a scalar (`""` to clear it) where it is sent as an object: the checks below keep it as sent
    // unless the completed value is one the record's schema takes.
    if (bounded.some((one) => one.name === name)) continue;
    const structured = admittedTypes(schema).some((type) => type === 'object' || type === 'array');
    const named = namedIn(name);
    if (!structured || named.length === 0 || named.every((part) => canonicalJson(part) === canonicalJson(schema))) continue;
    const validate = validatorOf(schema);
    if (validate !== undefined) nested.push({ name, schema, validate });
  }
  found = { idProperty: resource.idProperty, known: new Set(Object.keys(resource.properties)), fills, readOnlyNames: new Set(fills.filter((f) => f.readOnly).map((f) => f.name)), converted, enumerated, bounded, unnamedByReplace, twins: writtenTwins(resource), nested };
  plans.set(resource, found);
  return found;
}

/**
 * JSON Merge Patch (RFC 7396), as PATCH updates a record: each body property replaces the record's, `null` removes
 * it, and an object sent for an object member is merged into it the same way (JSON:API's `attributes`: the members
 * not sent keep their values, spec/DECISIONS.md › D75); the id and `readOnly` properties are never changed.
 * With `nullsSet` (an update by `POST`, D150, whose JSON body is no merge patch), a top-level `null` sent for a
 * member whose schema admits null (or states no type at all) sets it to null instead of removing it, and a `null`
 * inside an object sent is kept as sent (D204): the body validated against the update's schema, so it was allowed.
 */
export function mergePatch(resource: ResourceModel, record: RecordValue, patch: RecordValue, nullsSet = false): RecordValue {
  const merged: RecordValue = { ...record };
  const found = plan(resource);
  const { readOnlyNames } = found;
  for (const [name, value] of Object.entries(patch)) {
    if (name === resource.idProperty || readOnlyNames.has(name)) continue;
    if (!Object.hasOwn(resource.properties, name) && !resource.keepsOtherProperties) continue;
    // A value of a JSON type the record's member cannot hold (a `machine` name sent where the record holds a machine
    // object) is the server's to turn into its own: the member keeps its value, as a create makes its own (D77,
    // D232), instead of the whole update being refused for a body its schema allows. A value of the right type the
    // record refuses (outside its enum) still makes the update a 400, as before.
    if (value !== null && !fitsRecord(found, name, value)) continue;
    // A required member that admits null is set to null: removing it would leave a record its schema refuses (D237).
    if (value === null && (nullsSet || resource.required.includes(name)) && admitsNull(resource.properties[name])) merged[name] = null;
    else if (value === null) delete merged[name];
    else {
      const next = fitNested(found, name, mergeValue(merged[name], value, nullsSet), merged[name]);
      if (next === undefined) delete merged[name];
      else merged[name] = next;
    }
  }
  return merged;
}

/**
 * `value`, the merge of an update into member `name`, read into the record's form where the record's schema for an
 * object or list member refuses it (D890); `previous` (the member as it was) when nothing of it can be read so.
 */
function fitNested({ nested }: Plan, name: string, value: unknown, previous: unknown): unknown {
  const member = nested.find((one) => one.name === name);
  if (member === undefined || member.validate(toView(value))) return value;
  const found = fitValue(member.schema, value, (part) => generated(part, true));
  return found === undefined ? previous : found.value;
}

/** Whether `value`, sent for member `name`, is of a JSON type the record's member admits. */
function fitsRecord({ converted }: Plan, name: string, value: unknown): boolean {
  const types = converted.find((one) => one.name === name)?.types;
  return types === undefined || types.has(valueType(value));
}

/**
 * Whether a record member's schema takes `null` (`type: [string, "null"]`, 3.0's `nullable` as the loader reads it),
 * or names no type, value or composition at all (`metadata` described only in prose takes any JSON value).
 */
export function admitsNull(schema: Schema | undefined): boolean {
  if (schema === undefined) return false;
  if (schema['nullable'] === true || admittedTypes(schema).includes('null')) return true;
  return !['type', 'enum', 'const', 'allOf', 'anyOf', 'oneOf', 'not', 'properties', 'items', '$ref'].some((key) => Object.hasOwn(schema, key));
}

/**
 * RFC 7396's MergePatch(target, patch) below the top level: objects merge member by member, anything else replaces;
 * with `nullsSet` (no merge patch, see {@link mergePatch}) a `null` is a value like any other.
 */
function mergeValue(target: unknown, patch: unknown, nullsSet = false): unknown {
  if (!isPlainObject(patch) || !isPlainObject(target)) return patch;
  const merged: RecordValue = { ...target };
  for (const [name, value] of Object.entries(patch)) {
    if (value === null && !nullsSet) delete merged[name];
    else merged[name] = mergeValue(merged[name], value, nullsSet);
  }
  return merged;
}

/** A JSON object as parsed (not an array, not an exact number). */
function isPlainObject(value: unknown): value is RecordValue {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}

/** Member names that key an object by convention, in the order they are preferred when no description names one. */
const KEY_NAMES = ['slug', 'id', 'key', 'code', 'uuid'];

/**
 * For a record member held as an object (`region: {slug, name, …}`) that a write sends as a scalar (`region: "ams3"`),
 * the member of that object the scalar stands for, by the scalar's JSON type (spec/DECISIONS.md › D337): one of the
 * object's scalar members admitting that type, the one the write member's description names as a word ("the slug
 * identifier for the region") else the first conventional key name (`slug`, `id`…), else the name of the record's
 * own key, `ownKey` (D843: asana's `gid` keys every object of its description); and the record's scalar
 * members named `<member>_<key>` or `<member><Key>` (`size_slug`) that hold the same value. Empty when none fits.
 */
function keyMembers(name: string, schema: Schema, written: readonly Schema[], properties: Readonly<Record<string, Schema>>, ownKey: string): Map<string, { member: string; siblings: string[] }> {
  const out = new Map<string, { member: string; siblings: string[] }>();
  const inner = objectShape(schema).properties;
  const descriptions = written.flatMap((part) => [part, ...(['oneOf', 'anyOf'] as const).flatMap((keyword) => (Array.isArray(part[keyword]) ? (part[keyword] as Schema[]) : []))]).map((part) => String(part['description'] ?? '')).join(' ');
  const words = new Set(descriptions.toLowerCase().split(/[^a-z0-9_]+/));
  for (const type of ['string', 'integer', 'number']) {
    const candidates = Object.entries(inner).filter(([, sub]) => typeof sub === 'object' && sub !== null && admittedTypes(sub).some((admitted) => admitted === type || (admitted === 'number' && type === 'integer'))).map(([member]) => member);
    // Last, the name the record's own key has (`gid`): a description keys its objects alike (D843).
    const member = candidates.find((candidate) => words.has(candidate.toLowerCase())) ?? [...KEY_NAMES, ownKey].find((candidate) => candidates.includes(candidate));
    if (member === undefined) continue;
    const siblings = [`${name}_${member}`, `${name}${member.charAt(0).toUpperCase()}${member.slice(1)}`].filter((sibling) => {
      const sub = properties[sibling];
      return sub !== undefined && admittedTypes(sub).some((admitted) => admitted === type || (admitted === 'number' && type === 'integer'));
    });
    out.set(type, { member, siblings });
  }
  return out;
}

/** A valid object of `schema` whose `member` holds `value`, or `undefined` when the schema refuses every such object. */
function keyedObject(schema: Schema, member: string, value: unknown): RecordValue | undefined {
  const base = generated(schema, true);
  if (!isPlainObject(base)) return undefined;
  const keyed = { ...base, [member]: value };
  return validatorOf(schema)?.(toView(keyed)) === false ? undefined : keyed;
}

/** Whether a schema is a list that may be empty: an array type (or `allOf` part) with no `minItems` above 0. */
function admitsEmptyList(schema: Schema): boolean {
  if (!admittedTypes(schema).includes('array')) return false;
  const parts = [schema, ...((schema['allOf'] as Schema[] | undefined) ?? [])];
  return parts.every((part) => typeof part !== 'object' || part === null || typeof part['minItems'] !== 'number' || part['minItems'] === 0) && (validatorOf(schema)?.(toView([])) ?? true);
}

/** An example made of hexadecimal groups (`3b:16:bf:…`, a digest, a UUID): at least 8 digits, one separator kind. */
const HEX_GROUPS = /^[0-9a-f]{2,}(?:([:-])[0-9a-f]{2,}(?:\1[0-9a-f]{2,})*)?$/i;

/**
 * A maker of values for a server-set text member its description calls unique ("a unique identifier that
 * differentiates this key from other keys") whose example is hexadecimal groups (spec/DECISIONS.md › D338): each
 * record gets fresh digits in the example's shape, so that the member can tell records apart (a fingerprint an item
 * path takes in place of the id). `undefined` for any other member, which keeps its sample.
 */
function uniqueLike(schema: Schema): (() => string) | undefined {
  const example = schema['example'] ?? (Array.isArray(schema['examples']) ? (schema['examples'] as unknown[])[0] : undefined);
  if (typeof example !== 'string' || !HEX_GROUPS.test(example) || example.replace(/[^0-9a-f]/gi, '').length < 8) return undefined;
  if (!/\bunique\b/i.test(String(schema['description'] ?? '')) || schema['pattern'] !== undefined || schema['enum'] !== undefined || schema['format'] !== undefined) return undefined;
  const upper = example === example.toUpperCase() && /[A-F]/.test(example);
  return () => {
    const digits = randomBytes(example.length).toString('hex');
    let at = 0;
    const made = example.replace(/[0-9a-f]/gi, () => digits[at++]!);
    return upper ? made.toUpperCase() : made;
  };
}

/**
 * `value` with every object in it (itself, a list's items, nested members) given the members `schema` requires there
 * and it lacks, each a value the server makes ({@link generated}); what it holds is kept as it is (D723).
 */
function completedValue(schema: Schema, value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = schema['items'];
    return typeof items === 'object' && items !== null && !Array.isArray(items) ? value.map((item) => completedValue(items as Schema, item)) : value;
  }
  if (value === null || typeof value !== 'object' || isLosslessNumber(value)) return value;
  // An object held as one branch of several (`anyOf: [{$ref: address}]` with `nullable`) is completed by that branch (D884).
  const branch = objectShape(schema).required.length === 0 ? objectBranch(schema) : undefined;
  if (branch !== undefined) return completedValue(branch, value);
  const shape = objectShape(schema);
  const completed: RecordValue = {};
  for (const [name, member] of Object.entries(value as RecordValue)) completed[name] = shape.properties[name] === undefined ? member : completedValue(shape.properties[name], member);
  for (const name of shape.required) if (!Object.hasOwn(completed, name)) completed[name] = generated(shape.properties[name] ?? {}, false);
  return completed;
}

/** The first `anyOf`/`oneOf` branch of `schema`, at any depth of branches, that is an object with required members, or `undefined`. */
function objectBranch(schema: Schema): Schema | undefined {
  const branches = (['anyOf', 'oneOf'] as const).flatMap((key) => (Array.isArray(schema[key]) ? (schema[key] as unknown[]) : []));
  for (const branch of branches) {
    if (typeof branch !== 'object' || branch === null || Array.isArray(branch)) continue;
    if (objectShape(branch as Schema).required.length > 0) return branch as Schema;
    const inner = objectBranch(branch as Schema);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/** The JSON type of a parsed body value, numbers as `integer` or `number` whether parsed exactly or not. */
function valueType(value: unknown): string {
  if (typeof value === 'bigint' || isLosslessNumber(value)) return Number.isInteger(Number(String(value))) ? 'integer' : 'number';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

/**
 * A schema-valid value for a property the server fills: now for a `date-time`, today for a `date`, the seconds since
 * the epoch for a `unix-time` (OpenAPI Format Registry; D322), nothing for a collection of the client's (an empty map
 * or list where the schema allows one: no write put anything there, D322), else a sample. `clientSettable`: a write
 * body names the member; a collection no body can name (a completion's `choices`) is the server's output and keeps
 * its sample, less the items and optional texts that would be placeholders only (D530: an alert's `silencedBy`).
 */
function generated(schema: Schema, clientSettable: boolean): unknown {
  const format = schema['format'] ?? (schema['allOf'] as Schema[] | undefined)?.find((part) => part['format'] !== undefined)?.['format'];
  if (format === 'date-time') return new Date().toISOString();
  if (format === 'date') return new Date().toISOString().slice(0, 10);
  const validate = validatorOf(schema);
  const fits = (value: unknown): boolean => validate === undefined || validate(value);
  const named = firstNamedMember(schema);
  if (named !== undefined && fits(named)) return named;
  if (format === 'unix-time' && fits(Math.floor(Date.now() / 1000))) return Math.floor(Date.now() / 1000);
  const types = typesOf(schema);
  if (clientSettable && types.includes('array') && fits([])) return [];
  if (clientSettable && types.includes('object') && Object.keys(objectShape(schema).properties).length === 0 && fits({})) return {};
  // What no write body names is the server's own state: its sample holds no made-up items or optional texts (D530).
  return clientSettable ? sampleOf(schema) : serverMadeSample(schema);
}

/**
 * The member of a string `enum` that the schema's description names first in a code span (`` `draft` ``), when it
 * names any (spec/DECISIONS.md › D324): prose lists a life's states in their order ("one of `requires_payment_method`,
 * `requires_confirmation`, … or `succeeded`") where the `enum` is often sorted by name, so the first one named is
 * the state a new record starts in. `undefined` when the description names none of the members.
 */
function firstNamedMember(schema: Schema): string | undefined {
  const members = schema['enum'];
  const description = schema['description'];
  if (!Array.isArray(members) || typeof description !== 'string') return undefined;
  for (const match of description.matchAll(/`([^`]+)`/g)) if (members.includes(match[1])) return match[1];
  return undefined;
}

/** The singular of a resource name in upper snake case, for error codes: `pets` → `PET`, `categories` → `CATEGORY`. */
export function singularCode(name: string): string {
  return singular(name).replace(/[^A-Za-z0-9]+/g, '_').replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase() || 'RECORD';
}

/** The singular of a resource name in words, for messages: `pets` → `pet`. */
export function singularWord(name: string): string {
  return singular(name);
}
