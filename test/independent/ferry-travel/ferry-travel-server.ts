import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FERRY_CROSSINGS, FERRY_PORTS, type Crossing } from './data.js';
import type { FerryFault } from './faults.js';

// A ferry-travel backend written from the text of spec/wild/ferry-travel-3.1.yaml alone, as a backend engineer
// would write it: plain node:http, its own in-memory state, sharing no code with the mock or the suite. It does
// what the spec's prose says, not only what its schemas encode: crossings are listed from a date that defaults to
// today (the "upcoming" crossings), a reservation must name a crossing that exists (the documented 404), a card's
// `address_country` is two letters (ISO 3166-1 alpha-2), and every error is `application/problem+json`.
// `fault` turns one realistic bug on; without it the server is meant to be correct.

/** A reservation as stored: the members the spec's `Reservation` names, nothing else. */
interface Reservation {
  id: string;
  crossing_id: string;
  passenger_name: string;
  has_car?: boolean;
  has_pet?: boolean;
}

/** A problem (RFC 9457) answer, the spec's `Problem` shape. */
class Problem extends Error {
  constructor(readonly status: number, readonly title: string, readonly detail: string) {
    super(detail);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const CURRENCIES = ['eur', 'gbp', 'nok', 'sek', 'dkk'];
const PREFIX = '/v1';

/** A started server: its base URL (ending `/v1`, as the spec's server) and how to stop it. */
export interface FerryServer {
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * Starts the server on a free port of 127.0.0.1, accepting `Authorization: Bearer <token>` for `tokens`, with the
 * timetable `crossings` (default: {@link FERRY_CROSSINGS}).
 */
export async function startFerryServer(options: { tokens: readonly string[]; fault?: FerryFault; crossings?: readonly Crossing[]; now?: () => Date }): Promise<FerryServer> {
  const app = new FerryApp(options.tokens, options.fault, options.crossings ?? FERRY_CROSSINGS, options.now ?? ((): Date => new Date()));
  const server: Server = createServer((request, response) => {
    app.handle(request, response).catch(() => {
      if (!response.headersSent) send(response, 500, { title: 'Internal Server Error', status: 500 }, 'application/problem+json');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${PREFIX}`,
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

class FerryApp {
  private readonly reservations = new Map<string, Reservation>();

  constructor(
    private readonly tokens: readonly string[],
    private readonly fault: FerryFault | undefined,
    private readonly crossings: readonly Crossing[],
    private readonly now: () => Date,
  ) {}

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const base = `http://${request.headers.host ?? 'localhost'}${PREFIX}`;
    try {
      if (!url.pathname.startsWith(`${PREFIX}/`)) throw new Problem(404, 'Not Found', 'no such path');
      const path = url.pathname.slice(PREFIX.length);
      const method = request.method ?? 'GET';
      const route = this.route(method, path);
      if (route === undefined) throw new Problem(404, 'Not Found', `no operation ${method} ${path}`);
      if (!this.authorised(request, route.write)) throw new Problem(401, 'Unauthorized', 'a valid bearer token is required');
      const body = method === 'POST' ? await this.jsonBody(request) : undefined;
      const [status, answer] = route.run(url.searchParams, body, base);
      response.setHeader('RateLimit', 'limit=1000, remaining=999, reset=60');
      if (this.fault === 'delete-answers-200' && status === 204) return send(response, 200, { deleted: true });
      send(response, status, answer);
    } catch (failure) {
      const problem = failure instanceof Problem ? failure : new Problem(400, 'Bad Request', 'the request could not be read');
      const type = this.fault === 'errors-as-plain-json' ? 'application/json' : 'application/problem+json';
      send(response, problem.status, { type: 'about:blank', title: problem.title, status: problem.status, detail: problem.detail }, type);
    }
  }

  private authorised(request: IncomingMessage, write: boolean): boolean {
    if (this.fault === 'create-without-auth' && write) return true;
    if (this.fault === 'list-without-auth' && request.method === 'GET' && (request.url ?? '').split('?')[0] === `${PREFIX}/reservations`) return true;
    const header = request.headers.authorization ?? '';
    const match = /^Bearer (\S+)$/i.exec(header);
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

  private route(method: string, path: string): { write: boolean; run: (query: URLSearchParams, body: unknown, base: string) => [number, unknown] } | undefined {
    const segments = path.split('/').filter((segment) => segment !== '');
    if (segments.length === 1 && method === 'GET' && segments[0] === 'ports') return { write: false, run: (query, _body, base) => this.listPorts(query, base) };
    if (segments.length === 1 && method === 'GET' && segments[0] === 'crossings') return { write: false, run: (query, _body, base) => this.listCrossings(query, base) };
    if (segments.length === 1 && segments[0] === 'reservations') {
      if (method === 'GET') return { write: false, run: (query, _body, base) => this.listReservations(query, base) };
      if (method === 'POST') return { write: true, run: (_query, body, base) => this.createReservation(body, base) };
    }
    if (segments.length === 2 && segments[0] === 'reservations') {
      const id = decodeURIComponent(segments[1]!);
      if (method === 'GET') return { write: false, run: (_query, _body, base) => [200, this.withLinks(this.reservation(id), base)] };
      if (method === 'DELETE') return { write: true, run: () => this.deleteReservation(id) };
    }
    if (segments.length === 3 && segments[0] === 'reservations' && segments[2] === 'payment' && method === 'POST') {
      const id = decodeURIComponent(segments[1]!);
      return { write: false, run: (_query, body, base) => this.pay(id, body, base) };
    }
    return undefined;
  }

  /** `page` (≥ 1, default 1) and `limit` (1..100, default 10) of a list, refused with 400 outside those bounds. */
  private paging(query: URLSearchParams, path: string): { page: number; limit: number } {
    const read = (name: string, fallback: number, max: number): number => {
      const values = query.getAll(name);
      if (values.length === 0) return fallback;
      const value = Number(values[0]);
      if (this.fault === 'ports-bad-limit-500' && path === '/ports' && name === 'limit' && Number.isNaN(value)) throw new Problem(500, 'Internal Server Error', 'NaN is not a page size');
      if (values.length > 1 || !/^\d+$/.test(values[0]!) || value < 1 || value > max) throw new Problem(400, 'Bad Request', `${name} must be an integer from 1 to ${max}`);
      return value;
    };
    const limitMax = this.fault === 'limit-maximum-not-enforced' ? Number.MAX_SAFE_INTEGER : 100;
    return { page: read('page', 1, Number.MAX_SAFE_INTEGER), limit: read('limit', this.fault === 'default-limit-20' || (this.fault === 'crossings-default-limit-20' && path === '/crossings') ? 20 : 10, limitMax) };
  }

  /** One page of `items` with `links` (self, next, prev) as the spec's collection wrapper has them. */
  private page<T>(items: readonly T[], query: URLSearchParams, base: string, path: string): [number, unknown] {
    const { page, limit } = this.paging(query, path);
    let start = (page - 1) * limit;
    let size = limit;
    if (this.fault === 'page-two-repeats-page-one' && page === 2) start = 0;
    if (this.fault === 'page-skips-one' && page > 1) start += 1;
    if (this.fault === 'limit-ignored') size = 10;
    if (this.fault === 'limit-plus-one') size = limit + 1;
    // Faults of the served lists alone, which the suite can only read.
    if (this.fault === 'ports-page-two-repeats-page-one' && path === '/ports' && page === 2) start = 0;
    if (this.fault === 'ports-limit-ignored' && path === '/ports') size = 10;
    if (this.fault === 'crossings-page-skips-one' && path === '/crossings' && page > 1) start += 1;
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

  private listPorts(query: URLSearchParams, base: string): [number, unknown] {
    const search = query.get('search')?.toLowerCase();
    const country = this.fault === 'ports-country-filter-ignored' ? undefined : query.get('country')?.toUpperCase();
    const ports = FERRY_PORTS.filter((port) => (search === undefined || port.name.toLowerCase().includes(search)) && (country === undefined || port.country_code === country));
    return this.page(ports, query, base, '/ports');
  }

  /** Crossings between two ports departing at or after `date`, which defaults to today (the spec's prose). */
  private listCrossings(query: URLSearchParams, base: string): [number, unknown] {
    const origin = query.get('origin');
    const destination = query.get('destination');
    if (origin === null || destination === null || !UUID.test(origin) || !UUID.test(destination)) throw new Problem(400, 'Bad Request', 'origin and destination must be port ids');
    const dateText = query.get('date');
    const today = this.now();
    today.setUTCHours(0, 0, 0, 0);
    const from = dateText === null ? today : new Date(dateText);
    if (Number.isNaN(from.getTime()) || (dateText !== null && !/^\d{4}-\d{2}-\d{2}T/.test(dateText))) throw new Problem(400, 'Bad Request', 'date must be an ISO 8601 date and time');
    const flag = (name: string): boolean | undefined => {
      const value = query.get(name);
      if (value === null) return undefined;
      if (value !== 'true' && value !== 'false') throw new Problem(400, 'Bad Request', `${name} must be true or false`);
      return value === 'true';
    };
    const cars = this.fault === 'crossings-cars-filter-ignored' ? undefined : flag('cars');
    const pets = flag('pets');
    const matches = (crossing: Crossing): boolean =>
      crossing.origin === origin && crossing.destination === destination && Date.parse(crossing.departure_time) >= from.getTime() && (cars === undefined || crossing.cars_allowed === cars) && (pets === undefined || crossing.pets_allowed === pets);
    return this.page(this.crossings.filter(matches), query, base, '/crossings');
  }

  private listReservations(query: URLSearchParams, base: string): [number, unknown] {
    return this.page([...this.reservations.values()].map((reservation) => this.shown(reservation)), query, base, '/reservations');
  }

  /** A reservation as answered: its members, without the ones a fault loses. */
  private shown(reservation: Reservation): Reservation {
    if (this.fault === 'create-drops-has-pet') {
      const { has_pet: _dropped, ...rest } = reservation;
      return rest;
    }
    return reservation;
  }

  private withLinks(reservation: Reservation, base: string): unknown {
    return { ...this.shown(reservation), links: { self: `${base}/reservations/${reservation.id}` } };
  }

  private reservation(id: string): Reservation {
    if (!UUID.test(id)) throw new Problem(400, 'Bad Request', 'a reservation id is a uuid');
    const found = this.reservations.get(id.toLowerCase());
    if (found === undefined) throw new Problem(404, 'Not Found', `no reservation ${id}`);
    return found;
  }

  private createReservation(body: unknown, base: string): [number, unknown] {
    if (!isObject(body)) throw new Problem(400, 'Bad Request', 'a reservation is a JSON object');
    const { crossing_id: crossing, passenger_name: name, has_car: car, has_pet: pet } = body;
    if (typeof crossing !== 'string' || !UUID.test(crossing)) throw new Problem(400, 'Bad Request', 'crossing_id must be a crossing id (uuid)');
    if (typeof name !== 'string' && !(this.fault === 'passenger-name-not-required' && name === undefined)) throw new Problem(400, 'Bad Request', 'passenger_name is a required string');
    if ((car !== undefined && typeof car !== 'boolean') || (pet !== undefined && typeof pet !== 'boolean')) throw new Problem(400, 'Bad Request', 'has_car and has_pet are booleans');
    if (this.fault !== 'reference-not-checked' && !this.crossings.some((one) => one.id === crossing.toLowerCase())) throw new Problem(404, 'Not Found', `no crossing ${crossing}`);
    const id = this.fault === 'ids-not-uuid' ? String(this.reservations.size + 1).padStart(8, '0') : randomUUID();
    const reservation: Reservation = { id, crossing_id: crossing, passenger_name: typeof name === 'string' ? name : '' };
    if (car !== undefined) reservation.has_car = car;
    if (pet !== undefined) reservation.has_pet = pet;
    this.reservations.set(id, reservation);
    return [this.fault === 'create-answers-200' ? 200 : 201, this.withLinks(reservation, base)];
  }

  private deleteReservation(id: string): [number, unknown] {
    const found = this.reservation(id);
    if (this.fault !== 'delete-keeps-record') this.reservations.delete(found.id);
    return [204, undefined];
  }

  /** A payment: the body checked as the spec's `ReservationPayment` and its prose, answered without the writeOnly cvc. */
  private pay(id: string, body: unknown, base: string): [number, unknown] {
    if (!(this.fault === 'payment-parent-not-checked' && UUID.test(id))) this.reservation(id);
    if (!isObject(body)) throw new Problem(400, 'Bad Request', 'a payment is a JSON object');
    const { amount, currency, source } = body;
    const amountFloor = this.fault === 'payment-amount-zero-accepted' ? -Infinity : 0;
    if (typeof amount !== 'number' || !(amount > amountFloor)) throw new Problem(400, 'Bad Request', 'amount must be a number above 0');
    if (typeof currency !== 'string' || !CURRENCIES.includes(currency)) throw new Problem(400, 'Bad Request', `currency must be one of ${CURRENCIES.join(', ')}`);
    const checked = this.source(source);
    const { cvc: _cvc, ...shownSource } = checked;
    return [200, { id: randomUUID(), amount, currency, source: this.fault === 'payment-echoes-cvc' ? checked : shownSource, status: 'succeeded', links: { reservation: `${base}/reservations/${id}` } }];
  }

  /** A card or a bank account, exactly the members its kind allows (`unevaluatedProperties: false`). */
  private source(source: unknown): Record<string, unknown> {
    if (!isObject(source)) throw new Problem(400, 'Bad Request', 'source is a card or a bank account');
    const card = { name: 'string', number: 'string', cvc: 'string', exp_month: 'integer', exp_year: 'integer', address_country: 'string' };
    const bank = { name: 'string', number: 'string', sort_code: 'string', account_type: 'string', bank_name: 'string', country: 'string' };
    const required = { card: ['name', 'number', 'cvc', 'exp_month', 'exp_year', 'address_country'], bank: ['name', 'number', 'account_type', 'bank_name', 'country'] };
    const fits = (members: Record<string, string>, needed: string[], tag: string): boolean => {
      if (source['object'] !== undefined && source['object'] !== tag) return false;
      for (const [key, value] of Object.entries(source)) {
        if (key === 'object') continue;
        const kind = members[key];
        if (kind === undefined) return false;
        if (kind === 'integer' ? !Number.isInteger(value) : typeof value !== kind) return false;
      }
      return needed.every((key) => source[key] !== undefined);
    };
    const isCard = fits(card, required.card, 'card');
    const isBank = fits(bank, required.bank, 'bank_account');
    if (isCard === isBank) throw new Problem(400, 'Bad Request', 'source must be exactly one of a card or a bank account');
    if (isCard) {
      const cvc = source['cvc'] as string;
      if (!/^[0-9]{3,4}$/.test(cvc)) throw new Problem(400, 'Bad Request', 'cvc is 3 or 4 digits');
      const month = source['exp_month'] as number;
      const year = source['exp_year'] as number;
      if (month < 0 || month > 99 || year < 1000 || year > 9999) throw new Problem(400, 'Bad Request', 'exp_month has two digits and exp_year four');
      if (!/^[A-Za-z]{2}$/.test(source['address_country'] as string)) throw new Problem(400, 'Bad Request', 'address_country is a two-letter country code (ISO 3166-1 alpha-2)');
    } else if (!['individual', 'company'].includes(source['account_type'] as string)) {
      throw new Problem(400, 'Bad Request', 'account_type is individual or company');
    }
    return source;
  }
}
