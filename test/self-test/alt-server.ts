import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LosslessNumber, parse } from 'lossless-json';

/**
 * An independent implementation of the seed ("Pet Store Service: Animals Interface"), written from the seed
 * alone, without the mock's code or the OpenAPI document: plain node:http, its own routing, validation and
 * store, int64 kept exact with lossless-json. Its knobs are the seed's "not shown" points, so that the
 * self-test can show the conformance suite accepts every reasonable choice on them.
 */
export interface AltOptions {
  /** Keys accepted as `Authorization: Bearer <key>` (seed, Authentication). */
  apiKeys: readonly string[];
  /** Order of listPets (seed, Endpoints §1: not shown). Default `newest-first`. */
  order?: 'oldest-first' | 'newest-first' | 'by-name';
  /** `status` stored when createPet omits it (seed, Gaps: not shown). Default none. */
  defaultStatus?: 'available' | 'pending' | 'sold' | undefined;
  /** Invalid or repeated `limit`/`status` (seed, Errors: not shown): an error status, clamp into 1..100, or ignore. Default 400. */
  invalidQuery?: 400 | 422 | 'clamp' | 'ignore';
  /** Status for a petId that is no int64, like `/pets/abc` (not shown). Default 404. */
  badPetId?: 400 | 404 | 422;
  /** Longest name accepted, in code points (seed, Gaps: not shown). Default unlimited. */
  maxNameLength?: number;
  /** Refuse the empty name, names of blanks only, and names with control characters. Default false. */
  strictNames?: boolean;
  /** Fields of a create body other than name, categoryId and status (not shown): ignored or 400. Default ignore. */
  unknownFields?: 'ignore' | 'reject';
  /** How `Error.code` is spelled (seed, Errors: the codes are not shown). Default `UPPER_SNAKE`. */
  codes?: 'UPPER_SNAKE' | 'kebab' | 'numeric';
  /** Add `; charset=utf-8` to every `Content-Type`. Default false. */
  charset?: boolean;
  /** How ids are assigned (seed, Pet: "unique", nothing more): from 1 up, from 2^62 up, or random over int64. */
  ids?: 'sequential' | 'huge' | 'random';
  /** Pets held before the first request (a target that already has data, like staging). Default 0. */
  preload?: number;
  /** Each answer waits a random 0..latencyMs milliseconds, so concurrent answers come back out of order. Default 0. */
  latencyMs?: number;
}

/** A running alternative server: `baseUrl` ends with `/v1`. */
export interface AltServer {
  baseUrl: string;
  close(): Promise<void>;
}

type Status = 'available' | 'pending' | 'sold';
type Pet = { id: bigint; name: string; categoryId: bigint; status: Status | undefined; seq: number };
type Reply = { status: number; body: string; headers?: Record<string, string> };

const STATUSES: readonly string[] = ['available', 'pending', 'sold'];
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const REASONS = { 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 405: 'Method Not Allowed', 413: 'Too Large', 422: 'Unprocessable' } as const;

