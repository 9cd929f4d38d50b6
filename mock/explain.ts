import type { ApiModel, AuthScheme, FilterModel, ListModel, OperationModel, Reading, ResourceModel, Role } from '../model/model.js';
import { numericRangesOf, windowOf } from '../model/windows.js';
import { servedListOf } from '../model/served-lists.js';
import { echoedMembers } from '../model/echoes.js';
import { jsonFilterParameters } from '../model/json-filters.js';
import { pruneOf } from '../model/prune.js';
import { successAnswer } from './answers.js';

/** One line of the explanation: what was read, the sentence saying why, and the decision of spec/DECISIONS.md it follows. */
export interface ExplainLine {
  reason: string;
  decision: string;
}

/** An operation as the explanation names it, with the part it plays and why. */
export interface ExplainedOperation extends ExplainLine {
  operationId: string;
  method: string;
  path: string;
  /** Its part: a role of its resource, `view` (a filtered list, D48), `field-write` (D116) or `action` (D323). */
  part: Role | 'view' | 'field-write' | 'action';
}

/** A query parameter of a list and what the mock does with it. */
export interface ExplainedFilter extends ExplainLine {
  parameter: string;
  /** The record member it compares with; `undefined` for one the mock ignores. */
  property?: string | undefined;
  /** `equal`, `in`, `contains`, `overlap` (D33, D47), `range` (D90, D105), or `ignored`. */
  match: FilterModel['match'] | 'range' | 'ignored';
  /** For a range: whether the value sent is the lowest (`lower`) or the highest (`upper`) the records kept may hold. */
  bound?: 'lower' | 'upper' | undefined;
}

/** The filters of one list operation: those the mock applies, and the query parameters it ignores. */
export interface ExplainedList {
  operationId: string;
  applied: ExplainedFilter[];
  ignored: ExplainedFilter[];
  /** The page size and paging parameters (D33, D45): not filters, named so that no parameter goes unexplained. */
  paging: ExplainedFilter[];
}

/** A resource as the mock and the suite read it. */
export interface ExplainedResource {
  name: string;
  collectionPath: string;
  itemPath: string | undefined;
  operations: ExplainedOperation[];
  key: ExplainLine & { property: string; type: string; parameter: string | undefined; source: string };
  parent: (ExplainLine & { resource: string; parameter: string; property: string | undefined; singleton: boolean }) | undefined;
  lists: ExplainedList[];
}

/** An operation no resource holds, answered from the description. */
export interface ExplainedAnswer extends ExplainLine {
  operationId: string;
  method: string;
  path: string;
  /** The status answered when all goes well (D55). */
  status: number;
  /**
   * `example`: the description gives examples (the mock serves the first its schema accepts, else a sample); `sample`:
   * a sample of the schema; `empty`: no body; `deleted`: the records a prune deletes (D702).
   */
  from: 'example' | 'sample' | 'empty' | 'deleted';
  /** Why from that source, in a sentence. */
  source: string;
  /** Members of the answer that repeat what the request sent instead of the example's values (D280). */
  echoes: string[];
  /** A list whose example records the mock pages and filters (D110-D114), when it is one. */
  list?: ExplainedList | undefined;
}

/** A security scheme and the operations that need it (D37). */
export interface ExplainedScheme extends ExplainLine {
  name: string;
  kind: AuthScheme['kind'];
  /** Where the credential goes: `Authorization: Bearer`, a header, query or cookie parameter, or HTTP basic. */
  carried: string;
  operations: string[];
}

/** What the suite checks on one operation: each check's id and rule (conformance/catalogue.ts checksFor). */
export interface ExplainedChecks {
  operationId: string | undefined;
  checks: { id: string; rule: string }[];
}

/** The whole explanation: `openapi-harness explain --json`, and the console's Explain page (`GET /__admin/explain`). */
export interface Explanation {
  title: string;
  version: string;
  source: string | undefined;
  overlays: string[];
  resources: ExplainedResource[];
  answered: ExplainedAnswer[];
  identity: { schemes: ExplainedScheme[]; open: string[]; flows: ExplainLine & { issuers: string[] } };
  /** Per operation, then the checks of no one operation (`operationId` undefined); `undefined` where the suite's catalogue was not at hand. */
  checks: ExplainedChecks[] | undefined;
  /** What the model noted at load (left out, read leniently, overlays that selected nothing). */
  notes: string[];
}

