import type { OperationModel, ParameterModel } from '../model/model.js';
import { validSample } from '../model/samples.js';

/** Most milliseconds one request may wait for its answer before it counts as a hang. */
const REQUEST_MS = 10_000;

/** Headers fetch sets from the request itself. */
const FRAMING = new Set(['content-length', 'transfer-encoding', 'host', 'connection', 'expect', 'upgrade']);

/** What {@link probeOperations} found: counts of each kind of fault, and the first messages (at most 20) to read. */
export interface Probe {
  requests: number;
  /** 5xx answers to an operation that documents no 5xx status. */
  undocumented5xx: number;
  /** Bodies that do not parse as JSON where every media type documented for the answer's status is JSON. */
  notJson: number;
  /** Requests without an answer within 10 s. */
  hangs: number;
  /** Requests whose connection failed (reset, refused): the server dropped them. */
  unanswered: number;
  notes: string[];
}

/**
 * Sends, one at a time, one valid-looking request per operation (path, required query and header parameters and
 * body from the model's examples and samples, the credentials of its first security scheme with `key`) and one bad
 * one (a body that is not JSON, else a numeric path parameter that is not a number; none when neither fits), and
 * judges each answer only on what any correct server owes whatever its state: no undocumented 5xx, JSON where only
 * JSON is documented, an answer within 10 s. `onAnswer`, if given, sees each answer's text beside the body sent.
 * Never throws.
 */
export async function probeOperations(operations: readonly OperationModel[], baseUrl: string, key: string, onAnswer?: (label: string, sent: string | undefined, text: string) => void): Promise<Probe> {
  const probe: Probe = { requests: 0, undocumented5xx: 0, notJson: 0, hangs: 0, unanswered: 0, notes: [] };
  const note = (text: string): void => {
    if (probe.notes.length < 20) probe.notes.push(text.slice(0, 300));
  };
  for (const operation of operations) {
    for (const bad of [false, true]) {
      const request = sampleRequest(operation, baseUrl, key, bad);
      if (request === undefined) continue;
      probe.requests++;
      const label = `${bad ? 'bad ' : ''}${operation.method} ${operation.path}`;
      try {
        // The mock's own answer is judged: a redirect it gives is not followed (it may point to a host the spec names).
        const response = await fetch(request.url, { method: operation.method, headers: request.headers, body: request.body, redirect: 'manual', signal: AbortSignal.timeout(REQUEST_MS) });
        const text = await response.text();
        onAnswer?.(label, request.body, text);
        if (response.status >= 500 && !operation.responses.some((documented) => documented.status.startsWith('5'))) {
          probe.undocumented5xx++;
          note(`${response.status} on ${label}: ${text.slice(0, 200)}`);
        }
        if (text !== '' && onlyJson(operation, response.status) && !parses(text)) {
          probe.notJson++;
          note(`not JSON on ${label} (${response.status} ${response.headers.get('content-type') ?? ''}): ${text.slice(0, 120)}`);
        }
      } catch (error) {
        const timedOut = error instanceof Error && error.name === 'TimeoutError';
        if (timedOut) probe.hangs++;
        else probe.unanswered++;
        const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
        note(`${timedOut ? 'hang' : 'no answer'} on ${label}: ${error instanceof Error ? error.message : String(error)}${cause} ${request.url.slice(0, 160)}`);
      }
    }
  }
  return probe;
}

