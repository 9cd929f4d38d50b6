import type { FilterMatch, FilterModel, LimitModel, ListModel, ListShape, MemberPath, OperationModel, PageFact, PageMember, PagingModel, ParameterModel } from './model.js';
import { withoutNull } from './lenient-schema.js';
import { isMarked, mainType, objectShape, typesOf, type Schema } from './schema.js';

/**
 * The parameters `x-resource` may name on a list operation where the names do not show them (README › Resources,
 * spec/DECISIONS.md › D45): the page size, a page number, an offset or a cursor parameter, and filters.
 */
export interface ListExtension {
  limit?: string;
  page?: string;
  offset?: string;
  cursor?: string;
  filters?: Record<string, string>;
}

/**
 * A parameter or member name compared loosely: lower case, without `_`, `-`, `.`, `@`, `$`, and JSON:API's
 * `page[size]` read as `pagesize`.
 */
function loose(name: string): string {
  return name.replace(/^page\[(.*)\]$/, 'page$1').toLowerCase().replace(/[_\-.@$[\]]/g, '');
}

const LIMIT_NAMES = new Set(['limit', 'pagesize', 'perpage', 'size', 'maxresults', 'top', 'pagelimit', 'maxpagesize', 'maxitems', 'take', 'resultsperpage', 'pagesz']);
const PAGE_NAMES = new Set(['page', 'pagenumber', 'pageno', 'pagenum', 'pageindex', 'currentpage']);
const OFFSET_NAMES = new Set(['offset', 'skip', 'start', 'startindex', 'pageoffset']);
const CURSOR_NAMES = new Set(['cursor', 'pagetoken', 'after', 'startingafter', 'continuationtoken', 'continuation', 'nexttoken', 'nextpagetoken', 'marker', 'pagecursor', 'pageafter', 'starttoken', 'startcursor', 'startafter', 'skiptoken', 'next', 'page']);

/** The schema of a list's records: the `items` of its array (a bare array, or the wrapper's array member), `allOf` parts included. */
export function listItemSchema(schema: Schema, shape: ListShape): Schema | undefined {
  let array: Schema | undefined = schema;
  for (const name of shape.kind === 'array' ? [] : shape.itemsPath) array = array === undefined ? undefined : objectShape(array).properties[name];
  return array === undefined ? undefined : itemsOf(array);
}

