import { isLosslessNumber } from 'lossless-json';
import { parseExact } from '../model/json.js';
import type { OperationModel, ResourceModel } from '../model/model.js';
import { isJsonMediaType, mainType, objectShape, type Schema } from '../model/schema.js';
import { statusAnswers, successAnswer } from './answers.js';
import { isValidRecord, type RecordValue } from './store/record-store.js';

/**
 * Members whose values the description derives from a record's other members (spec/DECISIONS.md › D241): a
 * top-level string member whose `example` spells the examples of other string members of the record, at top level
 * or in a required object member (`full_name` "octocat/Hello-World" is `owner.login` "octocat", `/`, `name`
 * "Hello-World"; `url` "https://api.github.com/repos/octocat/Hello-World" the same), is written from the record's
 * own values in their places, on create and update, unless the client sent it. Only examples of 3 characters or
 * more count, each as a whole token (bounded by no letter or digit), longer ones first, and a key's digits of any
 * length as a path segment; other numbers and enum values never count, and the record's key and a member whose example holds white space (prose) are never derived.
 */
export interface Derivation {
  member: string;
  /** The example split around the sources: literal text, then a source (a member path of the record or of its parent), then text, and so on. */
  pieces: readonly (string | Source)[];
}

/** Where a piece of a derived member comes from: a member path of the record itself or of its parent record. */
export interface Source {
  parent: boolean;
  path: readonly string[];
}

/** Shortest example that counts as spelling a member (shorter ones, `id` 1 or `on`, occur by chance). */
const SHORTEST = 3;

/**
 * The derivations of a resource's record, from its schema's examples and the first example of a whole record its
 * read (else create) answers, and, for a sub-resource, its parent's (`repository_url` of an issue is its
 * repository's `url`; `html_url` its repository's `html_url`, `/issues/` and its number); empty when none.
 */
export function derivationsOf(resource: ResourceModel, parent?: ResourceModel): Derivation[] {
  const sources: (Source & { example: string })[] = [...examplesOf(resource, false), ...(parent === undefined ? [] : examplesOf(parent, true))];
  // The first source of an example wins (the record's own before its parent's, a top-level member before a nested
  // one); longer examples are matched first.
  const firsts = new Map<string, Source & { example: string }>();
  for (const source of sources) if (!firsts.has(source.example)) firsts.set(source.example, source);
  const unique = [...firsts.values()].sort((a, b) => b.example.length - a.example.length);
  const derivations: Derivation[] = [];
  for (const { path, example: text } of examplesOf(resource, false)) {
    const name = path[0]!;
    // Prose (a code of conduct quoting its name) is written, not derived: a derived member is one token (a name, a URL).
    if (path.length !== 1 || name === resource.idProperty || /\s/.test(text) || derivations.some((one) => one.member === name) || mainType(resource.properties[name]!) !== 'string') continue;
    // A member may copy its parent's address whole (`repository_url`); one that equals another of its own record's is no copy of it.
    // Only sources whose example occurs in the text can match: the pattern is built of those alone (a record of a
    // large description has hundreds of examples, and one pattern of all of them per member cost seconds at start).
    const usable = unique.filter((source) => text.includes(source.example) && (source.parent || source.path[0] !== name) && (source.example !== text || (source.parent && text.includes('/'))));
    if (usable.length === 0) continue;
    const pattern = new RegExp(`(?<![A-Za-z0-9])(${usable.map((source) => (source.example.length < SHORTEST ? `(?<=/)${escape(source.example)}` : escape(source.example))).join('|')})(?![A-Za-z0-9])`, 'g');
    const parts = text.split(pattern);
    if (parts.length === 1) continue;
    derivations.push({ member: name, pieces: parts.map((part, i) => (i % 2 === 1 ? sourceOf(usable.find((source) => source.example === part)!) : part)) });
  }
  return derivations;
}

