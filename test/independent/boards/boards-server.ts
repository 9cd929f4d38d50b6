import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A kanban backend written from the text of spec/wild/boards-links-3.0.yaml alone: plain node:http, its own maps
// and validation, no code shared with mock/ or conformance/. A board is named by the `key` its create answers;
// its cards live under /boards/{boardRef}/cards. Errors carry the spec's `Error` ({message}). Each `BoardsFault`
// is one realistic bug that only a client following the create's declared links (key → boardRef) ever meets.

/** One realistic bug to build into the server (none: the correct server). */
export type BoardsFault = 'cards-as-text' | 'cards-wrapped' | 'add-card-500' | 'archive-500' | 'cards-ignore-parent' | 'card-added-to-first-board';

/** A running boards server: its base URL (the spec's `/api` under a free port) and how to stop it. */
export interface RunningBoards {
  baseUrl: string;
  close(): Promise<void>;
}

const BASE = '/api';

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly why: string,
  ) {
    super(why);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A required text member of a JSON body between `min` and `max` characters; 400 otherwise. */
function textOf(body: unknown, name: string, max: number): string {
  if (!isObject(body)) throw new HttpError(400, 'the body must be a JSON object');
  const value = body[name];
  if (typeof value !== 'string' || value.length < 1 || [...value].length > max) throw new HttpError(400, `${name} must be a text of 1 to ${max} characters`);
  return value;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw new HttpError(400, 'the body must be JSON');
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new HttpError(400, 'the body is not valid JSON');
  }
}

/** Starts the boards server on a free port of 127.0.0.1, with `fault` built in when given. */
export async function startBoardsServer(fault?: BoardsFault): Promise<RunningBoards> {
  const boards = new Map<string, { key: string; title: string; archived: boolean; cards: { id: number; text: string }[] }>();
  let nextCard = 1;

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://boards.invalid');
    const method = request.method ?? 'GET';
    const send = (status: number, value?: unknown): void => {
      if (value === undefined) response.writeHead(status).end();
      else response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    };
    if (!url.pathname.startsWith(`${BASE}/`)) throw new HttpError(404, 'no such path');
    const path = url.pathname.slice(BASE.length + 1).split('/').map((segment) => decodeURIComponent(segment));
    const boardAt = (ref: string) => {
      const board = boards.get(ref);
      if (board === undefined) throw new HttpError(404, `no board has the key ${ref}`);
      return board;
    };
    if (path.length === 1 && path[0] === 'boards') {
      if (method !== 'POST') throw new HttpError(405, 'only POST');
      const title = textOf(await readJson(request), 'title', 80);
      let key: string;
      do key = randomBytes(5).toString('hex').slice(0, 8);
      while (boards.has(key));
      boards.set(key, { key, title, archived: false, cards: [] });
      return send(201, { key, title });
    }
    if (path.length === 3 && path[0] === 'boards' && path[2] === 'cards') {
      if (method === 'GET') {
        const board = boardAt(path[1]!);
        if (fault === 'cards-as-text') {
          response.writeHead(200, { 'content-type': 'text/plain' }).end(board.cards.map((card) => `${card.id}\t${card.text}`).join('\n'));
          return;
        }
        const cards = fault === 'cards-ignore-parent' ? [...boards.values()].flatMap((one) => one.cards) : board.cards;
        return send(200, fault === 'cards-wrapped' ? { cards } : cards);
      }
      if (method === 'POST') {
        const named = boardAt(path[1]!);
        // The buggy version files every card on the board created first, whichever the path names.
        const board = fault === 'card-added-to-first-board' ? boards.values().next().value! : named;
        const text = textOf(await readJson(request), 'text', 200);
        if (fault === 'add-card-500') throw new Error('the card counter is shared with another board');
        const card = { id: nextCard++, text };
        board.cards.push(card);
        return send(201, card);
      }
      throw new HttpError(405, 'only GET and POST');
    }
    if (path.length === 3 && path[0] === 'boards' && path[2] === 'archive') {
      if (method !== 'POST') throw new HttpError(405, 'only POST');
      const board = boardAt(path[1]!);
      if (fault === 'archive-500') throw new Error('archive storage not configured');
      board.archived = true;
      return send(204);
    }
    throw new HttpError(404, 'no such path');
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (response.headersSent) return;
      const status = error instanceof HttpError ? error.status : 500;
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ message: error instanceof HttpError ? error.why : 'internal error' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${BASE}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error === undefined ? resolve() : reject(error)))),
  };
}
