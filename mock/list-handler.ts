import { isLosslessNumber } from 'lossless-json';
import { filterMapTest, jsonFilterParameters } from '../model/json-filters.js';
import { labelMembers, labelParameters, labelsOf, parseLabelTerms, termHolds } from '../model/label-matchers.js';
import { sampleOf } from '../model/error-shape.js';
import { canonicalJson, exactJson, parseExact, toView } from '../model/json.js';
import { withoutNull } from '../model/lenient-schema.js';
import { listItemSchema, memberProperties, shapeOfList } from '../model/lists.js';
import { validatorOf, validSample } from '../model/samples.js';
import type { FilterModel, ListModel, MemberPath, OperationModel, PageFact, PageMember, ResourceModel } from '../model/model.js';
import { mainType, objectShape, typesOf, type Schema } from '../model/schema.js';
import { exactDecimal, numericRangesOf, windowOf, withinBound } from '../model/windows.js';
import type { Handler, OperationResult } from './handler.js';
import { listItemFit } from './answer-fit.js';
import { andThen, filterKey, ownKey, withoutLink, type ListPage, type Maybe, type RecordId, type RecordValue } from './store/record-store.js';

/**
 * The page's records completed with the members the list's own item schema requires and the record schema does not
 * (spec/DECISIONS.md › D222): a list documented with a summary shape that requires members a created record need
 * not have (`has_downloads` listed, optional on the record a create answers). Each record lacking one is given the
 * value of a valid sample of the item schema; nothing else changes. `undefined` when the item schema requires
 * nothing more than the record's (the seed's hot path does no extra work) or yields no object sample.
 */
function listedMembers(op: OperationModel, resource: ResourceModel, shape: ListModel['shape']): ((json: string) => string) | undefined {
  const schema = op.responses.find((response) => response.status === String(op.successStatus))?.schema;
  const items = schema === undefined ? undefined : listItemSchema(schema, shape);
  if (items === undefined || items === resource.recordSchema) return undefined;
  const recordRequired = new Set(objectShape(resource.recordSchema).required);
  const extra = objectShape(items).required.filter((name) => !recordRequired.has(name));
  if (extra.length === 0) return undefined;
  let sample: Record<string, unknown> | undefined;
  return (json) => {
    sample ??= ((value) => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}))(validSample(items));
    const fills = extra.filter((name) => sample![name] !== undefined);
    const parsed = fills.length === 0 ? undefined : parseExact(json);
    if (parsed === undefined || !parsed.ok || !Array.isArray(parsed.document.value)) return json;
    let changed = false;
    const records = (parsed.document.value as unknown[]).map((record) => {
      if (record === null || typeof record !== 'object' || Array.isArray(record)) return record;
      const lacking = fills.filter((name) => !Object.hasOwn(record, name));
      if (lacking.length === 0) return record;
      changed = true;
      return { ...(record as RecordValue), ...Object.fromEntries(lacking.map((name) => [name, sample![name]])) };
    });
    return changed ? canonicalJson(records) : json;
  };
}

/**
 * A list documented as a list of scalars (`GET /gitignore/templates`: `{type: array, items: {type: string}}`) whose
 * records have an item path (`/gitignore/templates/{name}`): each listed record is answered as its key, the value
 * the item path takes, which is what such a list names (spec/DECISIONS.md › D231). Before, the mock answered the
 * records themselves where its own schema says strings. `undefined` when the items are not scalars; a record whose
 * key does not fit the item schema is left as it is (the answer then shows the disagreement).
 */
function listedKeys(op: OperationModel, resource: ResourceModel, shape: ListModel['shape']): ((json: string) => string) | undefined {
  const schema = op.responses.find((response) => response.status === String(op.successStatus))?.schema;
  const items = schema === undefined ? undefined : listItemSchema(schema, shape);
  const type = items === undefined ? undefined : mainType(items);
  if (items === undefined || (type !== 'string' && type !== 'integer' && type !== 'number')) return undefined;
  const validate = validatorOf(items);
  return (json) => {
    const parsed = parseExact(json);
    if (!parsed.ok || !Array.isArray(parsed.document.value)) return json;
    const keys = (parsed.document.value as unknown[]).map((record) => {
      if (record === null || typeof record !== 'object' || Array.isArray(record)) return record;
      const key = (record as RecordValue)[resource.idProperty];
      return key !== undefined && (validate === undefined || validate(toView(key))) ? key : record;
    });
    return canonicalJson(keys);
  };
}

/** Page size when a list pages but the spec gives no size parameter (spec/DECISIONS.md › D45), unless its array has `maxItems`. */
const DEFAULT_PAGE_SIZE = 20;
/** Beyond this offset every store's page is empty: larger ones are clamped (a Redis range takes no 1e+20). */
const MAX_OFFSET = 2_000_000_000;

/**
 * The handler of a list operation (README › Resources › Lists; spec/DECISIONS.md › D33, D45-D49): the records of
 * the resource newest first, filtered (equality through the store's indexes; membership, `contains`, and a view's
 * other filters record by record), one page of them as the spec pages (page number, offset or cursor, with the
 * page size), in a bare array or in the wrapper the spec declares with its page members filled, and the response
 * headers the spec declares (`Link`, `X-Total-Count`, a next-page URL). Errors: `INVALID_QUERY` for a page number
 * below the first, a negative offset, or a cursor the mock did not give.
 */
