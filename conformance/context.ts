import { resolve } from 'node:path';
import fc from 'fast-check';
import { SPEC_PATH } from '../model/loader.js';
import type { ApiModel, OperationModel, ParameterModel, ResourceModel } from '../model/model.js';
import { validCredentials } from './arbitraries/credentials.js';
import { curl, send } from './client.js';
import type { CheckContext, RequestSpec } from './check-context.js';
import { expectResponse, Violation } from './contract.js';
import { encodeBody } from './body-encoding.js';
import { checkProperty } from './property.js';
import type { RunState } from './run-state.js';
import type { ResolvedTarget } from './target.js';
import { parseExact } from '../model/json.js';
import { recordIn } from '../model/resources.js';
import { validSample } from '../model/samples.js';
import { idKey, memory } from './checks/check.js';
import { windowQuery } from './window-query.js';
import { NotRun } from './arbitraries/bounded.js';
import { describedValue } from './described-values.js';
import { requiredBodyOf } from './required-body.js';
import { KEY_PLACEHOLDER } from '../cli/product.js';
import { documentedRefusal, DocumentedUnavailable, excuseRefusal, refusalIn } from './refusals.js';

/**
 * The path of `op` with its path parameters filled (each value encoded as one path segment). Errors: a
 * {@link NotRun} when a parameter has no value or an empty one: an empty segment names no record, so a request
 * holding one is never sent (D161), and the check that would send it is not run.
 */
export function pathOf(op: OperationModel, values: Record<string, string>): string {
  return op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const value = values[name];
    if (value === undefined || value === '') throw new NotRun(`{${name}}`, `the suite has no value for {${name}} of ${op.method} ${op.path}: no record it names could be made or found on the target`);
    return encodeURIComponent(value);
  });
}

/** Points the requests of a sub-resource at the parent record `id` for the context's run (see `prepareParents`, D53). */
export function setParent(context: Pick<CheckContext, 'run'>, resource: ResourceModel, id: string): void {
  context.run.parents.ids.set(resource, id);
}

/** Points the requests of a sub-resource whose parent no resource holds at the path values `values` (D72: `{owner: 'ada', repo: 'compiler'}`). */
export function setExampleParent(context: Pick<CheckContext, 'run'>, resource: ResourceModel, values: Record<string, string>): void {
  context.run.parents.examples.set(resource, values);
}

/**
 * The path values naming the parent records of `op`'s resource in the context's run, when it lives under one
 * (`{ownerId: '7'}`), and of their parents in turn. A check names the parent explicitly where it wants another one
 * (an absent parent).
 */
export function parentPath(context: Pick<CheckContext, 'run'>, op: OperationModel): Record<string, string> {
  const { ids, examples, unprepared } = context.run.parents;
  const values = chainValues(context, op.resource);
  // An operation no resource holds under a parent the spec exemplifies (`GET /repos/{owner}/{repo}/issues/comments`
  // beside the labels of `/repos/{owner}/{repo}`) is reached under that same parent (D266).
  for (const [holder, known] of examples) {
    const parameter = holder.parent?.byExample === undefined ? undefined : holder.parent.parameter;
    const end = parameter === undefined ? -1 : holder.collectionPath.indexOf(`{${parameter}}`);
    if (end < 0 || unprepared.has(holder) || !op.path.startsWith(`${holder.collectionPath.slice(0, end + parameter!.length + 2)}/`)) continue;
    for (const [key, value] of Object.entries(known)) if (values[key] === undefined) values[key] = value;
  }
  // Path values still missing (an operation no resource holds, `GET /repos/{owner}/{repo}/actions/artifacts`, or a
  // top-level one under such a path) are those of the deepest parent the suite made or found whose path it extends:
  // the same segments name the same records (D302).
  if (op.pathParams.every((parameter) => values[parameter.name] !== undefined)) return values;
  const holders = [...ids.keys()]
    .filter((holder) => !unprepared.has(holder))
    .map((holder) => ({ holder, prefix: parentPrefix(holder) }))
    .filter((one): one is { holder: ResourceModel; prefix: string } => one.prefix !== undefined && op.path.startsWith(one.prefix))
    .sort((a, b) => b.prefix.length - a.prefix.length);
  for (const { holder } of holders) {
    let known: Record<string, string>;
    try {
      known = chainValues(context, holder);
    } catch {
      // A parent further up could not be made: a shallower holder may still name the values.
      continue;
    }
    for (const [key, value] of Object.entries(known)) if (values[key] === undefined) values[key] = value;
  }
  return values;
}

