import { canonicalJson, sameJson } from '../model/json.js';
import type { ApiModel, ResourceModel } from '../model/model.js';
import { idText, judgeExchange } from './exchange.js';
import type { ExchangeVerdict, ExchangeViolation, ObservedExchange } from './verdict.js';
import { isReturned, listedRecords } from './record-rules.js';

/**
 * The suite on traffic it did not send (`openapi-harness test --from-har`): every exchange judged alone
 * (conformance/exchange.ts), then the rules only a sequence shows, in the order the exchanges were made:
 * - read-after-create: a record a create (or a replace/update) answered reads back with the same fields,
 *   whether read alone or listed, until it is deleted; a read of it is never a 404 meanwhile;
 * - delete then 404: once deleted, a record reads as 404 and is never listed again;
 * - pages of one list do not overlap: two pages of the same query that differ only by their page-navigation
 *   parameters (query parameters that are neither a filter, the page size nor a credential) share no record,
 *   unless a write to the resource came between them.
 * The traffic is taken as one client's (DECISIONS D65): records written by others in between are not seen.
 */

/** One exchange of the traffic, with where it came from (`#3` in the file) for the report. */
export interface TrafficExchange {
  index: number;
  exchange: ObservedExchange;
  /** The full URL as recorded. */
  url: string;
  /**
   * When the request was sent and its answer received (ms, any common clock). A read is held to a write only when
   * it was sent after the write was answered: exchanges in flight together may see either state.
   */
  sentAt: number;
  answeredAt: number;
}

/** An exchange's judgement: the single-exchange verdict plus the sequence rules it broke. */
export interface JudgedExchange extends TrafficExchange {
  verdict: ExchangeVerdict;
  sequence: ExchangeViolation[];
}

/** Options of {@link judgeTraffic}: `strict` also fails on request-side violations and credentials. */
export interface TrafficOptions {
  strict?: boolean;
}

/**
 * The path below the spec's base path of a recorded URL (a gateway prefix before it is fine): the first place
 * where the base path starts and the rest is an operation's path; `undefined` when the URL is not below it.
 */
export function pathBelowBase(model: ApiModel, url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const pathname = parsed.pathname;
  const base = model.basePath;
  const candidates: string[] = [];
  if (base === '') {
    const segments = pathname.split('/');
    for (let i = 1; i < segments.length; i++) candidates.push(`/${segments.slice(i).join('/')}`);
  } else {
    for (let at = pathname.indexOf(base); at !== -1; at = pathname.indexOf(base, at + 1)) {
      const rest = pathname.slice(at + base.length);
      if (rest === '' || rest.startsWith('/')) candidates.push(rest === '' ? '/' : rest);
    }
  }
  const routed = candidates.find((candidate) => model.operations.some((op) => op.pattern.test(candidate.length > 1 ? candidate.replace(/\/+$/, '') : candidate)));
  const chosen = routed ?? candidates[0];
  return chosen === undefined ? undefined : `${chosen}${parsed.search}`;
}

/** What a sequence remembers per resource. */
interface ResourceTrail {
  /** The last acknowledged state of each record this traffic wrote, by id, and when it was acknowledged. */
  written: Map<string, { record: Record<string, unknown>; at: number }>;
  /** Ids deleted, and when the delete was answered. */
  deleted: Map<string, number>;
  /** Writes seen so far (a page list compares pages made between the same two writes only). */
  writes: number;
  /** Records of each list query (without its page parameters) per page key, at a write count. */
  pages: Map<string, { writes: number; pages: Map<string, { ids: Set<string>; index: number }> }>;
  /** The list's page-navigation parameters: neither a filter, the page size nor an API key. */
  paging: string[];
  /** The list's API-key query parameters (never part of a list's identity). */
  secrets: Set<string>;
}

/** Most ids a sequence remembers per resource (written and deleted each): beyond, the oldest are forgotten. */
const TRAIL_CAP = 100_000;

/**
 * The sequence rules, exchange after exchange (the proxy feeds it live, {@link judgeTraffic} a recording): call
 * {@link SequenceJudge.judge} with each exchange's verdict in the order the answers came.
 */
export class SequenceJudge {
  private readonly trails: Map<string, ResourceTrail>;

