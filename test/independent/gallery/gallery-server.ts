import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A gallery backend written from the text of spec/wild/gallery-3.1.yaml alone, as an engineer who never saw this
// repository's mock would write it: plain node:http, its own in-memory state and validation. It shares no code
// with mock/ or conformance/ on purpose: the suite must pass a correct server it did not derive. Each `GalleryFault`
// is one realistic bug; the test asserts which check of the suite catches it.

/** One realistic bug to build into the server (none: the correct server). */
export type GalleryFault =
  | 'page-two-repeats-page-one'
  | 'page-skip-off-by-one'
  | 'limit-ignored'
  | 'limit-plus-one'
  | 'limit-maximum-not-enforced'
  | 'start-date-ignored'
  | 'end-date-exclusive'
  | 'reversed-range-500'
  | 'reversed-range-ignored'
  | 'default-window-ignored-limit'
  | 'patch-replaces-record'
  | 'delete-keeps-record'
  | 'delete-answers-200'
  | 'create-drops-price'
  | 'create-answers-200'
  | 'auth-not-enforced'
  | 'errors-as-json'
  | 'bad-date-accepted'
  | 'bad-uuid-500'
  | 'qr-as-json'
  | 'client-id-ignored'
  | 'missing-answers-200-empty';

/**
 * Options of {@link startGalleryServer}: the accepted Basic user name (any password), the fault, if any, and the
 * clock whose day is "today" for a window left open (default: the system clock).
 */
export interface GalleryOptions {
  user: string;
  fault?: GalleryFault;
  now?: () => Date;
}

/** A running gallery server: its base URL (the spec's `/api/v1` under a free port) and how to stop it. */
export interface RunningServer {
  baseUrl: string;
  close(): Promise<void>;
}

interface Exhibition {
  exhibitionId: string;
  title: string;
  room: string;
  description: string;
  dates: string[];
  price: number;
}

interface Pass {
  passId: string;
  passDate: string;
  passType: 'general' | 'exhibition';
  exhibitionId?: string;
  email?: string;
}

const BASE = '/api/v1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TITLE = /^\b.+\b$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** How many days of opening hours the gallery publishes from the first day asked ("upcoming" hours). */
const HOURS_HORIZON_DAYS = 60;
// A 1x1 transparent PNG: the QR image itself is not what the spec describes, its media type is.
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

class HttpError extends Error {
  constructor(readonly status: number, readonly title: string) {
    super(title);
  }
}

function isDate(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

function addDays(date: string, days: number): string {
  const parsed = new Date(`${date}T00:00:00Z`);
  parsed.setUTCDate(parsed.getUTCDate() + days);
  return parsed.toISOString().slice(0, 10);
}


function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The exhibition fields of a body; `partial` for PATCH (only the fields sent). Throws 400 on any wrong one. */
function exhibitionFields(body: unknown, partial: boolean, fault: GalleryFault | undefined): Partial<Exhibition> {
  if (!isObject(body)) throw new HttpError(400, 'The body must be a JSON object');
  const fields: Partial<Exhibition> = {};
  const need = (name: string): boolean => {
    if (body[name] === undefined) {
      if (!partial) throw new HttpError(400, `${name} is required`);
      return false;
    }
    return true;
  };
  if (need('title')) {
    if (typeof body.title !== 'string' || !TITLE.test(body.title)) throw new HttpError(400, 'title must be whole words');
    fields.title = body.title;
  }
  for (const name of ['room', 'description'] as const) {
    if (!need(name)) continue;
    const value = body[name];
    if (typeof value !== 'string') throw new HttpError(400, `${name} must be a string`);
    fields[name] = value;
  }
  if (need('dates')) {
    const dates = body.dates;
    if (!Array.isArray(dates) || !dates.every((date) => (fault === 'bad-date-accepted' ? typeof date === 'string' : isDate(date)))) throw new HttpError(400, 'dates must be a list of dates');
    fields.dates = dates as string[];
  }
  if (need('price')) {
    if (typeof body.price !== 'number' || !Number.isFinite(body.price)) throw new HttpError(400, 'price must be a number');
    if (fault !== 'create-drops-price' || partial) fields.price = body.price;
  }
  if (body.exhibitionId !== undefined) {
    if (typeof body.exhibitionId !== 'string' || !UUID.test(body.exhibitionId)) throw new HttpError(400, 'exhibitionId must be a uuid');
    if (!partial) fields.exhibitionId = body.exhibitionId;
  }
  return fields;
}

/** A query's integer parameter, `fallback` when absent; 400 when it is not an integer. */
function integerParam(query: URLSearchParams, name: string, fallback: number): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  if (!/^-?\d+$/.test(raw)) throw new HttpError(400, `${name} must be an integer`);
  return Number(raw);
}

