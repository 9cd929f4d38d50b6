import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A plant nursery backend written from the text of spec/wild/nursery-3.0.yaml alone, as a backend engineer would
// write it: plain node:http, its own maps, its own validation; no code shared with mock/ or conformance/. It speaks
// JSON and urlencoded forms (XML bodies are answered 415 under the documented `default`), keys gardeners by their
// `username` (the natural key the client sends), and lets a client choose a plant's or an order's `id`. Errors
// carry no body: the spec documents none. Each `NurseryFault` is one realistic bug.

/** One realistic bug to build into the server (none: the correct server). */
export type NurseryFault =
  | 'status-filter-ignored'
  | 'tags-filter-ignored'
  | 'tags-filter-first-only'
  | 'form-update-ignored'
  | 'form-update-reads-body'
  | 'absent-invalid-500'
  | 'invalid-body-404'
  | 'put-creates-missing'
  | 'put-drops-status'
  | 'delete-keeps-plant'
  | 'create-drops-tags'
  | 'create-int64-rounded'
  | 'client-id-ignored'
  | 'duplicate-id-overwrites'
  | 'auth-not-enforced'
  | 'api-key-refused'
  | 'missing-plant-500'
  | 'bad-id-500'
  | 'gardener-update-lost'
  | 'gardener-delete-keeps'
  | 'order-missing-200'
  | 'xml-answer-to-json';

/**
 * Options of {@link startNurseryServer}: the accepted token (Bearer or `api_key` header), the fault, if any, and
 * whether a gardener's update judges its body before looking the gardener up (`bodyFirst`: an invalid body for an
 * unknown username is a 400; by default it is a 404). The spec documents both statuses and says nothing of their
 * order, so either way is correct.
 */
export interface NurseryOptions {
  key: string;
  fault?: NurseryFault;
  bodyFirst?: boolean;
}

/** A running nursery server: its base URL (the spec's `/api/v3` under a free port) and how to stop it. */
export interface RunningServer {
  baseUrl: string;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

const BASE = '/api/v3';
const STATUSES = ['available', 'pending', 'sold'];
const ORDER_STATUSES = ['placed', 'approved', 'delivered'];
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const INT32 = 2 ** 31;

class HttpError extends Error {
  constructor(readonly status: number) {
    super(String(status));
  }
}

/** An int64 written as JSON digits, kept exact (a plain JSON parse would round beyond 2^53). */
function int64Of(value: unknown, fault: NurseryFault | undefined): bigint {
  const text = typeof value === 'bigint' ? value.toString() : undefined;
  if (text === undefined || !/^-?\d+$/.test(text)) throw new HttpError(400);
  const exact = BigInt(fault === 'create-int64-rounded' ? BigInt(Math.round(Number(text))).toString() : text);
  if (exact < INT64_MIN || exact > INT64_MAX) throw new HttpError(400);
  return exact;
}

/**
 * JSON parsed with every integer kept as its digits (`{"$int": "123"}` is not needed: integers become bigint), so
 * int64 ids survive. Numbers with a fraction or exponent stay numbers.
 */
function parseExactJson(text: string): unknown {
  const marked = text.replace(/("(?:[^"\\]|\\.)*")|(?<![\d.eE+-])(-?\d+)(?![\d.eE])/g, (_match, string: string | undefined, digits: string | undefined) => (string !== undefined ? string : `{"\\u0000int":"${digits}"}`));
  return JSON.parse(marked, (_key, value: unknown) => (typeof value === 'object' && value !== null && '\u0000int' in value ? BigInt((value as Record<string, string>)['\u0000int']!) : value));
}

/** JSON with bigint written as plain digits. */
function stringify(value: unknown): string {
  const tokens: string[] = [];
  const text = JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'bigint' ? `@@int${tokens.push(inner.toString()) - 1}@@` : inner));
  return text.replace(/"@@int(\d+)@@"/g, (_match, index: string) => tokens[Number(index)]!);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new HttpError(400);
  return value.length === 0 && name === '' ? undefined : value;
}

function int32(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'bigint' || value < -INT32 || value >= INT32) throw new HttpError(400);
  return Number(value);
}