/** A request and an answer of the alternative implementation, without a socket (the shapes of the mock's pipeline). */
export interface AltRequest {
  method: string;
  /** Path and query, for example `/v1/pets?limit=5`. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body?: Buffer | undefined;
}

/** The answer to an {@link AltRequest}: status, headers and JSON text. */
export interface AltResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Builds the alternative implementation as a function of a request, with its own store. Answers: listPets 200
 * `Pets`; createPet 201 `Pet`, 400 `Error`; getPet 200 `Pet`, 404 `Error`; 401 `Error` without a valid key (seed,
 * Endpoints, Authentication, Errors). Unknown paths 404, other methods 405. A body over 1 MB is a 413.
 */
export function createAltHandler(options: AltOptions): (request: AltRequest) => AltResponse {
  const pets: Pet[] = [];
  const byId = new Map<bigint, Pet>();
  let sequential = options.ids === 'huge' ? 2n ** 62n : 1n;
  const invalidQuery = options.invalidQuery ?? 400;
  const contentType = options.charset === true ? 'application/json; charset=utf-8' : 'application/json';

  const error = (status: keyof typeof REASONS, message: string): Reply => {
    const words = REASONS[status].toLowerCase().split(' ');
    const code = options.codes === 'kebab' ? words.join('-') : options.codes === 'numeric' ? `E${status}` : words.join('_').toUpperCase();
    return { status, body: JSON.stringify({ code, message, status }) };
  };
  const petJson = (pet: Pet): string =>
    `{"id":${pet.id},"name":${JSON.stringify(pet.name)},"categoryId":${pet.categoryId}${pet.status === undefined ? '' : `,"status":"${pet.status}"`}}`;
  const newId = (): bigint => {
    if (options.ids !== 'random') return sequential++;
    for (;;) {
      const id = BigInt.asIntN(64, randomBytes(8).readBigUInt64BE());
      if (!byId.has(id)) return id;
    }
  };

  function listPets(query: URLSearchParams): Reply {
    const limits = query.getAll('limit');
    const statuses = query.getAll('status');
    let limit = 20;
    let status: string | undefined;
    const limitOk = limits.length === 0 || (limits.length === 1 && /^[0-9]{1,3}$/.test(limits[0]!) && Number(limits[0]) >= 1 && Number(limits[0]) <= 100);
    const statusOk = statuses.length === 0 || (statuses.length === 1 && STATUSES.includes(statuses[0]!));
    if (!limitOk || !statusOk) {
      if (typeof invalidQuery === 'number') return error(invalidQuery, `Invalid query: limit must be one integer from 1 to 100, status one of ${STATUSES.join(', ')}.`);
    }
    if (limits.length > 0) {
      const wanted = Number(limits.at(-1));
      if (limitOk) limit = wanted;
      else if (invalidQuery === 'clamp' && Number.isFinite(wanted)) limit = Math.min(100, Math.max(1, Math.trunc(wanted)));
    }
    // A repeated status is read as its first value; an unknown one filters nothing (the clamp and ignore choices).
    if (statuses.length > 0 && STATUSES.includes(statuses[0]!)) status = statuses[0];
    const matching = pets.filter((pet) => status === undefined || pet.status === status);
    if (options.order === 'newest-first' || options.order === undefined) matching.reverse();
    if (options.order === 'by-name') matching.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.seq - b.seq));
    return { status: 200, body: `[${matching.slice(0, limit).map(petJson).join(',')}]` };
  }

  function createPet(text: string): Reply {
    let body: unknown;
    try {
      body = parse(text);
    } catch {
      return error(400, 'The body is not valid JSON.');
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return error(400, 'The body must be a JSON object.');
    const fields = body as Record<string, unknown>;
    const extra = Object.keys(fields).filter((key) => !['name', 'categoryId', 'status'].includes(key));
    if (options.unknownFields === 'reject' && extra.length > 0) return error(400, `Unknown fields: ${extra.join(', ')}.`);
    const { name, categoryId, status } = { name: own(fields, 'name'), categoryId: own(fields, 'categoryId'), status: own(fields, 'status') };
    if (typeof name !== 'string') return error(400, 'name is required and must be a string.');
    if (options.maxNameLength !== undefined && [...name].length > options.maxNameLength) return error(400, `name is longer than ${options.maxNameLength} characters.`);
    if (options.strictNames === true && (name.trim() === '' || /\p{Cc}/u.test(name))) return error(400, 'name must hold a visible character and no control characters.');
    const category = categoryId instanceof LosslessNumber ? int64(categoryId.value) : undefined;
    if (category === undefined) return error(400, 'categoryId is required and must be an integer from -2^63 to 2^63-1.');
    if (status !== undefined && (typeof status !== 'string' || !STATUSES.includes(status))) return error(400, `status must be one of ${STATUSES.join(', ')}.`);
    const pet: Pet = { id: newId(), name, categoryId: category, status: (status as Status | undefined) ?? options.defaultStatus, seq: pets.length };
    pets.push(pet);
    byId.set(pet.id, pet);
    return { status: 201, body: petJson(pet) };
  }

  function getPet(raw: string): Reply {
    const id = /^-?[0-9]{1,19}$/.test(raw) ? BigInt(raw) : undefined;
    if (id === undefined || id < INT64_MIN || id > INT64_MAX) return error(options.badPetId ?? 404, `petId must be an int64 integer, got ${JSON.stringify(raw)}.`);
    const pet = byId.get(id);
    return pet === undefined ? error(404, `No animal has the id ${id}.`) : { status: 200, body: petJson(pet) };
  }

  function answer(method: string, url: string, authorization: string | undefined, body: string): Reply {
    const [path = '', search = ''] = url.split('?');
    const item = /^\/v1\/pets\/([^/]*)$/.exec(path);
    if (path !== '/v1/pets' && item === null) return error(404, `Nothing is served at ${path}.`);
    const allowed = item === null ? ['GET', 'POST'] : ['GET'];
    if (!allowed.includes(method)) return { ...error(405, `Use ${allowed.join(' or ')}.`), headers: { allow: allowed.join(', ') } };
    const key = /^Bearer +(\S+)$/i.exec(authorization ?? '')?.[1];
    if (key === undefined || !options.apiKeys.includes(key)) return { ...error(401, 'A valid bearer API key is required.'), headers: { 'www-authenticate': 'Bearer' } };
    if (item !== null) return getPet(safeDecode(item[1]!));
    return method === 'GET' ? listPets(new URLSearchParams(search)) : createPet(body);
  }

  for (let i = 0; i < (options.preload ?? 0); i++) {
    const pet: Pet = { id: newId(), name: `Resident ${i}`, categoryId: BigInt(i % 7), status: i % 4 === 3 ? undefined : (STATUSES[i % 4] as Status), seq: pets.length };
    pets.push(pet);
    byId.set(pet.id, pet);
  }

  return (request) => {
    const size = request.body?.length ?? 0;
    const authorization = request.headers['authorization'];
    const reply = size > 1_000_000 ? error(413, 'The body is too large.') : answer(request.method, request.url, typeof authorization === 'string' ? authorization : undefined, request.body?.toString('utf8') ?? '');
    return { status: reply.status, headers: { ...reply.headers, 'content-type': contentType }, body: reply.body };
  };
}

