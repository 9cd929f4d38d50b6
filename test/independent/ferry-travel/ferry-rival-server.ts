import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A second ferry-travel backend written from the text of spec/wild/ferry-travel-3.1.yaml alone, by an engineer who
// on every point the spec leaves open took the other legitimate option than server.ts: its own timetable (none of
// the spec's example ids), departures written in the origin port's offset with milliseconds (`+01:00`), "today"
// counted from midnight UTC, ports by name, reservations newest first, `has_car`/`has_pet` filled with `false`, a
// malformed reservation id answered 404, a Location and `links.self` on creates, `links.next`/`prev` and a
// `meta.total` on pages, the `RateLimit` header on every answer, `application/json; charset=utf-8`, problem details
// with `status` and `instance`, any card country taken as sent. It shares no code with the mock, the suite or the
// first server.

/** Options of {@link startFerryRivalServer}: the bearer tokens it accepts. */
export interface FerryRivalOptions {
  tokens: readonly string[];
  /** Further legitimate choices, off by default: a car or pet on a crossing that takes none is a 409 (documented). */
  capacityConflict?: boolean;
  /** Further choices, off by default: a card's number answered masked to its last four digits (PCI DSS). */
  maskCardNumber?: boolean;
  /** Further choices, off by default: a query parameter the operation does not declare is a 400 (documented). */
  strictQuery?: boolean;
  /** The clock whose day is "today" for the timetable and a date left out (default: the system clock). */
  now?: () => Date;
}

/** A running server: its base URL (the spec's `/v1` under a free port of 127.0.0.1) and how to stop it. */
export interface RivalServer {
  baseUrl: string;
  close(): Promise<void>;
}

type Obj = Record<string, unknown>;

interface Harbour {
  id: string;
  name: string;
  country_code: string;
  offsetHours: number;
}

interface Sailing {
  id: string;
  origin: string;
  destination: string;
  departure_time: string;
  arrival_time: string;
  operator: string;
  price: number;
  cars_allowed: boolean;
  pets_allowed: boolean;
  departs: number;
}

const V1 = '/v1';
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const CURRENCIES = ['eur', 'gbp', 'nok', 'sek', 'dkk'];