/** A Plant from a request body (schema `Plant`: `name` and `photoUrls` required); 400 on anything wrong. */
function plantOf(body: unknown, fault: NurseryFault | undefined): Json {
  if (!isObject(body)) throw new HttpError(400);
  const plant: Json = {};
  if (body.id !== undefined) plant.id = int64Of(body.id, fault);
  const name = text(body.name, 'name');
  if (name === undefined) throw new HttpError(400);
  plant.name = name;
  if (body.category !== undefined) {
    if (!isObject(body.category)) throw new HttpError(400);
    const category: Json = {};
    if (body.category.id !== undefined) category.id = int64Of(body.category.id, undefined);
    if (body.category.name !== undefined) category.name = text(body.category.name, 'name');
    plant.category = category;
  }
  if (!Array.isArray(body.photoUrls) || !body.photoUrls.every((url) => typeof url === 'string')) throw new HttpError(400);
  plant.photoUrls = body.photoUrls;
  if (body.tags !== undefined && fault !== 'create-drops-tags') {
    if (!Array.isArray(body.tags)) throw new HttpError(400);
    plant.tags = body.tags.map((tag: unknown) => {
      if (!isObject(tag)) throw new HttpError(400);
      const kept: Json = {};
      if (tag.id !== undefined) kept.id = int64Of(tag.id, undefined);
      if (tag.name !== undefined) kept.name = text(tag.name, 'name');
      return kept;
    });
  }
  if (body.status !== undefined) {
    if (typeof body.status !== 'string' || !STATUSES.includes(body.status)) throw new HttpError(400);
    plant.status = body.status;
  }
  return plant;
}

function orderOf(body: unknown, fault: NurseryFault | undefined): Json {
  if (!isObject(body)) throw new HttpError(400);
  const order: Json = {};
  if (body.id !== undefined) order.id = int64Of(body.id, fault);
  if (body.plantId !== undefined) order.plantId = int64Of(body.plantId, fault);
  if (body.quantity !== undefined) order.quantity = int32(body.quantity);
  if (body.shipDate !== undefined) {
    if (typeof body.shipDate !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(body.shipDate) || Number.isNaN(Date.parse(body.shipDate))) throw new HttpError(400);
    order.shipDate = body.shipDate;
  }
  if (body.status !== undefined) {
    if (typeof body.status !== 'string' || !ORDER_STATUSES.includes(body.status)) throw new HttpError(400);
    order.status = body.status;
  }
  if (body.complete !== undefined) {
    if (typeof body.complete !== 'boolean') throw new HttpError(400);
    order.complete = body.complete;
  }
  return order;
}

function gardenerOf(body: unknown, fault: NurseryFault | undefined): Json {
  if (!isObject(body)) throw new HttpError(400);
  const gardener: Json = {};
  if (body.id !== undefined) gardener.id = int64Of(body.id, fault);
  for (const name of ['username', 'firstName', 'lastName', 'email', 'password', 'phone']) {
    const value = text(body[name], name);
    if (value !== undefined) gardener[name] = value;
  }
  if (body.gardenerStatus !== undefined) gardener.gardenerStatus = int32(body.gardenerStatus);
  return gardener;
}

/** A urlencoded form read as the schema's members: numbers as integers, `photoUrls` and repeated keys as lists. */
function formOf(raw: string, arrays: readonly string[]): Json {
  const form = new URLSearchParams(raw);
  const value: Json = {};
  for (const key of new Set(form.keys())) {
    const all = form.getAll(key);
    const typed = all.map((one) => (/^-?\d+$/.test(one) && !['name', 'username', 'password', 'phone', 'firstName', 'lastName', 'email'].includes(key) ? BigInt(one) : one === 'true' ? true : one === 'false' ? false : one));
    value[key] = arrays.includes(key) || all.length > 1 ? typed : typed[0];
  }
  return value;
}

