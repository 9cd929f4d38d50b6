import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isLosslessNumber, parse, stringify, type LosslessNumber } from 'lossless-json';

// A marketplace backend written from the text of spec/wild/marketplace-3.1.yaml alone, as a backend engineer would
// write it: plain node:http, its own in-memory listings, sharing no code with the mock or the suite. Bounds are read
// as the parameter descriptions say (`min_price`/`max_price` and `serial_gte`/`serial_lte` inclusive,
// `weight_grams[gte]` at least, `weight_grams[lt]` lighter than), serial numbers are int64 kept digit for digit, and
// `min_price` above `max_price` is the documented 400. `fault` turns one realistic bug on; without it the server is
// meant to be correct.

/** One bug a marketplace backend could plausibly ship (see marketplace.test.ts for what each breaks). */
export type MarketFault =
  | 'min-price-ignored'
  | 'max-price-exclusive'
  | 'min-price-exclusive'
  | 'weight-lower-exclusive'
  | 'weight-upper-inclusive'
  | 'serial-bounds-as-doubles'
  | 'reversed-price-500'
  | 'reversed-price-empty'
  | 'weight-bounds-on-price'
  | 'shipping-min-cost-ignored'
  | 'shipping-max-cost-exclusive';

const PREFIX = '/v3';
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** A listing as stored; numbers kept as their JSON text so that they are answered exactly as sent. */
interface Listing {
  listing_id: string;
  title: string;
  price: LosslessNumber;
  weight_grams: LosslessNumber;
  serial_number?: LosslessNumber;
  seq: number;
}

interface ShippingProfile {
  id: number;
  carrier: string;
  cost: number;
  days: number;
  country: 'DE' | 'FR' | 'NL';
}

const PROFILES: readonly ShippingProfile[] = [
  { id: 11, carrier: 'Parcelpost', cost: 450, days: 3, country: 'DE' },
  { id: 12, carrier: 'Swiftbox', cost: 590, days: 2, country: 'DE' },
  { id: 13, carrier: 'Freightline', cost: 590, days: 5, country: 'DE' },
  { id: 14, carrier: 'Swiftbox Express', cost: 1200, days: 1, country: 'DE' },
  { id: 21, carrier: 'Parcelpost', cost: 700, days: 4, country: 'FR' },
  { id: 22, carrier: 'Swiftbox', cost: 990, days: 3, country: 'FR' },
  { id: 31, carrier: 'Parcelpost', cost: 520, days: 2, country: 'NL' },
];

class Refusal extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

const bad = (message: string): Refusal => new Refusal(400, 'INVALID_REQUEST', message);

/** An integer read from query text or a JSON number's text, within `[min, max]`; a refusal otherwise. */
function integerOf(text: string, name: string, min: bigint, max: bigint): bigint {
  const match = /^(-?\d+)(?:\.0+)?$/.exec(text);
  if (match === null) throw bad(`${name} must be an integer.`);
  const value = BigInt(match[1]!);
  if (value < min || value > max) throw bad(`${name} is out of range.`);
  return value;
}

function numberOf(text: string, name: string, min: number, max: number): number {
  if (!NUMBER.test(text)) throw bad(`${name} must be a number.`);
  const value = Number(text);
  if (!Number.isFinite(value) || value < min || value > max) throw bad(`${name} is out of range.`);
  return value;
}

/** The first value of a query parameter, when given. */
function one(query: URLSearchParams, name: string): string | undefined {
  return query.get(name) ?? undefined;
}

function validListing(body: unknown): Omit<Listing, 'listing_id' | 'seq'> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw bad('The body must be a JSON object.');
  const fields = body as Record<string, unknown>;
  if ('listing_id' in fields) throw bad('listing_id is assigned by the server.');
  const title = fields['title'];
  if (typeof title !== 'string' || [...title].length < 1 || [...title].length > 80) throw bad('title must be a text of 1 to 80 characters.');
  const price = fields['price'];
  if (!isLosslessNumber(price)) throw bad('price must be a number.');
  numberOf(price.value, 'price', 0, 1_000_000);
  const weight = fields['weight_grams'];
  if (!isLosslessNumber(weight)) throw bad('weight_grams must be an integer.');
  integerOf(weight.value, 'weight_grams', 1n, 100_000n);
  const serial = fields['serial_number'];
  if (serial !== undefined && !isLosslessNumber(serial)) throw bad('serial_number must be an integer.');
  if (serial !== undefined) integerOf(serial.value, 'serial_number', INT64_MIN, INT64_MAX);
  return { title, price, weight_grams: weight, ...(serial === undefined ? {} : { serial_number: serial }) };
}

const view = (listing: Listing): Record<string, unknown> => {
  const { seq: _seq, ...shown } = listing;
  return shown;
};

/** A started server: its base URL (ending `/v3`) and how to stop it. */
export interface MarketServer {
  baseUrl: string;
  close(): Promise<void>;
}