function dateParam(query: URLSearchParams, name: string, fallback: string, fault: GalleryFault | undefined): string {
  const raw = query.get(name);
  if (raw === null) return fallback;
  if (!isDate(raw)) {
    if (fault === 'bad-date-accepted') return fallback;
    throw new HttpError(400, `${name} must be a date (YYYY-MM-DD)`);
  }
  return raw;
}

/** One page of `items` by `page` (from 1, default 1) and `limit` (default 10, at most 30), as the parameters say. */
function paginate<T>(items: readonly T[], query: URLSearchParams, fault: GalleryFault | undefined): T[] {
  const page = integerParam(query, 'page', 1);
  let limit = integerParam(query, 'limit', 10);
  if (page < 1) throw new HttpError(400, 'page starts at 1');
  if (limit < 0 || (limit > 30 && fault !== 'limit-maximum-not-enforced')) throw new HttpError(400, 'limit is at most 30');
  if (fault === 'limit-ignored') limit = 10;
  if (fault === 'default-window-ignored-limit' && query.get('limit') === null) limit = 20;
  let skip = (page - 1) * limit;
  if (fault === 'page-two-repeats-page-one') skip = 0;
  if (fault === 'page-skip-off-by-one' && page > 1) skip -= 1;
  return items.slice(skip, skip + limit + (fault === 'limit-plus-one' ? 1 : 0));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(request: IncomingMessage, text: string): unknown {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw new HttpError(400, 'Send application/json');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'The body is not JSON');
  }
}

/**
 * Starts the gallery server on a free port of 127.0.0.1. Every operation asks for HTTP Basic credentials whose
 * user name is `options.user` (the spec's global `security`); errors are `application/problem+json` `{type, title}`.
 */
