import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

// A second museum backend written from the text of Redocly's Museum API description (the shared corpus's
// museum/openapi.yaml), by a team that on every point the text leaves open took the other legitimate option than
// museum-server.ts: opening hours published only for the coming months and closed at weekends (as the example's
// missing Saturdays and Sundays show), a `startDate` in the past read as today ("future operating hours"); events
// listed by name, one that spans a window counted in it, a reversed window answered with an empty page, `limit`
// of at least 1 and above 30 served as 30, a page past the last one answered 404 (documented); an unknown or
// malformed event id answered 404; a taken `eventId` answered 409; an event ticket refused without its `eventId`
// ("Required if purchasing tickets for the museum's special events") and confirmed with the event's name as the
// example shows; an event's dates answered in time order; prices held in single precision (`format: float`) and
// written as floats (`25.0`); `charset=utf-8`; gzip when asked; ETag and Location headers;
// problem details with `status` and `detail`; an undeclared query parameter and an empty update refused with 400.
// It shares no code with the mock, the suite or the first server.

/**
 * Options of {@link startMuseumRivalServer}: the accepted Basic user name (any password), and the clock whose day
 * is "today" for the published hours and the default event window (default: the system clock).
 */
export interface MuseumRivalOptions {
  user: string;
  now?: () => Date;
}

/** A running rival: its base URL (the description's server path under a free port of 127.0.0.1) and how to stop it. */
export interface MuseumRival {
  baseUrl: string;
  close(): Promise<void>;
}

interface EventRow {
  id: string;
  name: string;
  location: string;
  eventDescription: string;
  dates: string[];
  price: number;
  version: number;
}

const MOUNT = '/_mock/docs/openapi/museum-api';
const ID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY_SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** Days ahead of today for which the museum publishes its opening hours. */
const PUBLISHED_DAYS = 120;
const DAY_MS = 86_400_000;
// The smallest valid PNG stands in for a QR code: the description shows its media type, not its picture.
const QR_PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

/** The query parameters each route declares: any other is refused (400 is documented on every operation). */
const DECLARED_QUERY: Record<string, string[]> = { 'GET hours': ['startDate', 'page', 'limit'], 'GET events': ['startDate', 'endDate', 'page', 'limit'] };

class Refused extends Error {
  constructor(readonly status: number, readonly detail: string) {
    super(detail);
  }
}

/** Days since 1970-01-01 of a `YYYY-MM-DD` text, `undefined` when it names no calendar day. */
function dayNumber(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const parts = DAY_SHAPE.exec(text);
  if (parts === null) return undefined;
  const ms = Date.UTC(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3]));
  const back = new Date(ms);
  if (back.getUTCFullYear() !== Number(parts[1]) || back.getUTCMonth() !== Number(parts[2]) - 1 || back.getUTCDate() !== Number(parts[3])) return undefined;
  return Math.floor(ms / DAY_MS);
}