/** A check as the suite's catalogue lists it: the CLI hands these in (the mock never imports the suite). */
export interface CheckSummary {
  id: string;
  rule: string;
}

/**
 * Where the mock finds the suite's checks of a model: the CLI, which stands on both, hands one in
 * ({@link provideCheckCatalogue}); the mock never imports the suite.
 */
export type CheckCatalogue = (api: ApiModel) => readonly CheckSummary[] | Promise<readonly CheckSummary[]>;

let provided: CheckCatalogue | undefined;

/**
 * Sets the catalogue the mock started in this process lists checks from (`GET /__admin/explain`): the CLI
 * (explain/mock.ts, the entry of `openapi-harness mock`) provides the suite's `checksFor` before it starts the mock. Process-wide, as the
 * command is; a mock started as a library passes `explainChecks` in its options instead.
 */
export function provideCheckCatalogue(catalogue: CheckCatalogue): void {
  provided = catalogue;
}

/** The catalogue {@link provideCheckCatalogue} set, if any. */
export function providedCheckCatalogue(): CheckCatalogue | undefined {
  return provided;
}

const ROLES: readonly Role[] = ['list', 'create', 'read', 'replace', 'update', 'delete'];

/**
 * What the mock and the suite read in a description, each line with its reason and its decision: every resource
 * (its operations and their parts, its key, its parent, the filters its lists apply and the query parameters they
 * ignore), the operations answered from the description's examples or samples and why, the security schemes and
 * the operations needing each, and, when `checks` is given (conformance/catalogue.ts `checksFor`, which the CLI
 * runs), what the suite checks per operation. Reads the model only; the reasons are the model's own
 * (`OperationModel.reading`, set by the rule that decided) or follow from its data. `overlays` names the overlay
 * files the model was read with. Never throws.
 */
export function explain(api: ApiModel, checks?: readonly CheckSummary[], overlays: readonly string[] = []): Explanation {
  return {
    title: api.title,
    version: api.version,
    source: api.source,
    overlays: [...overlays],
    resources: api.resources.map((resource) => explainResource(resource, api)),
    answered: api.operations.filter((op) => op.resource === undefined && op.acts === undefined).map((op) => explainAnswer(op, api.resources)),
    identity: identityOf(api),
    checks: checks === undefined ? undefined : checksByOperation(api, checks),
    notes: [...api.notes],
  };
}

