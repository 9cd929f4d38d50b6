import type { ResourceModel } from './model.js';
import { nameWords } from './words.js';
import { mainType, objectShape, type Schema } from './schema.js';

/**
 * A member a create body writes under one name and the record answers under another, where the description itself
 * links the two (spec/DECISIONS.md › D700): the body's `DriverOpts` ("A mapping of driver options and values") is
 * the record's `Options` ("The driver specific options used when creating the volume").
 */
export interface WrittenTwin {
  /** The create body's member (`DriverOpts`). */
  from: string;
  /** The record's member that holds what it wrote (`Options`). */
  to: string;
}

/**
 * Whether `short` is `long` or an abbreviation of it, cut at the end and keeping at least three letters: a prefix
 * (`desc` of `description`, `config` of `configuration`), or a prefix with the last letter kept (`opts` of `options`,
 * `params` of `parameters`). Letters picked from the middle do not count (`dest` is no `description`).
 */
export function abbreviates(short: string, long: string): boolean {
  if (short === long) return true;
  if (short.length < 3 || short.length >= long.length) return false;
  if (long.startsWith(short)) return true;
  return short.length >= 4 && long.startsWith(short.slice(0, -1)) && short.at(-1) === long.at(-1);
}

/**
 * The shape of a member's schema, as one text, to tell whether two members hold the same kind of value: its main
 * type, and for an object the type of its other members (`additionalProperties`) and the names it lists, for an
 * array the type of its items. `undefined` where the schema states no type.
 */
function shapeOf(schema: Schema): string | undefined {
  const type = mainType(schema);
  if (type === undefined) return undefined;
  if (type === 'object') {
    const shape = objectShape(schema);
    const extra = shape.additional === false ? 'closed' : (mainType(shape.additional) ?? 'any');
    return `object(${Object.keys(shape.properties).sort().join(',')};${extra})`;
  }
  if (type === 'array') {
    const items = schema['items'];
    return `array(${typeof items === 'object' && items !== null && !Array.isArray(items) ? (mainType(items as Schema) ?? 'any') : 'any'})`;
  }
  return type;
}

/** Text saying a member holds what was given when the record was made: "used when creating the volume", "specified at creation". */
const AT_CREATION = /\b(?:used|given|specified|passed|supplied|provided|set|sent|chosen)\b[^.]{0,40}?\b(?:when|at|on|during|while|upon)\b[^.]{0,20}?\bcreat/i;

/**
 * The create body's members that the record answers under another name (spec/DECISIONS.md › D700). A body member
 * `from` the record does not name and a record member `to` the body does not name are twins when:
 * - both hold the same shape of value (an object of strings, a list of strings, a string…), and neither is `readOnly`;
 * - the last word of `from`'s name is the last word of `to`'s or abbreviates it (`Opts` of `Options`), and every
 *   other word of `from`'s name is a word of `to`'s name or of its text (`Driver` in "The driver specific options");
 * - `to`'s text says it holds what was given at the record's creation ("used when creating", "specified at
 *   creation"), and the two names are not the same words in another case (`username`, `Username`: two members);
 * - the pair is the only one for each of the two members.
 * Empty where the resource has no create body, or its record keeps any member the body sends.
 */
export function writtenTwins(resource: ResourceModel): WrittenTwin[] {
  const create = resource.operations.create;
  const body = create?.body?.schema;
  if (body === undefined || resource.keepsOtherProperties) return [];
  const sent = objectShape(create!.bodyEnvelope === undefined ? body : (objectShape(body).properties[create!.bodyEnvelope] ?? {})).properties;
  const answered = resource.properties;
  const pairs: WrittenTwin[] = [];
  for (const [from, fromSchema] of Object.entries(sent)) {
    if (Object.hasOwn(answered, from) || fromSchema['readOnly'] === true || fromSchema['format'] === 'binary') continue;
    const fromShape = shapeOf(fromSchema);
    const words = nameWords(from);
    const last = words.at(-1);
    if (fromShape === undefined || last === undefined) continue;
    for (const [to, toSchema] of Object.entries(answered)) {
      if (to === resource.idProperty || Object.hasOwn(sent, to) || toSchema['readOnly'] === true || shapeOf(toSchema) !== fromShape) continue;
      const toWords = nameWords(to);
      const toLast = toWords.at(-1);
      if (toLast === undefined || !abbreviates(last, toLast)) continue;
      const text = typeof toSchema['description'] === 'string' ? toSchema['description'] : '';
      const textWords = new Set([...toWords, ...nameWords(text)]);
      const others = words.slice(0, -1);
      if (!others.every((word) => textWords.has(word))) continue;
      if (!AT_CREATION.test(text) || toWords.join(' ') === words.join(' ')) continue;
      pairs.push({ from, to });
    }
  }
  // A member linked to two others says nothing certain about either: only pairs that are each other's one twin count.
  return pairs.filter((pair) => pairs.filter((other) => other.from === pair.from || other.to === pair.to).length === 1);
}
