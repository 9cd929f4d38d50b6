import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { STATIONS, TRIPS, type Trip } from './data.js';

// A second Train Travel backend written from the same text by another team, deciding each point the text leaves
// open the other way from train-travel-server.ts: a passenger's dog or bicycle is taken on any trip (the 409 is
// documented, never said to be for that), `bicycles=false`/`dogs=false` list only the trips that do not allow them,
// a trip's date is the origin station's local day and only departures from its time on are listed, a booking
// needs no passenger name (the schema requires none), a read-only `id` sent is refused, a malformed booking id is
// a 404, a create answers the booking without its links, an out-of-range `limit` is clamped, a payment stays
// `pending`, card numbers are masked with `X` by character, bookings list newest first, ids are UUIDv7, a token it
// does not know is a 403 where documented, problems carry `instance`, a bank account's sort code is held to the six
// digits its text asks for and a blank passenger name is refused (both with the documented 400 problem). Nothing is
// shared with the other server.

/** A booking as this server keeps it (members the description's `Booking` names). */
type Booking = { id: string; trip_id: string; passenger_name?: string; has_bicycle?: boolean; has_dog?: boolean };

/** A started rival server: its base URL and how to stop it. */
export interface TrainRivalServer {
  baseUrl: string;
  close(): Promise<void>;
}

type Answer = { status: number; body?: unknown; problem?: boolean };

const refuse = (status: number, title: string, detail: string): Answer => ({ status, problem: true, body: { type: 'about:blank', title, status, detail } });
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CURRENCIES = new Set(['bam', 'bgn', 'chf', 'eur', 'gbp', 'nok', 'sek', 'try']);

/** A UUIDv7 (RFC 9562): 48 bits of milliseconds, then random bits with the version and variant set. */
function uuidV7(): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(Date.now(), 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The local calendar day (YYYY-MM-DD) of instant `ms` in the IANA zone `zone`. */
function localDay(ms: number, zone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms));
}

