import type { ResourceModel } from '../model/model.js';
import { isLosslessNumber } from 'lossless-json';
import { admittedTypes, isMarked, objectShape, typesOf, type Schema, type Validator } from '../model/schema.js';
import { validatorOf } from '../model/samples.js';
import { sampleOf } from '../model/error-shape.js';
import { canonicalJson, toView } from '../model/json.js';
import type { RecordValue } from './store/record-store.js';

/**
 * The record a create or replace body makes (README › Resources): the body's properties the record schema
 * names (others only when its `additionalProperties` allows them), the id left to the store, then the
 * record's own values for what the body lacks: `previous` values for properties a request may not send
 * (`readOnly`, on replace), each absent property's `default`, and for other required properties and scalar
 * `readOnly` ones a schema-valid value (the current time for a `date-time`, else a sample of the schema).
 */
export function recordFromBody(resource: ResourceModel, body: RecordValue, previous?: RecordValue): RecordValue {
  const { idProperty, known, fills, readOnlyNames, converted, enumerated, bounded } = plan(resource);
  const others = resource.keepsOtherProperties;
  const record: RecordValue = {};
  for (const name in body) {
    // A readOnly member the body schema does not name (Pet's `createdAt`, absent from NewPet) is the server's to set.
    if (name !== idProperty && (others || known.has(name)) && !readOnlyNames.has(name) && Object.hasOwn(body, name)) record[name] = body[name];
  }
  // A member the body names in another type than the record (a `size` slug sent, a `size` object answered) is the
  // server's to make (D77): the record gets its own valid value, never one its schema rejects.
  for (let i = 0; i < converted.length; i++) {
    const { name, types } = converted[i]!;
    if (record[name] !== undefined && !types.has(valueType(record[name]))) delete record[name];
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
  for (let i = 0; i < fills.length; i++) {
    const { name, readOnly, fill } = fills[i]!;
    if (record[name] !== undefined) continue;
    if (previous !== undefined && readOnly && previous[name] !== undefined) record[name] = previous[name];
    else if (fill !== undefined) record[name] = fill();
  }
  return record;
}

/** What {@link recordFromBody} needs of a resource, worked out once per resource (it runs on every create). */
interface Plan {
  idProperty: string;
  known: ReadonlySet<string>;
  /** The record's properties other than the id that may need a value: readOnly ones, those with a default, required ones. */
  fills: { name: string; readOnly: boolean; fill: (() => unknown) | undefined }[];
  /** The record's `readOnly` properties: never taken from a request body. */
  readOnlyNames: ReadonlySet<string>;
  /** Properties a write body names in another JSON type than the record (D77), with the types the record allows. */
  converted: { name: string; types: ReadonlySet<string> }[];
  /** Properties whose record schema lists an enum that a write body's schema does not hold to, with its values (canonical JSON). */
  enumerated: { name: string; values: ReadonlySet<string> }[];
  /** Properties whose record schema says more than a write body's schema for them (a format, a bound), with its validator. */
  bounded: { name: string; validate: Validator }[];
}

const SCALARS: ReadonlySet<string> = new Set(['string', 'integer', 'number', 'boolean']);

const plans = new WeakMap<ResourceModel, Plan>();

function plan(resource: ResourceModel): Plan {
  let found = plans.get(resource);
  if (found !== undefined) return found;
  const fills: Plan['fills'] = [];
  const createBody = resource.operations.create?.body?.schema;
  const clientSets = new Set(createBody === undefined ? [] : Object.keys(objectShape(createBody).properties));
  for (const [name, schema] of Object.entries(resource.properties)) {
    if (name === resource.idProperty) continue;
    const readOnly = isMarked(schema, 'readOnly');
    const fallback = schema['default'];
    // A scalar readOnly member (a payment's `status`, a `created_at`) is the server's to set, so it sets it (D71).
    const serverSet = readOnly && typesOf(schema).length > 0 && typesOf(schema).every((type) => SCALARS.has(type));
    // A required member the client may set but left out, whose schema admits null, is null: not given (D156).
    const unset = !readOnly && clientSets.has(name) && admitsNull(schema);
    // A default the member's own schema refuses (`default: ""` of a `uri`) is no value to answer (D237).
    const usable = fallback !== undefined && (validatorOf(schema)?.(toView(fallback)) ?? true);
    const fill = usable ? () => fallback : unset && resource.required.includes(name) ? () => null : resource.required.includes(name) || serverSet ? () => generated(schema) : undefined;
    if (readOnly || fill !== undefined) fills.push({ name, readOnly, fill });
  }
  // A member the record's schema requires but never describes (`required: [label]` with no `label` property) still
  // must be there: any value fits its absent schema, so it gets the sample of an empty schema.
  for (const name of resource.required) {
    if (name !== resource.idProperty && !Object.hasOwn(resource.properties, name)) fills.push({ name, readOnly: false, fill: () => generated({}) });
  }
  const converted: Plan['converted'] = [];
  const bodies = (['create', 'replace', 'update'] as const).flatMap((role) => {
    const op = resource.operations[role];
    const schema = op?.body?.schema;
    if (schema === undefined) return [];
    const record = op!.bodyEnvelope === undefined ? schema : (objectShape(schema).properties[op!.bodyEnvelope] ?? {});
    // A body that is one of several shapes (one record, or several) names the member in each branch.
    const branches = (['oneOf', 'anyOf'] as const).flatMap((key) => (Array.isArray(record[key]) ? (record[key] as Schema[]) : []));
    return [record, ...branches].map((part) => objectShape(part).properties);
  });
  for (const [name, schema] of Object.entries(resource.properties)) {
    const types = new Set(admittedTypes(schema).flatMap((type) => (type === 'number' ? ['number', 'integer'] : [type])));
    if (types.size === 0) continue;
    const named = bodies.flatMap((properties) => (properties[name] === undefined ? [] : [properties[name]!]));
    const sent = named.flatMap(admittedTypes);
    // Checked where the body's types and the record's differ, or where the body does not say (a value may not fit).
    const differ = sent.some((type) => !types.has(type) && !(type === 'integer' && types.has('number')));
    if (named.length > 0 && (differ || sent.length === 0)) converted.push({ name, types });
  }
  const enumerated: Plan['enumerated'] = [];
  for (const [name, schema] of Object.entries(resource.properties)) {
    const listed = schema['enum'];
    if (!Array.isArray(listed) || listed.length === 0) continue;
    const values = new Set(listed.map(canonicalJson));
    const named = bodies.flatMap((properties) => (properties[name] === undefined ? [] : [properties[name]!]));
    // A body member bound to the same values (or fewer) never sends one the record refuses: nothing to check.
    const bound = (part: Schema): boolean => Array.isArray(part['enum']) && (part['enum'] as unknown[]).every((value) => values.has(canonicalJson(value)));
    if (named.some((part) => !bound(part))) enumerated.push({ name, values });
  }
  const bounded: Plan['bounded'] = [];
  for (const [name, schema] of Object.entries(resource.properties)) {
    if (converted.some((one) => one.name === name) || enumerated.some((one) => one.name === name)) continue;
    const named = bodies.flatMap((properties) => (properties[name] === undefined ? [] : [properties[name]!]));
    // Only scalar members, whose schemas say the same thing when their text is the same (the seed's `name`: no work).
    if (named.length === 0 || typesOf(schema).length === 0 || !typesOf(schema).every((type) => SCALARS.has(type) || type === 'null') || named.every((part) => canonicalJson(part) === canonicalJson(schema))) continue;
    const validate = validatorOf(schema);
    if (validate !== undefined) bounded.push({ name, validate });
  }
  found = { idProperty: resource.idProperty, known: new Set(Object.keys(resource.properties)), fills, readOnlyNames: new Set(fills.filter((f) => f.readOnly).map((f) => f.name)), converted, enumerated, bounded };
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
    else merged[name] = mergeValue(merged[name], value, nullsSet);
  }
  return merged;
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
function admitsNull(schema: Schema | undefined): boolean {
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

/** The JSON type of a parsed body value, numbers as `integer` or `number` whether parsed exactly or not. */
function valueType(value: unknown): string {
  if (typeof value === 'bigint' || isLosslessNumber(value)) return Number.isInteger(Number(String(value))) ? 'integer' : 'number';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

/** A schema-valid value for a property the server fills: now for a `date-time`, today for a `date`, else a sample. */
function generated(schema: Schema): unknown {
  const format = schema['format'] ?? (schema['allOf'] as Schema[] | undefined)?.find((part) => part['format'] !== undefined)?.['format'];
  if (format === 'date-time') return new Date().toISOString();
  if (format === 'date') return new Date().toISOString().slice(0, 10);
  return sampleOf(schema);
}

/** The singular of a resource name in upper snake case, for error codes: `pets` → `PET`, `categories` → `CATEGORY`. */
export function singularCode(name: string): string {
  const singular = name.replace(/ies$/i, 'y').replace(/(?<!s)s$/i, '');
  return singular.replace(/[^A-Za-z0-9]+/g, '_').replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase() || 'RECORD';
}

/** The singular of a resource name in words, for messages: `pets` → `pet`. */
export function singularWord(name: string): string {
  return name.replace(/ies$/i, 'y').replace(/(?<!s)s$/i, '');
}
