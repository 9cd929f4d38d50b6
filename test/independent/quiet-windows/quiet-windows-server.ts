import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A quiet-windows backend written from the text of spec/wild/quiet-windows-3.0.yaml alone: plain node:http, its own
// map and validation, no code shared with mock/ or conformance/. It enforces the rules the 400's text states (a
// start before its end, a comment that is not blank) that the schema does not, answers 404 to a body naming an id
// no window has, and answers the uptime report's documented 501: this installation offers no reports. Each
// `QuietFault` is one realistic bug.

/** One realistic bug to build into the server (none: the correct server). */
export type QuietFault = 'range-reversed' | 'range-refused-422' | 'range-refusal-as-text' | 'unknown-id-500' | 'report-500' | 'delete-keeps';

/** A running server: its base URL (the spec's `/api/v2` under a free port) and how to stop it. */
export interface RunningQuiet {
  baseUrl: string;
  close(): Promise<void>;
}

/** What the server is started with: the key it accepts as a Bearer token, and a fault. */
export interface QuietOptions {
  key: string;
  fault?: QuietFault | undefined;
}

const BASE = '/api/v2';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Window {
  id: string;
  startsAt: string;
  endsAt: string;
  comment: string;
  createdBy: string;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly why: string,
  ) {
    super(why);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw new HttpError(400, 'BAD_BODY', 'the body must be JSON');
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new HttpError(400, 'BAD_BODY', 'the body is not valid JSON');
  }
}

/** The instant an RFC 3339 date-time names, in ms; 400 when `value` is not one. */
function instant(name: string, value: unknown): number {
  const ms = typeof value === 'string' && /^\d{4}-\d\d-\d\d[Tt]\d\d:\d\d:\d\d(?:\.\d+)?(?:[Zz]|[+-]\d\d:\d\d)$/.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) throw new HttpError(400, 'BAD_WINDOW', `${name} must be a date-time`);
  return ms;
}

/** A text member of at most `max` characters; 400 otherwise. */
function text(body: Record<string, unknown>, name: string, max: number): string {
  const value = body[name];
  if (typeof value !== 'string' || [...value].length > max) throw new HttpError(400, 'BAD_WINDOW', `${name} must be a text of at most ${max} characters`);
  return value;
}

/** Starts the server on a free port of 127.0.0.1. */
export async function startQuietServer(options: QuietOptions): Promise<RunningQuiet> {
  const { key, fault } = options;
  const windows = new Map<string, Window>();

  const save = (body: unknown): Window => {
    if (!isObject(body)) throw new HttpError(400, 'BAD_BODY', 'a window is an object');
    for (const name of Object.keys(body)) if (!['id', 'startsAt', 'endsAt', 'comment', 'createdBy'].includes(name)) throw new HttpError(400, 'BAD_WINDOW', `${name} is not a member of a window`);
    const starts = instant('startsAt', body['startsAt']);
    const ends = instant('endsAt', body['endsAt']);
    const comment = text(body, 'comment', 200);
    const createdBy = text(body, 'createdBy', 80);
    const id = body['id'];
    if (id !== undefined && (typeof id !== 'string' || !UUID.test(id))) throw new HttpError(400, 'BAD_WINDOW', 'id must be a uuid');
    // "its start time must be before its end time, and its comment cannot be blank"
    if (fault === 'range-reversed' ? starts < ends : starts >= ends) {
      if (fault === 'range-refused-422') throw new HttpError(422, 'BAD_WINDOW', 'start time must be before end time');
      throw new HttpError(400, 'BAD_WINDOW', 'start time must be before end time');
    }
    if (comment.trim() === '') throw new HttpError(400, 'BAD_WINDOW', 'comment cannot be blank');
    if (id !== undefined && !windows.has(id)) {
      if (fault === 'unknown-id-500') throw new Error(`no row ${id} to update`);
      throw new HttpError(404, 'NO_WINDOW', `no window has the id ${id}`);
    }
    const window: Window = { id: (id as string | undefined) ?? randomUUID(), startsAt: body['startsAt'] as string, endsAt: body['endsAt'] as string, comment, createdBy };
    windows.set(window.id, window);
    return window;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://quiet.invalid');
    const method = request.method ?? 'GET';
    const send = (status: number, value?: unknown): void => {
      if (value === undefined) response.writeHead(status).end();
      else response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    };
    if (!url.pathname.startsWith(`${BASE}/`)) throw new HttpError(404, 'NO_PATH', 'no such path');
    if (request.headers.authorization !== `Bearer ${key}`) throw new HttpError(401, 'UNAUTHORIZED', 'a valid key is needed');
    const path = url.pathname.slice(BASE.length + 1).split('/').map((segment) => decodeURIComponent(segment));
    if (path.length === 1 && path[0] === 'windows') {
      if (method === 'GET') return send(200, [...windows.values()]);
      if (method === 'POST') return send(200, save(await readJson(request)));
      throw new HttpError(405, 'METHOD', 'only GET and POST');
    }
    if (path.length === 2 && path[0] === 'windows') {
      const window = windows.get(path[1]!);
      if (window === undefined) throw new HttpError(404, 'NO_WINDOW', `no window has the id ${path[1]}`);
      if (method === 'GET') return send(200, window);
      if (method === 'DELETE') {
        if (fault !== 'delete-keeps') windows.delete(window.id);
        return send(204);
      }
      throw new HttpError(405, 'METHOD', 'only GET and DELETE');
    }
    if (path.length === 2 && path[0] === 'reports' && path[1] === 'uptime') {
      if (method !== 'GET') throw new HttpError(405, 'METHOD', 'only GET');
      if (fault === 'report-500') throw new Error('the report store is not configured');
      throw new HttpError(501, 'NO_REPORTS', 'reports are not available on this installation');
    }
    throw new HttpError(404, 'NO_PATH', 'no such path');
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (response.headersSent) return;
      if (!(error instanceof HttpError)) {
        response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'INTERNAL', message: 'internal error' }));
        return;
      }
      if (fault === 'range-refusal-as-text' && error.code === 'BAD_WINDOW') {
        response.writeHead(error.status, { 'content-type': 'text/plain' }).end(error.why);
        return;
      }
      response.writeHead(error.status, { 'content-type': 'application/json' }).end(JSON.stringify({ code: error.code, message: error.why }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${BASE}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error === undefined ? resolve() : reject(error)))),
  };
}