/** The collection path of `resource` up to its parent's segment, with the slash after it; `undefined` without a parent. */
function parentPrefix(resource: ResourceModel): string | undefined {
  const parameter = resource.parent?.parameter;
  const end = parameter === undefined ? -1 : resource.collectionPath.indexOf(`{${parameter}}`);
  return end < 0 ? undefined : `${resource.collectionPath.slice(0, end + parameter!.length + 2)}/`;
}

/**
 * Why the records of `resource` cannot be reached in the context's run: the {@link NotRun} of a parent on its chain
 * that no set-up could make or find (D160), or `undefined` when each was made or found. A set-up the target failed
 * with a 5xx is not a reason here: the checks that reach the resource report it (D162). The API-wide checks leave
 * such a resource out rather than give up whole (D915).
 */
export function unreachableReason(context: Pick<CheckContext, 'run'>, resource: ResourceModel): NotRun | undefined {
  try {
    chainValues(context, resource);
    return undefined;
  } catch (error) {
    if (error instanceof NotRun) return error;
    return undefined;
  }
}

/** The path values naming the parents of `resource` and theirs in turn (see {@link parentPath}); throws the set-up's failure of one that could not be made. */
function chainValues(context: Pick<CheckContext, 'run'>, start: ResourceModel | undefined): Record<string, string> {
  const { ids, examples, unprepared, resources } = context.run.parents;
  const values: Record<string, string> = {};
  for (let resource = start; resource?.parent !== undefined; ) {
    // No parent could be made for it: a check that reaches it gives up (no verdict), never sends an empty segment.
    const failed = unprepared.get(resource);
    if (failed !== undefined) throw failed;
    Object.assign(values, examples.get(resource));
    const id = ids.get(resource);
    if (id !== undefined) values[resource.parent.parameter] = id;
    const name = resource.parent.resource;
    resource = resources.get(resource)?.find((candidate) => candidate.name === name);
  }
  return values;
}

/**
 * Marks `resource` as having no parent record in the context's run: `why` (a `GenerationGaveUp`) is thrown by
 * {@link parentPath}, so only the checks that reach this sub-resource give up, and the rest of the suite still runs;
 * `undefined` lifts the mark.
 */
export function setUnprepared(context: Pick<CheckContext, 'run'>, resource: ResourceModel, why: Error | undefined): void {
  if (why === undefined) context.run.parents.unprepared.delete(resource);
  else context.run.parents.unprepared.set(resource, why);
}

/** Records the model's resources for `resource`, so that {@link parentPath} can walk up to its parent's parent. */
export function setResources(context: Pick<CheckContext, 'run'>, resource: ResourceModel, resources: ResourceModel[]): void {
  context.run.parents.resources.set(resource, resources);
}

/**
 * A request of `op`: path parameters, a query string (without `?`), and a body: `value`, written as the
 * operation takes it (JSON or a form, see {@link encodeBody}), or `body`, a raw text sent as `contentType`
 * (default: the operation's media type, for invalid bodies written by hand). A list's window parameters the
 * query does not name are added at their widest (D90, conformance/window-query.ts), and every required query
 * parameter it does not name is added with the spec's value for it ({@link requiredQuery}, D220); a required body of
 * a `GET`, `HEAD` or `DELETE` that neither part gives is sent as the spec's value for it ({@link requiredBodyOf},
 * D933). Sub-resources are reached under the parents of the context's run.
 */