/** A request for `operation`: valid-looking, or (`bad`) one the mock must refuse with a 4xx; `undefined` when no bad one fits. Credentials from `key` in the operation's first security scheme. */
export function sampleRequest(operation: OperationModel, baseUrl: string, key: string, bad: boolean): { url: string; headers: Record<string, string>; body: string | undefined } | undefined {
  const headers: Record<string, string> = {};
  const query = new URLSearchParams();
  // A GET or HEAD body is one no client can send (fetch refuses it): such an operation is probed without it.
  const model = operation.method === 'GET' || operation.method === 'HEAD' ? undefined : operation.body;
  const typed = operation.pathParams.find((parameter) => parameter.type === 'integer' || parameter.type === 'number');
  if (bad && model === undefined && typed === undefined) return undefined;
  let path = operation.path;
  for (const parameter of operation.pathParams) {
    const value = bad && model === undefined && parameter === typed ? 'not-a-number' : text(valueOf(parameter));
    path = path.replace(`{${parameter.name}}`, encodeURIComponent(value));
  }
  for (const parameter of operation.queryParams) if (parameter.required) appendQuery(query, parameter);
  // Framing headers a description may list as parameters (`Content-Length`) are the client's to set, not the probe's.
  for (const parameter of operation.headerParams) if (parameter.required && !FRAMING.has(parameter.name.toLowerCase())) headers[parameter.name] = text(valueOf(parameter));
  const scheme = operation.security[0];
  if (scheme?.kind === 'bearer') headers['authorization'] = `Bearer ${key}`;
  else if (scheme?.kind === 'basic') headers['authorization'] = `Basic ${Buffer.from(`user:${key}`).toString('base64')}`;
  else if (scheme?.kind === 'apiKey' && scheme.in === 'header') headers[scheme.parameter.toLowerCase()] = key;
  else if (scheme?.kind === 'apiKey' && scheme.in === 'query') query.set(scheme.parameter, key);
  else if (scheme?.kind === 'apiKey' && scheme.in === 'cookie') headers['cookie'] = `${scheme.parameter}=${key}`;
  let body: string | undefined;
  if (model !== undefined) {
    const json = model.mediaTypes.find((media) => /json/i.test(media));
    const form = model.mediaTypes.find((media) => /x-www-form-urlencoded/i.test(media));
    const value = validSample(model.schema);
    if (bad) {
      headers['content-type'] = 'application/json';
      body = '{"unterminated';
    } else if (json !== undefined || form === undefined) {
      headers['content-type'] = json ?? model.mediaTypes[0] ?? 'application/json';
      body = JSON.stringify(value ?? {});
    } else {
      headers['content-type'] = form;
      const fields = new URLSearchParams();
      if (value !== null && typeof value === 'object') for (const [key, member] of Object.entries(value)) fields.set(key, text(member));
      body = fields.toString();
    }
  }
  // A header name that is not an HTTP token (`advicement api key`) is one no client can send: left out (D347).
  for (const name of Object.keys(headers)) if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) delete headers[name];
  const search = query.toString();
  return { url: `${baseUrl}${path}${search === '' ? '' : `?${search}`}`, headers, body };
}

function appendQuery(query: URLSearchParams, parameter: ParameterModel): void {
  const value = valueOf(parameter);
  if (Array.isArray(value) && parameter.delimiter === undefined) for (const item of value) query.append(parameter.name, text(item));
  else query.set(parameter.name, Array.isArray(value) ? value.map(text).join(parameter.delimiter ?? ',') : text(value));
}

function valueOf(parameter: ParameterModel): unknown {
  return parameter.example !== undefined && parameter.validate(parameter.example) ? parameter.example : validSample(parameter.schema);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value as number | boolean);
}

/** Whether the responses documented for `status` (exact, else `5XX`-style, else `default`) all say JSON. */
function onlyJson(operation: OperationModel, status: number): boolean {
  const exact = operation.responses.find((response) => response.status === String(status));
  const range = operation.responses.find((response) => response.status.toUpperCase() === `${String(status)[0]}XX`);
  const documented = exact ?? range ?? operation.responses.find((response) => response.status === 'default');
  if (documented === undefined || documented.contents.length === 0) return false;
  return documented.contents.every((content) => /[/+]json\b|^application\/json/i.test(content.mediaType));
}

function parses(body: string): boolean {
  try {
    JSON.parse(body);
    return true;
  } catch {
    return false;
  }
}
