import type { OperationModel, ParameterModel, ResourceModel } from './model.js';
import { mainType, objectShape, type Schema } from './schema.js';

/**
 * Filters written in a label language the parameter's text names (spec/DECISIONS.md › D435): Prometheus' label
 * matchers (`alertname="DiskFull"`, `severity=~"page|critical"`, `job!="web"`) and label selectors
 * (`env=prod,tier!=db`, `env in (a,b)`, `!deprecated`, `team`), held against a record's labels.
 */
export type LabelTerm =
  | { name: string; op: '=' | '!=' | '=~' | '!~'; value: string }
  | { name: string; op: 'in' | 'notin'; values: readonly string[] }
  | { name: string; op: 'exists' | 'absent' };

/** Whether a query parameter's text says its values are label matchers or label selectors. */
function speaksLabels(parameter: ParameterModel): boolean {
  const text = `${parameter.name} ${parameter.description ?? ''}`;
  return /\bmatchers?\b/i.test(text) || /\blabel[_ ]?selector/i.test(text);
}

/**
 * The query parameters of a list operation whose values are label terms: a string (or array of strings) parameter
 * whose name or description speaks of matchers or label selectors, on a resource whose records carry labels
 * ({@link labelMembers} finds some). Empty otherwise.
 */
export function labelParameters(op: OperationModel, resource: ResourceModel): ParameterModel[] {
  if (labelMembers(resource.recordSchema).length === 0) return [];
  return op.queryParams.filter((parameter) => {
    const items = parameter.type === 'array' ? (parameter.schema['items'] as Schema | undefined) : parameter.schema;
    return items !== undefined && mainType(items) === 'string' && speaksLabels(parameter);
  });
}

/** A record member that holds labels, and how: a map of strings, or a list of `{name, value}` objects. */
export interface LabelMember {
  name: string;
  kind: 'map' | 'pairs';
}

/**
 * The members of a record schema that hold its labels: maps of strings (`additionalProperties` of type string, no
 * named members: `labels`), only those named `labels` where there are (an alert's `annotations` is a map too, but
 * no filter reads it); else arrays of objects with string `name` and `value` members (a silence's `matchers`).
 */
export function labelMembers(record: Schema): LabelMember[] {
  const { properties } = objectShape(record);
  const maps = Object.entries(properties).filter(([, schema]) => isStringMap(schema)).map(([name]) => name);
  const named = maps.filter((name) => /labels?$/i.test(name));
  if (maps.length > 0) return (named.length > 0 ? named : maps).map((name) => ({ name, kind: 'map' }));
  return Object.entries(properties)
    .filter(([, schema]) => mainType(schema) === 'array' && isPair(schema['items'] as Schema | undefined))
    .map(([name]) => ({ name, kind: 'pairs' }));
}

function isStringMap(schema: Schema): boolean {
  const additional = schema['additionalProperties'];
  return mainType(schema) === 'object' && Object.keys(objectShape(schema).properties).length === 0 && typeof additional === 'object' && additional !== null && mainType(additional as Schema) === 'string';
}

function isPair(schema: Schema | undefined): boolean {
  if (schema === undefined) return false;
  const { properties } = objectShape(schema);
  return properties['name'] !== undefined && properties['value'] !== undefined && mainType(properties['name']) === 'string' && mainType(properties['value']) === 'string';
}

/** The labels of a record: its label maps' members and its `{name, value}` pairs, in one map (the first value of a name wins). */
export function labelsOf(record: Record<string, unknown>, members: readonly LabelMember[]): Map<string, string> {
  const labels = new Map<string, string>();
  for (const member of members) {
    const held = record[member.name];
    if (member.kind === 'map' && held !== null && typeof held === 'object' && !Array.isArray(held)) {
      for (const [name, value] of Object.entries(held)) if (typeof value === 'string' && !labels.has(name)) labels.set(name, value);
    } else if (member.kind === 'pairs' && Array.isArray(held)) {
      for (const pair of held as unknown[]) {
        if (pair === null || typeof pair !== 'object') continue;
        const { name, value } = pair as Record<string, unknown>;
        if (typeof name === 'string' && typeof value === 'string' && !labels.has(name)) labels.set(name, value);
      }
    }
  }
  return labels;
}

/**
 * The terms of one parameter value, or `undefined` when it is not written in the language: braces around the whole
 * (`{a="b"}`) are dropped, terms are split at commas outside quotes and parentheses, values may be quoted (`"…"`,
 * with `\` escapes) or bare.
 */
export function parseLabelTerms(text: string): LabelTerm[] | undefined {
  const body = text.trim().replace(/^\{([\s\S]*)\}$/, '$1');
  const terms: LabelTerm[] = [];
  for (const part of splitTerms(body)) {
    const term = parseTerm(part.trim());
    if (term === undefined) return undefined;
    terms.push(term);
  }
  return terms;
}

function splitTerms(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted && char === '\\') {
      current += char + (text[i + 1] ?? '');
      i++;
      continue;
    }
    if (char === '"') quoted = !quoted;
    else if (!quoted && char === '(') depth++;
    else if (!quoted && char === ')') depth--;
    if (!quoted && depth === 0 && char === ',') {
      parts.push(current);
      current = '';
    } else current += char;
  }
  if (current.trim() !== '') parts.push(current);
  return parts;
}

const NAME = '([A-Za-z_][A-Za-z0-9_.\\-/]*)';
const VALUE = '(?:"((?:[^"\\\\]|\\\\.)*)"|([^",]*?))';

function parseTerm(text: string): LabelTerm | undefined {
  const set = new RegExp(`^${NAME}\\s+(in|notin)\\s*\\(([^)]*)\\)$`).exec(text);
  if (set !== null) return { name: set[1]!, op: set[2] as 'in' | 'notin', values: set[3]!.split(',').map((value) => value.trim()).filter((value) => value !== '') };
  const compared = new RegExp(`^${NAME}\\s*(=~|!~|!=|==|=)\\s*${VALUE}\\s*$`).exec(text);
  if (compared !== null) {
    const op = compared[2] === '==' ? '=' : (compared[2] as '=' | '!=' | '=~' | '!~');
    const value = compared[3] !== undefined ? compared[3].replace(/\\(.)/g, '$1') : compared[4]!.trim();
    return { name: compared[1]!, op, value };
  }
  const absent = new RegExp(`^!\\s*${NAME}$`).exec(text);
  if (absent !== null) return { name: absent[1]!, op: 'absent' };
  const exists = new RegExp(`^${NAME}$`).exec(text);
  return exists === null ? undefined : { name: exists[1]!, op: 'exists' };
}

/**
 * Whether labels satisfy one term. As in Prometheus, a label the record lacks reads as the empty text for `=`,
 * `!=`, `=~` and `!~`; a regular expression must match the whole value. A regular expression that does not compile
 * matches nothing.
 */
export function termHolds(term: LabelTerm, labels: ReadonlyMap<string, string>): boolean {
  const held = labels.get(term.name);
  switch (term.op) {
    case 'exists':
      return held !== undefined;
    case 'absent':
      return held === undefined;
    case 'in':
      return held !== undefined && term.values.includes(held);
    case 'notin':
      return held === undefined || !term.values.includes(held);
    case '=':
      return (held ?? '') === term.value;
    case '!=':
      return (held ?? '') !== term.value;
    case '=~':
    case '!~': {
      let pattern: RegExp;
      try {
        pattern = new RegExp(`^(?:${term.value})$`);
      } catch {
        return false;
      }
      return pattern.test(held ?? '') === (term.op === '=~');
    }
  }
}