export function requestOf(context: Pick<CheckContext, 'run'>, op: OperationModel, parts: { path?: Record<string, string>; query?: string; body?: string; contentType?: string; value?: unknown } = {}): RequestSpec {
  // A request naming every path value itself needs no parent the suite prepared (an authentication probe).
  const named = op.pathParams.every((parameter) => parts.path?.[parameter.name] !== undefined);
  const path = pathOf(op, named ? (parts.path ?? {}) : { ...parentPath(context, op), ...parts.path });
  // A required body of a GET, HEAD or DELETE the check names nothing for is sent, as the description asks (D933).
  const value = parts.value ?? (parts.body === undefined ? requiredBodyOf(op) : undefined);
  const encoded = value !== undefined ? encodeBody(op, value) : parts.body === undefined ? undefined : { text: parts.body, contentType: parts.contentType ?? encodeBody(op, {}).contentType };
  // A list's window is always named (D90): a server may apply a default the spec states only in prose.
  const asked = [parts.query ?? '', windowQuery(op, parts.query ?? '')].filter((part) => part !== '').join('&');
  const query = [asked, requiredQuery(op, asked)].filter((part) => part !== '').join('&');
  return {
    method: op.method,
    // A path key may carry a fixed query of its own (`/services?funcs=news`, D250): the drawn one joins it.
    path: query === '' ? path : `${path}${path.includes('?') ? '&' : '?'}${query}`,
    ...(encoded === undefined ? {} : { body: encoded.text, headers: { 'content-type': encoded.contentType } }),
    ...(parts.value === undefined ? {} : { value: parts.value }),
  };
}

/**
 * The query text (without `?`, `''` when nothing is missing) naming each required query parameter of `op` that
 * `query` does not name (D220): a request without one is invalid, so a server written from the same text may
 * rightly refuse it, and judging that refusal would be a false alarm. The value is the parameter's example, else
 * its schema's first example, example, first enum member or default, else a sample valid for its schema; an
 * array is sent as its style says (each item its own pair when exploded, else joined by its delimiter), an object
 * of `style: deepObject` or an exploded form as pairs of its scalar members (D326, D557), and any other parameter
 * whose value can only be an object (or an empty array) is left out.
 */
export function requiredQuery(op: OperationModel, query: string): string {
  // A pair names its parameter by its bracket's stem (`filter[status]` of the deepObject `filter`), or whole, where the
  // parameter's own name holds brackets (`page[size]`, D908).
  const named = new Set(query.split('&').filter((part) => part !== '').flatMap((part) => [nameOf(part.split('=')[0]!), nameOf(part.split('=')[0]!, true)]));
  const parts: string[] = [];
  for (const parameter of op.queryParams) {
    if (!parameter.required || named.has(parameter.name)) continue;
    const value = requiredValue(parameter);
    const name = encodeURIComponent(parameter.name);
    // A deepObject is one pair per scalar member, `name[member]=value` (OpenAPI 3 § Style Values; D326).
    if (parameter.deepObject === true && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const members = Object.entries(value as Record<string, unknown>).filter(([, member]) => member !== null && typeof member !== 'object');
      parts.push(...members.map(([member, text]) => `${name}%5B${encodeURIComponent(member)}%5D=${encodeURIComponent(String(text))}`));
      continue;
    }
    // An exploded form object is one pair per scalar member, under no name of its own (D557): `R=100&G=200`.
    if (parameter.explodedObject === true && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const members = Object.entries(value as Record<string, unknown>).filter(([member, text]) => text !== null && typeof text !== 'object' && !named.has(member));
      parts.push(...members.map(([member, text]) => `${encodeURIComponent(member)}=${encodeURIComponent(String(text))}`));
      continue;
    }
    const items = Array.isArray(value) ? value : [value];
    if (items.length === 0 || items.some((item) => item === undefined || (typeof item === 'object' && item !== null))) continue;
    // An exploded array (OpenAPI's default for `form`) repeats the name; otherwise its items are one delimited value.
    if (Array.isArray(value) && parameter.delimiter === undefined) parts.push(...items.map((item) => `${name}=${encodeURIComponent(String(item))}`));
    else parts.push(`${name}=${encodeURIComponent(items.map(String).join(parameter.delimiter ?? ','))}`);
  }
  return parts.join('&');
}

