import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A museum backend written from the text of Redocly's Museum API description (the shared corpus's
// museum/openapi.yaml) alone, as a backend team would write it from that page: plain node:http, its own in-memory
// state and validation, no code shared with mock/ or conformance/. Opening hours are computed for any day asked:
// every day from `startDate` on is a day with hours, so its pages never end. Each `MuseumFault` is one realistic
// bug; the test names the check of the suite that catches it.

/** One realistic bug to build into the server (none: the correct server). */
export type MuseumFault =
  | 'deleted-event-still-listed'
  | 'delete-keeps-event'
  | 'qr-as-octet-stream'
  | 'events-default-limit-ignored'
  | 'hours-limit-ignored'
  | 'hours-page-repeats'
  | 'events-limit-maximum-ignored'
  | 'dates-as-local-date-times'
  | 'event-drops-description'
  | 'price-as-string'
  | 'patch-replaces-event'
  | 'auth-not-enforced'
  | 'errors-as-json'
  | 'bad-uuid-500'
  | 'end-date-exclusive'
  | 'default-end-date-ignored'
  | 'start-date-ignored'
  | 'hours-twelve-hour-clock'
  | 'ticket-without-confirmation'
  | 'reversed-range-500'
  | 'events-page-ignored'
  | 'create-answers-200'
  | 'hours-start-day-before'
  | 'events-start-day-before'
  | 'ticket-date-today'
  | 'hours-later-pages-404';

/**
 * Options of {@link startMuseumServer}: the accepted Basic user name (any password), the fault, if any, and the
 * clock whose day is "today" for a window left open (default: the system clock).
 */
export interface MuseumOptions {
  user: string;
  fault?: MuseumFault;
  now?: () => Date;
}

/** A running museum server: its base URL (a free port of 127.0.0.1, paths at its root) and how to stop it. */
export interface RunningMuseum {
  baseUrl: string;
  close(): Promise<void>;
}