export function listHandler(op: OperationModel, resource: ResourceModel, scope?: { parentId: (path: Record<string, unknown>) => unknown }): Handler {
  // Under a parent (D53) the stores' last key is the parent's id (record-store.ts storedFilters); answers drop the mock's link member.
  const parentKey = scope === undefined ? undefined : (path: Record<string, unknown>): unknown => filterKey(scope.parentId(path));
  const model = [resource.list, ...resource.views].find((list) => list?.operation === op) ?? fallbackModel(op, resource);
  // Items the list's schema names differently from the record are fit to it (D203), and members only the list's
  // item schema requires are completed (D222); a list whose items are the record passes untouched.
  const keysOnly = listedKeys(op, resource, model.shape);
  const fit = keysOnly === undefined ? listItemFit(model, resource) : undefined;
  const completed = keysOnly === undefined ? listedMembers(op, resource, model.shape) : undefined;
  const answered = (json: string): string => {
    const own = withoutLink(resource, json);
    if (keysOnly !== undefined) return keysOnly(own);
    const fitted = fit === undefined ? own : fit(own);
    return completed === undefined ? fitted : completed(fitted);
  };
  const keyed = resource.filters.map((filter) => model.filters.find((own) => own.parameter.name === filter.parameter.name && (own.match ?? 'equal') === 'equal' && own.property === filter.property));
  const tested = model.filters.filter((filter) => !keyed.includes(filter));
  const keyOf = keyed.map((filter) => (filter === undefined ? undefined : queryKey(filter, resource)));
  const testOf = [...tested.map((filter) => ({ name: filter.parameter.name, test: compileTest(filter, resource) })), ...rangeTests(op), ...labelTests(op, resource), ...jsonFilterTests(op, resource)];
  const size = pageSize(model);
  const paging = model.paging;
  // A filter value that asks for every record (`state=all`, D142) is no filter: the query is read without it.
  const anyOf = new Map(model.filters.filter((filter) => filter.any !== undefined).map((filter) => [filter.parameter.name, new Set(filter.any!.map(String))]));
  // A filter left out is its documented default where that is one of its values (`state` defaults to `open`, D243).
  const defaults = filterDefaults(model);
  const plainQuery = (sent: Record<string, unknown>): Record<string, unknown> => {
    let query = sent;
    for (const [name, value] of defaults) if (query[name] === undefined) query = { ...query, [name]: value };
    if (anyOf.size === 0) return query;
    const kept = { ...query };
    for (const [name, values] of anyOf) if (kept[name] !== undefined && values.has(String(kept[name]))) delete kept[name];
    return kept;
  };
  const writer = model.shape.kind === 'object' ? compileWrapper(model.shape.schema, model.shape.itemsPath, model.members) : undefined;
  // A wrapper's `ids` beside the records lists their keys in the page's order (D505), as JSON text.
  const idsMember = model.members.find((m) => m.holds === 'ids');
  const listsIds = idsMember !== undefined;
  // Each key in the type the `ids` items name (D892): integer keys as text where the items are strings.
  const idType = idsMember === undefined || model.shape.kind !== 'object' ? undefined : idItemType(model.shape.schema, idsMember.path);
  const idsOf = (json: string): string => {
    const parsed = parseExact(json);
    if (!parsed.ok || !Array.isArray(parsed.document.value)) return '[]';
    return canonicalJson((parsed.document.value as unknown[]).map((record) => (record !== null && typeof record === 'object' ? typedKey(ownKey((record as RecordValue)[resource.idProperty] as RecordId), idType) : null)));
  };
  // The last page's link needs the count too.
  const counts = model.members.some((m) => m.holds === 'total' || m.holds === 'pages' || m.holds === 'lastLink') || model.headers.some((h) => h.holds === 'total' || h.holds === 'link');
  const linkHeader = model.headers.find((h) => h.holds === 'link');
  const pastEndMissing = pastEndNotFound(model);

  // The plain case (the seed's listPets): equality filters and a size, a bare array or a wrapper with a total at most.
  if (paging === undefined && testOf.length === 0 && model.headers.length === 0 && model.members.every((m) => m.holds === 'total')) {
    const names = keyed.map((filter) => filter?.parameter.name);
    return ({ store, query: sent, path }) => {
      const query = plainQuery(sent);
      const own = names.length === 0 ? names : names.map((name, i) => (name === undefined ? undefined : keyOf[i]!(query[name])));
      const keys = parentKey === undefined ? own : [...own, parentKey(path)];
      const listed = store!.list(counts ? { keys, limit: size(query), countAll: true } : { keys, limit: size(query) });
      return andThen(listed, (result): OperationResult => ({ status: op.successStatus, json: writer === undefined ? answered(result.json) : writer(answered(result.json), { total: result.total }) }));
    };
  }

  return ({ store, query: sent, path, url, host }) => {
    const query = plainQuery(sent);
    const own = keyOf.map((key, i) => (key === undefined ? undefined : key(query[keyed[i]!.parameter.name])));
    const keys = parentKey === undefined ? own : [...own, parentKey(path)];
    const tests = testOf.flatMap(({ name, test }) => (query[name] === undefined ? [] : [test(query[name])]));
    const limit = size(query);
    let offset = 0;
    let before: string | undefined;
    let page: number | undefined;
    // A cursor that names a record of this list by its id (Stripe's `starting_after`, D325): its position, looked up.
    let afterId: string | undefined;
    if (paging?.kind === 'page') {
      page = Number(query[paging.parameter] ?? paging.first);
      if (page < paging.first) return invalid(`${paging.parameter} must be at least ${paging.first} (the first page), got ${page}`);
      offset = Math.min((page - paging.first) * limit, MAX_OFFSET);
    } else if (paging?.kind === 'offset') {
      // An offset whose minimum is 1 counts positions from 1 (D621): offset 1 is the first record.
      const base = paging.first ?? 0;
      offset = Number(query[paging.parameter] ?? base) - base;
      // Below the first position: refused where the schema's minimum says so, else the list's start (D840's default of 1).
      if (offset < 0 && op.queryParams.find((parameter) => parameter.name === paging.parameter)?.schema['minimum'] !== undefined) return invalid(`${paging.parameter} must be at least ${base}, got ${offset + base}`);
      offset = Math.max(offset, 0);
      offset = Math.min(offset, MAX_OFFSET);
    } else if (paging?.kind === 'cursor') {
      const cursor = query[paging.parameter];
      if (cursor !== undefined && cursor !== '') {
        before = decodeCursor(String(cursor));
        if (before === undefined) afterId = String(cursor);
      }
    }
    const test = tests.length === 0 ? undefined : tests.length === 1 ? tests[0] : (record: RecordValue) => tests.every((one) => one(record));
    const listPage = (from: string | undefined): Maybe<ListPage> =>
      store!.list({
        keys,
        limit,
        ...(counts ? { countAll: true } : {}),
        ...(offset > 0 ? { offset } : {}),
        ...(from === undefined ? {} : { before: from }),
        ...(test === undefined ? {} : { test }),
      });
    const refused = (): OperationResult => invalid(`${paging!.parameter} ${JSON.stringify(afterId)} is not a cursor this server gave nor the id of a record of this list (take it from the previous page's answer)`);
    const listed =
      afterId === undefined
        ? listPage(before)
        : andThen(store!.list({ keys, limit: 1, test: (record) => String(toView(record[resource.idProperty])) === afterId }), (found) => (found.last === undefined ? undefined : listPage(found.last)));
    return andThen(listed, (result): OperationResult => {
      if (result === undefined) return refused();
      // A page past the end whose array the schema forbids to be empty is the documented 404 (D555).
      if (pastEndMissing && offset > 0 && countItems(result.json) === 0) return { error: 'RECORD_NOT_FOUND', code: 'PAGE_NOT_FOUND', detail: `No page holds records from position ${offset} on: the list holds fewer.` };
      const facts = pageFacts(model, result, { url: url ?? '', limit, offset, page, before });
      facts.origin = originOf(host);
      if (listsIds) facts.ids = idsOf(result.json);
      const headers = headersOf(model, facts, linkHeader !== undefined);
      const json = writer === undefined ? answered(result.json) : writer(answered(result.json), facts);
      return headers === undefined ? { status: op.successStatus, json } : { status: op.successStatus, json, headers };
    });
  };
}

