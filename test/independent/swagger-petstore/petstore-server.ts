import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isLosslessNumber, LosslessNumber, parse, stringify } from 'lossless-json';

// The Swagger Petstore 3 (the shared corpus's swagger-petstore/openapi.yaml) written from its text alone, as a
// backend team would: plain node:http, its own maps and its own validation, no code shared with mock/ or
// conformance/. Pets, orders and users keep the ids and usernames a client sends (int64 kept digit for digit);
// pet operations ask for the OAuth2 token as `Authorization: Bearer`, a pet's read also takes the `api_key`
// header and the inventory only that header; the store and the users are open, as the text leaves them. Errors
// carry no body: the text documents none. Where the text leaves a point open the server takes one reading, and
// `PetstoreChoices` turns each the other way (the rival server of petstore-rival.test.ts).

/** One realistic bug to build into the server (none: the correct server). */
export type PetstoreFault =
  | 'status-filter-ignored'
  | 'status-default-ignored'
  | 'tags-filter-ignored'
  | 'tags-filter-first-only'
  | 'order-drops-ship-date'
  | 'missing-user-500'
  | 'form-update-ignored'
  | 'put-creates-missing'
  | 'put-drops-tags'
  | 'delete-keeps-pet'
  | 'create-drops-category'
  | 'create-answers-201'
  | 'order-int64-rounded'
  | 'client-id-ignored'
  | 'name-not-required'
  | 'auth-not-enforced'
  | 'api-key-refused'
  | 'missing-pet-500'
  | 'bad-id-500'
  | 'user-update-lost'
  | 'user-delete-keeps'
  | 'order-missing-200'
  | 'order-delete-keeps'
  | 'inventory-without-key';

/**
 * The open points of the text, each decided one way by default and the other way when set:
 * - `orderNeedsPet`: an order naming a pet the store does not hold is refused with the documented 400 "Invalid
 *   input" (by default it is taken: the text never says the pet must exist);
 * - `invalidAs400`: a body that breaks the schema is a 400 "Invalid input" (by default the documented 422
 *   "Validation exception", 400 kept for a body that is not JSON at all);
 * - `badOrderIdAs404`: an order id that is not a positive number is answered 404 "Order not found" (by default the
 *   documented 400 "Invalid ID supplied");
 * - `orderStatusDefault`: an order placed without a status is stored `placed` (by default it stays without one);
 * - `deleteAbsentAs400`: deleting a pet the store does not hold is the documented 400 "Invalid pet value" (by
 *   default a 404 under `default`);
 * - `forbiddenAs403`: a wrong token or key is a 403 (by default every missing or wrong credential is a 401);
 * - `passwordHidden`: a user's password is never sent back (by default it is, as the schema shows it);
 * - `duplicateAs400`: a pet, order or user whose id or username is taken is a 400 (by default a 409 under `default`);
 * - `uploadAddsPhoto`: an uploaded image's address is added to the pet's `photoUrls` (by default it is only counted);
 * - `petStatusDefault`: a pet added without a status is stored `available` (by default it stays without one);
 * - `usersAs400`: a user body that breaks the schema is a 400 (by default a 422: `POST /user` documents no client
 *   error at all, only `default`, so the server takes the one its framework gives);
 * - `bodyFirst`: a user's update judges its body before looking the user up (an invalid body for an unknown
 *   username is then a 400; by default it is a 404);
 * - `tagsRequired`: `findByTags` without a tag is the documented 400 "Invalid tag value" (by default every pet).
 */
export interface PetstoreChoices {
  orderNeedsPet?: boolean;
  invalidAs400?: boolean;
  badOrderIdAs404?: boolean;
  orderStatusDefault?: boolean;
  deleteAbsentAs400?: boolean;
  forbiddenAs403?: boolean;
  passwordHidden?: boolean;
  duplicateAs400?: boolean;
  uploadAddsPhoto?: boolean;
  petStatusDefault?: boolean;
  usersAs400?: boolean;
  bodyFirst?: boolean;
  tagsRequired?: boolean;
}

/** Options of {@link startPetstoreServer}: the accepted token and key, the fault if any, and the choices taken. */
export interface PetstoreOptions {
  key: string;
  fault?: PetstoreFault;
  choices?: PetstoreChoices;
}