/**
 * Starts the alternative implementation ({@link createAltHandler}) on `127.0.0.1`, port 0, with plain node:http:
 * the body is read whole, then answered (after a random delay when `latencyMs` is set).
 */
export async function startAltServer(options: AltOptions): Promise<AltServer> {
  const handle = createAltHandler(options);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= 1_000_001) chunks.push(chunk);
    });
    req.on('end', () => {
      const reply = handle({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks) });
      const write = (): void => {
        res.writeHead(reply.status, { ...reply.headers, 'content-length': Buffer.byteLength(reply.body) });
        res.end(reply.body);
      };
      if (options.latencyMs === undefined) write();
      else setTimeout(write, Math.random() * options.latencyMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function own(object: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The int64 a JSON number literal denotes (`12`, `-0`, `1.0`, `1e3` are integers), or `undefined`. */
function int64(literal: string): bigint | undefined {
  const match = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(literal);
  if (match === null) return undefined;
  const [, sign, whole = '', fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText) - fraction.length;
  const digits = (whole + fraction).replace(/^0+/, '') || '0';
  if (digits === '0') return 0n;
  if (exponent > 19) return undefined;
  let value: bigint;
  if (exponent >= 0) value = BigInt(digits) * 10n ** BigInt(exponent);
  else if (-exponent >= digits.length ? /^0*$/.test(digits) : /^0*$/.test(digits.slice(exponent))) value = BigInt(digits.slice(0, exponent) || '0');
  else return undefined;
  const signed = sign === '-' ? -value : value;
  return signed < INT64_MIN || signed > INT64_MAX ? undefined : signed;
}