function itemsOf(schema: Schema): Schema | undefined {
  const items = schema['items'];
  if (typeof items === 'object' && items !== null && !Array.isArray(items)) return items as Schema;
  for (const part of (schema['allOf'] as Schema[] | undefined) ?? []) {
    const found = itemsOf(part);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Whether a schema is an array (its `type`, else its `items`, or an `allOf` part that is one). A schema typed
 * otherwise is not, whatever `items` it carries (`type: object` with `items`, which JSON Schema ignores; D392).
 */
function isArray(schema: Schema): boolean {
  const types = typesOf(schema);
  return types.length > 0 ? types.includes('array') : itemsOf(schema) !== undefined;
}

const ITEMS_NAMES = ['items', 'data', 'results', 'records', 'content', 'elements', 'entries', 'values', 'value', 'list', 'rows', 'hits', 'nodes', 'edges'];

/**
 * How an answer holds a list (spec/DECISIONS.md › D33, D45): a bare array, or a wrapper object (composed with
 * `allOf`/`$ref` or not) whose array member holds the records, preferring the usual names (`items`, `data`,
 * `results`…) and then a member whose items are objects. `undefined` when the answer is neither.
 */
export function shapeOfList(schema: Schema): ListShape | undefined {
  if (typesOf(schema).includes('array')) return { kind: 'array' };
  const top = recordsMember(schema);
  if (top !== undefined) return { kind: 'object', itemsProperty: top, itemsPath: [top], schema };
  // One level down: HAL's `_embedded.<name>`, or `{data: {items: [...]}, ...}`, or the answer's only member, which
  // then names the list (`{workspaces: {ids: [...], values: [...]}}`, D504).
  const members = Object.entries(objectShape(schema).properties);
  for (const [name, sub] of members) {
    const known = name === '_embedded' || name === 'embedded' || ITEMS_NAMES.includes(loose(name)) || loose(name) === 'result';
    if (typeof sub !== 'object' || sub === null || !(known || members.length === 1)) continue;
    const inner = recordsMember(sub);
    // Under an only member of another name, only an array of objects is read as the records.
    if (inner !== undefined && (known || holdsObjects(objectShape(sub).properties[inner]!))) return { kind: 'object', itemsProperty: name, itemsPath: [name, inner], schema };
  }
  return undefined;
}

/** Whether an array schema's items are objects (typed so, or with properties). */
function holdsObjects(array: Schema): boolean {
  return mainType(itemsOf(array) ?? {}) === 'object' || Object.keys(objectShape(itemsOf(array) ?? {}).properties).length > 0;
}

/** Members of an answer that hold its problems or notes, not its records (`{errors: [...], locations: [...]}`, D625). */
const NOT_RECORDS = new Set(['errors', 'error', 'warnings']);

/**
 * The array member of an object schema that holds records: by its usual name, else the first array of objects,
 * else the first array; an array of the answer's problems (`errors`, `warnings`) only where no other array is (D625).
 */
function recordsMember(schema: Schema): string | undefined {
  const all = Object.entries(objectShape(schema).properties).filter(([, sub]) => typeof sub === 'object' && sub !== null && isArray(sub));
  const others = all.filter(([name]) => !NOT_RECORDS.has(loose(name)));
  const arrays = others.length > 0 ? others : all;
  if (arrays.length === 0) return undefined;
  const ofObjects = arrays.filter(([, sub]) => mainType(itemsOf(sub) ?? {}) === 'object' || Object.keys(objectShape(itemsOf(sub) ?? {}).properties).length > 0);
  return (arrays.find(([name]) => ITEMS_NAMES.includes(loose(name))) ?? ofObjects[0] ?? arrays[0]!)[0];
}

/**
 * The list model of a list operation (spec/DECISIONS.md › D45-D47): its shape, filters, page size, paging
 * parameter, and the members and headers the answer fills. `properties` are the record's top-level properties;
 * `undefined` when the operation's answer is not a list.
 */
export function listModelOf(op: OperationModel, view: boolean, properties: Record<string, Schema>, extension: ListExtension): ListModel | undefined {
  const success = op.responses.find((r) => r.status.startsWith('2') && r.schema !== undefined);
  if (success?.schema === undefined) return undefined;
  const shape = shapeOfList(success.schema);
  if (shape === undefined) return undefined;

  const filters: FilterModel[] = [];
  let limit: LimitModel | undefined;
  let paging: PagingModel | undefined;
  const named = (parameter: ParameterModel): PagingModel['kind'] | 'limit' | undefined => {
    if (extension.limit === parameter.name) return 'limit';
    if (extension.page === parameter.name) return 'page';
    if (extension.offset === parameter.name) return 'offset';
    if (extension.cursor === parameter.name) return 'cursor';
    return undefined;
  };
  const params = op.queryParams;
  // Named parameters first, so that a guess never takes a part `x-resource` gave to another parameter.
  const ordered = [...params.filter((p) => named(p) !== undefined), ...params.filter((p) => named(p) === undefined)];
  for (const parameter of ordered) {
    const mapped = extension.filters?.[parameter.name];
    const property = mapped ?? propertyFor(parameter.name, properties);
    const name = loose(parameter.name);
    const integer = parameter.type === 'integer' || parameter.type === 'number';
    // A text with a format (`after` as a date-time) is a filter's bound, not a token.
    const text = (parameter.type === 'string' || parameter.type === undefined) && parameter.schema['format'] === undefined;
    const part =
      named(parameter) ??
      (mapped !== undefined || property !== undefined
        ? undefined
        : limit === undefined && extension.limit === undefined && integer && LIMIT_NAMES.has(name)
          ? 'limit'
          : paging === undefined && integer && PAGE_NAMES.has(name) && extension.page === undefined
            ? 'page'
            : paging === undefined && integer && OFFSET_NAMES.has(name) && extension.offset === undefined
              ? 'offset'
              : paging === undefined && text && CURSOR_NAMES.has(name) && extension.cursor === undefined
                ? 'cursor'
                : undefined);
    if (part === 'limit') {
      limit = limitOf(parameter);
      continue;
    }
    if (part !== undefined) {
      if (paging === undefined) {
        paging =
          part === 'page'
            ? { kind: 'page', parameter: parameter.name, first: firstPage(parameter.schema) }
            : part === 'offset' && countsFromOne(parameter.schema)
              ? { kind: 'offset', parameter: parameter.name, first: 1 }
              : { kind: part, parameter: parameter.name };
      }
      continue;
    }
    if (property === undefined) continue;
    const filter = filterOf(parameter, property, properties[property] ?? {});
    if (filter !== undefined) filters.push(filter);
  }
  const members = shape.kind === 'object' ? pageMembers(shape.schema, shape.itemsPath, paging) : [];
  return { operation: op, view, shape, filters, limit, paging, members, headers: pageHeaders(success.headers.map((header) => header.name.toLowerCase())) };
}

/**
 * The page size parameter's bounds (D33): without a default the maximum applies, and without either, every record.
 * A schema listing the sizes it takes (`enum`, D903) bounds them by its smallest and largest, and keeps the list.
 */
function limitOf(parameter: ParameterModel): LimitModel {
  const schema = parameter.schema;
  const listed = Array.isArray(schema['enum']) ? (schema['enum'] as unknown[]) : [];
  const sizes = listed.length > 0 && listed.every((size) => typeof size === 'number' && Number.isSafeInteger(size) && size >= 0) ? [...new Set(listed as number[])].sort((a, b) => a - b) : undefined;
  const maximum = sizes !== undefined ? sizes.at(-1) : typeof schema['maximum'] === 'number' ? schema['maximum'] : undefined;
  return {
    parameter: parameter.name,
    minimum: sizes !== undefined ? sizes[0]! : typeof schema['minimum'] === 'number' ? schema['minimum'] : 0,
    maximum,
    ...(sizes === undefined ? {} : { sizes }),
    default: typeof schema['default'] === 'number' ? schema['default'] : maximum,
    ...(parameter.required ? { required: true as const } : {}),
  };
}

/** The number of the first page (D45): the schema's `minimum` when 0 or 1, else its `default` when 0 or 1, else 1. */
function firstPage(schema: Schema): number {
  for (const keyword of ['minimum', 'default']) {
    const value = schema[keyword];
    if (value === 0 || value === 1) return value;
  }
  return 1;
}

/**
 * The record property a query parameter names: its own name, else its singular or plural (`tag` for `tags`,
 * `statuses` for `status`), else, for a name ending in a key word (`tag_name`, `label_id`), the list property its
 * stem names in the plural (`tags`), which then holds the value asked for (D339).
 */
function propertyFor(name: string, properties: Record<string, Schema>): string | undefined {
  if (properties[name] !== undefined) return name;
  const candidates = [`${name}s`, `${name}es`, name.replace(/s$/, ''), name.replace(/es$/, '')];
  const found = candidates.find((candidate) => candidate !== name && properties[candidate] !== undefined);
  if (found !== undefined) return found;
  const stem = /^([A-Za-z][A-Za-z0-9]*?)[_-]?(?:name|id|slug|key|Name|Id|Slug|Key)$/.exec(name)?.[1];
  if (stem === undefined) return undefined;
  return [`${stem}s`, `${stem}es`].find((candidate) => properties[candidate] !== undefined && isArray(properties[candidate]!));
}

function isScalar(schema: Schema): boolean {
  const type = mainType(schema);
  return type === 'string' || type === 'integer' || type === 'number' || type === 'boolean' || (type === undefined && Array.isArray(schema['enum']));
}

/** The filter a parameter makes on a property (D33, D47), or `undefined` when they cannot be compared. */
function filterOf(parameter: ParameterModel, property: string, declared: Schema): FilterModel | undefined {
  // A nullable property (`anyOf: [X, {type: null}]`) is filtered as X: a query asks for a value, never for null (D131).
  const propertySchema = withoutNull(declared);
  const many = parameter.type === 'array';
  const propertyItems = isArray(propertySchema) ? (itemsOf(propertySchema) ?? {}) : undefined;
  const parameterItems = many ? ((parameter.schema['items'] ?? {}) as Schema) : parameter.schema;
  if (!isScalar(parameterItems) && mainType(parameterItems) !== undefined) return undefined;
  let match: FilterMatch;
  if (propertyItems !== undefined) match = many ? 'overlap' : 'contains';
  else if (!isScalar(propertySchema)) return undefined;
  else match = many ? 'in' : 'equal';
  const valued = propertyItems !== undefined && isScalar(propertyItems) ? propertyItems : propertySchema;
  const recordValues = Array.isArray(valued['enum']) ? (valued['enum'] as unknown[]).filter((v) => v !== null) : mainType(valued) === 'boolean' ? [true, false] : undefined;
  // Only values the parameter itself admits can be asked for (a record's `type` may hold more than `?type=` takes).
  const asked = Array.isArray(parameterItems['enum']) ? (parameterItems['enum'] as unknown[]) : undefined;
  const values = recordValues === undefined || asked === undefined ? recordValues : recordValues.filter((value) => asked.includes(value));
  const any = anyValues(parameter, asked, recordValues);
  const filter: FilterModel = match === 'equal' ? { parameter, property, values } : { parameter, property, values, match };
  if (any.length > 0) filter.any = any;
  return filter;
}

/** Enum values that name every record rather than a kind of record (D142). */
const ANY_WORDS: ReadonlySet<string> = new Set(['all', 'any', '*']);

/**
 * The values of a filter parameter that ask for no filter (spec/DECISIONS.md › D142): among the parameter's enum,
 * `all`, `any` or `*` when no record holds that value (the record's enum leaves it out), or a value the
 * description says lists every record ("`all` returns every issue", "use `all` for both"). Empty when none.
 */
function anyValues(parameter: ParameterModel, asked: readonly unknown[] | undefined, recordValues: readonly unknown[] | undefined): unknown[] {
  if (asked === undefined) return [];
  const description = parameter.description ?? '';
  return asked.filter((value) => {
    if (typeof value !== 'string' || recordValues?.includes(value) === true) return false;
    if (ANY_WORDS.has(value.toLowerCase())) return true;
    const quoted = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`[\`'"]${quoted}[\`'"]\\s+(?:returns|lists|shows|means|for)\\s+(?:all|every|both|any)\\b`, 'i').test(description);
  });
}

/** Member names by what they hold (compared loosely); numbers, booleans and texts are told apart by the member's type. */
const NUMBER_FACTS: [PageFact, string[]][] = [
  ['total', ['total', 'count', 'totalcount', 'totalitems', 'totalresults', 'totalelements', 'totalrecords', 'totalsize', 'totalhits', 'totalentries', 'totalrows', 'numfound', 'found']],
  ['pages', ['totalpages', 'pagecount', 'pages', 'numpages', 'numberofpages']],
  ['page', ['page', 'pagenumber', 'number', 'currentpage', 'pageindex', 'pageno']],
  ['size', ['pagesize', 'perpage', 'size', 'limit', 'pagelimit']],
  ['offset', ['offset', 'skip', 'start', 'startindex']],
  ['next', ['nextpage', 'nextpagenumber', 'nextoffset']],
  ['returned', ['numberofelements', 'returned', 'returnedcount']],
];
const BOOLEAN_FACTS = new Set(['hasmore', 'more', 'hasnext', 'hasnextpage', 'hasmoreitems', 'hasmoreresults']);
const CURSOR_MEMBERS = new Set(['nextcursor', 'nextpagetoken', 'nexttoken', 'continuationtoken', 'nextmarker', 'endcursor', 'cursor', 'after', 'nextpagecursor', 'nextkey']);
const LINK_MEMBERS: [PageFact, string[]][] = [
  ['nextLink', ['nextlink', 'nexturl', 'nextpageurl', 'nextpagelink', 'odatanextlink', 'nexthref', 'nextpage']],
  ['prevLink', ['prev', 'previous', 'prevlink', 'previouslink', 'prevurl', 'previousurl', 'prevpageurl', 'previouspageurl']],
  ['firstLink', ['first', 'firstlink', 'firsturl', 'firstpageurl']],
  ['lastLink', ['last', 'lastlink', 'lasturl', 'lastpageurl']],
  ['selfLink', ['self', 'selflink', 'selfurl']],
];
const LINK_PARENTS = new Set(['links', 'link', 'paging', 'pagination', 'meta', 'page', 'pages', 'pageinfo', 'responsemetadata', 'cursors']);

/**
 * The properties an object member may carry, its `anyOf`/`oneOf` alternatives' included (D336): a page's links
 * written as alternatives (`pages: anyOf [{first, prev}, {last, next}, {}]`) still name the members one page fills.
 */
export function memberProperties(schema: Schema): Record<string, Schema> {
  const out: Record<string, Schema> = { ...objectShape(schema).properties };
  for (const keyword of ['anyOf', 'oneOf']) {
    const alternatives = schema[keyword];
    if (!Array.isArray(alternatives)) continue;
    for (const alternative of alternatives as Schema[]) {
      if (typeof alternative !== 'object' || alternative === null) continue;
      for (const [name, sub] of Object.entries(objectShape(alternative).properties)) out[name] ??= sub;
    }
  }
  return out;
}

/**
 * The members of a wrapper that describe the page (D46), at most three levels deep, outside the records' array:
 * counts and positions (integers), `more` (boolean), the next cursor and page links (strings, or objects with `href`).
 */
function pageMembers(schema: Schema, itemsPath: MemberPath, paging: PagingModel | undefined): PageMember[] {
  const out: PageMember[] = [];
  const walk = (object: Schema, path: string[], depth: number): void => {
    for (const [name, sub] of Object.entries(memberProperties(object))) {
      if (path.length === itemsPath.length - 1 && name === itemsPath.at(-1) && path.every((at, i) => itemsPath[i] === at)) continue;
      if (typeof sub !== 'object' || sub === null || isMarked(sub, 'writeOnly')) continue;
      const at = [...path, name];
      const fact = factOf(name, sub, path.at(-1), paging);
      if (fact !== undefined) out.push({ path: fact.href ? [...at, 'href'] : at, holds: fact.holds, ...(absoluteLink(fact.href ? objectShape(sub).properties['href'] : sub) ? { absolute: true } : {}) });
      else if (depth < 2 && (mainType(sub) === 'object' || Object.keys(memberProperties(sub)).length > 0)) walk(sub, at, depth + 1);
    }
  };
  walk(schema, [], 0);
  return out;
}

/**
 * Whether a link is written absolute (D46, D336, D864): its schema's format asks for an absolute URI (`uri`, `url`,
 * `iri`; `uri-reference` admits a path), or its example is an absolute URL. For a link object, `schema` is its `href`.
 */
export function absoluteLink(schema: Schema | undefined): boolean {
  if (schema === undefined || typeof schema !== 'object') return false;
  if (['uri', 'url', 'iri'].includes(String(schema['format'] ?? ''))) return true;
  const example = schema['example'] ?? (Array.isArray(schema['examples']) ? (schema['examples'] as unknown[])[0] : undefined);
  return typeof example === 'string' && /^[a-z][a-z0-9+.-]*:\/\//i.test(example);
}

function factOf(name: string, schema: Schema, parent: string | undefined, paging: PagingModel | undefined): { holds: PageFact; href: boolean } | undefined {
  const key = loose(name);
  const type = mainType(schema);
  const inLinks = parent !== undefined && LINK_PARENTS.has(loose(parent));
  if (type === 'integer' || type === 'number') {
    const found = NUMBER_FACTS.find(([, names]) => names.includes(key));
    return found === undefined ? undefined : { holds: found[0], href: false };
  }
  if (type === 'boolean') {
    if (BOOLEAN_FACTS.has(key)) return { holds: 'more', href: false };
    if (key === 'first' || key === 'isfirst' || key === 'firstpage') return { holds: 'isFirst', href: false };
    if (key === 'last' || key === 'islast' || key === 'lastpage') return { holds: 'isLast', href: false };
    return undefined;
  }
  // An array of scalars named `ids` beside the records holds their keys, in the page's order (D505).
  if (type === 'array' && key === 'ids' && !holdsObjects(schema)) return { holds: 'ids', href: false };
  const href = type === 'object' && objectShape(schema).properties['href'] !== undefined;
  if (type !== 'string' && !href) return undefined;
  const format = String(schema['format'] ?? '');
  const uri = format.startsWith('uri') || format === 'url';
  if (key === 'next') {
    // A bare `next` holds a URL under `links`, with a URI format, or when the list pages otherwise than by cursor.
    return { holds: href || uri || (inLinks && loose(parent ?? '') !== 'cursors') || paging?.kind !== 'cursor' ? 'nextLink' : 'next', href };
  }
  if (!href && CURSOR_MEMBERS.has(key) && (key !== 'cursor' && key !== 'after' || inLinks)) return { holds: 'next', href: false };
  const link = LINK_MEMBERS.find(([, names]) => names.includes(key));
  if (link !== undefined && (link[0] === 'nextLink' || href || uri || inLinks)) return { holds: link[0], href };
  return undefined;
}

/** The response headers a list answer fills (D46): `Link`, a total count, a next-page URL or cursor. */
function pageHeaders(declared: readonly string[]): ListModel['headers'] {
  const out: ListModel['headers'] = [];
  for (const name of declared) {
    const key = loose(name);
    if (key === 'link') out.push({ name, holds: 'link' });
    else if (/^x?(totalcount|total|totalitems|totalresults|totalrecords|resultcount|count)$/.test(key)) out.push({ name, holds: 'total' });
    else if (/next/.test(key)) out.push({ name, holds: /cursor|token|marker/.test(key) ? 'next' : 'nextLink' });
  }
  return out;
}

/** Whether two record schemas describe the same records (D48): the same top-level property names. */
export function sameRecords(a: Schema, b: Schema): boolean {
  const left = Object.keys(objectShape(a).properties).sort();
  const right = Object.keys(objectShape(b).properties).sort();
  return left.length > 0 && left.length === right.length && left.every((name, i) => name === right[i]);
}

/** A member's value in a parsed JSON body, or `undefined`. */
export function memberAt(body: unknown, path: MemberPath): unknown {
  let value = body;
  for (const name of path) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[name];
  }
  return value;
}