function explainResource(resource: ResourceModel, api: ApiModel): ExplainedResource {
  const line = (op: OperationModel, part: ExplainedOperation['part'], fallback: Reading): ExplainedOperation => ({ operationId: op.operationId, method: op.method, path: op.path, part, ...(op.reading ?? fallback) });
  const operations: ExplainedOperation[] = [
    ...ROLES.flatMap((role) => {
      const op = resource.operations[role];
      return op === undefined ? [] : [line(op, role, { reason: `it plays the ${role} of ${resource.name}`, decision: 'D32' })];
    }),
    ...resource.views.map((view) => line(view.operation, 'view', { reason: `a filtered list of ${resource.name}'s records`, decision: 'D48' })),
    ...resource.fieldWrites.map((op) => line(op, 'field-write', { reason: 'its query parameters name members of the record', decision: 'D116' })),
    ...api.operations.filter((op) => op.acts === resource).map((op) => line(op, 'action', { reason: `it answers ${resource.name}'s record, whose members it writes`, decision: 'D323' })),
  ];
  const source = resource.idSource === 'server' ? 'the server assigns it: the create body cannot carry it' : resource.idSource === 'client' ? 'the client chooses it: the create body requires it (a natural key)' : 'the client may choose it: kept when a create sends it, assigned when not';
  const numbered = resource.numbering === undefined ? '' : `; records are stored by ${resource.numbering.storeKey}, as \`${resource.idProperty}\` counts per parent`;
  const key = {
    property: resource.idProperty,
    type: resource.idType,
    parameter: resource.idParameter,
    source: resource.idSource,
    reason: `\`${resource.idProperty}\` (${resource.idType}) is the record's key${resource.idParameter === undefined ? '' : `, named by {${resource.idParameter}} in ${resource.itemPath}`}; ${source}${numbered}`,
    decision: resource.numbering === undefined ? 'D50' : 'D240',
  };
  const parent = resource.parent === undefined
    ? undefined
    : {
        resource: resource.parent.resource,
        parameter: resource.parent.parameter,
        property: resource.parent.inSchema ? resource.parent.property : undefined,
        singleton: resource.parent.singleton,
        ...(resource.parent.byExample !== undefined
          ? { reason: `it lives under ${resource.collectionPath.slice(0, resource.collectionPath.lastIndexOf('/'))}, whose records no resource holds: a parent exists where its read's examples name it`, decision: 'D72' }
          : {
              reason: `each record belongs to one ${resource.parent.resource} record named by {${resource.parent.parameter}}${resource.parent.inSchema ? `, kept in its \`${resource.parent.property}\`` : ''}; under a parent that does not exist the answer is 404${resource.parent.singleton ? '; at most one record per parent (a singleton)' : ''}`,
              decision: 'D53',
            }),
      };
  const lists = [resource.list, ...resource.views].flatMap((list) => (list === undefined ? [] : [explainList(list, list.filters, false, resource)]));
  return { name: resource.name, collectionPath: resource.collectionPath, itemPath: resource.itemPath, operations, key, parent, lists };
}

/** The filters a list applies (equality and membership on record members, date windows, numeric ranges) and the query parameters it ignores. */
function explainList(list: ListModel, filters: readonly FilterModel[], served = false, resource?: ResourceModel): ExplainedList {
  const op = list.operation;
  const applied: ExplainedFilter[] = filters.map((filter) => {
    const match = filter.match ?? 'equal';
    const how = match === 'equal' ? 'equals' : match === 'in' ? 'is one of' : match === 'contains' ? 'holds' : 'shares an item with';
    const any = filter.any === undefined || filter.any.length === 0 ? '' : `; ${filter.any.map((value) => JSON.stringify(value)).join(', ')} asks for every record`;
    return {
      parameter: filter.parameter.name,
      property: filter.property,
      match,
      reason: served
        ? `keeps the example's records whose \`${filter.property}\` equals it: its description says it filters, and its name begins that member's`
        : `keeps the records whose \`${filter.property}\` ${how} the value sent${any}`,
      decision: served ? 'D113' : match === 'equal' ? (any === '' ? 'D33' : 'D142') : 'D47',
    };
  });
  // Date windows and numeric ranges narrow a resource's list (D90, D105) and a served list's example records alike (D108, D276).
  const window = windowOf(op);
  if (window?.property !== undefined) {
    for (const parameter of window.parameters) applied.push({ parameter: parameter.parameter.name, property: window.property, match: 'range', bound: parameter.bound, reason: `keeps the ${served ? "example's " : ''}records whose \`${window.property}\` is ${parameter.bound === 'lower' ? 'at or after' : 'at or before'} the ${parameter.format} sent`, decision: served ? 'D276' : 'D90' });
  }
  for (const range of numericRangesOf(op).ranges) {
    for (const end of [range.lower, range.upper]) {
      if (end === undefined) continue;
      applied.push({ parameter: end.parameter.name, property: range.property, match: 'range', bound: end.bound, reason: `keeps the ${served ? "example's " : ''}records whose \`${range.property}\` is ${end.bound === 'lower' ? 'above' : 'below'} the number sent${end.exclusive ? '' : ' or equal to it'}`, decision: served ? 'D108' : 'D105' });
    }
  }
  const paging: ExplainedFilter[] = [];
  if (list.limit !== undefined) paging.push({ parameter: list.limit.parameter, match: 'ignored', reason: `the page size: ${list.limit.minimum} to ${list.limit.maximum ?? 'any'}${list.limit.default === undefined ? '' : `, ${list.limit.default} when left out`}`, decision: 'D33' });
  if (list.paging !== undefined) paging.push({ parameter: list.paging.parameter, match: 'ignored', reason: `where a page starts: ${list.paging.kind === 'page' ? `a page number, from ${list.paging.first}` : list.paging.kind === 'offset' ? (list.paging.first === 1 ? 'the position of the first record, counted from 1' : 'the number of records to skip') : 'the cursor the previous page gave'}`, decision: 'D45' });
  // A JSON filter map (D604): the filters its text lists that name a record member or the labels, and those it does not apply.
  for (const { parameter, filters: listed } of resource === undefined ? [] : jsonFilterParameters(op, resource)) {
    const used = listed.filter((filter) => filter.kind !== 'unapplied');
    if (used.length === 0) continue;
    const said = used.map((filter) => (filter.kind === 'label' ? `${filter.name} (label terms key or key=value)` : `${filter.name} (${filter.partial === true ? 'holds part of' : 'equals'} \`${filter.member!}\`)`));
    const skipped = listed.filter((filter) => filter.kind === 'unapplied').map((filter) => filter.name);
    applied.push({ parameter: parameter.name, property: used.map((filter) => filter.member ?? filter.name).join(', '), match: 'equal', reason: `a JSON-encoded map of the filters its text lists, each that is sent must hold: ${said.join(', ')}${skipped.length === 0 ? '' : `; not applied, naming no member of the record: ${skipped.join(', ')}`}`, decision: 'D604' });
  }
  const named = new Set([...applied, ...paging].map((filter) => filter.parameter));
  const ambiguous = new Map(numericRangesOf(op).ambiguous.map((one) => [one.parameter, one.members]));
  const ignored: ExplainedFilter[] = op.queryParams
    .filter((parameter) => !named.has(parameter.name))
    .map((parameter) => ({
      parameter: parameter.name,
      match: 'ignored' as const,
      ...(parameter.deepObject === true
        ? { reason: 'a deepObject parameter: checked against its schema, not applied', decision: 'D326' }
        : parameter.explodedObject === true
          ? { reason: 'an object sent as its members\' own pairs (form, exploded): checked against its schema, not applied; none sent is the empty object', decision: 'D557' }
          : ambiguous.has(parameter.name)
          ? { reason: `a range bound that may range over several members (${ambiguous.get(parameter.name)!.join(', ')}): not applied`, decision: 'D105' }
          : served
            ? { reason: 'its description does not say it filters on one member of the records: checked against its schema, not applied', decision: 'D113' }
            : { reason: 'it names no member of the record (nor a page size or position): checked against its schema, not applied', decision: 'D33' }),
    }));
  return { operationId: op.operationId, applied, ignored, paging };
}