/** A stable uuid (version 4 layout) from a name, so the timetable keeps its ids from one start to the next. */
function nameUuid(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** `at` (ms) written in a fixed offset of `hours`, with milliseconds: `2026-03-01T10:00:00.000+01:00`. */
function inOffset(at: number, hours: number): string {
  const local = new Date(at + hours * 3_600_000).toISOString().slice(0, 23);
  const sign = hours < 0 ? '-' : '+';
  return `${local}${sign}${String(Math.abs(hours)).padStart(2, '0')}:00`;
}

const HARBOURS: readonly Harbour[] = [
  ['Portsmouth International Port', 'GB', 0],
  ['Le Havre Terminal de la Citadelle', 'FR', 1],
  ['Caen Ouistreham', 'FR', 1],
  ['Hirtshals Havn', 'DK', 1],
  ['Kristiansand Ferjeterminal', 'NO', 1],
  ['Rosslare Europort', 'IE', 0],
].map(([name, country, offset]) => ({ id: nameUuid(`port ${String(name)}`), name: String(name), country_code: String(country), offsetHours: Number(offset) }));

/** The timetable: every route both ways, three sailings a day from five days ago to forty days ahead of `today`. */
function timetable(today: Date): Sailing[] {
  const routes: [number, number, string, number, number][] = [
    [0, 1, 'Solent Sea Lines', 330, 48],
    [0, 2, 'Solent Sea Lines', 360, 52.5],
    [3, 4, 'Skagerrak Shipping', 195, 39],
    [5, 1, 'Celtic Crossings', 1080, 119],
  ];
  const midnight = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  const sailings: Sailing[] = [];
  for (const [from, to, operator, minutes, price] of routes) {
    for (const [a, b] of [
      [from, to],
      [to, from],
    ] as const) {
      for (let day = -5; day < 40; day += 1) {
        for (const [slot, hour] of [7, 13, 21].entries()) {
          const departs = midnight + day * 86_400_000 + hour * 3_600_000;
          const origin = HARBOURS[a]!;
          const destination = HARBOURS[b]!;
          sailings.push({
            id: nameUuid(`sailing ${a} ${b} ${day} ${slot}`),
            origin: origin.id,
            destination: destination.id,
            departure_time: inOffset(departs, origin.offsetHours),
            arrival_time: inOffset(departs + minutes * 60_000, destination.offsetHours),
            operator,
            price: slot === 2 ? price * 0.8 : price,
            cars_allowed: slot !== 1,
            pets_allowed: slot !== 2,
            departs,
          });
        }
      }
    }
  }
  return sailings.sort((one, other) => one.departs - other.departs);
}

class Problem extends Error {
  constructor(readonly status: number, readonly title: string, readonly detail: string) {
    super(detail);
  }
}

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function instant(text: string): number | undefined {
  const parts = DATE_TIME.exec(text);
  if (parts === null) return undefined;
  const [, , mo, d, h, mi, s] = parts.map(Number) as number[];
  if (mo! < 1 || mo! > 12 || d! < 1 || d! > 31 || h! > 23 || mi! > 59 || s! > 60) return undefined;
  const at = Date.parse(text.replace(/t/, 'T').replace(/z$/, 'Z'));
  return Number.isNaN(at) ? undefined : at;
}

/**
 * Starts the rival ferry backend on a free port. Every operation asks for `Authorization: Bearer <token>` with one
 * of `options.tokens` (the spec's OAuth2 scheme, scopes not told apart); errors are `application/problem+json`.
 */
export async function startFerryRivalServer(options: FerryRivalOptions): Promise<RivalServer> {
  const clock = options.now ?? ((): Date => new Date());
  const sailings = timetable(clock());
  const sailingById = new Map(sailings.map((one) => [one.id, one]));
  const reservations = new Map<string, Obj>();
  let baseUrl = '';

  const reply = (response: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void => {
    const all: Record<string, string> = { ratelimit: 'limit=1000, remaining=999, reset=60', ...headers };
    if (body === undefined) {
      response.writeHead(status, all).end();
      return;
    }
    const bytes = Buffer.from(JSON.stringify(body), 'utf8');
    all['content-type'] ??= 'application/json; charset=utf-8';
    all['content-length'] = String(bytes.length);
    response.writeHead(status, all).end(bytes);
  };

  /** One page of `items` in the spec's wrapper, with links to the pages around it and the total. */
  const page = (url: URL, items: readonly unknown[]): Obj => {
    const read = (name: string, fallback: number, most: number): number => {
      const raw = url.searchParams.get(name);
      if (raw === null) return fallback;
      if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > most) throw new Problem(400, 'Bad Request', `${name} must be an integer from 1 to ${most}`);
      return Number(raw);
    };
    const number = read('page', 1, Number.MAX_SAFE_INTEGER);
    const limit = read('limit', 10, 100);
    const at = (which: number): string => {
      const link = new URL(`${baseUrl}${url.pathname.slice(V1.length)}${url.search}`);
      link.searchParams.set('page', String(which));
      link.searchParams.set('limit', String(limit));
      return link.toString();
    };
    const pages = Math.max(1, Math.ceil(items.length / limit));
    return {
      data: items.slice((number - 1) * limit, number * limit),
      links: { self: at(number), ...(number < pages ? { next: at(number + 1) } : {}), ...(number > 1 ? { prev: at(Math.min(number - 1, pages)) } : {}) },
      meta: { total: items.length, page: number, limit },
    };
  };

  const flag = (url: URL, name: string): boolean | undefined => {
    const raw = url.searchParams.get(name);
    if (raw === null) return undefined;
    if (raw !== 'true' && raw !== 'false') throw new Problem(400, 'Bad Request', `${name} must be true or false`);
    return raw === 'true';
  };

  const reservationAt = (id: string): Obj => {
    const held = UUID_TEXT.test(id) ? reservations.get(id.toLowerCase()) : undefined;
    if (held === undefined) throw new Problem(404, 'Not Found', `No reservation ${id}`);
    return held;
  };

  const withSelf = (reservation: Obj): Obj => ({ ...reservation, links: { self: `${baseUrl}/reservations/${String(reservation.id)}` } });

  const json = async (request: IncomingMessage): Promise<unknown> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const media = String(request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (media !== 'application/json') throw new Problem(415, 'Unsupported Media Type', 'Send application/json');
    try {
      return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    } catch {
      throw new Problem(400, 'Bad Request', 'The body is not JSON');
    }
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://rival.invalid');
    const path = url.pathname.replace(/\/$/, '');
    if (!path.startsWith(`${V1}/`)) throw new Problem(404, 'Not Found', 'No such resource');
    const segments = path.slice(V1.length + 1).split('/');
    const method = request.method ?? 'GET';
    const known = (segments[0] === 'ports' || segments[0] === 'crossings') && segments.length === 1 ? ['GET'] : segments[0] === 'reservations' ? (segments.length === 1 ? ['GET', 'POST'] : segments.length === 2 ? ['GET', 'DELETE'] : segments.length === 3 && segments[2] === 'payment' ? ['POST'] : []) : [];
    if (known.length === 0) throw new Problem(404, 'Not Found', 'No such resource');
    if (!known.includes(method)) throw new Problem(405, 'Method Not Allowed', `${method} is not allowed here`);
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (token === undefined || !options.tokens.includes(token)) throw new Problem(401, 'Unauthorized', 'A valid bearer token is required');

    if (options.strictQuery === true) {
      const declared = segments[0] === 'ports' ? ['page', 'limit', 'search', 'country'] : segments[0] === 'crossings' ? ['page', 'limit', 'origin', 'destination', 'date', 'cars', 'pets'] : segments.length === 1 && method === 'GET' ? ['page', 'limit'] : [];
      const unknown = [...url.searchParams.keys()].find((name) => !declared.includes(name));
      if (unknown !== undefined) throw new Problem(400, 'Bad Request', `Unknown query parameter '${unknown}'`);
    }
    if (segments[0] === 'ports') {
      const search = url.searchParams.get('search')?.trim().toLowerCase();
      const country = url.searchParams.get('country');
      if (country !== null && !/^[A-Za-z]{2}$/.test(country)) throw new Problem(400, 'Bad Request', 'country must be a two-letter ISO 3166-1 code');
      const hits = HARBOURS.filter((one) => (search === undefined || search === '' || one.name.toLowerCase().includes(search)) && (country === null || one.country_code === country.toUpperCase()))
        .map(({ offsetHours: _offset, ...port }) => port)
        .sort((one, other) => one.name.localeCompare(other.name));
      return reply(response, 200, page(url, hits));
    }
    if (segments[0] === 'crossings') {
      const origin = url.searchParams.get('origin');
      const destination = url.searchParams.get('destination');
      if (origin === null || destination === null || !UUID_TEXT.test(origin) || !UUID_TEXT.test(destination)) throw new Problem(400, 'Bad Request', 'origin and destination must be port ids');
      const date = url.searchParams.get('date');
      const today = clock();
      const from = date === null ? Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) : instant(date);
      if (from === undefined) throw new Problem(400, 'Bad Request', 'date must be an ISO 8601 date-time');
      const cars = flag(url, 'cars');
      const pets = flag(url, 'pets');
      const hits = sailings
        .filter((one) => one.origin === origin.toLowerCase() && one.destination === destination.toLowerCase() && one.departs >= from && (cars === undefined || one.cars_allowed === cars) && (pets === undefined || one.pets_allowed === pets))
        .map(({ departs: _departs, ...crossing }) => crossing);
      return reply(response, 200, page(url, hits));
    }
    if (segments.length === 1 && method === 'GET') return reply(response, 200, page(url, [...reservations.values()].reverse()));
    if (segments.length === 1) {
      const body = await json(request);
      if (!isObj(body)) throw new Problem(400, 'Bad Request', 'A reservation is an object');
      const { crossing_id: crossingId, passenger_name: passenger, has_car: car = false, has_pet: pet = false } = body;
      if (typeof crossingId !== 'string' || !UUID_TEXT.test(crossingId)) throw new Problem(400, 'Bad Request', 'crossing_id must be a uuid');
      if (typeof passenger !== 'string') throw new Problem(400, 'Bad Request', 'passenger_name must be a string');
      if (typeof car !== 'boolean' || typeof pet !== 'boolean') throw new Problem(400, 'Bad Request', 'has_car and has_pet are booleans');
      const sailing = sailingById.get(crossingId.toLowerCase());
      if (sailing === undefined) throw new Problem(404, 'Not Found', `No crossing ${crossingId}`);
      if (options.capacityConflict === true && ((car && !sailing.cars_allowed) || (pet && !sailing.pets_allowed))) throw new Problem(409, 'Conflict', 'This crossing takes no cars or no pets');
      const reservation: Obj = { id: randomUUID(), crossing_id: crossingId.toLowerCase(), passenger_name: passenger, has_car: car, has_pet: pet };
      reservations.set(reservation.id as string, reservation);
      return reply(response, 201, withSelf(reservation), { location: `${baseUrl}/reservations/${String(reservation.id)}` });
    }
    const reservation = reservationAt(segments[1]!);
    if (segments.length === 2 && method === 'GET') return reply(response, 200, withSelf(reservation));
    if (segments.length === 2) {
      reservations.delete(reservation.id as string);
      return reply(response, 204);
    }
    const body = await json(request);
    if (!isObj(body)) throw new Problem(400, 'Bad Request', 'A payment is an object');
    const { amount, currency, source } = body;
    if (typeof amount !== 'number' || !(amount > 0)) throw new Problem(400, 'Bad Request', 'amount must be a positive number');
    if (typeof currency !== 'string' || !CURRENCIES.includes(currency)) throw new Problem(400, 'Bad Request', `currency is one of ${CURRENCIES.join(', ')}`);
    if (!isObj(source)) throw new Problem(400, 'Bad Request', 'source must be a card or a bank account');
    const strings = (names: readonly string[]): boolean => names.every((name) => typeof source[name] === 'string');
    const allowed = (names: readonly string[]): boolean => Object.keys(source).every((name) => names.includes(name));
    const cardNames = ['object', 'name', 'number', 'cvc', 'exp_month', 'exp_year', 'address_country'];
    const bankNames = ['object', 'name', 'number', 'sort_code', 'account_type', 'bank_name', 'country'];
    const card =
      (source.object === undefined || source.object === 'card') &&
      allowed(cardNames) &&
      strings(['name', 'number', 'cvc', 'address_country']) &&
      Number.isInteger(source.exp_month) &&
      Number.isInteger(source.exp_year) &&
      (source.cvc as string).length >= 3 &&
      (source.cvc as string).length <= 4;
    const bank =
      (source.object === undefined || source.object === 'bank_account') &&
      allowed(bankNames) &&
      strings(['name', 'number', 'bank_name', 'country']) &&
      (source.sort_code === undefined || typeof source.sort_code === 'string') &&
      (source.account_type === 'individual' || source.account_type === 'company');
    if (card === bank) throw new Problem(400, 'Bad Request', 'source must be exactly one of a card or a bank account');
    const { cvc: _cvc, ...shownSource } = source;
    if (options.maskCardNumber === true && card) shownSource.number = `${'*'.repeat(Math.max(0, (source.number as string).length - 4))}${(source.number as string).slice(-4)}`;
    return reply(response, 200, { id: randomUUID(), amount, currency, source: shownSource, status: 'succeeded', links: { reservation: `${baseUrl}/reservations/${String(reservation.id)}` } });
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      const problem = error instanceof Problem ? error : new Problem(500, 'Internal Server Error', 'Something went wrong');
      reply(response, problem.status, { type: 'about:blank', title: problem.title, status: problem.status, detail: problem.detail, instance: request.url ?? '/' }, { 'content-type': 'application/problem+json; charset=utf-8' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}${V1}`;
  return {
    baseUrl,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error === undefined ? resolve() : reject(error)))),
  };
}