/**
 * The value to send in the list's paging parameter for the page after this answer, as the answer itself points at
 * it (spec/DECISIONS.md › D46): a `next` member, else a `nextLink` member, a next-page header or the `Link`
 * header's `rel="next"` (the paging parameter read from that URL's query). `undefined` when the answer points at
 * no next page (a page-number or offset list without pointers: the caller counts on from the page it asked).
 * `headers` are lower-cased names.
 */
export function nextPageValue(list: ListModel, body: unknown, headers: Readonly<Record<string, string | undefined>>): string | undefined {
  const parameter = list.paging?.parameter;
  if (parameter === undefined) return undefined;
  const fromUrl = (url: unknown): string | undefined => {
    if (typeof url !== 'string' || url === '') return undefined;
    try {
      return new URL(url, 'http://localhost').searchParams.get(parameter) ?? undefined;
    } catch {
      return undefined;
    }
  };
  for (const member of list.members) {
    const value = memberAt(body, member.path);
    if (member.holds === 'next' && (typeof value === 'string' || typeof value === 'number') && value !== '') return String(value);
    if (member.holds === 'nextLink' && fromUrl(value) !== undefined) return fromUrl(value);
  }
  for (const header of list.headers) {
    const value = headers[header.name.toLowerCase()];
    if (value === undefined) continue;
    if (header.holds === 'next' && value !== '') return value;
    if (header.holds === 'nextLink' && fromUrl(value) !== undefined) return fromUrl(value);
    if (header.holds === 'link') {
      const next = /<([^>]*)>\s*;\s*rel="?next"?/i.exec(value);
      if (next !== null && fromUrl(next[1]) !== undefined) return fromUrl(next[1]);
    }
  }
  return undefined;
}

/**
 * Whether an offset parameter's schema counts positions from 1 (spec/DECISIONS.md › D621, D840): its `minimum` is 1,
 * or it states no minimum and its `default` is 1. The default is where a client that leaves the parameter out
 * starts, the list's beginning, so a default of 1 read as a count of records to skip would hide the first record
 * from every client at its defaults (OpenSearch's `startIndex`, "the first index of the query result").
 */
function countsFromOne(schema: Schema): boolean {
  return schema['minimum'] === 1 || (schema['minimum'] === undefined && schema['exclusiveMinimum'] === undefined && schema['default'] === 1);
}
