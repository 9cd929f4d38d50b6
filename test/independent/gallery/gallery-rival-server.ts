import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

// A second gallery backend written from the text of spec/wild/gallery-3.1.yaml alone, by an engineer who on every
// point the spec leaves open took the other legitimate option than gallery-server.ts: time-ordered (v7) uuids,
// exhibitions listed by title, an unknown or malformed exhibition id answered 404 (both 400 and 404 are documented),
// `limit` of at least 1, a reversed date range answered with an empty page, opening hours that skip the closed
// Mondays, `application/json; charset=utf-8`, gzip when the client accepts it, ETag and Last-Modified on records,
// rate-limit headers, a Location on creates, prices written as floats (`25.0`), problem details with `status` and
// `detail`, trailing slashes accepted, extra body members ignored. It shares no code with the mock, the suite or
// the first server: the suite must pass both.

/** Options of {@link startGalleryRivalServer}: the accepted Basic user name (any password). */
export interface GalleryRivalOptions {
  user: string;
  /** Further legitimate choices, off by default: a page past the last one answered 404 (documented on the list). */
  pastLastPage404?: boolean;
  /** Further legitimate choices, off by default: a new exhibition reaches the list this many ms after its create. */
  listLagMs?: number;
  /** Further choices, off by default: a query parameter the operation does not declare is a 400 (documented). */
  strictQuery?: boolean;
  /** Further choices, off by default: a `limit` above 30 is served as 30 rather than refused. */
  clampLimit?: boolean;
  /** The clock whose day is "today" for a window left open (default: the system clock). */
  now?: () => Date;
}

/** A running server: its base URL (the spec's `/api/v1` under a free port of 127.0.0.1) and how to stop it. */
export interface RivalServer {
  baseUrl: string;
  close(): Promise<void>;
}

interface Show {
  created?: number;
  exhibitionId: string;
  title: string;
  room: string;
  description: string;
  dates: string[];
  price: number;
  modified: Date;
}

const PREFIX = '/api/v1';
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const HORIZON = 90;
const PNG_PIXEL = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

class Refusal extends Error {
  constructor(readonly status: number, readonly detail: string) {
    super(detail);
  }
}

/** A version 7 uuid: 48 bits of milliseconds, then random bits, version and variant set. */
function uuidV7(): string {
  const bytes = randomBytes(16);
  const now = BigInt(Date.now());
  for (let index = 0; index < 6; index += 1) bytes[index] = Number((now >> BigInt(8 * (5 - index))) & 0xffn);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function validDay(text: unknown): text is string {
  if (typeof text !== 'string') return false;
  const parts = DAY.exec(text);
  if (parts === null) return false;
  const when = new Date(Date.UTC(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3])));
  return when.getUTCFullYear() === Number(parts[1]) && when.getUTCMonth() === Number(parts[2]) - 1 && when.getUTCDate() === Number(parts[3]);
}

function shiftDay(day: string, by: number): string {
  const when = new Date(`${day}T00:00:00.000Z`);
  when.setUTCDate(when.getUTCDate() + by);
  return when.toISOString().slice(0, 10);
}

