import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A second nursery backend written from the text of spec/wild/nursery-3.0.yaml alone, by an engineer who on every
// point the spec leaves open took the other legitimate option than nursery-server.ts: validation failures answered
// 422 where the spec documents it (400 for unreadable bodies), error bodies in the spec's own `ApiResponse` shape,
// server ids beyond 2^53 (snowflake-like), lists newest first, orders filled with their defaults (`placed`, not
// complete), an inventory naming every status (zeros included), passwords never echoed, a malformed id answered
// 404, a missing token 401 but a wrong one 403, createWithList answering the first gardener, login's expiry with a
// `+00:00` offset, `application/json;charset=UTF-8`. It shares no code with the mock, the suite or the first server.

/** Options of {@link startNurseryRivalServer}: the accepted OAuth2 bearer token, also the `api_key` value. */
export interface NurseryRivalOptions {
  key: string;
  /** Further legitimate choices, off by default: deleting a plant no one holds is a 200 too (idempotent). */
  idempotentDelete?: boolean;
  /** Further legitimate choices, off by default: a plant created without `status` is `available`. */
  defaultStatus?: boolean;
}

/** A running server: its base URL (the spec's `/api/v3` under a free port of 127.0.0.1) and how to stop it. */
export interface RivalServer {
  baseUrl: string;
  close(): Promise<void>;
}

type Doc = { [member: string]: Value };
type Value = string | number | bigint | boolean | null | Value[] | Doc;

const ROOT = '/api/v3';
const PLANT_STATES = ['available', 'pending', 'sold'];
const ORDER_STATES = ['placed', 'approved', 'delivered'];
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

class Failure extends Error {
  constructor(readonly status: number, readonly kind: string, readonly why: string) {
    super(why);
  }
}

const unreadable = (why: string): Failure => new Failure(400, 'error', why);
const invalid = (why: string): Failure => new Failure(422, 'validation', why);

/** A JSON reader keeping every integer literal as a bigint (int64 ids survive), other numbers as numbers. */
function readJson(text: string): Value {
  let at = 0;
  const blank = (): void => {
    while (at < text.length && ' \t\r\n'.includes(text[at]!)) at += 1;
  };
  const value = (): Value => {
    blank();
    const char = text[at];
    if (char === '{') {
      at += 1;
      const doc: Doc = {};
      blank();
      if (text[at] === '}') {
        at += 1;
        return doc;
      }
      for (;;) {
        blank();
        const key = value();
        if (typeof key !== 'string') throw unreadable('object keys are strings');
        blank();
        if (text[at] !== ':') throw unreadable('expected ":"');
        at += 1;
        doc[key] = value();
        blank();
        if (text[at] === ',') at += 1;
        else if (text[at] === '}') {
          at += 1;
          return doc;
        } else throw unreadable('expected "," or "}"');
      }
    }
    if (char === '[') {
      at += 1;
      const list: Value[] = [];
      blank();
      if (text[at] === ']') {
        at += 1;
        return list;
      }
      for (;;) {
        list.push(value());
        blank();
        if (text[at] === ',') at += 1;
        else if (text[at] === ']') {
          at += 1;
          return list;
        } else throw unreadable('expected "," or "]"');
      }
    }
    if (char === '"') {
      const match = /^"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/.exec(text.slice(at));
      if (match === null) throw unreadable('bad string');
      at += match[0].length;
      return JSON.parse(match[0]) as string;
    }
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(at));
    if (literal === null) throw unreadable('unexpected character');
    at += literal[0].length;
    const word = literal[0];
    if (word === 'true' || word === 'false') return word === 'true';
    if (word === 'null') return null;
    return /^-?\d+$/.test(word) ? BigInt(word) : Number(word);
  };
  const result = value();
  blank();
  if (at !== text.length) throw unreadable('trailing characters');
  return result;
}

function writeJson(value: unknown): string {
  const big: string[] = [];
  return JSON.stringify(value, (_key, member: unknown) => (typeof member === 'bigint' ? `\u0001${big.push(member.toString()) - 1}\u0001` : member)).replace(/"\\u0001(\d+)\\u0001"/g, (_all, index: string) => big[Number(index)]!);
}

