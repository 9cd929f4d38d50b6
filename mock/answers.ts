import { acceptMatch, mediaKind, parseAccept, serialize, type Payload } from '../model/media.js';
import type { ApiModel, ContentModel, OperationModel, ResponseModel } from '../model/model.js';
import { validAnswer, validatorOf } from '../model/samples.js';
import { serverMadeAnswer } from '../model/made-up.js';

/**
 * One answer ready for the wire: a documented media type and its body (spec/DECISIONS.md › D55, D57). `valid`
 * is `false` only when no example or sample satisfies the schema (the start-up log says so).
 */
export interface ContentAnswer {
  mediaType: string;
  payload: Payload;
  valid: boolean;
  /**
   * Why no answer could be built at all (a schema the generator or validator gave up on): the operation then
   * answers `ANSWER_FAILED` in its documented error shape (spec/DECISIONS.md › D83), and the start-up log counts it.
   */
  failed?: string;
}

/** The answers of one documented status: the default one per media type, and each valid named example. */
interface StatusAnswers {
  response: ResponseModel;
  /** Per media type, in the spec's order: the first valid example, else a valid sample. */
  byContent: Map<ContentModel, ContentAnswer>;
  /** Named examples that satisfy their media type's schema, by name (first media type that has the name wins per request). */
  named: Map<string, Map<ContentModel, ContentAnswer>>;
  /** Named examples the schema rejects: never served, named in the start-up log. */
  rejected: string[];
}

const compiled = new WeakMap<ResponseModel, StatusAnswers>();

/** The answers of a documented response, made once (at start for operations no resource holds, else on first use). */
export function statusAnswers(response: ResponseModel): StatusAnswers {
  let found = compiled.get(response);
  if (found !== undefined) return found;
  const byContent = new Map<ContentModel, ContentAnswer>();
  const named = new Map<string, Map<ContentModel, ContentAnswer>>();
  const rejected: string[] = [];
  for (const content of response.contents) {
    const valid = content.examples.filter((example) => content.validate === undefined || content.validate(example.value));
    for (const example of content.examples) {
      if (example.name === undefined) continue;
      if (!valid.includes(example)) {
        rejected.push(`${example.name} (${content.mediaType})`);
        continue;
      }
      if (!named.has(example.name)) named.set(example.name, new Map());
      named.get(example.name)!.set(content, { mediaType: content.mediaType, payload: serialize(example.value, content.mediaType, content.schema), valid: true });
    }
    byContent.set(content, safely(content));
  }
  found = { response, byContent, named, rejected };
  compiled.set(response, found);
  return found;
}

/** {@link contentAnswer}, or a failed answer when building it threw (the stack ran out on a recursive schema): never throws. */
function safely(content: ContentModel): ContentAnswer {
  try {
    return contentAnswer(content);
  } catch (error) {
    const failed = error instanceof RangeError ? 'its schema recurses too deeply' : error instanceof Error ? error.message : String(error);
    return { mediaType: content.mediaType, payload: { text: '' }, valid: false, failed };
  }
}

/** The default answer of one media type: its first valid example, else a valid sample of its schema, written for its kind. */
function contentAnswer(content: ContentModel): ContentAnswer {
  const examples = content.examples.map((example) => example.value);
  if (content.schema === undefined) {
    // No schema: any example is the answer; else a few bytes, a word of text or an empty JSON object.
    const value = examples[0] ?? (mediaKind(content.mediaType) === 'json' ? {} : '');
    return { mediaType: content.mediaType, payload: serialize(value, content.mediaType, undefined), valid: true };
  }
  // Bytes are not judged by a JSON schema: a string example is sent as its bytes, else a few bytes of the type.
  if (mediaKind(content.mediaType) === 'binary') return { mediaType: content.mediaType, payload: serialize(examples.find((e) => typeof e === 'string') ?? '', content.mediaType, content.schema), valid: true };
  // Nothing of an answer is written by the request that asks for it here: a sample holds no made-up state (D530).
  const { value, valid } = serverMadeAnswer(content.schema, content.validate, examples);
  return { mediaType: content.mediaType, payload: serialize(value, content.mediaType, content.schema), valid };
}

/**
 * The answer an operation gives when all goes well (spec/DECISIONS.md › D55): its success status and that
 * status's documented response. An operation no resource holds that documents no 2xx answers its first
 * documented 3xx, else the first documented 4xx a valid request can get (`409`, `410`; not `400`, `401`, `422`,
 * `429`…), else its `default` response as 200, so that its answer is always a documented one.
 */