  constructor(model: ApiModel) {
    this.trails = new Map(
      model.resources.map((resource) => {
        const op = resource.operations.list;
        const fixed = new Set([...resource.filters.map((filter) => filter.parameter.name), ...(resource.limit === undefined ? [] : [resource.limit.parameter])]);
        const secrets = new Set((op?.security ?? []).flatMap((scheme) => (scheme.kind === 'apiKey' && scheme.in === 'query' ? [scheme.parameter] : [])));
        const paging = (op?.queryParams ?? []).map((param) => param.name).filter((name) => !fixed.has(name) && !secrets.has(name));
        return [resource.name, { written: new Map(), deleted: new Map(), writes: 0, pages: new Map(), paging, secrets }];
      }),
    );
  }

  /** The sequence rules this exchange breaks, given what came before; remembers what it shows. Never throws. */
  judge(verdict: ExchangeVerdict, traffic: TrafficExchange): ExchangeViolation[] {
    const trail = verdict.op?.resource === undefined ? undefined : this.trails.get(verdict.op.resource.name);
    if (trail === undefined) return [];
    const violations = sequenceRules(verdict, traffic, trail);
    for (const held of [trail.written, trail.deleted] as Map<string, unknown>[]) {
      while (held.size > TRAIL_CAP) held.delete(held.keys().next().value!);
    }
    return violations;
  }
}

/** Judges every exchange alone, then the sequence rules across them, in order. Never throws. */
export function judgeTraffic(model: ApiModel, exchanges: readonly TrafficExchange[], options: TrafficOptions = {}): JudgedExchange[] {
  const sequences = new SequenceJudge(model);
  return [...exchanges]
    .sort((a, b) => a.answeredAt - b.answeredAt || a.index - b.index)
    .map((traffic) => {
      const verdict = judgeExchange(model, traffic.exchange, { strict: options.strict === true, credentials: options.strict === true });
      return { ...traffic, verdict, sequence: sequences.judge(verdict, traffic) };
    })
    .sort((a, b) => a.index - b.index);
}

function sequenceRules(verdict: ExchangeVerdict, traffic: TrafficExchange, trail: ResourceTrail): ExchangeViolation[] {
  const op = verdict.op!;
  const resource = op.resource!;
  const status = traffic.exchange.response.status;
  const violations: ExchangeViolation[] = [];
  const add = (rule: ExchangeViolation['rule'], pointer: string, expected: string, got: string, message: string): void => {
    violations.push({ operationId: op.operationId, rule, side: 'response', pointer, expected, got, message });
  };
  // A key counted per parent (spec/DECISIONS.md › D240) names a record only together with its parent's path
  // values: number 1 under one repository and number 1 under another are two records.
  const scope = resource.numbering === undefined ? '' : `${op.pathParams.filter((param) => param.name !== resource.idParameter).map((param) => (verdict.pathValues[param.name] ?? '').toLowerCase()).join('/')}#`;
  const key = (value: unknown): string => `${scope}${idText(value)}`;
  const pathId = resource.idParameter === undefined ? undefined : verdict.pathValues[resource.idParameter];
  const id = pathId === undefined ? undefined : `${scope}${pathId}`;
  const success = status >= 200 && status < 300;
  const record = verdict.body !== null && typeof verdict.body === 'object' && !Array.isArray(verdict.body) ? (verdict.body as Record<string, unknown>) : undefined;
  const bodyClean = !verdict.violations.some((v) => v.side === 'response' && (v.rule === 'body.schema' || v.rule === 'body.json'));
  switch (op.role) {
    case 'create':
    case 'replace':
    case 'update': {
      if (!success) break;
      trail.writes += 1;
      const written = record?.[resource.idProperty];
      if (record !== undefined && written !== undefined && bodyClean) {
        trail.written.delete(key(written));
        trail.written.set(key(written), { record, at: traffic.answeredAt });
        trail.deleted.delete(key(written));
      }
      break;
    }
    case 'delete':
      if (success && id !== undefined) {
        trail.writes += 1;
        trail.deleted.set(id, traffic.answeredAt);
        trail.written.delete(id);
      }
      break;
    case 'read':
      if (id === undefined) break;
      if (after(trail.deleted.get(id), traffic) && success) add('sequence.delete-gone', '/status', '404', String(status), `${resource.name} ${pathId} was deleted earlier in the traffic, yet it reads back (${status})`);
      else if (after(trail.written.get(id)?.at, traffic) && status === 404) add('sequence.read-after-create', '/status', '2xx', '404', `${resource.name} ${pathId} was written earlier in the traffic and not deleted, yet it reads as 404`);
      else if (success && record !== undefined) violations.push(...sameAsWritten(resource, trail, traffic, [record], op.operationId, '', scope));
      break;
    case 'list': {
      // Nothing written or deleted yet and no page parameter: the list has nothing to be held to (the hot path).
      if (!success || verdict.body === undefined || (trail.written.size === 0 && trail.deleted.size === 0 && trail.paging.length === 0)) break;
      const records = listedRecords(resource, verdict.body);
      const at = resource.listShape?.kind === 'object' ? `/${resource.listShape.itemsProperty}` : '';
      records.forEach((listed, index) => {
        const listedId = listed[resource.idProperty];
        if (listedId !== undefined && after(trail.deleted.get(key(listedId)), traffic)) add('sequence.delete-gone', `${at}/${index}`, 'never listed again', `listed`, `${resource.name} ${idText(listedId)} was deleted earlier in the traffic, yet the list holds it (item ${index})`);
      });
      violations.push(...sameAsWritten(resource, trail, traffic, records, op.operationId, at, scope));
      violations.push(...overlappingPages(resource, trail, traffic, records, op.operationId));
      break;
    }
    default:
      break;
  }
  return violations;
}