export async function startGalleryServer(options: GalleryOptions): Promise<RunningServer> {
  const { fault } = options;
  const clock = options.now ?? ((): Date => new Date());
  const today = (): string => clock().toISOString().slice(0, 10);
  const exhibitions = new Map<string, Exhibition>();
  const passes = new Map<string, Pass>();

  const send = (response: ServerResponse, status: number, body?: unknown, type = 'application/json'): void => {
    if (body === undefined) {
      response.writeHead(status).end();
      return;
    }
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
    response.writeHead(status, { 'content-type': type, 'content-length': bytes.length }).end(bytes);
  };

  const authorised = (request: IncomingMessage): boolean => {
    if (fault === 'auth-not-enforced') return true;
    const header = request.headers.authorization ?? '';
    const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header);
    if (match === null) return false;
    const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon >= 0 && decoded.slice(0, colon) === options.user;
  };

  const exhibitionAt = (id: string): Exhibition => {
    if (!UUID.test(id)) {
      if (fault === 'bad-uuid-500') throw new Error('not a uuid');
      throw new HttpError(400, 'exhibitionId must be a uuid');
    }
    const held = exhibitions.get(id.toLowerCase());
    if (held === undefined) throw new HttpError(404, 'No such exhibition');
    return held;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://gallery.invalid');
    if (!url.pathname.startsWith(`${BASE}/`)) throw new HttpError(404, 'Not found');
    const path = url.pathname.slice(BASE.length).split('/').slice(1).map((segment) => decodeURIComponent(segment));
    const method = request.method ?? 'GET';
    const text = await readBody(request);
    const route = `${method} /${path.map((segment, index) => (index === 1 ? '{id}' : segment)).join('/')}`;
    const known = ['GET /opening-hours', 'POST /exhibitions', 'GET /exhibitions', 'GET /exhibitions/{id}', 'PATCH /exhibitions/{id}', 'DELETE /exhibitions/{id}', 'POST /passes', 'GET /passes/{id}/qr'];
    if (!known.includes(route)) throw new HttpError(path.length <= 3 && ['exhibitions', 'passes', 'opening-hours'].includes(path[0] ?? '') ? 405 : 404, 'Not found');
    if (!authorised(request)) {
      response.setHeader('www-authenticate', 'Basic realm="gallery"');
      throw new HttpError(401, 'Credentials required');
    }
    const query = url.searchParams;
    switch (route) {
      case 'GET /opening-hours': {
        const start = dateParam(query, 'startDate', today(), fault);
        const days = Array.from({ length: HOURS_HORIZON_DAYS }, (_, index) => {
          const date = addDays(start, index);
          const weekend = [0, 6].includes(new Date(`${date}T00:00:00Z`).getUTCDay());
          return { date, timeOpen: weekend ? '10:00' : '09:00', timeClose: weekend ? '16:00' : '18:00' };
        });
        return send(response, 200, paginate(days, query, fault));
      }
      case 'POST /exhibitions': {
        const fields = exhibitionFields(parseJson(request, text), false, fault) as Exhibition;
        const id = fault === 'client-id-ignored' || fields.exhibitionId === undefined ? randomUUID() : fields.exhibitionId.toLowerCase();
        if (exhibitions.has(id)) throw new HttpError(400, 'An exhibition with this exhibitionId exists');
        const record: Exhibition = { ...fields, exhibitionId: id };
        exhibitions.set(id, record);
        return send(response, fault === 'create-answers-200' ? 200 : 201, record);
      }
      case 'GET /exhibitions': {
        const start = dateParam(query, 'startDate', today(), fault);
        // "Defaults to 7 days after startDate": the window is start..end, both days included.
        const end = dateParam(query, 'endDate', addDays(start, 7), fault);
        if (end < start && fault === 'reversed-range-500') throw new HttpError(500, 'Internal error');
        if (end < start && fault !== 'reversed-range-ignored') throw new HttpError(400, 'endDate is before startDate');
        const inWindow = [...exhibitions.values()].filter((one) =>
          (end < start && fault === 'reversed-range-ignored') || one.dates.some((date) => (fault === 'start-date-ignored' || date >= start) && (fault === 'end-date-exclusive' ? date < end : date <= end)),
        );
        return send(response, 200, paginate(inWindow, query, fault));
      }
      case 'GET /exhibitions/{id}':
        if (fault === 'missing-answers-200-empty' && UUID.test(path[1]!) && !exhibitions.has(path[1]!.toLowerCase())) return send(response, 200, {});
        return send(response, 200, exhibitionAt(path[1]!));
      case 'PATCH /exhibitions/{id}': {
        const held = exhibitionAt(path[1]!);
        const changes = exhibitionFields(parseJson(request, text), true, fault);
        const updated: Exhibition = fault === 'patch-replaces-record' ? ({ exhibitionId: held.exhibitionId, ...changes } as Exhibition) : { ...held, ...changes };
        exhibitions.set(held.exhibitionId, updated);
        return send(response, 200, updated);
      }
      case 'DELETE /exhibitions/{id}': {
        const held = exhibitionAt(path[1]!);
        if (fault !== 'delete-keeps-record') exhibitions.delete(held.exhibitionId);
        return fault === 'delete-answers-200' ? send(response, 200, held) : send(response, 204);
      }
      case 'POST /passes': {
        const body = parseJson(request, text);
        if (!isObject(body)) throw new HttpError(400, 'The body must be a JSON object');
        const { passType, passDate, email, exhibitionId, passId } = body;
        if (passType !== 'general' && passType !== 'exhibition') throw new HttpError(400, 'passType is general or exhibition');
        if (!isDate(passDate)) throw new HttpError(400, 'passDate must be a date');
        if (email !== undefined && (typeof email !== 'string' || !EMAIL.test(email))) throw new HttpError(400, 'email must be an email address');
        if (passId !== undefined && (typeof passId !== 'string' || !UUID.test(passId))) throw new HttpError(400, 'passId must be a uuid');
        if (exhibitionId !== undefined) {
          if (typeof exhibitionId !== 'string' || !UUID.test(exhibitionId)) throw new HttpError(400, 'exhibitionId must be a uuid');
          if (!exhibitions.has(exhibitionId.toLowerCase())) throw new HttpError(404, 'No such exhibition');
        }
        const pass: Pass = { passId: randomUUID(), passDate, passType, ...(exhibitionId === undefined ? {} : { exhibitionId: (exhibitionId as string).toLowerCase() }), ...(email === undefined ? {} : { email: email as string }) };
        passes.set(pass.passId, pass);
        const code = `pass-${passType}-${randomBytes(3).toString('hex')}-${randomBytes(3).toString('hex').slice(0, 5)}`;
        const { email: _email, ...shown } = pass;
        return send(response, 201, { ...shown, message: `Gallery ${passType} entry pass purchased`, confirmationCode: code });
      }
      case 'GET /passes/{id}/qr': {
        const id = path[1]!;
        if (!UUID.test(id)) throw new HttpError(400, 'passId must be a uuid');
        if (!passes.has(id.toLowerCase())) throw new HttpError(404, 'No such pass');
        return fault === 'qr-as-json' ? send(response, 200, { image: PNG.toString('base64') }) : send(response, 200, PNG, 'image/png');
      }
    }
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (error instanceof HttpError) {
        const problem = { type: 'about:blank', title: error.title };
        send(response, error.status, problem, fault === 'errors-as-json' ? 'application/json' : 'application/problem+json');
        return;
      }
      send(response, 500, { type: 'about:blank', title: 'Internal error' }, 'application/problem+json');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${BASE}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error === undefined ? resolve() : reject(error)))),
  };
}