/** A value that says a state is not set rather than naming one. */
const UNSET = /(?:^|_)(?:UNSPECIFIED|UNSET)$/i;

/**
 * The filters a list applies when the client leaves them out (spec/DECISIONS.md › D243): those of an equality filter
 * over listed values (the record member's or the parameter's `enum`, a boolean) whose parameter's schema has a
 * `default` that is one of those values, neither one asking for every record (`all`, D142) nor an unset value
 * (`STATUS_UNSPECIFIED`), as `[parameter name, default]`. Returns an empty list when none.
 */
export function filterDefaults(model: ListModel): [string, unknown][] {
  const found: [string, unknown][] = [];
  for (const filter of model.filters) {
    const schema = filter.parameter.schema;
    const value = schema['default'];
    // The values the records hold, else those the parameter lists (an issue's `state` is free text, its filter's `open`, `closed`, `all`).
    const listed = filter.values ?? (Array.isArray(schema['enum']) ? (schema['enum'] as unknown[]) : undefined);
    if (value === undefined || listed === undefined || (filter.match ?? 'equal') !== 'equal' || filter.parameter.type === 'array') continue;
    if (filter.any?.some((one) => String(one) === String(value)) === true || !listed.some((one) => String(one) === String(value))) continue;
    // An enum's unset value (`STATUS_UNSPECIFIED`, protobuf's zero value) names no state a record is in: no filter.
    if (typeof value === 'string' && UNSET.test(value)) continue;
    found.push([filter.parameter.name, value]);
  }
  return found;
}

/**
 * Whether a page past a list's end is answered with the operation's documented 404 instead of an empty page
 * (spec/DECISIONS.md › D555): the list pages by page number or offset, documents 404, and the schema of its array
 * of records refuses an empty one (`minItems` of 1 or more), so an empty page would break the list's own schema.
 * The first page is never past the end: a list holding no record still answers it.
 */
export function pastEndNotFound(model: ListModel): boolean {
  if (model.paging?.kind !== 'page' && model.paging?.kind !== 'offset') return false;
  if (!model.operation.responses.some((response) => response.status === '404')) return false;
  const whole = model.operation.responses.find((r) => r.status.startsWith('2') && r.schema !== undefined)?.schema;
  const array = model.shape.kind === 'array' ? whole : model.shape.itemsPath.reduce<Schema | undefined>((at, name) => (at === undefined ? undefined : objectShape(at).properties[name]), model.shape.schema);
  if (array === undefined) return false;
  const parts = [array, ...((array['allOf'] as Schema[] | undefined) ?? [])];
  return parts.some((part) => typeof part['minItems'] === 'number' && part['minItems'] > 0);
}

function invalid(detail: string): OperationResult {
  return { error: 'INVALID_QUERY', detail: `${detail}.` };
}

/** A list model for an operation `x-resource` makes a list although its answer shows no list: a bare array, the resource's filters and size. */
function fallbackModel(op: OperationModel, resource: ResourceModel): ListModel {
  return { operation: op, view: false, shape: resource.listShape ?? { kind: 'array' }, filters: resource.filters, limit: resource.limit, paging: undefined, members: [], headers: [] };
}

