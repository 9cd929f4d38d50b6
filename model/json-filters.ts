import { labelMembers, labelsOf, termHolds, type LabelTerm } from './label-matchers.js';
import type { OperationModel, ParameterModel, ResourceModel } from './model.js';
import { mainType } from './schema.js';

/**
 * Filters sent as one JSON-encoded map in a single query parameter, whose text lists the filters it takes
 * (spec/DECISIONS.md › D604): `filters={"label":{"app=web":true},"name":["data"]}`, with the text
 * "JSON encoded value of the filters (a `map[string][]string`) … Available filters: - `name=<volume-name>` Matches
 * all or part of a volume name. - `label=<key>` or `label=<key>=<value>` …".
 */

/** One filter a JSON filter map's text names, and how the mock applies it. */
export interface JsonFilter {
  /** The filter's name as the text writes it (`label`, `name`, `dangling`). */
  name: string;
  /**
   * `label`: each value is a label term (`key` present, `key=value` equal) that must hold on the record's labels;
   * `member`: the record's member of the same name (whatever its case) equals one of the values, or holds one of
   * them where the text says the filter "matches all or part" of it; `unapplied`: the text names no member of the
   * record (`dangling`, `type`), so the filter is read and not applied (the start-up log says so).
   */
  kind: 'label' | 'member' | 'unapplied';
  /** The record member a `member` filter compares. */
  member?: string | undefined;
  /** Whether a `member` filter matches part of the member's text (the text says "all or part", "part of"). */
  partial?: boolean | undefined;
}

/** A list's query parameter that carries a JSON filter map, with the filters its text names, in the text's order. */
export interface JsonFilterParameter {
  parameter: ParameterModel;
  filters: JsonFilter[];
}

/**
 * Whether a query parameter's text or format says it is JSON-encoded (`format: json`, "JSON encoded value of the
 * filters", "encoded as JSON") and it names filters.
 */
function speaksJsonFilters(parameter: ParameterModel): boolean {
  const text = parameter.description ?? '';
  const json = parameter.schema['format'] === 'json' || /\bJSON[- ]encoded\b|\bencoded\s+as\s+JSON\b/i.test(text);
  return json && /\bfilters?\b/i.test(`${parameter.name} ${text}`);
}

/**
 * The filters a parameter's text lists as `` `name=<…>` `` (or `` `name!=<…>` ``) items, each with the text up to the
 * next item (what is said of it). Empty when the text lists none.
 */
function listedFilters(text: string): { name: string; said: string }[] {
  const found: { name: string; said: string; at: number }[] = [];
  for (const match of text.matchAll(/`([A-Za-z_][\w.-]*)!?=[^`]*`/g)) {
    if (!found.some((filter) => filter.name === match[1])) found.push({ name: match[1]!, said: '', at: match.index });
  }
  return found.map((filter, i) => ({ name: filter.name, said: text.slice(filter.at, found[i + 1]?.at ?? text.length) }));
}

/**
 * The query parameters of a list operation that carry a JSON filter map (a string parameter whose format or text
 * says JSON-encoded filters and whose text lists at least one `` `name=<…>` `` filter), each with how its filters
 * apply to the resource's records. Empty for any other list.
 */
export function jsonFilterParameters(op: OperationModel, resource: ResourceModel): JsonFilterParameter[] {
  const labelled = labelMembers(resource.recordSchema).length > 0;
  const members = Object.keys(resource.properties);
  return op.queryParams.flatMap((parameter) => {
    if (mainType(parameter.schema) !== 'string' || !speaksJsonFilters(parameter)) return [];
    const listed = listedFilters(parameter.description ?? '');
    if (listed.length === 0) return [];
    const filters = listed.map(({ name, said }): JsonFilter => {
      if (/^labels?$/i.test(name) && labelled) return { name, kind: 'label' };
      const member = members.find((candidate) => candidate.toLowerCase() === name.toLowerCase());
      if (member === undefined) return { name, kind: 'unapplied' };
      return { name, kind: 'member', member, partial: /\bpart\s+of\b|\ball\s+or\s+part\b/i.test(said) };
    });
    return [{ parameter, filters }];
  });
}

/**
 * The values a JSON filter map sends for each filter, from either form: `{"name": ["a", "b"]}` (a map of lists) or
 * `{"name": {"a": true}}` (a map of sets, as Go clients send it). `undefined` when the text is no JSON object.
 */
export function parseFilterMap(text: string): Map<string, string[]> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const map = new Map<string, string[]>();
  for (const [name, held] of Object.entries(value as Record<string, unknown>)) {
    if (Array.isArray(held)) map.set(name, held.map(String));
    else if (held !== null && typeof held === 'object') map.set(name, Object.entries(held).filter(([, on]) => on === true).map(([key]) => key));
    else if (typeof held === 'string') map.set(name, [held]);
  }
  return map;
}

/** A label filter's value as a label term: `key` is present, `key=value` is equal. */
function labelTerm(value: string): LabelTerm {
  const at = value.indexOf('=');
  return at === -1 ? { name: value, op: 'exists' } : { name: value.slice(0, at), op: '=', value: value.slice(at + 1) };
}

/**
 * The record test of one JSON filter map sent (`text`): every filter the map names and the mock applies must hold
 * (a label filter: every one of its terms; a member filter: one of its values). Filters the text lists but the
 * mock does not apply, and names the text does not list, filter nothing. A text that is no JSON object filters
 * nothing.
 */
export function filterMapTest(parameter: JsonFilterParameter, text: string, resource: ResourceModel): (record: Record<string, unknown>) => boolean {
  const sent = parseFilterMap(text);
  if (sent === undefined) return () => true;
  const labelled = labelMembers(resource.recordSchema);
  const tests: ((record: Record<string, unknown>) => boolean)[] = [];
  for (const filter of parameter.filters) {
    const values = sent.get(filter.name);
    if (values === undefined || values.length === 0 || filter.kind === 'unapplied') continue;
    if (filter.kind === 'label') {
      const terms = values.map(labelTerm);
      tests.push((record) => {
        const labels = labelsOf(record, labelled);
        return terms.every((term) => termHolds(term, labels));
      });
    } else {
      const member = filter.member!;
      tests.push((record) => {
        const held = record[member];
        const text = typeof held === 'string' || typeof held === 'number' || typeof held === 'bigint' || typeof held === 'boolean' ? String(held) : undefined;
        return text !== undefined && values.some((value) => (filter.partial === true ? text.includes(value) : text === value));
      });
    }
  }
  return (record) => tests.every((test) => test(record));
}