function isDoc(value: unknown): value is Doc {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function long(value: Value | undefined, name: string): bigint {
  if (typeof value !== 'bigint' || value < LONG_MIN || value > LONG_MAX) throw invalid(`${name} must be an int64`);
  return value;
}

function int(value: Value | undefined, name: string): number {
  if (typeof value !== 'bigint' || value < -(2n ** 31n) || value >= 2n ** 31n) throw invalid(`${name} must be an int32`);
  return Number(value);
}

function str(value: Value | undefined, name: string): string {
  if (typeof value !== 'string') throw invalid(`${name} must be a string`);
  return value;
}

/** `{id?, name?}` of a Category or Tag. */
function idName(value: Value, name: string): Doc {
  if (!isDoc(value)) throw invalid(`${name} must be an object`);
  return { ...(value.id === undefined ? {} : { id: long(value.id, `${name}.id`) }), ...(value.name === undefined ? {} : { name: str(value.name, `${name}.name`) }) };
}

function plantFrom(body: Value): Doc {
  if (!isDoc(body)) throw invalid('a Plant is an object');
  const plant: Doc = { name: str(body.name, 'name') };
  if (body.id !== undefined) plant.id = long(body.id, 'id');
  if (body.category !== undefined) plant.category = idName(body.category, 'category');
  if (!Array.isArray(body.photoUrls)) throw invalid('photoUrls must be an array');
  plant.photoUrls = body.photoUrls.map((url, index) => str(url, `photoUrls[${index}]`));
  if (body.tags !== undefined) {
    if (!Array.isArray(body.tags)) throw invalid('tags must be an array');
    plant.tags = body.tags.map((tag, index) => idName(tag, `tags[${index}]`));
  }
  if (body.status !== undefined) {
    if (typeof body.status !== 'string' || !PLANT_STATES.includes(body.status)) throw invalid('status is available, pending or sold');
    plant.status = body.status;
  }
  return plant;
}

function orderFrom(body: Value): Doc {
  if (!isDoc(body)) throw invalid('an Order is an object');
  const order: Doc = {};
  if (body.id !== undefined) order.id = long(body.id, 'id');
  if (body.plantId !== undefined) order.plantId = long(body.plantId, 'plantId');
  if (body.quantity !== undefined) order.quantity = int(body.quantity, 'quantity');
  if (body.shipDate !== undefined) {
    const when = str(body.shipDate, 'shipDate');
    if (!/^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/.test(when) || Number.isNaN(Date.parse(when))) throw invalid('shipDate must be an RFC 3339 date-time');
    order.shipDate = when;
  }
  order.status = body.status === undefined ? 'placed' : body.status;
  if (typeof order.status !== 'string' || !ORDER_STATES.includes(order.status)) throw invalid('status is placed, approved or delivered');
  order.complete = body.complete === undefined ? false : body.complete;
  if (typeof order.complete !== 'boolean') throw invalid('complete must be a boolean');
  return order;
}

function gardenerFrom(body: Value): Doc {
  if (!isDoc(body)) throw invalid('a Gardener is an object');
  const gardener: Doc = {};
  if (body.id !== undefined) gardener.id = long(body.id, 'id');
  for (const name of ['username', 'firstName', 'lastName', 'email', 'password', 'phone']) if (body[name] !== undefined) gardener[name] = str(body[name], name);
  if (body.gardenerStatus !== undefined) gardener.gardenerStatus = int(body.gardenerStatus, 'gardenerStatus');
  return gardener;
}

/** A gardener as shown: everything but the password. */
function shown(gardener: Doc): Doc {
  const { password: _password, ...rest } = gardener;
  return rest;
}

/** A flat urlencoded form as a document: digits as integers, `photoUrls` and repeated names as lists. */
function formDoc(text: string): Doc {
  const form = new URLSearchParams(text);
  const doc: Doc = {};
  const words = ['name', 'username', 'password', 'phone', 'firstName', 'lastName', 'email', 'shipDate'];
  for (const name of new Set(form.keys())) {
    const values: Value[] = form.getAll(name).map((raw) => (!words.includes(name) && /^-?\d+$/.test(raw) ? BigInt(raw) : raw === 'true' ? true : raw === 'false' ? false : raw));
    doc[name] = name === 'photoUrls' || values.length > 1 ? values : values[0]!;
  }
  return doc;
}

/**
 * Starts the rival nursery on a free port. Plant operations take `Authorization: Bearer <key>` (the OAuth2 flow's
 * token); the plant read also takes the `api_key` header, the inventory only that header; shop and gardener
 * operations declare no security and ask none.
 */
export async function startNurseryRivalServer(options: NurseryRivalOptions): Promise<RivalServer> {
  const plants = new Map<bigint, Doc>();
  const orders = new Map<bigint, Doc>();
  const gardeners = new Map<string, Doc>();
  // Snowflake-like ids: milliseconds since 2020 shifted left 22 bits plus a sequence, well beyond 2^53.
  let sequence = 0n;
  const mint = (taken: Map<bigint, Doc>): bigint => {
    let id: bigint;
    do {
      sequence = (sequence + 1n) & 0x3fffffn;
      id = ((BigInt(Date.now()) - 1_577_836_800_000n) << 22n) | sequence;
    } while (taken.has(id));
    return id;
  };

  const answer = (response: ServerResponse, status: number, value?: unknown, headers: Record<string, string> = {}): void => {
    if (value === undefined) {
      response.writeHead(status, headers).end();
      return;
    }
    const bytes = Buffer.from(writeJson(value), 'utf8');
    response.writeHead(status, { ...headers, 'content-type': 'application/json;charset=UTF-8', 'content-length': String(bytes.length) }).end(bytes);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://rival.invalid');
    if (!url.pathname.startsWith(`${ROOT}/`)) throw new Failure(404, 'unknown', 'no such resource');
    const parts = url.pathname.slice(ROOT.length + 1).split('/').map(decodeURIComponent);
    const verb = request.method ?? 'GET';
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const media = String(request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    const query = url.searchParams;

    const payload = (): Value => {
      if (media === 'application/json') return readJson(raw.toString('utf8'));
      if (media === 'application/x-www-form-urlencoded') return formDoc(raw.toString('utf8'));
      throw new Failure(415, 'unsupported', `${media || 'no media type'} is not accepted; send application/json`);
    };
    const token = (): string | undefined => /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const guard = (bearerOk: boolean, keyOk: boolean): void => {
      const bearer = token();
      const key = request.headers.api_key;
      const presented = (bearerOk && bearer !== undefined) || (keyOk && key !== undefined);
      if (!presented) throw new Failure(401, 'unauthorized', 'credentials required');
      if ((bearerOk && bearer === options.key) || (keyOk && key === options.key)) return;
      throw new Failure(403, 'forbidden', 'these credentials do not grant this operation');
    };
    // An id that is no int64 names no record: the same 404 as an unknown one.
    const idOf = (segment: string, what: string): bigint => {
      const id = /^-?\d{1,19}$/.test(segment) ? BigInt(segment) : undefined;
      if (id === undefined || id < LONG_MIN || id > LONG_MAX) throw new Failure(404, 'unknown', `${what} not found`);
      return id;
    };
    const plantAt = (segment: string): Doc => {
      const plant = plants.get(idOf(segment, 'Plant'));
      if (plant === undefined) throw new Failure(404, 'unknown', 'Plant not found');
      return plant;
    };
    const newestFirst = (list: Doc[]): Doc[] => [...list].reverse();

    const [head, second, third] = parts;
    if (head === 'plant' && parts.length === 1 && (verb === 'POST' || verb === 'PUT')) {
      guard(true, false);
      const plant = plantFrom(payload());
      if (verb === 'POST') {
        if (options.defaultStatus === true) plant.status ??= 'available';
        plant.id ??= mint(plants);
        if (plants.has(plant.id as bigint)) throw unreadable(`a plant with id ${String(plant.id)} exists`);
      } else {
        if (plant.id === undefined) throw unreadable('Invalid ID supplied');
        if (!plants.has(plant.id as bigint)) throw new Failure(404, 'unknown', 'Plant not found');
      }
      plants.set(plant.id as bigint, plant);
      return answer(response, 200, plant);
    }
    if (head === 'plant' && second === 'findByStatus' && parts.length === 2 && verb === 'GET') {
      guard(true, false);
      const asked = query.getAll('status').flatMap((one) => one.split(',')).map((one) => one.trim()).filter((one) => one !== '');
      const wanted = asked.length === 0 ? ['available'] : asked;
      if (wanted.some((one) => !PLANT_STATES.includes(one))) throw unreadable('Invalid status value');
      return answer(response, 200, newestFirst([...plants.values()].filter((plant) => wanted.includes(plant.status as string))));
    }
    if (head === 'plant' && second === 'findByTags' && parts.length === 2 && verb === 'GET') {
      guard(true, false);
      const wanted = new Set(query.getAll('tags').flatMap((one) => one.split(',')).map((one) => one.trim()));
      const hits = [...plants.values()].filter((plant) => wanted.size === 0 || ((plant.tags as Doc[] | undefined) ?? []).some((tag) => wanted.has(tag.name as string)));
      return answer(response, 200, newestFirst(hits));
    }
    if (head === 'plant' && second !== undefined && parts.length === 2) {
      if (verb === 'GET') {
        guard(true, true);
        return answer(response, 200, plantAt(second));
      }
      if (verb === 'POST') {
        guard(true, false);
        const plant = plantAt(second);
        const name = query.get('name');
        const status = query.get('status');
        if (status !== null && !PLANT_STATES.includes(status)) throw unreadable('Invalid input');
        const updated: Doc = { ...plant, ...(name === null ? {} : { name }), ...(status === null ? {} : { status }) };
        plants.set(updated.id as bigint, updated);
        return answer(response, 200, updated);
      }
      if (verb === 'DELETE') {
        guard(true, false);
        if (options.idempotentDelete === true && !plants.has(idOf(second, 'Plant'))) return answer(response, 200);
        const plant = plantAt(second);
        plants.delete(plant.id as bigint);
        return answer(response, 200);
      }
    }
    if (head === 'plant' && third === 'uploadImage' && parts.length === 3 && verb === 'POST') {
      guard(true, false);
      const plant = plantAt(second!);
      if (raw.length === 0) throw unreadable('No file uploaded');
      return answer(response, 200, { code: 200, type: 'unknown', message: `additionalMetadata: ${query.get('additionalMetadata') ?? 'null'}\nFile uploaded to ./plant-${String(plant.id)}.bin, ${raw.length} bytes` });
    }
    if (head === 'shop' && second === 'inventory' && parts.length === 2 && verb === 'GET') {
      guard(false, true);
      const counts: Record<string, number> = Object.fromEntries(PLANT_STATES.map((state) => [state, 0]));
      for (const plant of plants.values()) if (typeof plant.status === 'string') counts[plant.status] = (counts[plant.status] ?? 0) + 1;
      return answer(response, 200, counts);
    }
    if (head === 'shop' && second === 'order' && parts.length === 2 && verb === 'POST') {
      const order = orderFrom(payload());
      order.id ??= mint(orders);
      if (orders.has(order.id as bigint)) throw unreadable(`an order with id ${String(order.id)} exists`);
      orders.set(order.id as bigint, order);
      return answer(response, 200, order);
    }
    if (head === 'shop' && second === 'order' && third !== undefined && parts.length === 3 && (verb === 'GET' || verb === 'DELETE')) {
      const id = idOf(third, 'Order');
      const order = orders.get(id);
      if (order === undefined) throw new Failure(404, 'unknown', 'Order not found');
      if (verb === 'GET') return answer(response, 200, order);
      orders.delete(id);
      return answer(response, 200);
    }
    if (head === 'gardener' && parts.length === 1 && verb === 'POST') {
      const gardener = gardenerFrom(payload());
      if (typeof gardener.username !== 'string' || gardener.username === '') throw invalid('username is required: it names the gardener');
      if (gardeners.has(gardener.username)) throw unreadable(`gardener ${gardener.username} exists`);
      gardeners.set(gardener.username, gardener);
      return answer(response, 200, shown(gardener));
    }
    if (head === 'gardener' && second === 'createWithList' && parts.length === 2 && verb === 'POST') {
      const list = payload();
      if (!Array.isArray(list) || list.length === 0) throw unreadable('a non-empty array of gardeners is expected');
      const made = list.map(gardenerFrom);
      const names = made.map((one) => one.username);
      if (names.some((name) => typeof name !== 'string' || name === '' || gardeners.has(name)) || new Set(names).size !== names.length) throw unreadable('every gardener needs a new, distinct username');
      for (const one of made) gardeners.set(one.username as string, one);
      return answer(response, 200, shown(made[0]!));
    }
    if (head === 'gardener' && second === 'login' && parts.length === 2 && verb === 'GET') {
      const gardener = gardeners.get(query.get('username') ?? '');
      if (gardener === undefined || (gardener.password !== undefined && gardener.password !== query.get('password'))) throw unreadable('Invalid username/password supplied');
      const expires = new Date(Date.now() + 30 * 60_000).toISOString().replace('Z', '+00:00');
      return answer(response, 200, `logged in user session:${randomBytes(6).toString('hex')}`, { 'X-Rate-Limit': '1000', 'X-Expires-After': expires });
    }
    if (head === 'gardener' && second === 'logout' && parts.length === 2 && verb === 'GET') return answer(response, 200, 'logged out');
    if (head === 'gardener' && second !== undefined && parts.length === 2 && ['GET', 'PUT', 'DELETE'].includes(verb)) {
      const gardener = gardeners.get(second);
      if (gardener === undefined) throw new Failure(404, 'unknown', 'Gardener not found');
      if (verb === 'GET') return answer(response, 200, shown(gardener));
      if (verb === 'DELETE') {
        gardeners.delete(second);
        return answer(response, 200);
      }
      let changes: Doc;
      try {
        changes = gardenerFrom(payload());
      } catch (error) {
        // This operation documents 400 ("bad request") and no 422.
        throw error instanceof Failure && error.status === 422 ? unreadable(error.why) : error;
      }
      gardeners.set(second, { ...changes, username: second });
      return answer(response, 200);
    }
    throw new Failure(404, 'unknown', 'no such resource');
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      const failure = error instanceof Failure ? error : new Failure(500, 'error', 'something went wrong');
      if (!response.headersSent) answer(response, failure.status, { code: failure.status, type: failure.kind, message: failure.why });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${ROOT}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error === undefined ? resolve() : reject(error)))),
  };
}