/** Starts the marketplace server on a free port, correct or with one `fault`; `key` is the bearer token it accepts. */
export async function startMarketServer(key: string, fault?: MarketFault): Promise<MarketServer> {
  const listings: Listing[] = [];
  let seq = 0;

  const searchListings = (query: URLSearchParams): unknown => {
    const limit = Number(integerOf(one(query, 'limit') ?? '25', 'limit', 1n, 100n));
    const offset = Number(integerOf(one(query, 'offset') ?? '0', 'offset', 0n, BigInt(Number.MAX_SAFE_INTEGER)));
    const price = (name: string): number | undefined => (one(query, name) === undefined ? undefined : numberOf(one(query, name)!, name, 0, Number.MAX_VALUE));
    const whole = (name: string, min: bigint, max: bigint): bigint | undefined => (one(query, name) === undefined ? undefined : integerOf(one(query, name)!, name, min, max));
    const minPrice = price('min_price');
    const maxPrice = price('max_price');
    const weightFrom = whole('weight_grams[gte]', 0n, INT64_MAX);
    const weightBelow = whole('weight_grams[lt]', 0n, INT64_MAX);
    const serialFrom = whole('serial_gte', INT64_MIN, INT64_MAX);
    const serialTo = whole('serial_lte', INT64_MIN, INT64_MAX);
    if (minPrice !== undefined && maxPrice !== undefined && minPrice > maxPrice) {
      if (fault === 'reversed-price-500') throw new Refusal(500, 'INTERNAL', 'Something went wrong.');
      if (fault === 'reversed-price-empty') return { results: [] };
      throw bad('min_price must not be greater than max_price.');
    }
    const held = listings.filter((listing) => {
      const cost = Number(listing.price.value);
      const weight = BigInt(listing.weight_grams.value.replace(/\.0+$/, ''));
      const weighed = fault === 'weight-bounds-on-price' ? BigInt(Math.floor(cost)) : weight;
      if (minPrice !== undefined && fault !== 'min-price-ignored' && (fault === 'min-price-exclusive' ? cost <= minPrice : cost < minPrice)) return false;
      if (maxPrice !== undefined && (fault === 'max-price-exclusive' ? cost >= maxPrice : cost > maxPrice)) return false;
      if (weightFrom !== undefined && (fault === 'weight-lower-exclusive' ? weighed <= weightFrom : weighed < weightFrom)) return false;
      if (weightBelow !== undefined && (fault === 'weight-upper-inclusive' ? weighed > weightBelow : weighed >= weightBelow)) return false;
      if (serialFrom === undefined && serialTo === undefined) return true;
      if (listing.serial_number === undefined) return false;
      const serial = BigInt(listing.serial_number.value.replace(/\.0+$/, ''));
      if (fault === 'serial-bounds-as-doubles') {
        return (serialFrom === undefined || Number(serial) >= Number(serialFrom)) && (serialTo === undefined || Number(serial) <= Number(serialTo));
      }
      return (serialFrom === undefined || serial >= serialFrom) && (serialTo === undefined || serial <= serialTo);
    });
    // Newest first.
    held.sort((a, b) => b.seq - a.seq);
    return { results: held.slice(offset, offset + limit).map(view) };
  };

  const shippingProfiles = (query: URLSearchParams): unknown => {
    const country = one(query, 'country');
    if (country !== undefined && !['DE', 'FR', 'NL'].includes(country)) throw bad('country must be DE, FR or NL.');
    const minCost = one(query, 'minCost') === undefined ? undefined : integerOf(one(query, 'minCost')!, 'minCost', 0n, INT64_MAX);
    const maxCost = one(query, 'maxCost') === undefined ? undefined : integerOf(one(query, 'maxCost')!, 'maxCost', 0n, INT64_MAX);
    const results = PROFILES.filter((profile) => {
      if (country !== undefined && profile.country !== country) return false;
      const cost = BigInt(profile.cost);
      if (minCost !== undefined && fault !== 'shipping-min-cost-ignored' && cost < minCost) return false;
      if (maxCost !== undefined && (fault === 'shipping-max-cost-exclusive' ? cost >= maxCost : cost > maxCost)) return false;
      return true;
    })
      .sort((a, b) => a.cost - b.cost || a.id - b.id)
      .map(({ country: _country, ...shown }) => shown);
    return { results };
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const send = (status: number, body: unknown): void => {
      const text = stringify(body) ?? '';
      response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      response.end(text);
    };
    try {
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (!url.pathname.startsWith(`${PREFIX}/`)) throw new Refusal(404, 'NOT_FOUND', 'No such path.');
      const path = url.pathname.slice(PREFIX.length);
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      if (request.headers.authorization !== `Bearer ${key}`) throw new Refusal(401, 'UNAUTHORIZED', 'A valid bearer token is required.');
      if (path === '/listings' && request.method === 'GET') return send(200, searchListings(url.searchParams));
      if (path === '/listings' && request.method === 'POST') {
        if (!(request.headers['content-type'] ?? '').toLowerCase().startsWith('application/json')) throw bad('The body must be JSON.');
        let body: unknown;
        try {
          body = parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          throw bad('The body is not valid JSON.');
        }
        const listing: Listing = { listing_id: randomUUID(), ...validListing(body), seq: seq++ };
        listings.push(listing);
        return send(201, view(listing));
      }
      const item = /^\/listings\/([^/]+)$/.exec(path);
      if (item !== null && request.method === 'GET') {
        const id = decodeURIComponent(item[1]!);
        const found = UUID.test(id) ? listings.find((listing) => listing.listing_id === id.toLowerCase()) : undefined;
        if (found === undefined) throw new Refusal(404, 'NOT_FOUND', 'No listing has this id.');
        return send(200, view(found));
      }
      if (path === '/shipping-profiles' && request.method === 'GET') return send(200, shippingProfiles(url.searchParams));
      throw new Refusal(404, 'NOT_FOUND', 'No such path.');
    } catch (error) {
      const refusal = error instanceof Refusal ? error : new Refusal(500, 'INTERNAL', 'Something went wrong.');
      send(refusal.status, { error: { code: refusal.code, message: refusal.message } });
    }
  };

  const server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${PREFIX}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