/** The page size of a request: the size parameter's value, else its default; a paging list without either pages by `maxItems` or 20; else every record, at most `maxItems`. */
function pageSize(model: ListModel): (query: Record<string, unknown>) => number {
  const limit = model.limit;
  const array = model.shape.kind === 'array' ? undefined : model.shape.itemsPath.reduce<Schema | undefined>((at, name) => (at === undefined ? undefined : objectShape(at).properties[name]), model.shape.schema);
  const maxItems = model.shape.kind === 'array' ? model.operation.responses.find((r) => r.status.startsWith('2') && r.schema !== undefined)?.schema?.['maxItems'] : array?.['maxItems'];
  const bounded = typeof maxItems === 'number' && maxItems >= 0 ? maxItems : undefined;
  // Without a size parameter: every record (at most the array's `maxItems`), or pages of 20 when the list pages.
  const fallback = limit?.default ?? (model.paging === undefined ? (bounded ?? Infinity) : Math.min(bounded ?? DEFAULT_PAGE_SIZE, DEFAULT_PAGE_SIZE));
  if (limit === undefined) return () => fallback;
  return (query) => {
    const asked = query[limit.parameter];
    return asked === undefined ? fallback : Number(asked);
  };
}

/**
 * The key a query value compares as with the property's values (D33): a parameter declared as text for a numeric
 * or boolean property (`?rank=2` with `type: string`) compares by value.
 */
function queryKey(filter: FilterModel, resource: ResourceModel): (value: unknown) => unknown {
  const property = withoutNull(resource.properties[filter.property] ?? {});
  const itemSchema = typesOf(property).includes('array') ? ((property['items'] ?? {}) as Schema) : property;
  const converts = ['integer', 'number', 'boolean'].includes(mainType(itemSchema) ?? '');
  return (value) => {
    if (value === undefined) return undefined;
    if (!converts || typeof value !== 'string') return filterKey(value);
    if (value === 'true' || value === 'false') return value === 'true';
    return /^-?\d+$/.test(value) ? BigInt(value) : Number.isNaN(Number(value)) ? value : filterKey(Number(value));
  };
}

/**
 * The record test of a filter the stores do not index (D47): `equal` on a view, `in` (the record's value is one of
 * the given values), `contains` / `overlap` (one of the record's items is the value / one of them). An item that is
 * an object matches a value when one of its scalar members equals it.
 */
function compileTest(filter: FilterModel, resource: ResourceModel): (value: unknown) => (record: RecordValue) => boolean {
  const key = queryKey(filter, resource);
  const property = filter.property;
  return (value) => {
    const wanted = new Set((Array.isArray(value) ? value : [value]).map(key));
    return (record) => {
      const held = record[property];
      const items = Array.isArray(held) ? held : [held];
      return items.some((item) => itemMatches(item, wanted));
    };
  };
}

/**
 * The query parameters of a list operation the mock applies (D435's start-up note): its filters, page size and
 * position, time and number ranges, and label terms. Any other query parameter is read and checked, not applied.
 */
export function appliedParameters(op: OperationModel, resource: ResourceModel): Set<string> {
  const model = [resource.list, ...resource.views].find((list) => list?.operation === op) ?? fallbackModel(op, resource);
  const names = new Set<string>(model.filters.map((filter) => filter.parameter.name));
  if (model.limit !== undefined) names.add(model.limit.parameter);
  if (model.paging !== undefined) names.add(model.paging.parameter);
  for (const { name } of [...rangeTests(op), ...labelTests(op, resource)]) names.add(name);
  for (const { parameter, filters } of jsonFilterParameters(op, resource)) if (filters.some((filter) => filter.kind !== 'unapplied')) names.add(parameter.name);
  return names;
}

/**
 * The filters of a list's JSON filter maps that the mock reads and does not apply (D604): those its text lists that
 * name no member of the record (`dangling`), as `parameter.filter`. Named in the start-up log beside D435's.
 */
export function unappliedJsonFilters(op: OperationModel, resource: ResourceModel): string[] {
  return jsonFilterParameters(op, resource).flatMap(({ parameter, filters }) => (filters.some((filter) => filter.kind !== 'unapplied') ? filters.filter((filter) => filter.kind === 'unapplied').map((filter) => `${parameter.name}.${filter.name}`) : []));
}

/**
 * The record tests of a list's JSON filter maps (D604, model/json-filters.ts): every filter sent that the mock
 * applies must hold on the record. A value that is no JSON object filters nothing.
 */
function jsonFilterTests(op: OperationModel, resource: ResourceModel): { name: string; test: (value: unknown) => (record: RecordValue) => boolean }[] {
  return jsonFilterParameters(op, resource)
    .filter(({ filters }) => filters.some((filter) => filter.kind !== 'unapplied'))
    .map((parameter) => ({ name: parameter.parameter.name, test: (value: unknown) => filterMapTest(parameter, String(value), resource) }));
}

/**
 * The record tests of a list's label parameters (D435, model/label-matchers.ts): every term of every value sent
 * must hold on the record's labels. A value not written in the language is no term (it filters nothing).
 */
function labelTests(op: OperationModel, resource: ResourceModel): { name: string; test: (value: unknown) => (record: RecordValue) => boolean }[] {
  const members = labelMembers(resource.recordSchema);
  return labelParameters(op, resource).map((parameter) => ({
    name: parameter.name,
    test: (value: unknown) => {
      const terms = (Array.isArray(value) ? value : [value]).flatMap((text) => parseLabelTerms(String(text)) ?? []);
      return (record: RecordValue) => {
        const labels = labelsOf(record, members);
        return terms.every((term) => termHolds(term, labels));
      };
    },
  }));
}

/**
 * The record tests of a list's range parameters (D91, model/windows.ts): a record is in a range when one of the
 * values of its ranged member is; a day named as the upper bound includes that whole day. Without a member the
 * parameters select nothing.
 */