/**
 * How an operation no resource holds is answered: its success status, from the description's example or a sample,
 * and why it is answered so; a prune of a collection's unused records (D702) says what it deletes instead.
 */
function explainAnswer(op: OperationModel, resources: readonly ResourceModel[]): ExplainedAnswer {
  const prune = pruneOf(op, resources);
  if (prune !== undefined) return explainPrune(op, prune);
  const { status, response } = successAnswer(op);
  const contents = response?.contents ?? [];
  // Examples are not validated here: compiling every schema an example needs takes longer than reading the whole
  // description on a large one (GitHub's). The mock serves the first one its schema accepts, else a sample, and its
  // start-up check names at debug each example the schema refuses.
  const withExample = contents.find((content) => content.examples.length > 0);
  const from: ExplainedAnswer['from'] = status === 204 || contents.length === 0 ? 'empty' : withExample !== undefined ? 'example' : 'sample';
  const source = from === 'empty' ? `its ${status} documents no body` : from === 'example' ? `the description's first example its schema accepts (${withExample!.mediaType}), else a sample of the schema` : 'a sample of its schema: the description gives no example';
  const reading = op.reading ?? { reason: 'no resource holds it', decision: 'D32' };
  const served = from === 'empty' ? undefined : servedListOf(op);
  // The mock pages and filters a served list's example records unless it is paged by a cursor it cannot write (mock/handlers.ts servedPager).
  const pages = served !== undefined && !(served.list.paging?.kind === 'cursor' && !served.list.headers.some((header) => header.holds === 'link') && !served.list.members.some((member) => member.holds === 'next' || member.holds === 'nextLink'));
  const echoes = from === 'empty' ? [] : echoedMembers(op).map((member) => member.name);
  return {
    operationId: op.operationId,
    method: op.method,
    path: op.path,
    status,
    from,
    source: `${source}${echoes.length === 0 ? '' : `, with ${echoes.map((name) => `\`${name}\``).join(', ')} as the request sent ${echoes.length === 1 ? 'it' : 'them'} (D280)`}`,
    echoes,
    ...reading,
    ...(served === undefined ? {} : { list: explainList(served.list, pages ? served.filters : [], true) }),
  };
}

