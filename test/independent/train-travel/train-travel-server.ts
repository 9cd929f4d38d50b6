import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { STATIONS, TRIPS, type Station, type Trip } from './data.js';
import type { TrainFault } from './faults.js';

// A Train Travel backend written from the text of the public Train Travel description (OpenAPI 3.1, read from the
// shared corpus) alone, as a backend team would write it: plain node:http, its own in-memory state, sharing no code
// with the mock or the suite. It does what the prose says, not only what the schemas encode: trips are those of the
// given date between the two stations, `bicycles`/`dogs` only narrow the list when true ("only return trips where
// … known to be allowed"), a booking names a trip that exists (the documented 404) and one with a dog or a bicycle
// on a trip that allows none is refused with the documented 409, a card number is masked on read, and every error
// is `application/problem+json` (RFC 7807). `fault` turns one realistic bug on; without it the server is meant
// to be correct.

/** A booking as stored: the members the description's `Booking` names, nothing else. */
interface Booking {
  id: string;
  trip_id: string;
  passenger_name: string;
  has_bicycle?: boolean;
  has_dog?: boolean;
}

/** A problem (RFC 7807) answer, the description's `Problem` shape. */
class Problem extends Error {
  constructor(readonly status: number, readonly title: string, readonly detail: string) {
    super(detail);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CURRENCIES = ['bam', 'bgn', 'chf', 'eur', 'gbp', 'nok', 'sek', 'try'];
/** Stations within this distance of `coordinates` are "within a proximity" of it. */
const PROXIMITY_KM = 50;

/** A started server: its base URL (no path prefix, as the description's production server) and how to stop it. */
export interface TrainServer {
  baseUrl: string;
  close(): Promise<void>;
}

/** Starts the server on a free port of 127.0.0.1, accepting `Authorization: Bearer <token>` for `tokens`. */
export async function startTrainServer(options: { tokens: readonly string[]; fault?: TrainFault }): Promise<TrainServer> {
  const app = new TrainApp(options.tokens, options.fault);
  const server: Server = createServer((request, response) => {
    app.handle(request, response).catch(() => {
      if (!response.headersSent) send(response, 500, { title: 'Internal Server Error', status: 500 }, 'application/problem+json');
    });
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

function send(response: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  response.writeHead(status, body === undefined ? {} : { 'content-type': type, 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Great-circle distance in kilometres between two latitude/longitude pairs (degrees). */
function distanceKm(a: readonly [number, number], b: readonly [number, number]): number {
  const rad = (deg: number): number => (deg * Math.PI) / 180;
  const h = Math.sin(rad(b[0] - a[0]) / 2) ** 2 + Math.cos(rad(a[0])) * Math.cos(rad(b[0])) * Math.sin(rad(b[1] - a[1]) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

type Route = { write: boolean; run: (query: URLSearchParams, body: unknown, base: string) => [number, unknown] };

class TrainApp {
  private readonly bookings = new Map<string, Booking>();

  constructor(private readonly tokens: readonly string[], private readonly fault: TrainFault | undefined) {}

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const base = `http://${request.headers.host ?? 'localhost'}`;
    response.setHeader('RateLimit', 'limit=1000, remaining=999, reset=60');
    try {
      const method = request.method ?? 'GET';
      const route = this.route(method, url.pathname);
      if (route === undefined) throw new Problem(404, 'Not Found', `no operation ${method} ${url.pathname}`);
      if (!this.authorised(request, route.write)) throw new Problem(401, 'Unauthorized', 'a valid bearer token is required');
      const body = method === 'POST' ? await this.jsonBody(request) : undefined;
      const [status, answer] = route.run(url.searchParams, body, base);
      if (this.fault === 'delete-answers-200' && status === 204) return send(response, 200, { deleted: true });
      if (status === 200) response.setHeader('Cache-Control', 'no-store');
      send(response, status, answer);
    } catch (failure) {
      const problem = failure instanceof Problem ? failure : new Problem(400, 'Bad Request', 'the request could not be read');
      const type = this.fault === 'errors-as-plain-json' ? 'application/json' : 'application/problem+json';
      const slug = problem.title.toLowerCase().replace(/ /g, '-');
      send(response, problem.status, { type: `https://example.com/errors/${slug}`, title: problem.title, status: problem.status, detail: problem.detail }, type);
    }
  }

  private authorised(request: IncomingMessage, write: boolean): boolean {
    if (this.fault === 'create-without-auth' && write && request.method === 'POST') return true;
    if (this.fault === 'list-without-auth' && request.method === 'GET' && (request.url ?? '').split('?')[0] === '/bookings') return true;
    const match = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '');
    return match !== null && this.tokens.includes(match[1]!);
  }

  private async jsonBody(request: IncomingMessage): Promise<unknown> {
    const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') throw new Problem(400, 'Bad Request', 'the body must be application/json');
    try {
      return JSON.parse(await readBody(request)) as unknown;
    } catch {
      throw new Problem(400, 'Bad Request', 'the body is not JSON');
    }
  }

  private route(method: string, path: string): Route | undefined {
    const segments = path.split('/').filter((segment) => segment !== '');
    if (segments.length === 1 && method === 'GET' && segments[0] === 'stations') return { write: false, run: (query, _body, base) => this.listStations(query, base) };
    if (segments.length === 1 && method === 'GET' && segments[0] === 'trips') return { write: false, run: (query, _body, base) => this.listTrips(query, base) };
    if (segments.length === 1 && segments[0] === 'bookings') {
      if (method === 'GET') return { write: false, run: (query, _body, base) => this.page([...this.bookings.values()].map((one) => this.shown(one)), query, base, '/bookings') };
      if (method === 'POST') return { write: true, run: (_query, body, base) => this.createBooking(body, base) };
    }
    if (segments.length === 2 && segments[0] === 'bookings') {
      const id = decodeURIComponent(segments[1]!);
      if (method === 'GET') return { write: false, run: (_query, _body, base) => [200, this.withLinks(this.booking(id), base)] };
      if (method === 'DELETE') return { write: true, run: () => this.deleteBooking(id) };
    }
    if (segments.length === 3 && segments[0] === 'bookings' && segments[2] === 'payment' && method === 'POST') {
      const id = decodeURIComponent(segments[1]!);
      return { write: true, run: (_query, body, base) => this.pay(id, body, base) };
    }
    return undefined;
  }

  /** `page` (≥ 1, default 1) and `limit` (1..100, default 10) of a list, refused with 400 outside those bounds. */
  private paging(query: URLSearchParams, path: string): { page: number; limit: number } {
    const read = (name: string, fallback: number, max: number): number => {
      const values = query.getAll(name);
      if (values.length === 0) return fallback;
      const value = Number(values[0]);
      if (this.fault === 'stations-bad-limit-500' && path === '/stations' && name === 'limit' && Number.isNaN(value)) throw new Problem(500, 'Internal Server Error', 'NaN is not a page size');
      if (values.length > 1 || !/^\d+$/.test(values[0]!) || value < 1 || value > max) throw new Problem(400, 'Bad Request', `${name} must be an integer from 1 to ${max}`);
      return value;
    };
    const limitMax = this.fault === 'bookings-limit-maximum-not-enforced' && path === '/bookings' ? Number.MAX_SAFE_INTEGER : 100;
    const defaultLimit = this.fault === 'stations-default-limit-20' && path === '/stations' ? 20 : 10;
    return { page: read('page', 1, Number.MAX_SAFE_INTEGER), limit: read('limit', defaultLimit, limitMax) };
  }

  /** One page of `items` in the description's collection wrapper: `data` and `links` (self, next, prev). */
  private page<T>(items: readonly T[], query: URLSearchParams, base: string, path: string): [number, unknown] {
    const { page, limit } = this.paging(query, path);
    let start = (page - 1) * limit;
    let size = limit;
    if (this.fault === 'stations-page-two-repeats-page-one' && path === '/stations' && page === 2) start = 0;
    if (this.fault === 'stations-limit-ignored' && path === '/stations') size = 10;
    if (this.fault === 'trips-page-skips-one' && path === '/trips' && page > 1) start += 1;
    if (this.fault === 'bookings-limit-plus-one' && path === '/bookings') size = limit + 1;
    const data = items.slice(start, start + size);
    const link = (at: number): string => {
      const copy = new URLSearchParams(query);
      copy.set('page', String(at));
      return `${base}${path}?${copy.toString()}`;
    };
    const links: Record<string, string> = { self: link(page) };
    if (start + limit < items.length) links['next'] = link(page + 1);
    if (page > 1) links['prev'] = link(page - 1);
    return [200, { data, links }];
  }

  /** Stations by name or address (`search`), country code, and proximity to `coordinates` ("lat,lon"). */
  private listStations(query: URLSearchParams, base: string): [number, unknown] {
    const search = query.get('search')?.toLowerCase();
    const country = this.fault === 'stations-country-filter-ignored' ? undefined : query.get('country')?.toUpperCase();
    const coordinates = query.get('coordinates');
    let near: [number, number] | undefined;
    if (coordinates !== null) {
      const parts = coordinates.split(',').map((part) => part.trim());
      const [lat, lon] = parts.map(Number);
      if (parts.length !== 2 || parts.some((part) => part === '') || !Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat!) > 90 || Math.abs(lon!) > 180) {
        throw new Problem(400, 'Bad Request', 'coordinates must be a latitude and a longitude separated by a comma');
      }
      near = [lat!, lon!];
    }
    const matches = (station: Station): boolean =>
      (search === undefined || station.name.toLowerCase().includes(search) || station.address.toLowerCase().includes(search)) &&
      (country === undefined || station.country_code === country) &&
      (near === undefined || distanceKm(near, station.at) <= PROXIMITY_KM);
    const shown = STATIONS.filter(matches).map(({ at: _at, ...station }) => station);
    return this.page(shown, query, base, '/stations');
  }

  /** Trips between two stations departing on the calendar day (UTC) of `date`, narrowed by `bicycles`/`dogs`. */
  private listTrips(query: URLSearchParams, base: string): [number, unknown] {
    const origin = query.get('origin');
    const destination = query.get('destination');
    if (origin === null || destination === null || !UUID.test(origin) || !UUID.test(destination)) throw new Problem(400, 'Bad Request', 'origin and destination must be station ids (uuid)');
    const dateText = query.get('date');
    if (dateText === null || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(dateText) || Number.isNaN(Date.parse(dateText))) {
      throw new Problem(400, 'Bad Request', 'date must be an ISO 8601 date and time');
    }
    const day = new Date(Date.parse(dateText)).toISOString().slice(0, 10);
    const flag = (name: string): boolean => {
      const value = query.get(name);
      if (value === null) return false;
      if (value !== 'true' && value !== 'false') throw new Problem(400, 'Bad Request', `${name} must be true or false`);
      return value === 'true';
    };
    const bicycles = flag('bicycles') && this.fault !== 'trips-bicycles-filter-ignored';
    const dogs = flag('dogs') && this.fault !== 'trips-dogs-filter-ignored';
    const matches = (trip: Trip): boolean =>
      trip.origin === origin.toLowerCase() && trip.destination === destination.toLowerCase() && trip.departure_time.slice(0, 10) === day && (!bicycles || trip.bicycles_allowed) && (!dogs || trip.dogs_allowed);
    const shown = TRIPS.filter(matches).map((trip) => ({
      ...trip,
      links: { self: `${base}/trips/${trip.id}`, origin: `${base}/stations/${trip.origin}`, destination: `${base}/stations/${trip.destination}` },
    }));
    return this.page(shown, query, base, '/trips');
  }

  /** A booking as answered: its members, without the ones a fault loses. */
  private shown(booking: Booking): Booking {
    if (this.fault === 'create-drops-has-dog') {
      const { has_dog: _dropped, ...rest } = booking;
      return rest;
    }
    return booking;
  }

  private withLinks(booking: Booking, base: string): unknown {
    return { ...this.shown(booking), links: { self: `${base}/bookings/${booking.id}` } };
  }

  private booking(id: string): Booking {
    if (!UUID.test(id)) {
      if (this.fault === 'bad-uuid-500') throw new Problem(500, 'Internal Server Error', `invalid input syntax for type uuid: "${id}"`);
      throw new Problem(400, 'Bad Request', 'a booking id is a uuid');
    }
    const found = this.bookings.get(id.toLowerCase());
    if (found === undefined) throw new Problem(404, 'Not Found', `no booking ${id}`);
    return found;
  }

  /** A booking: a trip that exists (404 otherwise), a passenger, and a bicycle or a dog only where the trip allows one (409). */
  private createBooking(body: unknown, base: string): [number, unknown] {
    if (!isObject(body)) throw new Problem(400, 'Bad Request', 'a booking is a JSON object');
    const { trip_id: tripId, passenger_name: name, has_bicycle: bicycle, has_dog: dog } = body;
    if (typeof tripId !== 'string' || !UUID.test(tripId)) throw new Problem(400, 'Bad Request', 'trip_id must be a trip id (uuid)');
    if (typeof name !== 'string') throw new Problem(400, 'Bad Request', 'passenger_name is a required string');
    if ((bicycle !== undefined && typeof bicycle !== 'boolean') || (dog !== undefined && typeof dog !== 'boolean')) throw new Problem(400, 'Bad Request', 'has_bicycle and has_dog are booleans');
    const trip = TRIPS.find((one) => one.id === tripId.toLowerCase());
    if (trip === undefined && this.fault !== 'booking-trip-not-checked') throw new Problem(404, 'Not Found', `no trip ${tripId}`);
    if (this.fault === 'booking-conflict-always') throw new Problem(409, 'Conflict', 'the trip is fully booked');
    if (trip !== undefined && bicycle === true && !trip.bicycles_allowed) throw new Problem(409, 'Conflict', 'bicycles are not allowed on this trip');
    if (trip !== undefined && dog === true && !trip.dogs_allowed) throw new Problem(409, 'Conflict', 'dogs are not allowed on this trip');
    const id = this.fault === 'ids-not-uuid' ? String(this.bookings.size + 1).padStart(8, '0') : randomUUID();
    const booking: Booking = { id, trip_id: tripId, passenger_name: name };
    if (bicycle !== undefined) booking.has_bicycle = bicycle;
    if (dog !== undefined) booking.has_dog = dog;
    this.bookings.set(id, booking);
    return [this.fault === 'create-answers-200' ? 200 : 201, this.withLinks(booking, base)];
  }

  private deleteBooking(id: string): [number, unknown] {
    const found = this.booking(id);
    if (this.fault !== 'delete-keeps-record') this.bookings.delete(found.id);
    return [204, undefined];
  }

  /** A payment: the body checked as `BookingPayment` and its prose, answered without writeOnly members, the number masked. */
  private pay(id: string, body: unknown, base: string): [number, unknown] {
    this.booking(id);
    if (!isObject(body)) throw new Problem(400, 'Bad Request', 'a payment is a JSON object');
    const { amount, currency, source } = body;
    const amountFloor = this.fault === 'payment-amount-zero-accepted' ? -Infinity : 0;
    if (typeof amount !== 'number' || !(amount > amountFloor)) throw new Problem(400, 'Bad Request', 'amount must be a number above 0');
    if (typeof currency !== 'string' || (this.fault !== 'payment-currency-not-checked' && !CURRENCIES.includes(currency))) throw new Problem(400, 'Bad Request', `currency must be one of ${CURRENCIES.join(', ')}`);
    const checked = this.source(source);
    const { cvc: _cvc, address_line1: _line1, address_line2: _line2, ...shown } = checked;
    const number = String(checked['number']);
    shown['number'] = `${'*'.repeat(Math.max(0, number.length - 4))}${number.slice(-4)}`;
    const answered = this.fault === 'payment-echoes-cvc' ? { ...shown, cvc: checked['cvc'] } : shown;
    return [200, { id: randomUUID(), amount, currency, source: answered, status: 'succeeded', links: { booking: `${base}/bookings/${id}` } }];
  }

  /** A card or a bank account, exactly the members its kind allows (`unevaluatedProperties: false`). */
  private source(source: unknown): Record<string, unknown> {
    if (!isObject(source)) throw new Problem(400, 'Bad Request', 'source is a card or a bank account');
    const card: Record<string, string> = { name: 'string', number: 'string', cvc: 'string', exp_month: 'integer', exp_year: 'integer', address_line1: 'string', address_line2: 'string', address_city: 'string', address_country: 'string', address_post_code: 'string' };
    const bank: Record<string, string> = { name: 'string', number: 'string', sort_code: 'string', account_type: 'string', bank_name: 'string', country: 'string' };
    const fits = (members: Record<string, string>, needed: readonly string[], tag: string): boolean => {
      if (source['object'] !== undefined && source['object'] !== tag) return false;
      for (const [key, value] of Object.entries(source)) {
        if (key === 'object') continue;
        const kind = members[key];
        if (kind === undefined) return false;
        if (kind === 'integer' ? !Number.isInteger(value) : typeof value !== kind) return false;
      }
      return needed.every((key) => source[key] !== undefined);
    };
    const isCard = fits(card, ['name', 'number', 'cvc', 'exp_month', 'exp_year', 'address_country'], 'card');
    const isBank = fits(bank, ['name', 'number', 'account_type', 'bank_name', 'country'], 'bank_account');
    if (isCard === isBank) throw new Problem(400, 'Bad Request', 'source must be exactly one of a card or a bank account');
    if (isCard) {
      const cvc = source['cvc'] as string;
      if (cvc.length < 3 || cvc.length > 4) throw new Problem(400, 'Bad Request', 'cvc has 3 or 4 characters');
    } else if (!['individual', 'company'].includes(source['account_type'] as string)) {
      throw new Problem(400, 'Bad Request', 'account_type is individual or company');
    }
    return source;
  }
}