function rangeTests(op: OperationModel): { name: string; test: (value: unknown) => (record: RecordValue) => boolean }[] {
  const window = windowOf(op);
  const property = window?.property;
  const numeric = numericRangeTests(op);
  if (window === undefined || property === undefined) return numeric;
  return [...numeric, ...window.parameters.map(({ parameter, bound, format }) => ({
    name: parameter.name,
    test: (value: unknown) => {
      const at = Date.parse(String(value));
      const limit = bound === 'upper' && format === 'date' ? at + 86_399_999 : at;
      return (record: RecordValue) => {
        const held = record[property];
        const times = (Array.isArray(held) ? held : [held]).flatMap((one) => (typeof one === 'string' && !Number.isNaN(Date.parse(one)) ? [Date.parse(one)] : []));
        return Number.isNaN(at) || times.some((time) => (bound === 'lower' ? time >= limit : time <= limit));
      };
    },
  }))];
}

/**
 * The record tests of a list's numeric range parameters (D105, model/windows.ts): a record is in a range when one
 * of the values of its member is on the bound's side, compared exactly (int64 values beyond 2^53 included); the
 * bound's value itself is in unless the name or description makes it exclusive. A value that is no number selects
 * nothing (the request's validation refuses it first).
 */
function numericRangeTests(op: OperationModel): { name: string; test: (value: unknown) => (record: RecordValue) => boolean }[] {
  return numericRangesOf(op).ranges.flatMap(({ property, lower, upper }) =>
    [lower, upper].flatMap((end) =>
      end === undefined
        ? []
        : [
            {
              name: end.parameter.name,
              test: (value: unknown) => {
                const at = exactDecimal(Array.isArray(value) ? value[0] : value);
                return (record: RecordValue) => {
                  if (at === undefined) return false;
                  const held = record[property];
                  return (Array.isArray(held) ? held : [held]).some((one) => {
                    const exact = exactDecimal(one);
                    return exact !== undefined && withinBound(exact, at, end.bound, end.exclusive);
                  });
                };
              },
            },
          ],
    ),
  );
}

/**
 * The range filters of served data (D108, D276): an operation no resource holds answers its examples, and where
 * it has numeric range parameters or a date window over a member its records hold (model/windows.ts) the example
 * list is narrowed to the records in the range asked, as {@link rangeTests} judges them. `undefined` when the operation has none or its answer is no list.
 * The function takes the example's JSON text and the coerced query, and returns the narrowed JSON text.
 */
export function servedRangeFilter(op: OperationModel): ((json: string, query: Readonly<Record<string, unknown>>) => string) | undefined {
  // A date window narrows served data as a numeric range does (D276): hours asked from a day list none before it.
  const tests = rangeTests(op);
  const success = op.responses.find((response) => response.status.startsWith('2') && response.schema !== undefined)?.schema;
  const shape = success === undefined ? undefined : shapeOfList(success);
  if (tests.length === 0 || shape === undefined) return undefined;
  const path = shape.kind === 'array' ? [] : shape.itemsPath;
  return (json, query) => {
    const asked = tests.filter((one) => query[one.name] !== undefined).map((one) => one.test(query[one.name]));
    const parsed = asked.length === 0 ? undefined : parseExact(json);
    if (parsed === undefined || !parsed.ok) return json;
    const narrow = (at: unknown, rest: readonly string[]): unknown => {
      if (rest.length === 0) return Array.isArray(at) ? at.filter((item) => item !== null && typeof item === 'object' && asked.every((test) => test(item as RecordValue))) : at;
      if (at === null || typeof at !== 'object' || Array.isArray(at)) return at;
      const [head, ...tail] = rest as [string, ...string[]];
      return { ...(at as Record<string, unknown>), [head]: narrow((at as Record<string, unknown>)[head], tail) };
    };
    return exactJson(narrow(parsed.document.value, path));
  };
}

/**
 * The page members of a list no resource holds (D201), set in `whole`, a fresh parse of its example answer: each
 * member the list model names (`links.self`, `links.next`, `total`, …) takes the value of this page, as a held list's
 * wrapper does (D46), so the example's own links (another host, a next page on the last page) are not answered as
 * they are written. A link the example writes absolute, or does not show, gets the request's origin; a fact this
 * page lacks (no next page) leaves its member out, or `null` where the example has it `null`, or for a required
 * next link the page past the end. `page` is the records answered, `total` those kept before cutting, `at` the
 * request's URL, size, offset, page and host; `page.last`, for a list paged by cursor, the position its next cursor names.
 */