/** Starts the rival on a free port of 127.0.0.1, accepting `Authorization: Bearer <token>` for `tokens`. */
export async function startTrainRivalServer(options: { tokens: readonly string[] }): Promise<TrainRivalServer> {
  const bookings: Booking[] = [];
  const tokens = new Set(options.tokens);

  const pageOf = (items: readonly unknown[], query: URLSearchParams, self: string): Answer => {
    const number = (name: string, fallback: number): number | undefined => {
      const text = query.get(name);
      if (text === null) return fallback;
      return /^-?\d{1,15}$/.test(text.trim()) ? Number(text.trim()) : undefined;
    };
    const page = number('page', 1);
    const asked = number('limit', 10);
    if (page === undefined || page < 1 || asked === undefined) return refuse(400, 'Bad Request', 'page and limit are whole numbers');
    const limit = Math.min(100, Math.max(1, asked));
    const data = items.slice((page - 1) * limit, page * limit);
    const at = (n: number): string => {
      const copy = new URLSearchParams(query);
      copy.set('page', String(n));
      copy.set('limit', String(limit));
      return `${self}?${copy.toString()}`;
    };
    return { status: 200, body: { data, links: { self: at(page), ...(page * limit < items.length ? { next: at(page + 1) } : {}), ...(page > 1 ? { prev: at(page - 1) } : {}) } } };
  };

  const stations = (query: URLSearchParams, root: string): Answer => {
    const search = (query.get('search') ?? '').toLocaleLowerCase();
    const country = query.get('country');
    const found = STATIONS.filter((one) => (search === '' || `${one.name} ${one.address}`.toLocaleLowerCase().includes(search)) && (country === null || one.country_code.toLowerCase() === country.toLowerCase()));
    // Coordinates this server cannot read narrow nothing: the search is a convenience, not a constraint.
    const near = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(query.get('coordinates') ?? '');
    const close = near === null ? found : found.filter((one) => Math.hypot(one.at[0] - Number(near[1]), one.at[1] - Number(near[2])) < 1);
    return pageOf(close.map((one) => ({ id: one.id, name: one.name, address: one.address, country_code: one.country_code, timezone: one.timezone })), query, `${root}/stations`);
  };

  const trips = (query: URLSearchParams, root: string): Answer => {
    const origin = STATIONS.find((one) => one.id === query.get('origin')?.toLowerCase());
    const destination = query.get('destination')?.toLowerCase();
    const date = query.get('date') ?? '';
    const when = Date.parse(date);
    if (!UUID_TEXT.test(query.get('origin') ?? '') || !UUID_TEXT.test(destination ?? '') || !/^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(date) || Number.isNaN(when)) return refuse(400, 'Bad Request', 'origin, destination (uuids) and date (date-time) are required');
    const flags: [keyof Trip, string | null][] = [['bicycles_allowed', query.get('bicycles')], ['dogs_allowed', query.get('dogs')]];
    if (flags.some(([, text]) => text !== null && text !== 'true' && text !== 'false')) return refuse(400, 'Bad Request', 'bicycles and dogs are true or false');
    if (origin === undefined) return pageOf([], query, `${root}/trips`);
    const day = localDay(when, origin.timezone);
    const found = TRIPS.filter((trip) => trip.origin === origin.id && trip.destination === destination && localDay(Date.parse(trip.departure_time), origin.timezone) === day && Date.parse(trip.departure_time) >= when)
      .filter((trip) => flags.every(([member, text]) => text === null || trip[member] === (text === 'true')))
      .map((trip) => ({ ...trip, links: { self: `${root}/trips/${trip.id}`, origin: `${root}/stations/${trip.origin}`, destination: `${root}/stations/${trip.destination}` } }));
    return pageOf(found, query, `${root}/trips`);
  };

  const shown = (booking: Booking, root: string): unknown => ({ ...booking, links: { self: `${root}/bookings/${booking.id}` } });

  const book = (body: unknown): Answer => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return refuse(400, 'Bad Request', 'a booking is an object');
    const fields = body as Record<string, unknown>;
    if ('id' in fields) return refuse(400, 'Bad Request', 'id is assigned by the server');
    const { trip_id: trip, passenger_name: name, has_bicycle: bicycle, has_dog: dog } = fields;
    if (typeof name === 'string' && name.trim() === '') return refuse(400, 'Bad Request', 'passenger_name cannot be blank');
    if (typeof trip !== 'string' || !UUID_TEXT.test(trip)) return refuse(400, 'Bad Request', 'trip_id names a trip (uuid)');
    if ((name !== undefined && typeof name !== 'string') || ![bicycle, dog].every((flag) => flag === undefined || typeof flag === 'boolean')) return refuse(400, 'Bad Request', 'passenger_name is a string, has_bicycle and has_dog booleans');
    if (!TRIPS.some((one) => one.id === trip.toLowerCase())) return refuse(404, 'Not Found', 'no such trip');
    const booking: Booking = { id: uuidV7(), trip_id: trip };
    if (name !== undefined) booking.passenger_name = name as string;
    if (bicycle !== undefined) booking.has_bicycle = bicycle as boolean;
    if (dog !== undefined) booking.has_dog = dog as boolean;
    bookings.unshift(booking);
    // The create answers the booking alone: its links are for reads.
    return { status: 201, body: { ...booking } };
  };

  const find = (id: string): Booking | undefined => bookings.find((one) => one.id === id.toLowerCase());

  const pay = (booking: Booking, body: unknown, root: string): Answer => {
    const bad = (detail: string): Answer => refuse(400, 'Bad Request', detail);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return bad('a payment is an object');
    const { amount, currency, source } = body as Record<string, unknown>;
    if (typeof amount !== 'number' || amount <= 0) return bad('amount is above 0');
    if (typeof currency !== 'string' || !CURRENCIES.has(currency)) return bad('currency is a lowercase ISO 4217 code of the list');
    if (typeof source !== 'object' || source === null || Array.isArray(source)) return bad('source is a card or a bank account');
    const given = source as Record<string, unknown>;
    const kinds = {
      card: { members: { object: 'card', name: '', number: '', cvc: '', exp_month: 0, exp_year: 0, address_line1: '', address_line2: '', address_city: '', address_country: '', address_post_code: '' }, needed: ['name', 'number', 'cvc', 'exp_month', 'exp_year', 'address_country'] },
      bank_account: { members: { object: 'bank_account', name: '', number: '', sort_code: '', account_type: '', bank_name: '', country: '' }, needed: ['name', 'number', 'account_type', 'bank_name', 'country'] },
    };
    const matching = Object.entries(kinds).filter(([tag, kind]) => (given['object'] === undefined || given['object'] === tag)
      && Object.entries(given).every(([key, value]) => key in kind.members && (key === 'object' || (typeof (kind.members as Record<string, unknown>)[key] === 'number' ? Number.isInteger(value) : typeof value === 'string')))
      && kind.needed.every((key) => key in given));
    if (matching.length !== 1) return bad('source must be exactly one of a card or a bank account');
    const [tag] = matching[0]!;
    if (tag === 'card' && !/^.{3,4}$/su.test(given['cvc'] as string)) return bad('cvc has 3 or 4 characters');
    if (tag === 'bank_account' && given['account_type'] !== 'individual' && given['account_type'] !== 'company') return bad('account_type is individual or company');
    // "The sort code for the bank account, in string form. Must be a six-digit number."
    if (tag === 'bank_account' && given['sort_code'] !== undefined && !/^[0-9]{6}$/.test(given['sort_code'] as string)) return bad('sort_code must be a six-digit number');
    const kept = Object.fromEntries(Object.entries(given).filter(([key]) => !['cvc', 'address_line1', 'address_line2'].includes(key)));
    const number = String(given['number']);
    kept['number'] = number.replace(/.(?=.{4})/gsu, 'X');
    return { status: 200, body: { id: uuidV7(), amount, currency, source: kept, status: 'pending', links: { booking: `${root}/bookings/${booking.id}` } } };
  };

  const answer = async (request: IncomingMessage): Promise<Answer> => {
    const url = new URL(request.url ?? '/', 'http://rival');
    const root = `http://${request.headers.host ?? 'localhost'}`;
    const parts = url.pathname.split('/').slice(1);
    const method = request.method ?? 'GET';
    const known = (parts.length === 1 && ['stations', 'trips', 'bookings'].includes(parts[0]!)) || (parts[0] === 'bookings' && (parts.length === 2 || (parts.length === 3 && parts[2] === 'payment')));
    if (!known) return refuse(404, 'Not Found', 'no such resource');
    const bearer = /^bearer\s+(.+)$/i.exec(request.headers.authorization ?? '');
    if (bearer === null) return refuse(401, 'Unauthorized', 'sign in with OAuth 2.0');
    // A token this server does not know is insufficient for access: 403 wherever the description documents it
    // (every operation but the booking create).
    if (!tokens.has(bearer[1]!.trim())) return method === 'POST' && parts.length === 1 ? refuse(401, 'Unauthorized', 'sign in with OAuth 2.0') : refuse(403, 'Forbidden', 'this token grants no access');
    let body: unknown;
    if (method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) return refuse(400, 'Bad Request', 'send application/json');
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
      } catch {
        return refuse(400, 'Bad Request', 'malformed JSON');
      }
    }
    const query = url.searchParams;
    if (parts.length === 1 && method === 'GET' && parts[0] === 'stations') return stations(query, root);
    if (parts.length === 1 && method === 'GET' && parts[0] === 'trips') return trips(query, root);
    if (parts.length === 1 && method === 'GET') return pageOf(bookings.map((one) => shown(one, root)), query, `${root}/bookings`);
    if (parts.length === 1 && method === 'POST' && parts[0] === 'bookings') return book(body);
    const booking = parts[0] === 'bookings' && parts.length >= 2 ? find(decodeURIComponent(parts[1]!)) : undefined;
    if (parts.length === 2 && (method === 'GET' || method === 'DELETE')) {
      if (booking === undefined) return refuse(404, 'Not Found', 'no such booking');
      if (method === 'GET') return { status: 200, body: shown(booking, root) };
      bookings.splice(bookings.indexOf(booking), 1);
      return { status: 204 };
    }
    if (parts.length === 3 && method === 'POST') return booking === undefined ? refuse(404, 'Not Found', 'no such booking') : pay(booking, body, root);
    return refuse(405, 'Method Not Allowed', `${method} is not served here`);
  };

  const server = createServer((request, response: ServerResponse) => {
    answer(request).then((result) => {
      const text = result.body === undefined ? '' : JSON.stringify(result.problem === true ? { ...(result.body as object), instance: request.url } : result.body);
      const headers: Record<string, string> = result.body === undefined ? {} : { 'content-type': result.problem === true ? 'application/problem+json; charset=utf-8' : 'application/json; charset=utf-8' };
      if (result.status === 200) headers['cache-control'] = 'private, max-age=60';
      response.writeHead(result.status, headers).end(text);
    }, () => response.writeHead(400, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ type: 'about:blank', title: 'Bad Request', status: 400 })));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