/** A running Petstore: its base URL (the spec's `/api/v3` under a free port) and how to stop it. */
export interface RunningPetstore {
  baseUrl: string;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

const BASE = '/api/v3';
const PET_STATUSES = ['available', 'pending', 'sold'];
const ORDER_STATUSES = ['placed', 'approved', 'delivered'];
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

/** A refusal: its status, and whether it is a schema failure (a 422 unless `invalidAs400`) or a plain 400. */
class Refusal extends Error {
  constructor(readonly status: number) {
    super(String(status));
  }
}

/** The body broke the schema (missing member, wrong type, value outside an enum or a format). */
class Invalid extends Error {}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value);
}

/** An integer member within `[min, max]`, kept exact as a bigint; anything else breaks the schema. */
function integer(value: unknown, min: bigint, max: bigint): bigint {
  const digits = isLosslessNumber(value) ? value.value : typeof value === 'bigint' ? value.toString() : undefined;
  if (digits === undefined || !/^-?\d+$/.test(digits)) throw new Invalid();
  const exact = BigInt(digits);
  if (exact < min || exact > max) throw new Invalid();
  return exact;
}

function string(value: unknown): string {
  if (typeof value !== 'string') throw new Invalid();
  return value;
}

function boolean(value: unknown): boolean {
  if (typeof value !== 'boolean') throw new Invalid();
  return value;
}

/** Copies the members of `body` that `readers` name, each read by its reader; absent members stay absent. */
function pick(body: Json, readers: Record<string, (value: unknown) => unknown>): Json {
  const kept: Json = {};
  for (const [name, read] of Object.entries(readers)) if (body[name] !== undefined) kept[name] = read(body[name]);
  return kept;
}

const int64 = (value: unknown): bigint => integer(value, INT64_MIN, INT64_MAX);
const int32 = (value: unknown): bigint => integer(value, INT32_MIN, INT32_MAX);
const named = (value: unknown): Json => {
  if (!isObject(value)) throw new Invalid();
  return pick(value, { id: int64, name: string });
};

/** A Pet from a request body (`name` and `photoUrls` required). */
function petOf(body: unknown, fault: PetstoreFault | undefined): Json {
  if (!isObject(body)) throw new Invalid();
  if ((body.name === undefined && fault !== 'name-not-required') || body.photoUrls === undefined) throw new Invalid();
  return pick(body, {
    id: int64,
    name: string,
    category: (value) => (fault === 'create-drops-category' ? undefined : named(value)),
    photoUrls: (value) => {
      if (!Array.isArray(value)) throw new Invalid();
      return value.map(string);
    },
    tags: (value) => {
      if (!Array.isArray(value)) throw new Invalid();
      return value.map(named);
    },
    status: (value) => {
      if (!PET_STATUSES.includes(string(value))) throw new Invalid();
      return value;
    },
  });
}

function orderOf(body: unknown, fault: PetstoreFault | undefined): Json {
  if (!isObject(body)) throw new Invalid();
  const rounded = (value: unknown): bigint => {
    const exact = int64(value);
    return fault === 'order-int64-rounded' ? BigInt(Math.round(Number(exact))) : exact;
  };
  return pick(body, {
    id: rounded,
    petId: rounded,
    quantity: int32,
    shipDate: (value) => {
      const text = string(value);
      if (!DATE_TIME.test(text) || Number.isNaN(Date.parse(text))) throw new Invalid();
      return fault === 'order-drops-ship-date' ? undefined : text;
    },
    status: (value) => {
      if (!ORDER_STATUSES.includes(string(value))) throw new Invalid();
      return value;
    },
    complete: boolean,
  });
}

function userOf(body: unknown): Json {
  if (!isObject(body)) throw new Invalid();
  return pick(body, { id: int64, username: string, firstName: string, lastName: string, email: string, password: string, phone: string, userStatus: int32 });
}

/**
 * A urlencoded form read as the schema's members: digits as integers, `true`/`false` as booleans, `photoUrls` and
 * repeated keys as lists, `category[id]`-style keys as one nested object.
 */
