import { canonicalJson } from './json.js';
import type { OperationModel } from './model.js';
import type { Schema } from './schema.js';

// What a write no resource holds says back of its request (spec/DECISIONS.md › D280): where its request body and
// its success answer are both made of one and the same object description (a `Ticket` in both `allOf`s), the
// answer describes what was sent. The mock answers those members as sent; the suite holds a server to it.

/** The parts a schema is made of: itself when it has properties, and each `allOf` part, one level down and nested. */
function partsOf(schema: Schema | undefined): Schema[] {
  if (schema === undefined) return [];
  const own = typeof schema['properties'] === 'object' && schema['properties'] !== null ? [schema] : [];
  return [...own, ...((schema['allOf'] as Schema[] | undefined) ?? []).flatMap(partsOf)];
}

/** A part's member names and required names, in order: equal for parts of equal JSON text (a cheap first test). */
function memberNames(part: Schema): string {
  return JSON.stringify([Object.keys(part['properties'] as Record<string, unknown>), part['required'] ?? null]);
}

/** A scalar member's schema type, when it is one (string, integer, number, boolean). */
function scalarType(schema: Schema | undefined): string | undefined {
  const type = schema?.['type'];
  return typeof type === 'string' && ['string', 'integer', 'number', 'boolean'].includes(type) ? type : undefined;
}

/**
 * The members a write's success answer echoes (D280): the required scalar members of an object description that
 * is an `allOf` part (or the whole) of both the request body's schema and the success answer's, compared as JSON.
 * Empty when they share none, or the operation belongs to a resource (its create is judged as a create).
 */
export function echoedMembers(op: OperationModel): { name: string; schema: Schema }[] {
  if (op.resource !== undefined || op.method !== 'POST' || op.body === undefined) return [];
  const success = op.responses.find((response) => response.status.startsWith('2') && response.schema !== undefined)?.schema;
  // Parts are compared by their member names first: two parts of the same JSON text name the same members, and
  // the JSON text of a large description's dereferenced schema is megabytes, so only parts that may match are written.
  const answeredParts = partsOf(success);
  const sent = partsOf(op.body.schema);
  const names = new Set(answeredParts.map(memberNames));
  const candidates = sent.filter((part) => names.has(memberNames(part)));
  if (candidates.length === 0) return [];
  const answered = new Set(answeredParts.filter((part) => candidates.some((candidate) => memberNames(candidate) === memberNames(part))).map((part) => canonicalJson(part)));
  const shared = candidates.filter((part) => answered.has(canonicalJson(part)));
  const members = new Map<string, Schema>();
  for (const part of shared) {
    const properties = part['properties'] as Record<string, Schema>;
    const required = Array.isArray(part['required']) ? (part['required'] as unknown[]).filter((name): name is string => typeof name === 'string') : [];
    for (const name of required) if (scalarType(properties[name]) !== undefined) members.set(name, properties[name]!);
  }
  return [...members].map(([name, schema]) => ({ name, schema }));
}