/** What a prune of a collection's unused records (D702) deletes and answers. */
function explainPrune(op: OperationModel, prune: NonNullable<ReturnType<typeof pruneOf>>): ExplainedAnswer {
  const filters = prune.filters.flatMap(({ parameter, filters: listed }) => listed.filter((filter) => filter.kind !== 'unapplied').map((filter) => `${parameter.name}.${filter.name}`));
  const answer = prune.deleted === undefined ? 'answers no body' : `answers their keys in \`${prune.deleted}\`${prune.counted.length === 0 ? '' : `, their number in ${prune.counted.map((name) => `\`${name}\``).join(', ')}`}${prune.zeroed.length === 0 ? '' : `, 0 in ${prune.zeroed.map((name) => `\`${name}\``).join(', ')}`}`;
  return {
    operationId: op.operationId,
    method: op.method,
    path: op.path,
    status: op.successStatus,
    from: prune.deleted === undefined ? 'empty' : 'deleted',
    source: `deletes the records of ${prune.resource.name} that no record of another resource names${filters.length === 0 ? '' : ` and that the filters sent keep (${filters.join(', ')})`}, and ${answer}`,
    echoes: [],
    reason: `its text says it deletes the unused records of ${prune.resource.name}, whose collection path it extends`,
    decision: 'D702',
  };
}

/** The security schemes, where each carries its credential, and the operations that need each (D37); the credentials no operation issues. */
function identityOf(api: ApiModel): Explanation['identity'] {
  const schemes = new Map<string, ExplainedScheme>();
  for (const op of api.operations) {
    for (const scheme of op.security) {
      const known = schemes.get(scheme.name) ?? { name: scheme.name, kind: scheme.kind, carried: carriedBy(scheme), operations: [], reason: `any key given with --api-key is accepted in ${carriedBy(scheme)}; a request without one is refused with 401`, decision: 'D37' };
      if (!known.operations.includes(op.operationId)) known.operations.push(op.operationId);
      schemes.set(scheme.name, known);
    }
  }
  const open = api.operations.filter((op) => op.security.length === 0).map((op) => op.operationId);
  return {
    schemes: [...schemes.values()],
    open,
    // The model reads no operation as one that issues credentials: keys are given to the mock, never made by it.
    flows: { issuers: [], reason: 'no operation is read as issuing credentials: the mock accepts the keys given with --api-key (or any key with --isolate-by-key) in each scheme', decision: 'D37' },
  };
}

function carriedBy(scheme: AuthScheme): string {
  if (scheme.kind === 'bearer') return 'the Authorization header (Bearer)';
  if (scheme.kind === 'basic') return 'the Authorization header (HTTP basic, the key as password)';
  return `the ${scheme.in} parameter ${scheme.parameter}`;
}

/** The checks grouped by the operation their id names (`auth.getPet`, `getPet.found` → getPet), then those of no one operation. */
function checksByOperation(api: ApiModel, checks: readonly CheckSummary[]): ExplainedChecks[] {
  const ids = new Set(api.operations.map((op) => op.operationId));
  const groups = new Map<string | undefined, { id: string; rule: string }[]>(api.operations.map((op) => [op.operationId, []]));
  for (const check of checks) {
    const named = check.id.startsWith('auth.') ? check.id.slice('auth.'.length) : check.id.slice(0, check.id.lastIndexOf('.'));
    const operationId = ids.has(named) ? named : undefined;
    if (!groups.has(operationId)) groups.set(operationId, []);
    groups.get(operationId)!.push({ id: check.id, rule: check.rule });
  }
  return [...groups].filter(([, list]) => list.length > 0).map(([operationId, list]) => ({ operationId, checks: list }));
}