/** An example's value, read through an Example Object left around it (`{"value": {...}}` where a `$ref` named one). */
function exampleValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  return keys.includes('value') && keys.every((key) => key === 'value' || key === 'summary' || key === 'description' || key.startsWith('x-')) ? (value as RecordValue)['value'] : value;
}

function sourceOf(source: Source): Source {
  return { parent: source.parent, path: source.path };
}

/**
 * The example texts of a record's members: each string member's own `example`, then the values the first whole
 * example of the record shows (top-level members, and members of required object members); an integer counts by
 * its digits when it is the record's key (an issue's `number` in its `html_url`). Enum values never count: they are
 * words of the API (`all`, `http`), not names. Only texts of {@link SHORTEST} characters or more.
 */
function examplesOf(resource: ResourceModel, parent: boolean): (Source & { example: string })[] {
  const found: (Source & { example: string })[] = [];
  const record = recordExample(resource);
  const text = (schema: Schema | undefined, value: unknown, key: boolean): string | undefined => {
    if (schema === undefined || schema['enum'] !== undefined) return undefined;
    const type = mainType(schema);
    const shown = typeof value === 'string' && type === 'string' ? value : key && type === 'integer' && (typeof value === 'number' || isLosslessNumber(value)) ? String(value) : undefined;
    // A key's digits count however short (a milestone's `number` 1 in `…/milestones/1`): they are matched only
    // after a `/`, as a path segment, never inside other text.
    return shown !== undefined && (shown.length >= SHORTEST || (key && type === 'integer')) ? shown : undefined;
  };
  for (const [name, schema] of Object.entries(resource.properties)) {
    const own = text(schema, schema['example'], false);
    if (own !== undefined) found.push({ parent, path: [name], example: own });
    const shown = text(schema, record?.[name], name === resource.idProperty);
    if (shown !== undefined && shown !== own) found.push({ parent, path: [name], example: shown });
    if (!resource.required.includes(name) || mainType(schema) !== 'object') continue;
    const held = record?.[name];
    for (const [member, sub] of Object.entries(objectShape(schema).properties)) {
      const nested = text(sub, sub['example'], false);
      if (nested !== undefined) found.push({ parent, path: [name, member], example: nested });
      const value = held !== null && typeof held === 'object' && !Array.isArray(held) ? (held as RecordValue)[member] : undefined;
      const nestedShown = text(sub, value, false);
      if (nestedShown !== undefined && nestedShown !== nested) found.push({ parent, path: [name, member], example: nestedShown });
    }
  }
  return found;
}

/** The first whole example of a record its read answers (else its create), as parsed; `undefined` when none. */
function recordExample(resource: ResourceModel): RecordValue | undefined {
  for (const op of [resource.operations.read, resource.operations.create]) {
    const response = op?.responses.find((r) => r.status.startsWith('2') && r.examples.length > 0);
    const value = exampleValue(response?.examples[0]?.value);
    const record = op?.answerEnvelope === undefined ? value : value !== null && typeof value === 'object' ? (value as RecordValue)[op.answerEnvelope] : undefined;
    if (record !== null && typeof record === 'object' && !Array.isArray(record)) return record as RecordValue;
  }
  return undefined;
}

function escape(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}

/** The value at a member path of a record, when it is a string (or an integer: a key's digits). */
function textAt(record: RecordValue | undefined, path: readonly string[]): string | undefined {
  let value: unknown = record;
  for (const name of path) value = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[name] : undefined;
  if (typeof value === 'bigint' || isLosslessNumber(value) || (typeof value === 'number' && Number.isInteger(value))) return String(value);
  return typeof value === 'string' ? value : undefined;
}

/**
 * Writes each derived member of `record` from its sources' values (see {@link Derivation}), except those `sent`
 * names; a member whose source is absent from the record, or whose result the record schema refuses, is left as it is.
 */