export function fillServedPage(model: ListModel, whole: Record<string, unknown>, page: { returned: number; total: number; last?: string }, at: { url: string; limit: number; offset: number; page: number | undefined; host: string | undefined }): void {
  if (model.members.length === 0) return;
  const more = at.offset + page.returned < page.total;
  const facts = pageFacts(model, { json: '[]', total: page.total, more, last: page.last }, { ...at, before: undefined });
  facts.returned = page.returned;
  const origin = originOf(at.host);
  for (const member of model.members) {
    let holder: unknown = whole;
    for (const name of member.path.slice(0, -1)) holder = holder !== null && typeof holder === 'object' && !Array.isArray(holder) ? (holder as Record<string, unknown>)[name] : undefined;
    if (holder === null || typeof holder !== 'object' || Array.isArray(holder)) continue;
    const object = holder as Record<string, unknown>;
    const key = member.path.at(-1)!;
    // The keys of a list no resource holds are the example's own.
    if (member.holds === 'ids') continue;
    let value = facts[member.holds];
    if (value === undefined) {
      if (object[key] === null) continue;
      // A required pointer to the next page, on the last page: the page past the end, which is empty (as D46).
      // A required member that may be null says "none" with null (`prev: null` on the first page, D826).
      if (requiredAt(model, member.path) && nullAt(model, member.path)) {
        object[key] = null;
        continue;
      }
      if (member.holds === 'nextLink' && requiredAt(model, member.path)) value = facts.pastNextLink;
      if (value === undefined) {
        // A link written as an object (`previous: {href, method}`) is left out whole where this page has none and
        // its holder does not require it: an object without its required `href` is no link (D631).
        const link = member.path.at(-1) === 'href' && member.path.length > 1 ? member.path.slice(0, -1) : undefined;
        if (link !== undefined && !requiredAt(model, link)) {
          let outer: unknown = whole;
          for (const name of link.slice(0, -1)) outer = outer !== null && typeof outer === 'object' && !Array.isArray(outer) ? (outer as Record<string, unknown>)[name] : undefined;
          if (outer !== null && typeof outer === 'object' && !Array.isArray(outer)) delete (outer as Record<string, unknown>)[link.at(-1)!];
          continue;
        }
        delete object[key];
        continue;
      }
    }
    if (member.holds === 'pages') value = pageCountWithin(value, schemaAt(model, member.path));
    const written = object[key];
    if (typeof written === 'string' && typeof value === 'number') object[key] = String(value);
    else object[key] = member.holds.endsWith('Link') && typeof value === 'string' && value.startsWith('/') && (member.absolute === true || typeof written !== 'string' || /^[a-z][a-z0-9+.-]*:/i.test(written)) ? `${origin}${value}` : value;
  }
}

/** The list's wrapper schema of the member at `path` (each object on the way merged over `allOf`), if it names one. */
function schemaAt(model: ListModel, path: MemberPath): Schema | undefined {
  if (model.shape.kind !== 'object') return undefined;
  let schema: Schema | undefined = model.shape.schema;
  for (const name of path) schema = schema === undefined ? undefined : objectShape(schema).properties[name];
  return schema;
}

/**
 * The number of pages as the member's schema takes it: an empty list is one empty page where the schema counts pages
 * from 1 (`pages: {minimum: 1}`, shipengine.com's pickups and manifests), and no page where it lets them be 0
 * (spec/DECISIONS.md › D922). Any other value is kept.
 */
function pageCountWithin<T>(value: T, schema: Schema | undefined): T | number {
  const minimum = schema?.['minimum'];
  return typeof value === 'number' && typeof minimum === 'number' && value < minimum && minimum <= 1 ? minimum : value;
}

/** Whether the list's wrapper schema requires the member at `path` (each object on the way merged over `allOf`). */
function requiredAt(model: ListModel, path: MemberPath): boolean {
  if (model.shape.kind !== 'object') return false;
  let schema: Schema | undefined = model.shape.schema;
  for (const name of path.slice(0, -1)) schema = schema === undefined ? undefined : objectShape(schema).properties[name];
  return schema !== undefined && objectShape(schema).required.includes(path.at(-1)!);
}

/** Whether the list's wrapper schema lets the member at `path` be `null` (each object on the way merged over `allOf`). */
function nullAt(model: ListModel, path: MemberPath): boolean {
  if (model.shape.kind !== 'object') return false;
  let schema: Schema | undefined = model.shape.schema;
  for (const name of path) schema = schema === undefined ? undefined : objectShape(schema).properties[name];
  return schema !== undefined && typesOf(schema).includes('null');
}

function itemMatches(item: unknown, wanted: ReadonlySet<unknown>): boolean {
  if (typeof item === 'object' && item !== null && !Array.isArray(item) && filterKey(item) === undefined) {
    return Object.values(item as Record<string, unknown>).some((member) => wanted.has(filterKey(member)));
  }
  return wanted.has(filterKey(item));
}

/** The facts of one page (D46), each `undefined` where it does not apply (no next page, no page number). */
type Facts = Partial<Record<PageFact | 'pastNext' | 'pastNextLink' | 'origin', string | number | boolean>>;

function pageFacts(model: ListModel, result: ListPage, at: { url: string; limit: number; offset: number; page: number | undefined; before: string | undefined }): Facts {
  const paging = model.paging;
  const { limit, offset } = at;
  const facts: Facts = { total: result.total, more: result.more, isLast: !result.more, isFirst: at.offset === 0 && at.before === undefined, selfLink: at.url };
  const returned = countItems(result.json);
  facts.size = Number.isFinite(limit) ? limit : returned;
  facts.returned = returned;
  facts.pages = Number.isFinite(limit) && limit > 0 ? Math.ceil(result.total / limit) : 1;
  // A page of size 0 still stands where it was asked: its offset and number are facts a wrapper may require.
  // The offset said and linked is the parameter's own: the position counted from 1 where the parameter counts so (D621).
  const base = paging?.kind === 'offset' ? (paging.first ?? 0) : 0;
  // A list no parameter pages is one page, the first: it stands at offset 0, page 1, facts a wrapper may require (D824).
  if (paging === undefined) {
    facts.offset = offset;
    facts.page = 1;
  }
  if (paging !== undefined && paging.kind !== 'cursor') {
    facts.offset = offset + base;
    facts.page = paging.kind === 'page' ? (at.page ?? paging.first) : Number.isFinite(limit) && limit > 0 ? Math.floor(offset / limit) + 1 : 1;
  }
  // A size of 0 (when the schema allows it) answers an empty page that never moves on: it points at no next page.
  if (paging === undefined || limit === 0) return facts;
  const withParameter = (value: string | number | undefined): string => setQuery(at.url, paging.parameter, value === undefined ? undefined : String(value));
  if (paging.kind === 'cursor') {
    if (result.more && result.last !== undefined) facts.next = encodeCursor(result.last);
    // Below position 0 there is no record: the page past the end.
    facts.pastNext = encodeCursor('0');
    facts.firstLink = withParameter(undefined);
  } else {
    const first = paging.kind === 'page' ? paging.first : base;
    const here = paging.kind === 'page' ? (at.page ?? first) : offset + base;
    const step = paging.kind === 'page' ? 1 : limit;
    facts.page = paging.kind === 'page' ? here : Number.isFinite(limit) ? Math.floor(offset / limit) + 1 : 1;
    facts.offset = offset + base;
    if (result.more) facts.next = here + step;
    facts.pastNext = here + step;
    if (here > first) facts.prevLink = withParameter(Math.max(first, here - step));
    facts.firstLink = withParameter(first);
    const lastPage = Math.max(0, Math.ceil(result.total / limit) - 1);
    facts.lastLink = withParameter(paging.kind === 'page' ? first + lastPage : base + lastPage * limit);
  }
  if (facts.next !== undefined) facts.nextLink = withParameter(facts.next as string | number);
  facts.pastNextLink = withParameter(facts.pastNext as string | number);
  return facts;
}