export function successAnswer(op: OperationModel): { status: number; response: ResponseModel | undefined } {
  // A success documented only as a range (`2XX`) is the range's answer: its body and media type, not none (D345).
  const own = op.responses.find((r) => r.status === String(op.successStatus)) ?? op.responses.find((r) => r.status.toUpperCase() === `${String(op.successStatus)[0]}XX`);
  if (own !== undefined || op.resource !== undefined || op.responses.some((r) => /^2/.test(r.status))) return { status: op.successStatus, response: own };
  const redirect = op.responses.filter((r) => /^3\d\d$/.test(r.status)).sort((a, b) => Number(a.status) - Number(b.status))[0];
  if (redirect !== undefined) return { status: Number(redirect.status), response: redirect };
  // An operation that documents only errors (a retired endpoint: `410`) answers the error it always gives.
  const outcome = op.responses.filter((r) => /^4\d\d$/.test(r.status) && !REQUEST_ERRORS.has(Number(r.status))).sort((a, b) => Number(a.status) - Number(b.status))[0];
  if (outcome !== undefined) return { status: Number(outcome.status), response: outcome };
  return { status: op.successStatus, response: op.responses.find((r) => r.status === 'DEFAULT') };
}

/** Statuses a request earns by what it sends (bad input, credentials, rate), never the outcome of a valid one. */
const REQUEST_ERRORS: ReadonlySet<number> = new Set([400, 401, 403, 405, 406, 407, 408, 411, 413, 414, 415, 422, 429, 431]);

/**
 * What the start-up log says about an operation's answers: each documented 2xx media type for which no valid
 * value could be made (answered with the best candidate anyway), and named examples the schema rejects.
 * Operations no resource holds only (those of a resource answer from state; their examples are made on first use).
 */
export function answerNotes(op: OperationModel): string[] {
  if (op.resource !== undefined) return [];
  const notes: string[] = [];
  const success = successAnswer(op).response;
  for (const response of op.responses) {
    if (!/^2\d\d$/.test(response.status) && response !== success) continue;
    const answers = statusAnswers(response);
    for (const answer of answers.byContent.values()) {
      if (answer.failed !== undefined) notes.push(`${op.operationId} (${op.method} ${op.path}) ${response.status} ${answer.mediaType}: no answer can be built (${answer.failed}); the mock answers its documented error instead`);
      else if (response.contents.find((c) => c.mediaType === answer.mediaType)?.validate?.failure() !== undefined) {
        notes.push(`${op.operationId} (${op.method} ${op.path}) ${response.status} ${answer.mediaType}: its schema cannot be compiled, so the mock answers a sample it cannot check (D134)`);
      } else if (!answer.valid) notes.push(`${op.operationId} (${op.method} ${op.path}) ${response.status} ${answer.mediaType}: no example or sample satisfies its schema; the mock answers its best candidate`);
    }
    if (answers.rejected.length > 0) notes.push(`${op.operationId} (${op.method} ${op.path}) ${response.status}: the examples ${answers.rejected.join(', ')} do not satisfy their schema and are never served`);
  }
  return notes;
}

/**
 * Checks the answers of every operation no resource holds without holding up the start (a spec of hundreds of
 * operations takes a second): a few operations per turn of the event loop, right after the mock listens, each
 * note handed to `onNote` (the start-up log), then `onDone` called once. The answers made are kept, so the first
 * request finds them ready. Never throws: an operation whose answers fail to build is one more note. Returns a
 * function that stops the check.
 */
export function checkAnswersSoon(api: ApiModel, onNote: (note: string) => void, onDone?: () => void): () => void {
  const operations = api.operations.filter((op) => op.resource === undefined);
  let next = 0;
  let timer: NodeJS.Immediate | undefined;
  const step = (): void => {
    const until = performance.now() + 5;
    while (next < operations.length && performance.now() < until) {
      const op = operations[next++]!;
      // A failure here is one operation's, told as its note: the pass goes on and the process stays up (D83).
      let notes: string[];
      try {
        notes = answerNotes(op);
      } catch (error) {
        notes = [`${op.operationId} (${op.method} ${op.path}): its answers could not be checked (${error instanceof Error ? error.message : String(error)})`];
      }
      for (const note of notes) onNote(note);
    }
    timer = next < operations.length ? setImmediate(step) : undefined;
    if (timer === undefined) onDone?.();
  };
  timer = setImmediate(step);
  return () => {
    if (timer !== undefined) clearImmediate(timer);
  };
}

