import { isLosslessNumber } from 'lossless-json';
import { toView } from '../model/json.js';
import { validatorOf, validSample } from '../model/samples.js';
import { objectShape, type Schema } from '../model/schema.js';

/** Deeper than this, a value is not completed further (a schema cut at a cycle ends the walk). */
const COMPLETE_DEPTH = 16;

/**
 * Whether the record's schema for a member refuses `value`, an object or list a client sent for it, even with every
 * member that schema requires and the value lacks given a value (spec/DECISIONS.md › D891): an object sent whose
 * own members the record holds in another type or form (an id where the record holds the object it names, a
 * wrapper `{"value": …}` where it holds the text, track ids as text where the record's tracks hold integers). No
 * documented answer can carry such a value as sent, so a server keeps it in its own form (or leaves it out) and no
 * echo of it is expected, as of a scalar the record refuses (D235). A value refused only for a member the server
 * fills (a nested `id` the record requires) is not refused: it is expected back with those members added (D723).
 * `false` for a scalar, and where the schema cannot be compiled (D134).
 */
export function refusedEvenCompleted(schema: Schema, value: unknown): boolean {
  if (value === null || typeof value !== 'object' || isLosslessNumber(value) || typeof schema !== 'object' || schema === null) return false;
  const validate = validatorOf(schema);
  if (validate === undefined || validate(toView(value))) return false;
  return !validate(toView(completed(schema, value, 0)));
}

/** `value` with every object in it given the members its schema there requires and it lacks, each the member's sample. */
function completed(schema: Schema, value: unknown, depth: number): unknown {
  if (depth > COMPLETE_DEPTH || value === null || typeof value !== 'object' || isLosslessNumber(value) || typeof schema !== 'object' || schema === null) return value;
  if (Array.isArray(value)) {
    const items = schema['items'];
    return items !== null && typeof items === 'object' && !Array.isArray(items) ? value.map((item) => completed(items as Schema, item, depth + 1)) : value;
  }
  const { properties, required } = objectShape(schema);
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value as Record<string, unknown>)) out[name] = properties[name] === undefined ? member : completed(properties[name], member, depth + 1);
  for (const name of required) if (!Object.hasOwn(out, name)) out[name] = validSample(properties[name] ?? {});
  return out;
}