/** The number of records in a page's JSON text (the array of records, each an object): its top-level objects. */
function countItems(json: string): number {
  let depth = 0;
  let count = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (depth === 1 && c === 123) count++;
      depth++;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return count;
}

/** The declared response headers of a page (D46); `undefined` when none is declared. */
function headersOf(model: ListModel, facts: Facts, link: boolean): Record<string, string> | undefined {
  if (model.headers.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const header of model.headers) {
    const name = header.name.toLowerCase();
    if (header.holds === 'total') out[name] = String(facts.total);
    else if (header.holds === 'nextLink' && facts.nextLink !== undefined) out[name] = String(facts.nextLink);
    else if (header.holds === 'next' && facts.next !== undefined) out[name] = String(facts.next);
  }
  if (link) {
    const links: string[] = [];
    if (facts.nextLink !== undefined) links.push(`<${String(facts.nextLink)}>; rel="next"`);
    if (facts.prevLink !== undefined) links.push(`<${String(facts.prevLink)}>; rel="prev"`);
    if (facts.firstLink !== undefined) links.push(`<${String(facts.firstLink)}>; rel="first"`);
    if (facts.lastLink !== undefined) links.push(`<${String(facts.lastLink)}>; rel="last"`);
    if (links.length > 0) out['link'] = links.join(', ');
  }
  return out;
}

/**
 * The request's path and query with one query parameter set to `value` (or removed for `undefined`), the other
 * pairs kept as sent: the URL of another page (D46).
 */
export function setQuery(url: string, name: string, value: string | undefined): string {
  const at = url.indexOf('?');
  const path = at === -1 ? url : url.slice(0, at);
  const pairs = at === -1 ? [] : url.slice(at + 1).split('&').filter((pair) => pair !== '' && decodeName(pair.split('=')[0]!) !== name);
  if (value !== undefined) pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  return pairs.length === 0 ? path : `${path}?${pairs.join('&')}`;
}

function decodeName(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** A cursor as the mock gives it (D45): the store position of a page's last record, as base64url text. Opaque to clients. */
export function encodeCursor(position: string): string {
  return Buffer.from(`after:${position}`, 'utf8').toString('base64url');
}

/** The store position a cursor names, or `undefined` when the text is not a cursor {@link encodeCursor} wrote. */
export function decodeCursor(cursor: string): string | undefined {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) return undefined;
  const match = /^after:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match?.[1];
}

/** One member of a wrapper's tree: the records, a fact, an object holding facts, or a fixed sample (JSON text). */
type WrapperNode =
  | { key: string; kind: 'page'; leftOutEmpty: boolean }
  | { key: string; kind: 'fact'; holds: PageFact; href: boolean; absolute: boolean; nullable: boolean; required: boolean; schema: Schema }
  | { key: string; kind: 'object'; children: WrapperNode[] }
  | { key: string; kind: 'sample'; json: string };

/**
 * The writer of a wrapper list answer (D46): its records' member, each page member with its fact, objects that hold
 * page members with their other required members sampled, and every other required member sampled. A fact that
 * does not apply (no next page) is `null` where the schema allows it, else left out where optional, else the value
 * of the page past the end (an empty page) for `next`/`nextLink`, else a sample.
 */
function compileWrapper(schema: Schema, itemsPath: MemberPath, members: readonly PageMember[]): (page: string, facts: Facts) => string {
  const build = (object: Schema, path: readonly string[]): WrapperNode[] => {
    // Page members may sit in `anyOf` alternatives (`pages: anyOf [{first, prev}, {last, next}, {}]`, D336).
    const { required } = objectShape(object);
    const properties = memberProperties(object);
    const nodes: WrapperNode[] = [];
    for (const [name, sub] of Object.entries(properties)) {
      const key = JSON.stringify(name);
      const at = [...path, name];
      const fact = members.find((m) => sameStart(m.path, at) && (m.path.length === at.length || (m.path.length === at.length + 1 && m.path.at(-1) === 'href')));
      // A records member the wrapper does not require and whose schema refuses an empty list is left out of an empty page (D827).
      if (at.length === itemsPath.length && sameStart(itemsPath, at)) nodes.push({ key, kind: 'page', leftOutEmpty: !required.includes(name) && refusesEmpty(sub) });
      else if (fact !== undefined) nodes.push({ key, kind: 'fact', holds: fact.holds, href: fact.path.length > at.length, absolute: fact.absolute === true, nullable: typesOf(sub).includes('null'), required: required.includes(name), schema: sub });
      else if (members.some((m) => m.path.length > at.length && sameStart(m.path, at)) || (itemsPath.length > at.length && sameStart(itemsPath, at))) nodes.push({ key, kind: 'object', children: build(sub, at) });
      else if (required.includes(name)) nodes.push({ key, kind: 'sample', json: canonicalJson(sampleOf(sub)) });
    }
    // A member the wrapper requires but never describes still must be there: any value fits its absent schema (D896).
    for (const name of required) if (!Object.hasOwn(properties, name)) nodes.push({ key: JSON.stringify(name), kind: 'sample', json: canonicalJson(sampleOf({})) });
    return nodes;
  };
  const tree = build(schema, []);
  const write = (nodes: readonly WrapperNode[], page: string, facts: Facts): string => {
    const parts: string[] = [];
    for (const node of nodes) {
      if (node.kind === 'page' && node.leftOutEmpty && /^\[\s*\]$/.test(page)) continue;
      const text = node.kind === 'page' ? page : node.kind === 'sample' ? node.json : node.kind === 'object' ? write(node.children, page, facts) : factText(node, facts);
      if (text !== undefined) parts.push(`${node.key}:${text}`);
    }
    return `{${parts.join(',')}}`;
  };
  return (page, facts) => write(tree, page, facts);
}