interface SpecialEvent {
  eventId: string;
  name: string;
  location: string;
  eventDescription: string;
  dates: string[];
  price: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// The description shows no QR image, only its media type: a 1x1 PNG stands for one.
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

class Problem extends Error {
  constructor(readonly status: number, readonly title: string) {
    super(title);
  }
}

function isDay(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

/** `day` moved by `count` days; `undefined` past the years a Date can hold. */
function plusDays(day: string, count: number): string | undefined {
  const parsed = new Date(`${day}T00:00:00Z`);
  parsed.setUTCDate(parsed.getUTCDate() + count);
  if (Number.isNaN(parsed.getTime()) || parsed.getUTCFullYear() > 9999) return undefined;
  return parsed.toISOString().slice(0, 10);
}


function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The event fields of a body (`partial` for PATCH: only those sent). Throws a 400 problem on any wrong one. */
function eventFields(body: unknown, partial: boolean): Partial<SpecialEvent> {
  if (!isRecord(body)) throw new Problem(400, 'The body must be a JSON object');
  const fields: Partial<SpecialEvent> = {};
  for (const name of ['name', 'location', 'eventDescription'] as const) {
    const value = body[name];
    if (value === undefined) {
      if (!partial) throw new Problem(400, `${name} is required`);
      continue;
    }
    if (typeof value !== 'string') throw new Problem(400, `${name} must be a string`);
    fields[name] = value;
  }
  if (body.dates === undefined) {
    if (!partial) throw new Problem(400, 'dates is required');
  } else {
    if (!Array.isArray(body.dates) || !body.dates.every(isDay)) throw new Problem(400, 'dates must be a list of dates (YYYY-MM-DD)');
    fields.dates = body.dates as string[];
  }
  if (body.price === undefined) {
    if (!partial) throw new Problem(400, 'price is required');
  } else {
    if (typeof body.price !== 'number' || !Number.isFinite(body.price)) throw new Problem(400, 'price must be a number');
    fields.price = body.price;
  }
  if (body.eventId !== undefined && (typeof body.eventId !== 'string' || !UUID.test(body.eventId))) throw new Problem(400, 'eventId must be a uuid');
  return fields;
}

function integerQuery(query: URLSearchParams, name: string, fallback: number): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  if (!/^-?\d+$/.test(raw)) throw new Problem(400, `${name} must be an integer`);
  return Number(raw);
}

function dayQuery(query: URLSearchParams, name: string, fallback: string): string {
  const raw = query.get(name);
  if (raw === null) return fallback;
  if (!isDay(raw)) throw new Problem(400, `${name} must be a date (YYYY-MM-DD)`);
  return raw;
}

/** `page` (from 1, default 1) and `limit` (default 10, at most 30) as the shared parameters state. */
function paging(query: URLSearchParams, fault: MuseumFault | undefined): { skip: number; limit: number } {
  const page = integerQuery(query, 'page', 1);
  const limit = integerQuery(query, 'limit', fault === 'events-default-limit-ignored' ? 25 : 10);
  if (page < 1) throw new Problem(400, 'page starts at 1');
  if (limit < 0 || (limit > 30 && fault !== 'events-limit-maximum-ignored')) throw new Problem(400, 'limit is between 0 and 30');
  return { skip: (page - 1) * limit, limit };
}

/** A day's hours: 09:00-18:00 on weekdays, 10:00-16:00 at weekends (the example's Friday hours, kept for both). */
function hoursOf(day: string, fault: MuseumFault | undefined): { date: string; timeOpen: string; timeClose: string } {
  const weekend = [0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay());
  if (fault === 'hours-twelve-hour-clock') return { date: day, timeOpen: weekend ? '10:00 AM' : '9:00 AM', timeClose: weekend ? '4:00 PM' : '6:00 PM' };
  return { date: day, timeOpen: weekend ? '10:00' : '09:00', timeClose: weekend ? '16:00' : '18:00' };
}

async function bodyText(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function jsonBody(request: IncomingMessage, text: string): unknown {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw new Problem(400, 'Send application/json');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Problem(400, 'The body is not JSON');
  }
}

/**
 * Starts the museum server on a free port of 127.0.0.1. Every operation asks for HTTP Basic credentials whose user
 * name is `options.user` (the description's global `MuseumPlaceholderAuth`); errors are `application/problem+json`
 * `{type, title}` (its `Error`); an event's `eventId` is the one the create sent, else a new uuid.
 */
export async function startMuseumServer(options: MuseumOptions): Promise<RunningMuseum> {
  const { fault } = options;
  const clock = options.now ?? ((): Date => new Date());
  const today = (): string => clock().toISOString().slice(0, 10);
  const events = new Map<string, SpecialEvent>();
  const cancelled = new Map<string, SpecialEvent>();
  const tickets = new Set<string>();

  const send = (response: ServerResponse, status: number, body?: unknown, type = 'application/json'): void => {
    if (body === undefined) {
      response.writeHead(status).end();
      return;
    }
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
    response.writeHead(status, { 'content-type': type, 'content-length': bytes.length }).end(bytes);
  };

  const shown = (event: SpecialEvent): Record<string, unknown> => {
    const { eventDescription, ...rest } = event;
    const dates = fault === 'dates-as-local-date-times' ? event.dates.map((day) => `${day}T00:00:00`) : event.dates;
    const price = fault === 'price-as-string' ? String(event.price) : event.price;
    return { ...rest, ...(fault === 'event-drops-description' ? {} : { eventDescription }), dates, price };
  };

  const authorised = (request: IncomingMessage): boolean => {
    if (fault === 'auth-not-enforced') return true;
    const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(request.headers.authorization ?? '');
    if (match === null) return false;
    const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon >= 0 && decoded.slice(0, colon) === options.user;
  };

  const eventAt = (id: string): SpecialEvent => {
    if (!UUID.test(id)) {
      if (fault === 'bad-uuid-500') throw new Error('not a uuid');
      throw new Problem(400, 'eventId must be a uuid');
    }
    const held = events.get(id.toLowerCase());
    if (held === undefined) throw new Problem(404, 'No such special event');
    return held;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://museum.invalid');
    const path = url.pathname.split('/').slice(1).map((segment) => decodeURIComponent(segment));
    const method = request.method ?? 'GET';
    const text = await bodyText(request);
    const route = `${method} /${path.map((segment, index) => (index === 1 && path[0] !== 'museum-hours' ? '{id}' : segment)).join('/')}`;
    const routes = ['GET /museum-hours', 'POST /special-events', 'GET /special-events', 'GET /special-events/{id}', 'PATCH /special-events/{id}', 'DELETE /special-events/{id}', 'POST /tickets', 'GET /tickets/{id}/qr'];
    if (!routes.includes(route)) {
      const knownPath = routes.some((known) => known.split(' ')[1] === route.split(' ')[1]);
      throw new Problem(knownPath ? 405 : 404, knownPath ? 'Method not allowed' : 'Not found');
    }
    if (!authorised(request)) {
      response.setHeader('www-authenticate', 'Basic realm="museum"');
      throw new Problem(401, 'Credentials required');
    }
    const query = url.searchParams;
    switch (route) {
      case 'GET /museum-hours': {
        // "Starting date to retrieve future operating hours from": every day from it on has hours, page by page.
        const start = dayQuery(query, 'startDate', today());
        const { skip, limit } = paging(query, fault === 'events-default-limit-ignored' ? undefined : fault);
        // Every page after the first is "not found", though the hours never end: 404 is documented, the end is not there.
        if (fault === 'hours-later-pages-404' && skip > 0) throw new Problem(404, 'No such page');
        const skipped = fault === 'hours-page-repeats' ? 0 : skip;
        const days: ReturnType<typeof hoursOf>[] = [];
        const count = fault === 'hours-limit-ignored' ? 10 : limit;
        for (let index = 0; index < count; index++) {
          // A start read in a zone west of UTC lists the day before the one asked first.
          const day = plusDays(start, skipped + index - (fault === 'hours-start-day-before' ? 1 : 0));
          if (day === undefined) break;
          days.push(hoursOf(day, fault));
        }
        return send(response, 200, days);
      }
      case 'POST /special-events': {
        const body = jsonBody(request, text);
        const fields = eventFields(body, false) as SpecialEvent;
        // The create takes a whole `SpecialEvent`, `eventId` included: one sent is kept, a taken one refused.
        const chosen = isRecord(body) && typeof body.eventId === 'string' ? body.eventId.toLowerCase() : undefined;
        if (chosen !== undefined && events.has(chosen)) throw new Problem(400, 'A special event with this eventId exists');
        const event: SpecialEvent = { ...fields, eventId: chosen ?? randomUUID() };
        events.set(event.eventId, event);
        return send(response, fault === 'create-answers-200' ? 200 : 201, shown(event));
      }
      case 'GET /special-events': {
        const start = dayQuery(query, 'startDate', today());
        // "Defaults to 7 days after startDate": both ends are days of the window.
        const end = dayQuery(query, 'endDate', fault === 'default-end-date-ignored' ? '9999-12-31' : (plusDays(start, 7) ?? start));
        if (end < start) {
          if (fault === 'reversed-range-500') throw new Error('negative window');
          throw new Problem(400, 'endDate is before startDate');
        }
        const { skip, limit } = paging(query, fault);
        const listed = [...events.values(), ...(fault === 'deleted-event-still-listed' ? cancelled.values() : [])];
        // A start read in a zone west of UTC takes in the day before it.
        const from = fault === 'events-start-day-before' ? (plusDays(start, -1) ?? start) : start;
        const inWindow = listed.filter((event) => event.dates.some((day) => (fault === 'start-date-ignored' || day >= from) && (fault === 'end-date-exclusive' ? day < end : day <= end)));
        const first = fault === 'events-page-ignored' ? 0 : skip;
        return send(response, 200, inWindow.slice(first, first + limit).map(shown));
      }
      case 'GET /special-events/{id}':
        return send(response, 200, shown(eventAt(path[1]!)));
      case 'PATCH /special-events/{id}': {
        const held = eventAt(path[1]!);
        const changes = eventFields(jsonBody(request, text), true);
        const base = fault === 'patch-replaces-event' ? { name: '', location: '', eventDescription: '', dates: [], price: 0 } : held;
        const updated: SpecialEvent = { ...base, ...changes, eventId: held.eventId };
        events.set(held.eventId, updated);
        return send(response, 200, shown(updated));
      }
      case 'DELETE /special-events/{id}': {
        const held = eventAt(path[1]!);
        if (fault !== 'delete-keeps-event') events.delete(held.eventId);
        cancelled.set(held.eventId, held);
        return send(response, 204);
      }
      case 'POST /tickets': {
        const body = jsonBody(request, text);
        if (!isRecord(body)) throw new Problem(400, 'The body must be a JSON object');
        const { ticketType, ticketDate, email, eventId } = body;
        if (ticketType !== 'general' && ticketType !== 'event') throw new Problem(400, 'ticketType is general or event');
        if (!isDay(ticketDate)) throw new Problem(400, 'ticketDate must be a date (YYYY-MM-DD)');
        if (email !== undefined && (typeof email !== 'string' || !EMAIL.test(email))) throw new Problem(400, 'email must be an email address');
        if (body.ticketId !== undefined && (typeof body.ticketId !== 'string' || !UUID.test(body.ticketId))) throw new Problem(400, 'ticketId must be a uuid');
        if (eventId !== undefined) {
          if (typeof eventId !== 'string' || !UUID.test(eventId)) throw new Problem(400, 'eventId must be a uuid');
          if (!events.has(eventId.toLowerCase())) throw new Problem(404, 'No such special event');
        }
        const ticketId = randomUUID();
        tickets.add(ticketId);
        const kind = ticketType === 'general' ? 'general entry' : 'special event';
        const confirmation = fault === 'ticket-without-confirmation' ? {} : { confirmationCode: `ticket-${ticketType}-${randomBytes(3).toString('hex')}-${randomBytes(3).toString('hex').slice(0, 5)}` };
        return send(response, 201, {
          message: `Museum ${kind} ticket purchased`,
          ticketId,
          ticketType,
          // The day of purchase put where the day the ticket is for belongs.
          ticketDate: fault === 'ticket-date-today' ? today() : ticketDate,
          ...(eventId === undefined ? {} : { eventId: eventId.toLowerCase() }),
          ...confirmation,
        });
      }
      case 'GET /tickets/{id}/qr': {
        const id = path[1]!;
        if (!UUID.test(id)) throw new Problem(400, 'ticketId must be a uuid');
        if (!tickets.has(id.toLowerCase())) throw new Problem(404, 'No such ticket');
        return send(response, 200, PNG, fault === 'qr-as-octet-stream' ? 'application/octet-stream' : 'image/png');
      }
    }
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (error instanceof Problem) {
        send(response, error.status, { type: 'about:blank', title: error.title }, fault === 'errors-as-json' ? 'application/json' : 'application/problem+json');
        return;
      }
      send(response, 500, { type: 'about:blank', title: 'Internal error' }, 'application/problem+json');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error === undefined ? resolve() : reject(error)))),
  };
}