/**
 * The value a request names a required parameter with when the check leaves it out (D220): the parameter's example,
 * else its schema's first example, example, first enum member or default, else a sample valid for its schema; of
 * those the description gives, the first its own schema takes (D906, {@link describedValue}).
 */
export function requiredValue(parameter: ParameterModel): unknown {
  return describedValue(parameter);
}

/**
 * `path` without the query pairs that the operation's main security scheme carries its key in (D590): many
 * descriptions declare an API key in the query (`key`, `api_key`) both as a scheme and as a required parameter, and
 * a drawn value of that parameter sent before the credentials would be the key a server reads first. The
 * credentials the check chose (the valid key, a bad one, or none) are that pair alone.
 */
function ownedByCredentials(op: OperationModel, path: string): string {
  const scheme = op.security[0];
  const at = path.indexOf('?');
  if (scheme?.kind !== 'apiKey' || scheme.in !== 'query' || at === -1) return path;
  const pairs = path.slice(at + 1).split('&');
  const kept = pairs.filter((pair) => pair === '' || nameOf(pair.split('=')[0]!) !== scheme.parameter);
  if (kept.length === pairs.length) return path;
  return kept.length === 0 ? path.slice(0, at) : `${path.slice(0, at)}?${kept.join('&')}`;
}

/** A query part's parameter name, decoded, without a bracketed member (`f%5Bgte%5D` and `f[gte]` name `f`), or with it (`whole`). */
function nameOf(raw: string, whole = false): string {
  let name = raw;
  try {
    name = decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    // A malformed escape (an invalid query written on purpose) names what it spells.
  }
  const bracket = name.indexOf('[');
  return bracket > 0 && !whole ? name.slice(0, bracket) : name;
}

/**
 * A property that does not hold: fast-check's seed, path and shrunk counterexample, and the violation with
 * the exchange that shows it. `report()` formats all of it for a person: every failure reproducible from its seed and its curl line.
 */
export class PropertyFailure extends Error {
  constructor(
    readonly details: fc.RunDetails<unknown>,
    readonly violation: Violation | undefined,
    override readonly cause: unknown,
  ) {
    super(violation?.problem ?? String((cause as Error | undefined)?.message ?? cause));
    this.name = 'PropertyFailure';
  }
}