export function applyDerivations(resource: ResourceModel, derivations: readonly Derivation[], record: RecordValue, sent: RecordValue, parent?: RecordValue): void {
  // The record before its store sets the key: a key the client chose is read from what it sent (`name`).
  const key = resource.idProperty;
  const keyed = record[key] === undefined && sent[key] !== undefined ? { ...record, [key]: sent[key] } : record;
  // Twice: a member derived from a derived one (`url` from `full_name`) reads the latter's new value the second time.
  for (const { member, pieces } of [...derivations, ...derivations]) {
    if (Object.hasOwn(sent, member)) continue;
    let value = '';
    let complete = true;
    for (const piece of pieces) {
      const part = typeof piece === 'string' ? piece : textAt(piece.parent ? parent : keyed, piece.path);
      if (part === undefined) complete = false;
      value += part ?? '';
    }
    if (!complete || record[member] === value) continue;
    if (!isValidRecord(resource, withKey(resource, { ...keyed, [member]: value }))) continue;
    record[member] = value;
    if (keyed !== record) keyed[member] = value;
  }
}

/** A record with some key, to be judged against its schema before the store gives it its own (any valid value does). */
function withKey(resource: ResourceModel, record: RecordValue): RecordValue {
  if (record[resource.idProperty] !== undefined) return record;
  const placeholder = resource.idType === 'integer' ? 1 : resource.idSchema['format'] === 'uuid' ? '00000000-0000-4000-8000-000000000000' : 'id';
  return { ...record, [resource.idProperty]: placeholder };
}

/**
 * The caller's own record where a collection lies under a path that answers it (spec/DECISIONS.md › D242):
 * `POST /user/repos` makes the caller's repositories, and `GET /user` (a read without parameters answering one
 * object) shows who the caller is. The record's required object members whose required members the caller's
 * answer all holds (a repository's `owner`: `login`, `id`…) take the caller's values of their members. Returns
 * the filler, or `undefined` where the collection lies under no such path or no member fits.
 */
export function callerFill(resource: ResourceModel, operations: readonly OperationModel[]): ((record: RecordValue) => void) | undefined {
  const segments = resource.collectionPath.split('/');
  if (resource.collectionPath.includes('{') || segments.length < 3) return undefined;
  const holder = segments.slice(0, -1).join('/');
  const read = operations.find((op) => op.method === 'GET' && op.path === holder && op.pathParams.length === 0 && op.resource === undefined);
  const caller = read === undefined ? undefined : callerAnswer(read);
  if (caller === undefined) return undefined;
  const members = Object.entries(resource.properties).filter(([name, schema]) => {
    if (!resource.required.includes(name) || mainType(schema) !== 'object') return false;
    const shape = objectShape(schema);
    return shape.required.length > 0 && shape.required.every((member) => Object.hasOwn(caller, member));
  });
  if (members.length === 0) return undefined;
  return (record) => {
    for (const [name, schema] of members) {
      const held = record[name];
      const own = held !== null && typeof held === 'object' && !Array.isArray(held) ? (held as RecordValue) : {};
      const taken = Object.fromEntries(Object.keys(objectShape(schema).properties).filter((member) => Object.hasOwn(caller, member)).map((member) => [member, caller[member]]));
      const filled = { ...own, ...taken };
      if (isValidRecord(resource, withKey(resource, { ...record, [name]: filled }))) record[name] = filled;
    }
  };
}

/** The object a read without parameters answers (its example, else its sample), as the mock serves it; `undefined` when it answers no JSON object. */
function callerAnswer(read: OperationModel): RecordValue | undefined {
  const { response } = successAnswer(read);
  if (response === undefined) return undefined;
  const answer = [...statusAnswers(response).byContent].find(([content]) => isJsonMediaType(content.mediaType))?.[1];
  const text = answer?.failed === undefined ? answer?.payload.text : undefined;
  if (text === undefined) return undefined;
  const parsed = parseExact(text);
  const value = parsed.ok ? parsed.document.value : undefined;
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as RecordValue) : undefined;
}