function formOf(raw: string): Json {
  const form = new URLSearchParams(raw);
  const value: Json = {};
  const typed = (key: string, one: string): unknown => (/^-?\d+$/.test(one) && /(?:^|\[)(?:id|petId|quantity|userStatus)\]?$/.test(key) ? new LosslessNumber(one) : one === 'true' ? true : one === 'false' ? false : one);
  for (const key of new Set(form.keys())) {
    const all = form.getAll(key).map((one) => typed(key, one));
    const nested = /^(\w+)\[(\w+)\]$/.exec(key);
    if (nested !== null) {
      const inner = isObject(value[nested[1]!]) ? (value[nested[1]!] as Json) : {};
      inner[nested[2]!] = all[0];
      value[nested[1]!] = inner;
    } else value[key] = key === 'photoUrls' || key === 'tags' || all.length > 1 ? all : all[0];
  }
  return value;
}

async function readBytes(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The id in a path segment: an int64 written in digits, else `undefined`. */
function idIn(segment: string): bigint | undefined {
  if (!/^-?\d{1,19}$/.test(segment)) return undefined;
  const id = BigInt(segment);
  return id < INT64_MIN || id > INT64_MAX ? undefined : id;
}

/** Starts the Petstore on a free port of 127.0.0.1. */
export async function startPetstoreServer(options: PetstoreOptions): Promise<RunningPetstore> {
  const { fault, key } = options;
  const choices = options.choices ?? {};
  const pets = new Map<bigint, Json>();
  const orders = new Map<bigint, Json>();
  const users = new Map<string, Json>();
  let nextId = 1n;
  const freshId = (held: Map<bigint, Json>): bigint => {
    while (held.has(nextId)) nextId += 1n;
    return nextId++;
  };
  const taken = choices.duplicateAs400 === true ? 400 : 409;

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://petstore.invalid');
    if (!url.pathname.startsWith(`${BASE}/`)) throw new Refusal(404);
    const path = url.pathname.slice(BASE.length + 1).split('/').map((segment) => decodeURIComponent(segment));
    const method = request.method ?? 'GET';
    const raw = await readBytes(request);
    const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    const accept = (request.headers.accept ?? '*/*').toLowerCase();
    const query = url.searchParams;

    // Credentials: absent is a 401; present but wrong a 401 too, or a 403 when the server tells the two apart.
    const credential = (given: string | undefined): boolean => {
      if (fault === 'auth-not-enforced') return true;
      if (given === key) return true;
      if (given !== undefined && choices.forbiddenAs403 === true) throw new Refusal(403);
      return false;
    };
    const bearer = (): string | undefined => {
      const header = request.headers.authorization;
      if (header === undefined) return undefined;
      // Any other scheme (or a bare key) is a credential given but wrong.
      return header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
    };
    const apiKey = (): string | undefined => {
      const header = request.headers['api_key'];
      return typeof header === 'string' ? header : undefined;
    };
    const needToken = (): void => {
      if (!credential(bearer())) throw new Refusal(401);
    };
    const needKey = (): void => {
      if (fault === 'inventory-without-key' && path[0] === 'store') return;
      if (fault === 'api-key-refused' || !credential(apiKey())) throw new Refusal(401);
    };

    const body = (): unknown => {
      if (type === 'application/json') {
        try {
          return parse(raw.toString('utf8'));
        } catch {
          throw new Refusal(400);
        }
      }
      if (type === 'application/x-www-form-urlencoded') return formOf(raw.toString('utf8'));
      throw new Refusal(415);
    };
    // A body read by its schema's reader: broken JSON is a 400, a broken schema the 422 "Validation exception"
    // where the operation documents one (pets, orders) or documents no client error (a user's create), and a 400
    // where only 400 is documented (a user's update).
    const valid = <T>(read: (value: unknown) => T, schemaStatus: 400 | 422 = 422): T => {
      try {
        return read(body());
      } catch (error) {
        if (error instanceof Invalid) throw new Refusal(choices.invalidAs400 === true ? 400 : schemaStatus);
        throw error;
      }
    };
    const send = (status: number, value?: unknown, headers: Record<string, string> = {}): void => {
      if (value === undefined) {
        response.writeHead(status, headers).end();
        return;
      }
      if (!/application\/json|application\/\*|\*\/\*/.test(accept)) throw new Refusal(406);
      response.writeHead(status, { ...headers, 'content-type': 'application/json' }).end(stringify(value, (_key, inner: unknown) => (typeof inner === 'bigint' ? new LosslessNumber(inner.toString()) : inner)));
    };
    const petId = (segment: string): bigint => {
      const id = idIn(segment);
      if (id === undefined) {
        if (fault === 'bad-id-500') throw new Error(`not an id: ${segment}`);
        throw new Refusal(400);
      }
      return id;
    };
    const petAt = (segment: string): Json => {
      const held = pets.get(petId(segment));
      if (held === undefined) {
        if (fault === 'missing-pet-500') throw new Error('no such pet');
        throw new Refusal(404);
      }
      return held;
    };
    const orderId = (segment: string): bigint => {
      const id = idIn(segment);
      if (id === undefined || id < 1n) throw new Refusal(choices.badOrderIdAs404 === true ? 404 : 400);
      return id;
    };
    const answerUser = (user: Json): Json => {
      if (choices.passwordHidden !== true) return user;
      const { password: _password, ...shown } = user;
      return shown;
    };

    const literal = ['findByStatus', 'findByTags', 'inventory', 'order', 'createWithList', 'login', 'logout', 'uploadImage'];
    const route = `${method} /${path.map((segment, index) => (index >= 1 && !literal.includes(segment) ? '{}' : segment)).join('/')}`;
    switch (route) {
      case 'POST /pet': {
        needToken();
        const pet = valid((value) => petOf(value, fault));
        if (pet.id === undefined || fault === 'client-id-ignored') pet.id = freshId(pets);
        if (pets.has(pet.id as bigint)) throw new Refusal(taken);
        if (choices.petStatusDefault === true && pet.status === undefined) pet.status = 'available';
        pets.set(pet.id as bigint, pet);
        return send(fault === 'create-answers-201' ? 201 : 200, pet);
      }
      case 'PUT /pet': {
        needToken();
        const pet = valid((value) => petOf(value, fault));
        if (pet.id === undefined) throw new Refusal(400);
        if (!pets.has(pet.id as bigint) && fault !== 'put-creates-missing') throw new Refusal(404);
        if (fault === 'put-drops-tags') delete pet.tags;
        pets.set(pet.id as bigint, pet);
        return send(200, pet);
      }
      case 'GET /pet/findByStatus': {
        needToken();
        // `explode: true` sends one `status` per value; the description also allows comma-separated values.
        const asked = query.getAll('status').flatMap((one) => one.split(','));
        const wanted = asked.length === 0 ? (fault === 'status-default-ignored' ? PET_STATUSES : ['available']) : asked;
        if (!wanted.every((one) => PET_STATUSES.includes(one))) throw new Refusal(400);
        return send(200, [...pets.values()].filter((pet) => fault === 'status-filter-ignored' || wanted.includes(pet.status as string)));
      }
      case 'GET /pet/findByTags': {
        needToken();
        const wanted = query.getAll('tags').flatMap((one) => one.split(',')).filter((one) => one !== '');
        if (wanted.length === 0 && choices.tagsRequired === true) throw new Refusal(400);
        const tagged = (pet: Json): boolean => ((pet.tags as Json[] | undefined) ?? []).slice(0, fault === 'tags-filter-first-only' ? 1 : undefined).some((tag) => wanted.includes(tag.name as string));
        return send(200, [...pets.values()].filter((pet) => wanted.length === 0 || fault === 'tags-filter-ignored' || tagged(pet)));
      }
      case 'GET /pet/{}': {
        if (!credential(bearer()) && !credential(apiKey())) throw new Refusal(401);
        if (fault === 'api-key-refused' && !credential(bearer())) throw new Refusal(401);
        return send(200, petAt(path[1]!));
      }
      case 'POST /pet/{}': {
        needToken();
        const pet = petAt(path[1]!);
        const fields = fault === 'form-update-ignored' ? new URLSearchParams() : query;
        const name = fields.get('name');
        const status = fields.get('status');
        if (status !== null && !PET_STATUSES.includes(status)) throw new Refusal(400);
        if (name !== null) pet.name = name;
        if (status !== null) pet.status = status;
        return send(200, pet);
      }
      case 'DELETE /pet/{}': {
        needToken();
        const id = petId(path[1]!);
        if (!pets.has(id)) throw new Refusal(choices.deleteAbsentAs400 === true ? 400 : 404);
        if (fault !== 'delete-keeps-pet') pets.delete(id);
        return send(200);
      }
      case 'POST /pet/{}/uploadImage': {
        needToken();
        const pet = petAt(path[1]!);
        if (raw.length === 0) throw new Refusal(400);
        if (choices.uploadAddsPhoto === true) pet.photoUrls = [...(pet.photoUrls as string[]), `https://images.petstore.invalid/${randomBytes(6).toString('hex')}`];
        const metadata = query.get('additionalMetadata');
        return send(200, { code: 200, type: 'unknown', message: `${metadata === null ? '' : `additionalMetadata: ${metadata}\n`}File uploaded, ${raw.length} bytes` });
      }
      case 'GET /store/inventory': {
        needKey();
        const counts: Record<string, number> = {};
        for (const pet of pets.values()) if (typeof pet.status === 'string') counts[pet.status] = (counts[pet.status] ?? 0) + 1;
        return send(200, counts);
      }
      case 'POST /store/order': {
        const order = valid((value) => orderOf(value, fault));
        if (choices.orderNeedsPet === true && order.petId !== undefined && !pets.has(order.petId as bigint)) throw new Refusal(400);
        if (order.id === undefined || fault === 'client-id-ignored') order.id = freshId(orders);
        if (orders.has(order.id as bigint)) throw new Refusal(taken);
        if (choices.orderStatusDefault === true && order.status === undefined) order.status = 'placed';
        orders.set(order.id as bigint, order);
        return send(200, order);
      }
      case 'GET /store/order/{}': {
        const order = orders.get(orderId(path[2]!));
        if (order === undefined) return fault === 'order-missing-200' ? send(200, {}) : send(404);
        return send(200, order);
      }
      case 'DELETE /store/order/{}': {
        const id = orderId(path[2]!);
        if (!orders.has(id)) throw new Refusal(404);
        if (fault !== 'order-delete-keeps') orders.delete(id);
        return send(200);
      }
      case 'POST /user': {
        const user = valid(userOf, choices.usersAs400 === true ? 400 : 422);
        // The username is the user's key (its path is /user/{username}): none, or one taken, is refused.
        if (typeof user.username !== 'string' || user.username === '') throw new Refusal(400);
        if (users.has(user.username)) throw new Refusal(taken);
        users.set(user.username, user);
        return send(200, answerUser(user));
      }
      case 'POST /user/createWithList': {
        const list = valid((value) => {
          if (!Array.isArray(value)) throw new Invalid();
          return value.map(userOf);
        }, choices.usersAs400 === true ? 400 : 422);
        if (list.length === 0 || list.some((one) => typeof one.username !== 'string' || one.username === '' || users.has(one.username))) throw new Refusal(400);
        if (new Set(list.map((one) => one.username)).size !== list.length) throw new Refusal(400);
        for (const one of list) users.set(one.username as string, one);
        return send(200, answerUser(list.at(-1)!));
      }
      case 'GET /user/login': {
        const user = users.get(query.get('username') ?? '');
        if (user === undefined || (user.password !== undefined && user.password !== query.get('password'))) throw new Refusal(400);
        const expires = new Date(Date.now() + 3_600_000).toISOString();
        return send(200, `logged in user session:${randomBytes(8).toString('hex')}`, { 'x-rate-limit': '5000', 'x-expires-after': expires });
      }
      case 'GET /user/logout':
        return send(200);
      case 'GET /user/{}': {
        const user = users.get(path[1]!);
        if (user === undefined && fault === 'missing-user-500') throw new Error('no such user');
        if (user === undefined) throw new Refusal(404);
        return send(200, answerUser(user));
      }
      case 'PUT /user/{}': {
        const username = path[1]!;
        const early = choices.bodyFirst === true ? valid(userOf, 400) : undefined;
        if (!users.has(username)) throw new Refusal(404);
        const user = early ?? valid(userOf, 400);
        // The path names the record; a body naming another username does not move it.
        if (fault !== 'user-update-lost') users.set(username, { ...user, username });
        return send(200);
      }
      case 'DELETE /user/{}': {
        const username = path[1]!;
        if (!users.has(username)) throw new Refusal(404);
        if (fault !== 'user-delete-keeps') users.delete(username);
        return send(200);
      }
      default:
        throw new Refusal(404);
    }
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (response.headersSent) return;
      response.writeHead(error instanceof Refusal ? error.status : 500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${BASE}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}