/**
 * Whether `traffic` was sent once the write answered at `at` was answered (so it must see that write). HAR start
 * times are whole milliseconds and durations are rounded: a request sent within 2 ms of its write's answer counts
 * as after it.
 */
function after(at: number | undefined, traffic: TrafficExchange): boolean {
  return at !== undefined && traffic.sentAt >= at - 2;
}

/** Records read back that differ from what the traffic last wrote for their id (a field written, then read otherwise). */
function sameAsWritten(resource: ResourceModel, trail: ResourceTrail, traffic: TrafficExchange, records: readonly Record<string, unknown>[], operationId: string, at: string, scope: string): ExchangeViolation[] {
  const violations: ExchangeViolation[] = [];
  records.forEach((got, index) => {
    const id = got[resource.idProperty];
    const written = id === undefined ? undefined : trail.written.get(`${scope}${idText(id)}`);
    if (written === undefined || !after(written.at, traffic)) return;
    const expected = written.record;
    for (const [name, value] of Object.entries(expected)) {
      if (!isReturned(resource, name) || (Object.hasOwn(got, name) && sameJson(got[name], value))) continue;
      const pointer = at === '' && records.length === 1 && !Array.isArray(got) ? `/body/${name}` : `${at}/${index}/${name}`;
      violations.push({ operationId, rule: 'sequence.read-after-create', side: 'response', pointer, expected: canonicalJson(value), got: Object.hasOwn(got, name) ? canonicalJson(got[name]) : '(absent)', message: `${resource.name} ${idText(id)} was written with ${name} ${canonicalJson(value)} but reads back as ${Object.hasOwn(got, name) ? canonicalJson(got[name]) : 'without it'}` });
      return;
    }
  });
  return violations;
}

/** Pages of the same list query (page parameters aside), between the same two writes, must not share a record. */
function overlappingPages(resource: ResourceModel, trail: ResourceTrail, traffic: TrafficExchange, records: readonly Record<string, unknown>[], operationId: string): ExchangeViolation[] {
  const { paging, secrets } = trail;
  if (paging.length === 0) return [];
  const query = new URLSearchParams(traffic.exchange.request.path.split('?')[1] ?? '');
  const listKey = [...query].filter(([name]) => !paging.includes(name) && !secrets.has(name)).sort().map(([name, value]) => `${name}=${value}`).join('&');
  const pageKey = paging.map((name) => `${name}=${query.getAll(name).join(',')}`).join('&');
  let list = trail.pages.get(listKey);
  if (list === undefined || list.writes !== trail.writes) trail.pages.set(listKey, (list = { writes: trail.writes, pages: new Map() }));
  const ids = new Set(records.flatMap((record) => (record[resource.idProperty] === undefined ? [] : [idText(record[resource.idProperty])])));
  const violations: ExchangeViolation[] = [];
  for (const [otherKey, other] of list.pages) {
    if (otherKey === pageKey) continue;
    const shared = [...ids].find((id) => other.ids.has(id));
    if (shared !== undefined) {
      violations.push({ operationId, rule: 'sequence.pages-overlap', side: 'response', pointer: '', expected: `no record of page ${otherKey || '(first)'} (exchange #${other.index})`, got: `${resource.idProperty} ${shared}`, message: `pages ${otherKey || '(first)'} and ${pageKey || '(first)'} of the same list both hold ${resource.name} ${shared}` });
      break;
    }
  }
  list.pages.set(pageKey, { ids, index: traffic.index });
  return violations;
}