const dayText = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** A version 4 uuid from 16 random bytes. */
function newId(): string {
  const bytes = randomBytes(16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A price as a `format: float` (single precision) column holds it. */
const single = (value: number): number => Math.fround(value);

/** The shortest decimal that reads back as the single-precision `value`, as a float's own printer writes it. */
function singleText(value: number): number {
  for (let digits = 1; digits <= 9; digits++) {
    const text = Number(value.toPrecision(digits));
    if (Math.fround(text) === value) return text;
  }
  return value;
}

/** JSON text with every price written as a float (`25.0`), as a `format: float` column would print it. */
function render(value: unknown): string {
  return JSON.stringify(value, (key, held: unknown) => (key === 'price' && typeof held === 'number' ? (Number.isInteger(singleText(held)) ? `@@float:${singleText(held)}` : singleText(held)) : held)).replace(/"@@float:(-?\d+)"/g, '$1.0');
}

function asObject(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Refused(400, 'Expected a JSON object');
  return value as Record<string, unknown>;
}

/** Checks one member of an event body; `undefined` when absent. */
function member(body: Record<string, unknown>, name: keyof Omit<EventRow, 'id' | 'version'>): unknown {
  const value = body[name];
  if (value === undefined) return undefined;
  const ok = name === 'dates' ? Array.isArray(value) && value.every((one) => dayNumber(one) !== undefined) : name === 'price' ? typeof value === 'number' && Number.isFinite(value) : typeof value === 'string';
  if (!ok) throw new Refused(400, `Invalid ${name}`);
  return value;
}

/**
 * Starts the rival on a free port of 127.0.0.1 under the description's server path. HTTP Basic with the user name
 * `options.user` (any password) on every operation; errors as `application/problem+json`.
 */
export async function startMuseumRivalServer(options: MuseumRivalOptions): Promise<MuseumRival> {
  const rows = new Map<string, EventRow>();
  const ticketIds = new Set<string>();
  const clock = options.now ?? ((): Date => new Date());
  const todayNumber = (): number => Math.floor(clock().getTime() / DAY_MS);

  const reply = (request: IncomingMessage, response: ServerResponse, status: number, payload?: unknown, headers: Record<string, string> = {}): void => {
    if (payload === undefined) {
      response.writeHead(status, headers).end();
      return;
    }
    let bytes = Buffer.isBuffer(payload) ? payload : Buffer.from(render(payload), 'utf8');
    const all: Record<string, string | number> = { 'content-type': Buffer.isBuffer(payload) ? 'image/png' : 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers };
    if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
      bytes = gzipSync(bytes);
      all['content-encoding'] = 'gzip';
    }
    all['content-length'] = bytes.length;
    response.writeHead(status, all).end(bytes);
  };

  const signedIn = (request: IncomingMessage): boolean => {
    const [scheme, token] = (request.headers.authorization ?? '').split(' ');
    if (scheme?.toLowerCase() !== 'basic' || token === undefined) return false;
    const text = Buffer.from(token, 'base64').toString('utf8');
    return text.includes(':') && text.split(':')[0] === options.user;
  };

  const find = (id: string): EventRow => {
    // A malformed id names no event either: 404, as for an unknown one (400 and 404 are both documented).
    const row = ID_SHAPE.test(id) ? rows.get(id.toLowerCase()) : undefined;
    if (row === undefined) throw new Refused(404, `Special event ${id} not found`);
    return row;
  };

  // Dates are kept as a calendar, in time order.
  const view = (row: EventRow): Record<string, unknown> => ({ eventId: row.id, name: row.name, location: row.location, eventDescription: row.eventDescription, dates: [...row.dates].sort(), price: row.price });
  const etag = (row: EventRow): string => `"${createHash('sha1').update(`${row.id}:${row.version}`).digest('hex').slice(0, 16)}"`;

  /** `limit` of at least 1, served as 30 above 30; `page` from 1; a page past the last one of a non-empty list is a 404. */
  const pageOf = <T>(all: readonly T[], query: URLSearchParams): T[] => {
    const number = (name: string, fallback: number): number => {
      const raw = query.get(name);
      if (raw === null) return fallback;
      if (!/^\d+$/.test(raw)) throw new Refused(400, `${name} must be a positive whole number`);
      return Number(raw);
    };
    const page = number('page', 1);
    const limit = Math.min(30, number('limit', 10));
    if (page < 1 || limit < 1) throw new Refused(400, 'page and limit start at 1');
    const from = (page - 1) * limit;
    if (page > 1 && from >= all.length) throw new Refused(404, `No page ${page}`);
    return all.slice(from, from + limit);
  };

  const dayParam = (query: URLSearchParams, name: string): number | undefined => {
    const raw = query.get(name);
    if (raw === null) return undefined;
    const day = dayNumber(raw);
    if (day === undefined) throw new Refused(400, `${name} is not a date`);
    return day;
  };

  const routes: Record<string, (request: IncomingMessage, response: ServerResponse, query: URLSearchParams, body: unknown, id: string) => void> = {
    'GET hours': (request, response, query) => {
      const today = todayNumber();
      const first = Math.max(today, dayParam(query, 'startDate') ?? today);
      const open: Record<string, string>[] = [];
      for (let day = first; day <= today + PUBLISHED_DAYS; day++) {
        const weekday = new Date(day * DAY_MS).getUTCDay();
        if (weekday === 0 || weekday === 6) continue;
        open.push({ date: dayText(day), timeOpen: weekday === 5 ? '10:00' : '09:00', timeClose: weekday === 5 ? '16:00' : '18:00' });
      }
      reply(request, response, 200, pageOf(open, query));
    },
    'GET events': (request, response, query) => {
      const from = dayParam(query, 'startDate') ?? todayNumber();
      const to = dayParam(query, 'endDate') ?? from + 7;
      // An event runs from its first to its last date: it is in a window it overlaps. A reversed window holds none.
      const shown = [...rows.values()]
        .filter((row) => {
          const days = row.dates.map((one) => dayNumber(one)!);
          return days.length > 0 && Math.min(...days) <= to && Math.max(...days) >= from;
        })
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1));
      reply(request, response, 200, pageOf(shown, query).map(view));
    },
    'POST events': (request, response, _query, body) => {
      const input = asObject(body);
      const values = { name: member(input, 'name'), location: member(input, 'location'), eventDescription: member(input, 'eventDescription'), dates: member(input, 'dates'), price: member(input, 'price') };
      const lacking = Object.entries(values).find(([, value]) => value === undefined);
      if (lacking !== undefined) throw new Refused(400, `${lacking[0]} is required`);
      const asked = input['eventId'];
      if (asked !== undefined && (typeof asked !== 'string' || !ID_SHAPE.test(asked))) throw new Refused(400, 'eventId must be a uuid');
      const id = typeof asked === 'string' ? asked.toLowerCase() : newId();
      if (rows.has(id)) throw new Refused(409, `Special event ${id} already exists`);
      const row: EventRow = { id, ...(values as Omit<EventRow, 'id' | 'version'>), price: single(values.price as number), version: 1 };
      rows.set(id, row);
      reply(request, response, 201, view(row), { location: `${MOUNT}/special-events/${id}`, etag: etag(row) });
    },
    'GET event': (request, response, _query, _body, id) => {
      const row = find(id);
      reply(request, response, 200, view(row), { etag: etag(row) });
    },
    'PATCH event': (request, response, _query, body, id) => {
      const row = find(id);
      const input = asObject(body);
      const changes: Partial<EventRow> = {};
      for (const name of ['name', 'location', 'eventDescription', 'dates', 'price'] as const) {
        const value = member(input, name);
        if (value !== undefined) Object.assign(changes, { [name]: name === 'price' ? single(value as number) : value });
      }
      if (Object.keys(changes).length === 0) throw new Refused(400, 'Nothing to update');
      const next: EventRow = { ...row, ...changes, version: row.version + 1 };
      rows.set(row.id, next);
      reply(request, response, 200, view(next), { etag: etag(next) });
    },
    'DELETE event': (request, response, _query, _body, id) => {
      rows.delete(find(id).id);
      reply(request, response, 204);
    },
    'POST tickets': (request, response, _query, body) => {
      const input = asObject(body);
      const type = input['ticketType'];
      if (type !== 'event' && type !== 'general') throw new Refused(400, 'ticketType must be event or general');
      if (dayNumber(input['ticketDate']) === undefined) throw new Refused(400, 'ticketDate must be a date');
      const email = input['email'];
      if (email !== undefined && (typeof email !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(email))) throw new Refused(400, 'email is not an address');
      const ticketId = input['ticketId'];
      if (ticketId !== undefined && (typeof ticketId !== 'string' || !ID_SHAPE.test(ticketId))) throw new Refused(400, 'ticketId must be a uuid');
      const eventId = input['eventId'];
      if (type === 'event' && eventId === undefined) throw new Refused(400, 'eventId is required for an event ticket');
      if (eventId !== undefined && (typeof eventId !== 'string' || !ID_SHAPE.test(eventId))) throw new Refused(400, 'eventId must be a uuid');
      const event = typeof eventId === 'string' ? find(eventId) : undefined;
      const issued = newId();
      ticketIds.add(issued);
      const code = `ticket-${type}-${randomBytes(4).toString('hex').slice(0, 6)}-${randomBytes(4).toString('hex').slice(0, 5)}`;
      const message = event === undefined ? 'Museum general entry ticket purchased' : 'Museum special event ticket purchased';
      reply(request, response, 201, { message, ticketId: issued, ...(event === undefined ? {} : { eventName: event.name }), ticketType: type, ticketDate: input['ticketDate'], confirmationCode: code });
    },
    'GET qr': (request, response, _query, _body, id) => {
      if (!ID_SHAPE.test(id) || !ticketIds.has(id.toLowerCase())) throw new Refused(404, `Ticket ${id} not found`);
      reply(request, response, 200, QR_PNG, { 'content-disposition': `inline; filename="ticket-${id}.png"` });
    },
  };

  /** The route key of a path below the mount (a trailing slash allowed), the id segment, and whether the path exists. */
  const routeOf = (method: string, path: string): { key: string | undefined; id: string; known: boolean } => {
    const segments = path.replace(/\/+$/, '').split('/').filter((one) => one !== '').map((one) => decodeURIComponent(one));
    const [head, id = '', tail] = segments;
    let name: string | undefined;
    if (segments.length === 1 && head === 'museum-hours') name = 'hours';
    else if (segments.length === 1 && head === 'special-events') name = 'events';
    else if (segments.length === 2 && head === 'special-events') name = 'event';
    else if (segments.length === 1 && head === 'tickets') name = 'tickets';
    else if (segments.length === 3 && head === 'tickets' && tail === 'qr') name = 'qr';
    const key = name === undefined ? undefined : `${method} ${name}`;
    return { key: key !== undefined && key in routes ? key : undefined, id, known: name !== undefined };
  };

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        const url = new URL(request.url ?? '/', 'http://museum.invalid');
        if (!url.pathname.startsWith(`${MOUNT}/`)) throw new Refused(404, 'Not found');
        const { key, id, known } = routeOf(request.method ?? 'GET', url.pathname.slice(MOUNT.length));
        if (key === undefined) throw new Refused(known ? 405 : 404, known ? 'Method not allowed' : 'Not found');
        if (!signedIn(request)) {
          response.setHeader('www-authenticate', 'Basic realm="Museum", charset="UTF-8"');
          throw new Refused(401, 'Sign in with your museum account');
        }
        let body: unknown;
        if (request.method === 'POST' || request.method === 'PATCH') {
          if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) throw new Refused(400, 'Send the body as application/json');
          try {
            body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
          } catch {
            throw new Refused(400, 'The body is not valid JSON');
          }
        }
        const declared = DECLARED_QUERY[key] ?? [];
        const stranger = [...url.searchParams.keys()].find((name) => !declared.includes(name));
        if (stranger !== undefined) throw new Refused(400, `Unknown query parameter ${stranger}`);
        routes[key]!(request, response, url.searchParams, body, id);
      } catch (error) {
        const status = error instanceof Refused ? error.status : 500;
        const detail = error instanceof Refused ? error.detail : 'Unexpected error';
        const title = status === 404 ? 'Not Found' : status === 401 ? 'Unauthorized' : status === 409 ? 'Conflict' : status === 405 ? 'Method Not Allowed' : 'Bad Request';
        const bytes = Buffer.from(JSON.stringify({ type: 'https://museum.invalid/problems/' + title.toLowerCase().replace(/ /g, '-'), title, status, detail, instance: request.url ?? '/' }));
        if (!response.headersSent) response.writeHead(status, { 'content-type': 'application/problem+json', 'content-length': bytes.length }).end(bytes);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${MOUNT}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error === undefined ? resolve() : reject(error)))),
  };
}