/** An HTTP field name (RFC 9110 § 5.1: a token). */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Builds the context of one check of `run` against `target` for `model`. `notes` collects the advice. */
export function createContext(target: ResolvedTarget, model: ApiModel, notes: string[], run: RunState): CheckContext {
  const kinds = new Set<string>();
  const context: CheckContext = {
    target,
    model,
    run,
    advise(note, kind) {
      if (notes.includes(note) || (kind !== undefined && kinds.has(kind))) return;
      if (kind !== undefined) kinds.add(kind);
      notes.push(note);
    },
    async call(op, request, expected) {
      if (context.stopped === true) throw new Error('the check was stopped: it ran past its budget');
      const credentials = request.credentials ?? validCredentials(op.security[0], target.apiKey);
      const headers: Record<string, string> = { accept: acceptOf(op), ...requiredHeaders(op) };
      for (const [name, value] of Object.entries({ ...credentials.headers, ...request.headers })) if (value !== null) headers[name] = value;
      // A header the description names with a space or another character no field name takes (an API key scheme
      // named `ADVICEment API Key`) cannot be sent by any client: the request is not made, and the check not run (D905).
      const unsendable = Object.keys(headers).find((name) => !HEADER_NAME.test(name));
      if (unsendable !== undefined) throw new NotRun(unsendable, `${op.method} ${op.path} needs a header named ${JSON.stringify(unsendable)}, which is no HTTP field name (RFC 9110 § 5.1: a token, no spaces): no client can send it`);
      const query = credentials.query;
      const own = ownedByCredentials(op, request.path);
      const path = query === undefined ? own : `${own}${own.includes('?') ? '&' : '?'}${query}`;
      const exchange = await send(run.client, target, { method: request.method, path, headers, ...(request.body === undefined ? {} : { body: request.body }) });
      noteDeleted(context, op, request, exchange.response.status);
      let body: unknown;
      try {
        body = expectResponse(op, exchange, expected);
      } catch (error) {
        // A documented refusal of a value the suite drew is the server's rule, judged apart (D490).
        throw (error instanceof Violation && !(error instanceof DocumentedUnavailable) ? documentedRefusal(op, request, expected, exchange, error) : undefined) ?? error;
      }
      // A single-record answer wrapped in an envelope (D73) is judged whole, and read by the checks as its record.
      const status = exchange.response.status;
      const record = status >= 200 && status < 300 ? recordIn(body, op.answerEnvelope) : body;
      // An answer that should wrap its record but carries none is the target's fault, not the suite's (D73).
      if (op.answerEnvelope !== undefined && status >= 200 && status < 300 && body !== undefined && body !== '' && record === undefined) throw new Violation(`${op.operationId} answered ${status} without its record in the envelope member "${op.answerEnvelope}" (D73)`, exchange);
      return { exchange, body: record };
    },
    async forAll(arbitrary, predicate, options = {}) {
      // A value the target refuses with a refusal it documents is excused once its example is taken (D490): the
      // property goes on with the next value, drawn narrower where the refusal named a member (D491).
      const guarded = async (value: Parameters<typeof predicate>[0]): Promise<void> => {
        try {
          await predicate(value);
        } catch (error) {
          const refusal = refusalIn(error);
          if (refusal === undefined) throw error;
          await excuseRefusal(context, refusal);
        }
      };
      const details = await checkProperty(target, arbitrary, guarded, options.runs ?? target.runs);
      if (!details.failed) return;
      const cause = details.errorInstance;
      const violation = cause instanceof Violation ? cause : cause instanceof PropertyFailure ? cause.violation : undefined;
      throw new PropertyFailure(details as fc.RunDetails<unknown>, violation, cause);
    },
  };
  return context;
}

/**
 * The `Accept` a request of `op` carries: `application/json` where the operation's success documents `application/json` or
 * nothing, else the media types its successes document (`image/png`, `application/vnd.api+json`), JSON after them (for the errors); for an
 * operation that lists no 2xx, the media types of every answer it lists (D558): an `Accept` the documented answer fits,
 * so that a server answering 406 to an unfit one (D57, RFC 9110 §12.5.1) is not held to a request no client of
 * the spec would send.
 */
function acceptOf(op: OperationModel): string {
  // An operation that lists no 2xx succeeds with what it lists (a redirect, D554; its errors, D397): a client asks for those (D558).
  const successes = op.responses.some((response) => response.status.startsWith('2')) ? op.responses.filter((response) => response.status.startsWith('2')) : op.responses;
  const types = [...new Set(successes.flatMap((response) => response.contents.map((content) => content.mediaType.toLowerCase())))];
  if (types.length === 0 || types.includes('application/json')) return 'application/json';
  return [...types, 'application/json'].join(', ');
}

/**
 * A valid value of each required header parameter of `op` (`x-tenant-id: …`), as text: the spec's example, default
 * or a schema-valid sample; an array's items joined by commas (`style: simple`). Made once per operation. A
 * request that names the header itself (a check sending it wrong or empty) overrides it.
 */
function requiredHeaders(op: OperationModel): Record<string, string> {
  let found = headerValues.get(op);
  if (found === undefined) {
    found = {};
    for (const parameter of op.headerParams) {
      if (!parameter.required) continue;
      const value = validSample(parameter.schema);
      found[parameter.name] = Array.isArray(value) ? value.map(String).join(',') : typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value ?? '');
    }
    headerValues.set(op, found);
  }
  return found;
}
/** A cache of what each operation's schemas alone determine (no run learns anything here): shared by every run. */
const headerValues = new WeakMap<OperationModel, Record<string, string>>();