/**
 * Values for the headers a response declares (D57): each required one, and a redirect's `Location`, from the
 * header's example, else a valid sample of its schema (arrays joined by commas, as RFC 9110 lists values).
 * Made once per response; a handler's own value (a create's `Location`, a list's `Link`) replaces it.
 */
export function documentedHeaders(response: ResponseModel | undefined): Record<string, string> {
  if (response === undefined) return {};
  let found = headerValues.get(response);
  if (found === undefined) {
    found = {};
    for (const header of response.headers) {
      const redirect = /^3/.test(response.status) && header.name.toLowerCase() === 'location';
      const validate = validatorOf(header.schema);
      // A value the description's text gives (the API's version, D601) is sent, optional or not, where the schema takes it.
      const given = header.value !== undefined && (validate === undefined || validate(header.value));
      if (!header.required && !redirect && !given) continue;
      const example = header.example !== undefined && (validate === undefined || validate(header.example));
      let value = given ? header.value : example ? header.example : validAnswer(header.schema).value;
      // A sampled relative `Location` ("string") resolves beside the request, often to the same address, so a client
      // that follows redirects loops: a sampled one points to a reserved host instead, when the schema admits it (D342).
      if (redirect && !example && typeof value === 'string' && !/^[a-z][a-z0-9+.-]*:/i.test(value) && (validate === undefined || validate(ELSEWHERE))) value = ELSEWHERE;
      const text = Array.isArray(value) ? value.map(String).join(', ') : value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value ?? '');
      if (/^[\t\x20-\x7e]*$/.test(text)) found[header.name.toLowerCase()] = text;
    }
    headerValues.set(response, found);
  }
  return found;
}

const headerValues = new WeakMap<ResponseModel, Record<string, string>>();

/** Where a sampled redirect points: a host reserved for examples (RFC 2606), never the mock itself. */
const ELSEWHERE = 'https://example.com/';

/**
 * The media type to answer among `contents` for an `Accept` header (spec/DECISIONS.md › D57): the highest
 * quality (D140: a vendor `+json` range fits `application/json`); on a tie the type named more specifically, then
 * a JSON type, then the spec's order. No header: a JSON type, else the first.
 * `undefined` when the header admits none (the pipeline answers 406).
 */
export function negotiate<C extends { mediaType: string }>(contents: readonly C[], accept: string | string[] | undefined): C | undefined {
  const ranges = parseAccept(accept);
  const json = (c: C): boolean => mediaKind(c.mediaType) === 'json';
  if (ranges === undefined) return contents.find(json) ?? contents[0];
  let chosen: C | undefined;
  let best = { q: 0, fit: -1 };
  for (const content of contents) {
    const match = acceptMatch(ranges, content.mediaType);
    if (match.q <= 0) continue;
    // Equal quality: the type the client named more specifically (D140), then a JSON type, then the spec's order.
    const better = match.q > best.q || (match.q === best.q && (match.fit > best.fit || (match.fit === best.fit && chosen !== undefined && json(content) && !json(chosen))));
    if (chosen === undefined || better) {
      chosen = content;
      best = match;
    }
  }
  return chosen;
}

/**
 * The answer of a documented status for a request: its named example (`name`), else the default answer, in
 * the media type `Accept` admits. Errors (as values): `unknown-example` when no valid example has that name
 * (with the names known), `not-acceptable` when `Accept` admits none of the media types.
 */
export function pickAnswer(response: ResponseModel, accept: string | string[] | undefined, name?: string):
  | { ok: true; answer: ContentAnswer | undefined }
  | { ok: false; reason: 'unknown-example'; known: string[] }
  | { ok: false; reason: 'not-acceptable'; offered: string[] } {
  const answers = statusAnswers(response);
  const pool = name === undefined ? answers.byContent : answers.named.get(name);
  if (pool === undefined) return { ok: false, reason: 'unknown-example', known: [...answers.named.keys()] };
  if (response.contents.length === 0) return { ok: true, answer: undefined };
  const content = negotiate([...pool.keys()], accept);
  if (content === undefined) return { ok: false, reason: 'not-acceptable', offered: [...pool.keys()].map((c) => c.mediaType) };
  return { ok: true, answer: pool.get(content) };
}