async function readBytes(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Starts the nursery server on a free port of 127.0.0.1. Plant operations ask for `Authorization: Bearer
 * <key>` (the OAuth2 token); the plant read also takes the `api_key` header, the inventory only that header.
 */
export async function startNurseryServer(options: NurseryOptions): Promise<RunningServer> {
  const { fault, key } = options;
  const plants = new Map<bigint, Json>();
  const orders = new Map<bigint, Json>();
  const gardeners = new Map<string, Json>();
  let nextId = 1000n;
  const newId = (held: Map<bigint, Json>): bigint => {
    while (held.has(nextId)) nextId += 1n;
    return nextId++;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://nursery.invalid');
    if (!url.pathname.startsWith(`${BASE}/`)) throw new HttpError(404);
    const path = url.pathname.slice(BASE.length + 1).split('/').map((segment) => decodeURIComponent(segment));
    const method = request.method ?? 'GET';
    const raw = await readBytes(request);
    const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    const accept = (request.headers.accept ?? '*/*').toLowerCase();
    const query = url.searchParams;

    const bearer = (): boolean => fault === 'auth-not-enforced' || request.headers.authorization === `Bearer ${key}`;
    const apiKey = (): boolean => fault === 'auth-not-enforced' || (fault !== 'api-key-refused' && request.headers['api_key'] === key);
    const need = (ok: boolean): void => {
      if (!ok) throw new HttpError(401);
    };
    const body = (arrays: readonly string[] = []): unknown => {
      if (type === 'application/json') {
        try {
          return parseExactJson(raw.toString('utf8'));
        } catch {
          throw new HttpError(400);
        }
      }
      if (type === 'application/x-www-form-urlencoded') return formOf(raw.toString('utf8'), arrays);
      throw new HttpError(415);
    };
    const send = (status: number, value?: unknown, headers: Record<string, string> = {}): void => {
      if (value === undefined) {
        response.writeHead(status, headers).end();
        return;
      }
      if (!/application\/json|application\/\*|\*\/\*/.test(accept) && fault !== 'xml-answer-to-json') throw new HttpError(406);
      if (fault === 'xml-answer-to-json') {
        response.writeHead(status, { ...headers, 'content-type': 'application/xml' }).end(`<?xml version="1.0"?><value>${stringify(value).replace(/[<&]/g, '')}</value>`);
        return;
      }
      response.writeHead(status, { ...headers, 'content-type': 'application/json' }).end(stringify(value));
    };
    const idIn = (segment: string): bigint => {
      if (!/^-?\d+$/.test(segment)) {
        if (fault === 'bad-id-500') throw new Error('not an id');
        throw new HttpError(400);
      }
      return int64Of(BigInt(segment), undefined);
    };
    const plantAt = (segment: string): Json => {
      const held = plants.get(idIn(segment));
      if (held === undefined) {
        if (fault === 'missing-plant-500') throw new Error('no plant');
        throw new HttpError(404);
      }
      return held;
    };

    const literal = ['findByStatus', 'findByTags', 'inventory', 'order', 'createWithList', 'login', 'logout', 'uploadImage'];
    const route = `${method} /${path.map((segment, index) => (index >= 1 && !literal.includes(segment) ? '{}' : segment)).join('/')}`;
    switch (route) {
      case 'POST /plant': {
        need(bearer());
        const plant = plantOf(body(['photoUrls']), fault);
        if (plant.id === undefined || fault === 'client-id-ignored') plant.id = newId(plants);
        if (plants.has(plant.id as bigint) && fault !== 'duplicate-id-overwrites') throw new HttpError(409);
        plants.set(plant.id as bigint, plant);
        return send(200, plant);
      }
      case 'PUT /plant': {
        need(bearer());
        const plant = plantOf(body(['photoUrls']), fault);
        if (plant.id === undefined) throw new HttpError(400);
        if (!plants.has(plant.id as bigint) && fault !== 'put-creates-missing') throw new HttpError(404);
        if (fault === 'put-drops-status') delete plant.status;
        plants.set(plant.id as bigint, plant);
        return send(200, plant);
      }
      case 'GET /plant/findByStatus': {
        need(bearer());
        const asked = query.getAll('status');
        const wanted = asked.length === 0 ? ['available'] : asked.flatMap((one) => one.split(','));
        if (!wanted.every((one) => STATUSES.includes(one))) throw new HttpError(400);
        return send(200, [...plants.values()].filter((plant) => fault === 'status-filter-ignored' || wanted.includes(plant.status as string)));
      }
      case 'GET /plant/findByTags': {
        need(bearer());
        const wanted = query.getAll('tags').flatMap((one) => one.split(','));
        const tagged = (plant: Json): boolean => ((plant.tags as Json[] | undefined) ?? []).slice(0, fault === 'tags-filter-first-only' ? 1 : undefined).some((tag) => wanted.includes(tag.name as string));
        return send(200, [...plants.values()].filter((plant) => wanted.length === 0 || fault === 'tags-filter-ignored' || tagged(plant)));
      }
      case 'GET /plant/{}':
        need(bearer() || apiKey());
        return send(200, plantAt(path[1]!));
      case 'POST /plant/{}': {
        need(bearer());
        const plant = plantAt(path[1]!);
        // The buggy versions answer success but never see the query's fields: one drops them, one reads them from the (empty) body.
        const fields = fault === 'form-update-ignored' ? new URLSearchParams() : fault === 'form-update-reads-body' ? new URLSearchParams(raw.toString('utf8')) : query;
        const name = fields.get('name');
        const status = fields.get('status');
        if (status !== null && !STATUSES.includes(status)) throw new HttpError(400);
        if (name !== null) plant.name = name;
        if (status !== null) plant.status = status;
        return send(200, plant);
      }
      case 'DELETE /plant/{}': {
        need(bearer());
        const plant = plantAt(path[1]!);
        if (fault !== 'delete-keeps-plant') plants.delete(plant.id as bigint);
        return send(200);
      }
      case 'POST /plant/{}/uploadImage': {
        need(bearer());
        const id = idIn(path[1]!);
        if (!plants.has(id)) throw new HttpError(404);
        if (raw.length === 0) throw new HttpError(400);
        return send(200, { code: 200, type: 'upload', message: `additionalMetadata: ${query.get('additionalMetadata') ?? ''}, ${raw.length} bytes uploaded` });
      }
      case 'GET /shop/inventory': {
        need(apiKey());
        const counts: Record<string, number> = {};
        for (const plant of plants.values()) if (typeof plant.status === 'string') counts[plant.status] = (counts[plant.status] ?? 0) + 1;
        return send(200, counts);
      }
      case 'POST /shop/order': {
        const order = orderOf(body(), fault);
        if (order.id === undefined || fault === 'client-id-ignored') order.id = newId(orders);
        if (orders.has(order.id as bigint) && fault !== 'duplicate-id-overwrites') throw new HttpError(409);
        orders.set(order.id as bigint, order);
        return send(200, order);
      }
      case 'GET /shop/order/{}': {
        const order = orders.get(idIn(path[2]!));
        if (order === undefined) return fault === 'order-missing-200' ? send(200, {}) : send(404);
        return send(200, order);
      }
      case 'DELETE /shop/order/{}': {
        const id = idIn(path[2]!);
        if (!orders.delete(id)) throw new HttpError(404);
        return send(200);
      }
      case 'POST /gardener': {
        const gardener = gardenerOf(body(), fault);
        // The username is the gardener's key (its path is /gardener/{username}): none, or one taken, is refused.
        if (typeof gardener.username !== 'string' || gardener.username === '') throw new HttpError(400);
        if (gardeners.has(gardener.username)) throw new HttpError(409);
        gardeners.set(gardener.username, gardener);
        return send(200, gardener);
      }
      case 'POST /gardener/createWithList': {
        const list = body();
        if (!Array.isArray(list) || list.length === 0) throw new HttpError(400);
        const made = list.map((one) => gardenerOf(one, fault));
        if (made.some((one) => typeof one.username !== 'string' || one.username === '' || gardeners.has(one.username))) throw new HttpError(400);
        if (new Set(made.map((one) => one.username)).size !== made.length) throw new HttpError(400);
        for (const one of made) gardeners.set(one.username as string, one);
        return send(200, made.at(-1));
      }
      case 'GET /gardener/login': {
        const gardener = gardeners.get(query.get('username') ?? '');
        if (gardener === undefined || (gardener.password !== undefined && gardener.password !== query.get('password'))) throw new HttpError(400);
        const expires = new Date(Date.now() + 3_600_000).toISOString();
        return send(200, `logged in session ${randomBytes(8).toString('hex')}`, { 'x-rate-limit': '5000', 'x-expires-after': expires });
      }
      case 'GET /gardener/logout':
        return send(200);
      case 'GET /gardener/{}': {
        const gardener = gardeners.get(path[1]!);
        if (gardener === undefined) throw new HttpError(404);
        return send(200, gardener);
      }
      case 'PUT /gardener/{}': {
        const username = path[1]!;
        const read = (): Json => {
          try {
            return gardenerOf(body(), fault);
          } catch (error) {
            // The buggy versions: one words its refusal with the stored gardener's name (a crash when there is
            // none), one takes any trouble with an update for a gardener not found.
            if (fault === 'absent-invalid-500' && !gardeners.has(username)) throw new TypeError("Cannot read properties of undefined (reading 'username')");
            if (fault === 'invalid-body-404') throw new HttpError(404);
            throw error;
          }
        };
        const early = options.bodyFirst === true ? read() : undefined;
        if (!gardeners.has(username) && fault !== 'absent-invalid-500') throw new HttpError(404);
        const gardener = early ?? read();
        if (!gardeners.has(username)) throw new HttpError(404);
        // The path names the record; a body naming another username does not move it.
        if (fault !== 'gardener-update-lost') gardeners.set(username, { ...gardener, username });
        return send(200);
      }
      case 'DELETE /gardener/{}': {
        const username = path[1]!;
        if (!gardeners.has(username)) throw new HttpError(404);
        if (fault !== 'gardener-delete-keeps') gardeners.delete(username);
        return send(200);
      }
      default:
        throw new HttpError(404);
    }
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (response.headersSent) return;
      response.writeHead(error instanceof HttpError ? error.status : 500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${BASE}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error === undefined ? resolve() : reject(error)))),
  };
}