/**
 * Remembers the record a delete answered 2xx removed, whichever check sent it: the pages and population checks
 * must not expect it listed (D34). The id is read from the path (`/pets/{petId}`), or from the body where the
 * operation takes it there (D50); a singleton's delete (its id is the parent's) names none.
 */
function noteDeleted(context: CheckContext, op: OperationModel, request: RequestSpec, status: number): void {
  const resource = op.resource;
  if (op.role !== 'delete' || resource === undefined || status < 200 || status > 299 || request.method !== op.method) return;
  const id = op.idIn === 'body' ? bodyId(request.body, resource.idProperty) : pathValue(op.path, request.path, (op.idIn === 'path' ? op.pathParams.at(-1)?.name : undefined) ?? resource.idParameter);
  if (id !== undefined) memory(context, resource).deletedIds.add(id);
}

/** The value of the path parameter `name` in `path` (query left out), where the template `template` holds it as a whole segment. */
function pathValue(template: string, path: string, name: string | undefined): string | undefined {
  const wanted = template.split('/');
  const sent = (path.split('?')[0] ?? '').split('/');
  const index = wanted.indexOf(`{${name ?? ''}}`);
  if (name === undefined || index < 0 || wanted.length !== sent.length) return undefined;
  try {
    return decodeURIComponent(sent[index]!);
  } catch {
    return undefined;
  }
}

/** The id a JSON request body names (its `idProperty`), as {@link idKey} writes it. */
function bodyId(body: string | undefined, idProperty: string): string | undefined {
  const parsed = body === undefined ? undefined : parseExact(body);
  if (parsed?.ok !== true) return undefined;
  const value: unknown = parsed.document.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const id: unknown = (value as Record<string, unknown>)[idProperty];
  return id === undefined || id === null ? undefined : idKey(id);
}

/** Shortens a response body for a report: at most `max` characters. */
function excerpt(text: string, max = 600): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

/**
 * The report of a failed check: the rule (and its seed section on the seed's spec), the problem, the failing request as `curl`,
 * the response, the shrunk counterexample and the command that replays it.
 */
export function formatFailure(id: string, rule: string, failure: unknown, target: ResolvedTarget): string {
  const lines = [`✗ ${id}`, `  rule:      ${rule}`];
  const violation = failure instanceof PropertyFailure ? failure.violation : failure instanceof Violation ? failure : undefined;
  lines.push(`  problem:   ${violation?.problem ?? (failure as Error).message}`);
  const spec = target.spec === undefined || resolve(target.spec) === SPEC_PATH ? '' : ` --spec ${target.spec}`;
  const exchange = violation?.exchange;
  if (exchange !== undefined) {
    const { status, headers, text } = exchange.response;
    lines.push(`  request:   ${curl(exchange.request, target.apiKey)}`);
    lines.push(`  response:  ${status} content-type: ${headers['content-type'] ?? '(none)'}`);
    lines.push(`             ${excerpt(text)}`);
  }
  if (failure instanceof PropertyFailure) {
    const { seed, counterexamplePath, counterexample, numShrinks } = failure.details;
    lines.push(`  counterexample: ${excerpt(fc.stringify(counterexample), 800)} (shrunk ${numShrinks} times)`);
    lines.push(
      `  replay:    npm run conformance --${spec} --base-url ${target.baseUrl} --api-key "${KEY_PLACEHOLDER}" --check ${id} --seed ${seed} --path "${counterexamplePath ?? ''}"`,
    );
  } else {
    // A fixed case (a catalogue run before the random ones): the same request is sent again with the same seed,
    // which the values a check chose before its properties come from (D275).
    lines.push(`  replay:    npm run conformance --${spec} --base-url ${target.baseUrl} --api-key "${KEY_PLACEHOLDER}" --check ${id}${target.seed === undefined ? '' : ` --seed ${target.seed}`}`);
    if (!(failure instanceof Violation) && failure instanceof Error && failure.stack !== undefined) {
      lines.push(`  at:        ${failure.stack.split('\n').slice(1, 3).join(' ').trim()}`);
    }
  }
  return lines.join('\n');
}