function record(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON text with every number that is a whole float member (`price`) written with a decimal point. */
function floatJson(value: unknown): string {
  return JSON.stringify(value, (key, member: unknown) => (key === 'price' && typeof member === 'number' && Number.isInteger(member) ? `__float__${member}` : member)).replace(/"__float__(-?\d+)"/g, '$1.0');
}

function publicShow(show: Show): Record<string, unknown> {
  const { modified: _modified, created: _created, ...rest } = show;
  return rest;
}

/** Validated exhibition members of `body`: all required on create, any subset on PATCH; unknown members ignored. */
function showFields(body: unknown, create: boolean): Partial<Show> {
  if (!record(body)) throw new Refusal(400, 'Expected a JSON object');
  const out: Partial<Show> = {};
  const present = (name: string): boolean => {
    if (body[name] !== undefined) return true;
    if (create) throw new Refusal(400, `Missing required property '${name}'`);
    return false;
  };
  if (present('title')) {
    const title = body.title;
    if (typeof title !== 'string' || !/^\b.+\b$/.test(title)) throw new Refusal(400, "Property 'title' must start and end with a word character");
    out.title = title;
  }
  if (present('room')) {
    if (typeof body.room !== 'string') throw new Refusal(400, "Property 'room' must be a string");
    out.room = body.room;
  }
  if (present('description')) {
    if (typeof body.description !== 'string') throw new Refusal(400, "Property 'description' must be a string");
    out.description = body.description;
  }
  if (present('dates')) {
    if (!Array.isArray(body.dates) || !body.dates.every(validDay)) throw new Refusal(400, "Property 'dates' must be an array of dates");
    out.dates = [...(body.dates as string[])];
  }
  if (present('price')) {
    if (typeof body.price !== 'number' || !Number.isFinite(body.price)) throw new Refusal(400, "Property 'price' must be a number");
    out.price = body.price;
  }
  if (create && body.exhibitionId !== undefined) {
    if (typeof body.exhibitionId !== 'string' || !UUID_SHAPE.test(body.exhibitionId)) throw new Refusal(400, "Property 'exhibitionId' must be a uuid");
    out.exhibitionId = body.exhibitionId.toLowerCase();
  }
  return out;
}

function pageParams(query: URLSearchParams, clamp = false): { page: number; limit: number } {
  const read = (name: string, fallback: number, least: number): number => {
    const raw = query.get(name);
    if (raw === null || raw === '') return fallback;
    if (!/^\+?\d+$/.test(raw)) throw new Refusal(400, `Query parameter '${name}' must be a positive integer`);
    const value = Number(raw);
    if (value < least) throw new Refusal(400, `Query parameter '${name}' must be at least ${least}`);
    return value;
  };
  const page = read('page', 1, 1);
  const limit = read('limit', 10, 1);
  if (limit > 30 && !clamp) throw new Refusal(400, "Query parameter 'limit' must be at most 30");
  return { page, limit: Math.min(limit, 30) };
}

function dayParam(query: URLSearchParams, name: string, fallback: string): string {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  if (!validDay(raw)) throw new Refusal(400, `Query parameter '${name}' must be a date`);
  return raw;
}

/**
 * Starts the rival gallery on a free port: HTTP Basic with user name `options.user` on every operation (the spec's
 * global `security`), problem details (`type`, `title`, `status`, `detail`) as `application/problem+json`.
 */
export async function startGalleryRivalServer(options: GalleryRivalOptions): Promise<RivalServer> {
  const shows = new Map<string, Show>();
  const passes = new Set<string>();
  const today = (): string => (options.now ?? ((): Date => new Date()))().toISOString().slice(0, 10);
  let served = 0;

  const reply = (request: IncomingMessage, response: ServerResponse, status: number, payload?: unknown, extra: Record<string, string> = {}): void => {
    served += 1;
    const headers: Record<string, string | number> = { 'x-ratelimit-limit': 10_000, 'x-ratelimit-remaining': Math.max(0, 10_000 - served), ...extra };
    if (payload === undefined) {
      response.writeHead(status, headers).end();
      return;
    }
    let bytes: Buffer;
    if (Buffer.isBuffer(payload)) {
      bytes = payload;
      headers['content-type'] ??= 'image/png';
    } else {
      bytes = Buffer.from(floatJson(payload), 'utf8');
      headers['content-type'] ??= 'application/json; charset=utf-8';
    }
    if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? '')) && bytes.length > 64) {
      bytes = gzipSync(bytes);
      headers['content-encoding'] = 'gzip';
      headers.vary = 'Accept-Encoding';
    }
    headers['content-length'] = bytes.length;
    response.writeHead(status, headers).end(request.method === 'HEAD' ? undefined : bytes);
  };

  const cacheHeaders = (show: Show): Record<string, string> => ({
    etag: `"${createHash('sha1').update(floatJson(publicShow(show))).digest('hex').slice(0, 16)}"`,
    'last-modified': show.modified.toUTCString(),
  });

  const signedIn = (request: IncomingMessage): boolean => {
    const match = /^basic\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    if (match === null) return false;
    const pair = Buffer.from(match[1]!, 'base64').toString('utf8');
    const colon = pair.indexOf(':');
    return colon > 0 && pair.slice(0, colon) === options.user;
  };

  // A malformed id cannot name an exhibition: the answer is the same 404 as for an unknown one.
  const findShow = (id: string): Show => {
    const show = UUID_SHAPE.test(id) ? shows.get(id.toLowerCase()) : undefined;
    if (show === undefined) throw new Refusal(404, `Exhibition '${id}' does not exist`);
    return show;
  };

  const jsonBody = async (request: IncomingMessage): Promise<unknown> => {
    const parts: Buffer[] = [];
    for await (const part of request) parts.push(part as Buffer);
    const media = String(request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (!/^application\/([a-z.+-]+\+)?json$/.test(media)) throw new Refusal(400, 'The body must be application/json');
    try {
      return JSON.parse(Buffer.concat(parts).toString('utf8')) as unknown;
    } catch {
      throw new Refusal(400, 'The body is not valid JSON');
    }
  };

  const route = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://rival.invalid');
    let pathname = url.pathname.replace(/\/+$/, '');
    if (!pathname.startsWith(`${PREFIX}/`)) throw new Refusal(404, 'No such resource');
    pathname = pathname.slice(PREFIX.length);
    const segments = pathname.split('/').slice(1).map((segment) => decodeURIComponent(segment));
    const verb = request.method === 'HEAD' ? 'GET' : (request.method ?? 'GET');
    const [top, id, tail] = segments;
    const shapeOk =
      (top === 'opening-hours' && segments.length === 1) ||
      (top === 'exhibitions' && segments.length <= 2) ||
      (top === 'passes' && (segments.length === 1 || (segments.length === 3 && tail === 'qr')));
    if (!shapeOk) throw new Refusal(404, 'No such resource');
    const allowed =
      top === 'opening-hours' ? ['GET'] : top === 'exhibitions' ? (id === undefined ? ['GET', 'POST'] : ['GET', 'PATCH', 'DELETE']) : id === undefined ? ['POST'] : ['GET'];
    if (verb === 'OPTIONS') return reply(request, response, 204, undefined, { allow: [...allowed, 'OPTIONS'].join(', ') });
    if (!allowed.includes(verb)) {
      response.setHeader('allow', allowed.join(', '));
      throw new Refusal(405, `${verb} is not allowed here`);
    }
    if (!signedIn(request)) {
      response.setHeader('www-authenticate', 'Basic realm="Gallery", charset="UTF-8"');
      throw new Refusal(401, 'Sign in with HTTP Basic');
    }
    const query = url.searchParams;
    if (options.strictQuery === true) {
      const declared = top === 'opening-hours' ? ['startDate', 'page', 'limit'] : top === 'exhibitions' && id === undefined && verb === 'GET' ? ['startDate', 'endDate', 'page', 'limit'] : [];
      const unknown = [...query.keys()].find((name) => !declared.includes(name));
      if (unknown !== undefined) throw new Refusal(400, `Unknown query parameter '${unknown}'`);
    }
    if (top === 'opening-hours') {
      const from = dayParam(query, 'startDate', today());
      const { page, limit } = pageParams(query, options.clampLimit === true);
      const open: Record<string, string>[] = [];
      for (let offset = 0; offset < HORIZON; offset += 1) {
        const day = shiftDay(from, offset);
        const weekday = new Date(`${day}T00:00:00.000Z`).getUTCDay();
        if (weekday === 1) continue; // closed on Mondays
        open.push({ date: day, timeOpen: weekday === 0 ? '11:00' : '10:00', timeClose: weekday === 4 ? '21:00' : '17:30' });
      }
      return reply(request, response, 200, open.slice((page - 1) * limit, page * limit));
    }
    if (top === 'exhibitions' && id === undefined && verb === 'GET') {
      const from = dayParam(query, 'startDate', today());
      const to = dayParam(query, 'endDate', shiftDay(from, 7));
      const { page, limit } = pageParams(query, options.clampLimit === true);
      const hits = [...shows.values()]
        .filter((show) => show.dates.some((day) => day >= from && day <= to) && Date.now() - (show.created ?? 0) >= (options.listLagMs ?? 0))
        .sort((one, other) => (one.title < other.title ? -1 : one.title > other.title ? 1 : one.exhibitionId < other.exhibitionId ? -1 : 1));
      if (options.pastLastPage404 === true && page > 1 && (page - 1) * limit >= hits.length) throw new Refusal(404, `Page ${page} is past the last page`);
      return reply(request, response, 200, hits.slice((page - 1) * limit, page * limit).map(publicShow));
    }
    if (top === 'exhibitions' && id === undefined) {
      const fields = showFields(await jsonBody(request), true);
      const exhibitionId = fields.exhibitionId ?? uuidV7();
      if (shows.has(exhibitionId)) throw new Refusal(400, `Exhibition '${exhibitionId}' already exists`);
      const show = { ...(fields as Show), exhibitionId, modified: new Date(), created: Date.now() };
      shows.set(exhibitionId, show);
      return reply(request, response, 201, publicShow(show), { location: `${PREFIX}/exhibitions/${exhibitionId}`, ...cacheHeaders(show) });
    }
    if (top === 'exhibitions' && id !== undefined) {
      const show = findShow(id);
      if (verb === 'GET') return reply(request, response, 200, publicShow(show), cacheHeaders(show));
      if (verb === 'DELETE') {
        shows.delete(show.exhibitionId);
        return reply(request, response, 204);
      }
      const changes = showFields(await jsonBody(request), false);
      const updated = { ...show, ...changes, exhibitionId: show.exhibitionId, modified: new Date() };
      shows.set(show.exhibitionId, updated);
      return reply(request, response, 200, publicShow(updated), cacheHeaders(updated));
    }
    if (top === 'passes' && id === undefined) {
      const body = await jsonBody(request);
      if (!record(body)) throw new Refusal(400, 'Expected a JSON object');
      const { passType, passDate, email, exhibitionId } = body;
      if (passType !== 'general' && passType !== 'exhibition') throw new Refusal(400, "Property 'passType' must be general or exhibition");
      if (!validDay(passDate)) throw new Refusal(400, "Property 'passDate' must be a date");
      if (email !== undefined && (typeof email !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(email))) throw new Refusal(400, "Property 'email' must be an email address");
      if (body.passId !== undefined && (typeof body.passId !== 'string' || !UUID_SHAPE.test(body.passId))) throw new Refusal(400, "Property 'passId' must be a uuid");
      let forShow: string | undefined;
      if (exhibitionId !== undefined) {
        if (typeof exhibitionId !== 'string' || !UUID_SHAPE.test(exhibitionId)) throw new Refusal(400, "Property 'exhibitionId' must be a uuid");
        forShow = findShow(exhibitionId).exhibitionId;
      }
      const passId = uuidV7();
      passes.add(passId);
      const code = `pass-${passType}-${randomBytes(3).toString('hex')}-${randomBytes(3).toString('hex').slice(1)}`;
      return reply(request, response, 201, { passId, passType, passDate, ...(forShow === undefined ? {} : { exhibitionId: forShow }), message: `Gallery ${passType} entry pass purchased`, confirmationCode: code }, { location: `${PREFIX}/passes/${passId}/qr` });
    }
    // GET /passes/{passId}/qr
    if (!UUID_SHAPE.test(id!) || !passes.has(id!.toLowerCase())) throw new Refusal(404, `Pass '${id!}' does not exist`);
    return reply(request, response, 200, PNG_PIXEL, { 'content-type': 'image/png', 'cache-control': 'private, max-age=3600' });
  };

  const server = createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      const refusal = error instanceof Refusal ? error : new Refusal(500, 'Unexpected error');
      const titles: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 405: 'Method Not Allowed', 500: 'Internal Server Error' };
      reply(request, response, refusal.status, { type: 'about:blank', title: titles[refusal.status] ?? 'Error', status: refusal.status, detail: refusal.detail }, { 'content-type': 'application/problem+json; charset=utf-8' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${PREFIX}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error === undefined ? resolve() : reject(error)))),
  };
}