/**
 * Whether a wrapper list answer leaves its records member out of an empty page (spec/DECISIONS.md › D827): the
 * member's holder does not require it and its schema refuses an empty list, so `[]` would break the answer's schema.
 */
export function leavesOutEmpty(model: ListModel): boolean {
  if (model.shape.kind !== 'object' || model.shape.itemsPath.length === 0) return false;
  let holder: Schema | undefined = model.shape.schema;
  for (const name of model.shape.itemsPath.slice(0, -1)) holder = holder === undefined ? undefined : objectShape(holder).properties[name];
  if (holder === undefined) return false;
  const name = model.shape.itemsPath.at(-1)!;
  const member = memberProperties(holder)[name];
  return member !== undefined && !objectShape(holder).required.includes(name) && refusesEmpty(member);
}

/** Whether a list schema refuses an empty list: `minItems` above 0 on it or on one of its `allOf` parts. */
function refusesEmpty(schema: Schema): boolean {
  const parts = [schema, ...((schema['allOf'] as Schema[] | undefined) ?? [])];
  return parts.some((part) => typeof part['minItems'] === 'number' && part['minItems'] > 0);
}

/** The one scalar type the items of the array member at `path` of a wrapper schema name (`string`, `integer`…), if any. */
function idItemType(schema: Schema, path: MemberPath): string | undefined {
  let at: Schema | undefined = schema;
  for (const name of path) at = at === undefined ? undefined : objectShape(at).properties[name];
  const items = at?.['items'];
  if (items === null || typeof items !== 'object' || Array.isArray(items)) return undefined;
  const types = typesOf(items as Schema).filter((type) => type !== 'null');
  return types.length === 1 ? types[0] : undefined;
}

/** A record's key as an `ids` list of `type` holds it: a number's digits as text, digits as an integer; else as it is. */
function typedKey(key: unknown, type: string | undefined): unknown {
  if (type === 'string' && key !== null && typeof key !== 'string' && typeof key !== 'object') return String(key);
  if (type === 'string' && isLosslessNumber(key)) return key.toString();
  if ((type === 'integer' || type === 'number') && typeof key === 'string' && /^-?\d{1,15}$/.test(key)) return Number(key);
  return key;
}

function factText(node: Extract<WrapperNode, { kind: 'fact' }>, facts: Facts): string | undefined {
  // The records' keys are JSON text already (D505).
  if (node.holds === 'ids') return typeof facts.ids === 'string' ? facts.ids : node.required ? '[]' : undefined;
  let value = facts[node.holds];
  if (value === undefined) {
    if (node.nullable) return 'null';
    if (!node.required) return undefined;
    // A required string cursor that may be empty says "no more" with `""` (Slack's `next_cursor`, D46): a cursor to
    // the page past the end would be followed for ever by a client reading until the cursor is empty.
    if (node.holds === 'next' && allowsEmptyString(node.schema)) return '""';
    // A required, non-null pointer to the next page on the last page: the page past the end, which is empty.
    const past = node.holds === 'next' ? facts.pastNext : node.holds === 'nextLink' ? facts.pastNextLink : undefined;
    if (past === undefined) return canonicalJson(sampleOf(node.schema));
    value = past;
  }
  // A cursor member typed as an integer carries the next page's number or offset; a string one, its text.
  if (node.holds === 'next' && typeof value === 'number' && mainType(node.schema) === 'string') value = String(value);
  if (node.holds === 'pages') value = pageCountWithin(value, node.schema);
  // A link member whose format asks for an absolute URI, or whose example is one, gets the origin the request named
  // (D46, D336): a client that follows it as written then reaches this server.
  if (node.holds.endsWith('Link') && node.absolute && typeof value === 'string' && value.startsWith('/')) value = `${String(facts.origin ?? 'http://localhost')}${value}`;
  const json = JSON.stringify(value);
  return node.href ? `{"href":${json}}` : json;
}

/** Whether a plain string schema admits `""`: typed string only, with no length floor, pattern, format, enum or const. */
function allowsEmptyString(schema: Schema): boolean {
  const types = typesOf(schema);
  if (types.length !== 1 || types[0] !== 'string') return false;
  const floor = schema['minLength'];
  return (floor === undefined || floor === 0) && schema['pattern'] === undefined && schema['format'] === undefined && schema['enum'] === undefined && schema['const'] === undefined;
}

/** `http://` and the request's `Host` when it is a plain host name or address (with a port), else `http://localhost`. */
function originOf(host: string | undefined): string {
  return `http://${host !== undefined && /^[A-Za-z0-9.:[\]-]{1,255}$/.test(host) ? host : 'localhost'}`;
}

function sameStart(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.every((name, i) => path[i] === name);
}
