import { isLosslessNumber } from 'lossless-json';
import { canonicalJson, parseExact, parseQuick, sameJson } from '../model/json.js';
import type { ApiModel, AuthScheme, OperationModel, ParameterModel } from '../model/model.js';
import { recordIn } from '../model/resources.js';
import { parseAccept, rangeFit } from '../model/media.js';
import { isJsonMediaType } from '../model/schema.js';
import { documentedResponse, statusFieldOf } from './documented.js';
import { parameterValue } from './parameter-values.js';
import type { ExchangeRule, ExchangeVerdict, ExchangeViolation, ObservedExchange, Routed } from './verdict.js';
import { echoProblems, listProblems } from './record-rules.js';
import { judgeStream } from './stream-judge.js';
import { isShortList } from './list-records.js';

/**
 * The judge of one exchange: given the model, a request and its response, the list of the spec's rules they
 * break. The proxy and `--from-har` judge traffic with it, and the suite's own response checks
 * (`expectResponse`, the echo of a create, the list filter) stand on the same functions: one judge.
 */

/** The media type without parameters, lower-cased: `application/json; charset=utf-8` → `application/json`. */
export function essence(mediaType: string | undefined): string {
  return (mediaType ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * Whether an answered media type is the documented one: the same essence, or one a documented range names within
 * it (`*\/*`, `image/*`: OpenAPI 3 § Media Types lets a response's content key be a range, and any type inside it
 * is as documented; spec/DECISIONS.md › D340).
 */
function within(documented: string, answered: string): boolean {
  if (documented === answered) return true;
  const range = documented.includes('*') ? parseAccept(documented)?.[0] : undefined;
  return range !== undefined && answered !== '' && rangeFit(range, answered) >= 0;
}

/** Splits `path?query` into the path and its query pairs. */
function splitPath(path: string): { pathname: string; query: URLSearchParams } {
  const at = path.indexOf('?');
  return at === -1 ? { pathname: path, query: new URLSearchParams() } : { pathname: path.slice(0, at), query: new URLSearchParams(path.slice(at + 1)) };
}

/**
 * The operation of `method` at `path` (below the base path, query allowed). `pathKnown`: some operation has this
 * path with another method (a method the spec does not document there).
 */
export function routeOf(model: ApiModel, method: string, path: string): Routed {
  const { pathname } = splitPath(path);
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  let pathKnown = false;
  for (const op of model.operations) {
    const match = op.pattern.exec(trimmed);
    if (match === null) continue;
    if (op.method !== method.toUpperCase()) {
      pathKnown = true;
      continue;
    }
    const pathValues: Record<string, string> = {};
    op.pathParams.forEach((param, i) => {
      const raw = match[i + 1]!;
      try {
        pathValues[param.name] = decodeURIComponent(raw);
      } catch {
        pathValues[param.name] = raw;
      }
    });
    return { op, pathValues };
  }
  return { op: undefined, pathKnown };
}

/** Whether a request carries credentials for one of the operation's schemes (presence only: a key's validity is the server's). */
export function hasCredentials(security: readonly AuthScheme[], headers: Readonly<Record<string, string>>, query: URLSearchParams): boolean {
  if (security.length === 0) return true;
  return security.some((scheme) => {
    const authorization = headers['authorization'] ?? '';
    if (scheme.kind === 'bearer') return /^bearer\s+\S+/i.test(authorization);
    if (scheme.kind === 'basic') return /^basic\s+\S+/i.test(authorization);
    if (scheme.in === 'query') return (query.get(scheme.parameter) ?? '') !== '';
    if (scheme.in === 'cookie') return (headers['cookie'] ?? '').split(';').some((pair) => pair.trim().startsWith(`${scheme.parameter}=`) && pair.trim().length > scheme.parameter.length + 1);
    return (headers[scheme.parameter.toLowerCase()] ?? '') !== '';
  });
}

/** What {@link judgeRequest} found: the operation addressed, the request's violations, its body read exactly. */
export interface RequestVerdict {
  routed: Routed;
  violations: ExchangeViolation[];
  sent: unknown;
}

/**
 * The request's own violations (route, method, parameters, body, credentials), with the operation it
 * addresses and its body read exactly. Never throws.
 */
export function judgeRequest(model: ApiModel, request: ObservedExchange['request']): RequestVerdict {
  const routed = routeOf(model, request.method, request.path);
  const violations: ExchangeViolation[] = [];
  const { pathname, query } = splitPath(request.path);
  if (routed.op === undefined) {
    const operationId = `${request.method.toUpperCase()} ${pathname}`;
    const rule: ExchangeRule = routed.pathKnown ? 'method' : 'route';
    const expected = routed.pathKnown ? 'a method the spec documents on this path' : 'a path the spec documents';
    violations.push({ operationId, rule, side: 'request', pointer: '/path', expected, got: operationId, message: routed.pathKnown ? `${request.method.toUpperCase()} is not documented on ${pathname}` : `no operation of the spec is at ${pathname}` });
    return { routed, violations, sent: undefined };
  }
  const op = routed.op;
  const add = (rule: ExchangeRule, pointer: string, expected: string, got: string, message: string): void => {
    violations.push({ operationId: op.operationId, rule, side: 'request', pointer, expected, got, message });
  };
  for (const param of op.pathParams) {
    const text = routed.pathValues[param.name] ?? '';
    if (!param.validate(parameterValue(param, text).view)) add('request.parameter', `/path/${param.name}`, describeSchema(param), JSON.stringify(text), `path parameter ${param.name} ${param.validate.errors().replace(new RegExp(`^${param.name}\\s*`), '')}`);
  }
  for (const param of op.queryParams) {
    const texts = query.getAll(param.name);
    if (texts.length === 0) {
      if (param.required) add('request.parameter', `/query/${param.name}`, 'present (required)', 'absent', `the required query parameter ${param.name} is missing`);
      continue;
    }
    if (texts.length > 1 && param.type !== 'array') {
      add('request.parameter', `/query/${param.name}`, 'one value', `${texts.length} values`, `query parameter ${param.name} is sent ${texts.length} times`);
      continue;
    }
    if (!param.validate(parameterValue(param, texts[0]!).view)) add('request.parameter', `/query/${param.name}`, describeSchema(param), JSON.stringify(texts[0]), `query parameter ${param.name} ${param.validate.errors().replace(new RegExp(`^${param.name}\\s*`), '')}`);
  }
  if (!hasCredentials(op.security, request.headers, query)) {
    add('request.credentials', '/headers/authorization', op.security.map(describeScheme).join(' or '), 'none', `${op.operationId} needs credentials (${op.security.map(describeScheme).join(' or ')}) and the request carries none`);
  }
  let sent: unknown;
  const body = op.body;
  const text = request.body ?? '';
  if (body !== undefined) {
    if (text === '') {
      if (body.required) add('request.body', '/body', 'a JSON body', 'no body', `${op.operationId} requires a request body`);
    } else {
      const type = essence(request.headers['content-type']);
      if (!body.mediaTypes.some((media) => essence(media) === type) && !(isJsonMediaType(type) && body.mediaTypes.some(isJsonMediaType))) {
        add('request.body', '/headers/content-type', body.mediaTypes.join(' or '), JSON.stringify(request.headers['content-type'] ?? '(none)'), `the request body is sent as ${request.headers['content-type'] ?? 'no Content-Type'}, not ${body.mediaTypes.join(' or ')}`);
      }
      const parsed = parseExact(text);
      if (!parsed.ok) add('request.body', '/body', 'JSON', JSON.stringify(text.slice(0, 60)), `the request body is not JSON: ${parsed.message}`);
      else {
        sent = parsed.document.value;
        if (!body.validate(parsed.document.view)) {
          for (const issue of body.validate.issues().slice(0, 5)) add('request.body', `/body${issue.pointer}`, 'valid against the request schema', describeAt(parsed.document.value, issue.pointer), `the request ${issue.message}`);
        }
      }
    }
  }
  return { routed, violations, sent };
}

/**
 * Whether an `Accept` header admits a media type (RFC 9110 §12.5.1), read as the mock reads it
 * (spec/DECISIONS.md › D140, model/media.ts rangeFit): some range with a non-zero `q` fits it, a structured
 * suffix fitting its base either way (`application/vnd.x+json` ↔ `application/json`), parameters ignored.
 * Lenient on purpose: a range with `q=0` excludes a type only when no other range admits it, since a server
 * may disregard `Accept` (RFC 9110 §12.5.1) and the judge must not fail a server the text allows.
 */
export function accepts(accept: string, mediaType: string): boolean {
  return (parseAccept(accept) ?? []).some((range) => range.q > 0 && rangeFit(range, mediaType) >= 0);
}

/**
 * The response's violations of the contract for `op` that hold whatever status was expected: the media type
 * the spec documents for the status (`application/json` when none, DECISIONS D15), JSON read exactly, the
 * documented schema (int64 digit for digit), and the error shape's status field equal to the HTTP status
 * (seed, Errors). Returns the body read exactly, `undefined` when there is none. Never throws.
 */
export function judgeResponseBody(op: OperationModel, response: ObservedExchange['response'], method: string = op.method, quick = false, accept?: string): { violations: ExchangeViolation[]; body: unknown } {
  const { status, headers, text } = response;
  const violations: ExchangeViolation[] = [];
  const add = (rule: ExchangeRule, pointer: string, expected: string, got: string, message: string): void => {
    violations.push({ operationId: op.operationId, rule, side: 'response', pointer, expected, got, message });
  };
  // A success answer must come in a media type the request's Accept admits (D94), even one the spec also offers
  // (XML answered to a JSON request is wrong though XML is documented).
  const given = essence(headers['content-type']);
  if (accept !== undefined && status >= 200 && status < 300 && given !== '' && !accepts(accept, given)) {
    add('media-type', '/headers/content-type', accept, JSON.stringify(headers['content-type']), `the answer is ${given}, which the request's Accept (${accept}) does not admit`);
  }
  const { response: documented, documented: isDocumented } = documentedResponse(op, status);
  const bodyless = documented !== undefined && documented.mediaType === undefined;
  // An operation that documents no response at all says nothing of a body: an empty one is as good as any.
  // An operation that lists only errors says nothing of its success's body: an empty 2xx is as good as any (D397).
  const unsaid = status >= 200 && status < 300 && !op.responses.some((response) => /^[123]/.test(response.status));
  if (bodyless || ((status === 204 || status === 304 || method === 'HEAD' || op.responses.length === 0 || unsaid) && text === '')) return { violations, body: undefined };
  const answered = essence(headers['content-type']);
  // A documented stream is judged event by event and by its framing (D85), never as one JSON body.
  const stream = isDocumented ? documented?.contents.find((content) => content.stream !== undefined && essence(content.mediaType) === answered)?.stream : undefined;
  if (stream !== undefined) {
    for (const problem of judgeStream(stream, text).problems) add(problem.rule, `/body${problem.pointer}`, `a ${answered} stream as the spec documents it`, JSON.stringify(text.slice(0, 60)), `the ${status} stream: ${problem.message}`);
    return { violations, body: undefined };
  }
  // A documented media type that is not JSON (`image/png`) has no JSON to read: its Content-Type is the contract.
  if (isDocumented && !isJsonMediaType(answered) && documented?.contents.some((content) => within(essence(content.mediaType), answered)) === true) return { violations, body: undefined };
  // An undocumented error in a media type the operation documents for its own errors (a `text/plain` 401 where its
  // 400 is `text/plain`) is in a form its clients read (D395): its bytes are not judged, as a documented one's.
  if (!isDocumented && status >= 400 && !isJsonMediaType(answered) && op.responses.some((other) => /^[45d]/i.test(other.status) && other.contents.some((content) => within(essence(content.mediaType), answered)))) return { violations, body: undefined };
  // A status documented in several media types (`application/hal+json` and `application/json`, each with its own
  // schema) is answered in any of them: the answer is held to the one it came in, else to the model's first (D620).
  const chosen = isDocumented && documented !== undefined && !within(essence(documented.mediaType ?? ''), answered) ? documented.contents.find((content) => within(essence(content.mediaType), answered)) : undefined;
  const wanted = essence(chosen?.mediaType ?? documented?.mediaType ?? 'application/json');
  // A status the operation does not document has no media type or shape in the spec (D59): any JSON answer will do.
  if (isDocumented ? !within(wanted, essence(headers['content-type'])) : !isJsonMediaType(essence(headers['content-type']))) {
    add('media-type', '/headers/content-type', wanted, JSON.stringify(headers['content-type'] ?? '(none)'), `expected Content-Type ${wanted}, got ${JSON.stringify(headers['content-type'] ?? '(none)')}`);
    if (!isJsonMediaType(essence(headers['content-type']))) return { violations, body: undefined };
  }
  const parsed = quick ? parseQuick(text) : parseExact(text);
  if (!parsed.ok) {
    add('body.json', '/body', 'JSON', JSON.stringify(text.slice(0, 60)), `the body is not JSON: ${parsed.message}`);
    return { violations, body: undefined };
  }
  const { value, view } = parsed.document;
  const validate = chosen !== undefined ? chosen.validate : documented?.validate;
  // A status the operation does not document has no shape in the spec (D59): only its status field, when it has one, is judged.
  if (validate !== undefined && isDocumented && !validate(view)) {
    const which = `schema for ${status}`;
    // A list holding fewer records than its array's `minItems` is no fault of the server (D940).
    const issues = status >= 200 && status < 300 ? validate.issues().filter((issue) => !isShortList(op, issue)) : validate.issues();
    for (const issue of issues.slice(0, 5)) add('body.schema', `/body${issue.pointer}`, `valid against the spec's ${which}`, describeAt(value, issue.pointer), `the ${status} body does not match the spec's ${which}: ${issue.message}`);
  }
  const statusField = status >= 400 ? statusFieldOf(documented) : undefined;
  const said = statusField === undefined ? undefined : (view as Record<string, unknown> | null)?.[statusField];
  if (statusField !== undefined && (isDocumented || said !== undefined)) {
    if (said !== status) add('error.status', `/body/${statusField}`, String(status), JSON.stringify(said), `the error body's ${statusField} is ${JSON.stringify(said)} but the HTTP status is ${status}`);
  }
  return { violations, body: value };
}

/** Options of {@link judgeExchange}. */
export interface JudgeOptions {
  /** Hold undocumented request parts and gaps strictly (`--strict`): an invalid query answered 2xx is a violation too. */
  strict?: boolean;
  /**
   * Judge credentials (default true). `--from-har` turns it off unless `--strict`: browsers export HAR files
   * without `Authorization` and cookies by default, so their absence there proves nothing (DECISIONS D65).
   */
  credentials?: boolean;
  /** Parse response bodies natively when that is exact (model/json.ts `parseQuick`): the proxy's hot path. */
  quick?: boolean;
}

/**
 * Judges one exchange against the spec: the request (route and method documented, parameters and body valid,
 * credentials present where required), the response (status documented, media type, body against its schema,
 * error shape), and the rules one exchange shows (seed, Endpoints: list filter, limit and default page size, a
 * create's echo; a read answers the record asked for; credentials missing or a body refused by the schema are
 * never answered 2xx). `judgedRequest`: the request's verdict when already taken (the proxy judges it first). Never throws.
 */
export function judgeExchange(model: ApiModel, exchange: ObservedExchange, options: JudgeOptions = {}, judgedRequest?: RequestVerdict): ExchangeVerdict {
  const requestVerdict = judgedRequest ?? judgeRequest(model, exchange.request);
  const { routed, sent } = requestVerdict;
  const violations = options.credentials === false ? requestVerdict.violations.filter((v) => v.rule !== 'request.credentials') : [...requestVerdict.violations];
  if (routed.op === undefined) return { op: undefined, described: false, violations, requestValid: false, sent: undefined, body: undefined, pathValues: {} };
  const op = routed.op;
  const { status } = exchange.response;
  const requestValid = violations.length === 0;
  const add = (rule: ExchangeRule, pointer: string, expected: string, got: string, message: string): void => {
    violations.push({ operationId: op.operationId, rule, side: 'response', pointer, expected, got, message });
  };
  const documentedStatuses = op.responses.map((r) => r.status);
  const { documented } = documentedResponse(op, status);
  // A 304 answers a conditional request from a cache's copy: HTTP's, not the contract's.
  const revalidated = status === 304 && (exchange.request.headers['if-none-match'] !== undefined || exchange.request.headers['if-modified-since'] !== undefined);
  // A 429 or 503 the spec does not document is a refusal (a gateway's quota, a restart), not an answer: the suite
  // retries them and gives no verdict (conformance/client.ts); the judge passes over them the same way.
  const refused = !documented && (status === 429 || status === 503);
  if (!documented && !revalidated && !refused) add('status', '/status', documentedStatuses.join(' or '), String(status), `${op.operationId} answered ${status}, which the spec does not document (${documentedStatuses.join(', ')})`);
  const success = status >= 200 && status < 300;
  if (success && violations.some((v) => v.rule === 'request.credentials')) add('auth.accepted', '/status', '401', String(status), `a request without credentials was answered ${status}; the spec asks for 401 (seed, Authentication)`);
  if (success && violations.some((v) => v.rule === 'request.body')) add('body.accepted', '/status', '400', String(status), `a request body the spec refuses was answered ${status}; the spec asks for 400 (seed, Errors)`);
  if (success && options.strict === true && violations.some((v) => v.rule === 'request.parameter')) add('status', '/status', '400', String(status), `an invalid parameter was answered ${status} (--strict asks for 400)`);
  if (exchange.response.bodyMissing === true || revalidated || refused) return { op, described: true, violations, requestValid, sent, body: undefined, pathValues: routed.pathValues };
  const judged = judgeResponseBody(op, exchange.response, exchange.request.method.toUpperCase(), options.quick === true, Object.entries(exchange.request.headers).find(([name]) => name.toLowerCase() === 'accept')?.[1]);
  violations.push(...judged.violations);
  const resource = op.resource;
  if (success && resource !== undefined && judged.body !== undefined) {
    const { query } = splitPath(exchange.request.path);
    // Records are compared inside their envelopes (D73); pointers name the member they sit in.
    const record = recordIn(judged.body, op.answerEnvelope);
    const sentRecord = recordIn(sent, op.bodyEnvelope);
    const at = op.answerEnvelope === undefined ? '/body' : `/body/${op.answerEnvelope}`;
    if (op.role === 'list') for (const problem of listProblems(resource, op, query, judged.body)) add(problem.rule, problem.pointer, problem.expected, problem.got, problem.message);
    // A scalar answer (the new id, a boolean) shows no member to compare (D552): the suite reads the record back instead.
    if (op.role === 'create' && sentRecord !== null && typeof sentRecord === 'object' && !Array.isArray(sentRecord) && requestValid && record !== null && typeof record === 'object' && !isLosslessNumber(record)) {
      for (const problem of echoProblems(resource, sentRecord as Record<string, unknown>, record)) add('create.echo', `${at}/${problem.name}`, problem.expected, problem.got, problem.message);
    }
    if (op.role === 'read' && resource.idParameter !== undefined && typeof record === 'object' && record !== null) {
      const asked = routed.pathValues[resource.idParameter];
      const got = (record as Record<string, unknown>)[resource.idProperty];
      const param = op.pathParams.find((p) => p.name === resource.idParameter);
      // Compared as values: `/pets/007` asks for the record whose id is 7.
      const same = asked === undefined || got === undefined || idText(got) === asked || (param !== undefined && sameJson(parameterValue(param, asked).value, got));
      if (!same) add('read.id', `${at}/${resource.idProperty}`, asked, idText(got), `asked for ${resource.idProperty} ${asked}, the answer holds ${idText(got)}`);
    }
  }
  return { op, described: true, violations, requestValid, sent, body: judged.body, pathValues: routed.pathValues };
}

/** A record id as one text: a string as it is, a number's canonical digits (int64 exact). */
export function idText(value: unknown): string {
  if (typeof value === 'string') return value;
  // The common ids need no serializer: a safe integer, or the plain digits of an exact one.
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (isLosslessNumber(value) && /^(?:0|-?[1-9]\d{0,17})$/.test(value.value)) return value.value;
  return canonicalJson(value);
}

/** The value at a JSON pointer of an exact document, as short JSON text (`(absent)` when there is none). */
function describeAt(document: unknown, pointer: string): string {
  let node: unknown = document;
  for (const part of pointer.split('/').slice(1)) {
    const key = part.replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return '(absent)';
    node = (node as Record<string, unknown>)[key];
  }
  const text = canonicalJson(node);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function describeSchema(param: ParameterModel): string {
  const text = JSON.stringify(param.schema);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function describeScheme(scheme: AuthScheme): string {
  if (scheme.kind === 'bearer') return 'Authorization: Bearer <key>';
  if (scheme.kind === 'basic') return 'Authorization: Basic <credentials>';
  return `${scheme.parameter} in the ${scheme.in}`;
}

/** A violation as one log line / header item: `createPet create.echo /body/categoryId`. */
export function violationLabel(violation: ExchangeViolation): string {
  return `${violation.operationId} ${violation.rule} ${violation.pointer || '/'}`;
}
