import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createdWindowQuery, MAX_LIST_WALK_RECORDS } from '../conformance/checks/pages.js';
import { runCheck } from '../conformance/run-suite.js';
import { loadModel } from '../model/loader.js';

/**
 * The page walk of a list the suite fills (spec/DECISIONS.md › D279): a correct server holding far more records than
 * the run made is walked to a stated bound, which the check's advice names, not judged as pages that never end;
 * the walk is asked within the window of the run's own records where the list has one; a server that answers the
 * first page for every page number still fails at once.
 */
const SPEC = `openapi: 3.0.3
info: { title: Notes, version: '1' }
paths:
  /notes:
    get:
      operationId: listNotes
      parameters:
        - { name: page, in: query, schema: { type: integer, minimum: 1, default: 1 } }
        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 100, default: 20 } }
        - { name: fromDay, in: query, description: The first day of notes to list, schema: { type: string, format: date } }
        - { name: toDay, in: query, description: The last day of notes to list, schema: { type: string, format: date } }
      responses:
        '200':
          description: A page of notes.
          content:
            application/json:
              schema: { type: array, items: { $ref: '#/components/schemas/Note' } }
    post:
      operationId: createNote
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: '#/components/schemas/NewNote' }
      responses:
        '201':
          description: The note made.
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Note' }
        '400':
          description: A body that cannot be a note.
          content:
            application/json:
              schema: { type: object, required: [message], properties: { message: { type: string } } }
  /notes/{noteId}:
    get:
      operationId: getNote
      parameters:
        - { name: noteId, in: path, required: true, schema: { type: integer, minimum: 1 } }
      responses:
        '200':
          description: The note.
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Note' }
        '404':
          description: No such note.
          content:
            application/json:
              schema: { type: object, required: [message], properties: { message: { type: string } } }
components:
  schemas:
    NewNote:
      type: object
      required: [text, day]
      properties:
        text: { type: string, minLength: 1, maxLength: 20 }
        day: { type: string, format: date }
    Note:
      type: object
      required: [id, text, day]
      properties:
        id: { type: integer }
        text: { type: string }
        day: { type: string, format: date }
`;

/** Notes a server holds before any run: far more than the walk's bound, all on one day. */
const HELD = MAX_LIST_WALK_RECORDS * 2;
const HELD_DAY = '2000-06-15';

type Note = { id: number; text: string; day: string };

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function textOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The notes server: {@link HELD} notes on {@link HELD_DAY} (computed, ids 1..HELD), then the ones created, in id
 * order, narrowed to `fromDay..toDay` (both days included) and cut into pages. `asked`: every list query it got.
 * With `pageIgnored` every page number answers the first page.
 */
function notesServer(pageIgnored: boolean, asked: string[]): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const created: Note[] = [];
  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const path = url.pathname.split('/').filter((part) => part !== '');
      if (path[0] !== 'notes') return send(response, 404, { message: 'no such route' });
      if (path.length === 2) {
        const id = Number(path[1]);
        const note = Number.isInteger(id) && id >= 1 && id <= HELD ? { id, text: `held ${id}`, day: HELD_DAY } : created.find((one) => one.id === id);
        return note === undefined ? send(response, 404, { message: 'no such note' }) : send(response, 200, note);
      }
      if (request.method === 'POST') {
        let body: unknown;
        try {
          body = JSON.parse(await textOf(request));
        } catch {
          return send(response, 400, { message: 'no JSON' });
        }
        const { text, day } = (body ?? {}) as Record<string, unknown>;
        if (typeof text !== 'string' || text.length === 0 || [...text].length > 20 || typeof day !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(day))) return send(response, 400, { message: 'text and day are required' });
        const note = { id: HELD + created.length + 1, text, day };
        created.push(note);
        return send(response, 201, note);
      }
      asked.push(url.search);
      const from = url.searchParams.get('fromDay') ?? '0000-01-01';
      const to = url.searchParams.get('toDay') ?? '9999-12-31';
      const limit = Number(url.searchParams.get('limit') ?? 20);
      const page = pageIgnored ? 1 : Number(url.searchParams.get('page') ?? 1);
      const heldIn = HELD_DAY >= from && HELD_DAY <= to ? HELD : 0;
      const mine = created.filter((note) => note.day >= from && note.day <= to);
      const notes: Note[] = [];
      for (let index = (page - 1) * limit; index < page * limit && index < heldIn + mine.length; index++) notes.push(index < heldIn ? { id: index + 1, text: `held ${index + 1}`, day: HELD_DAY } : mine[index - heldIn]!);
      return send(response, 200, notes);
    })();
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ baseUrl: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

const KEY = 'bounded-walk-key';
let dir: string;
let spec: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bounded-walk-'));
  spec = join(dir, 'spec.yaml');
  writeFileSync(spec, SPEC);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the page walk of a list the suite fills (D279)', () => {
  test("is asked within the run's records' window, a day wider at each end", async () => {
    const model = await loadModel(spec);
    const notes = model.resources.find((resource) => resource.operations.list?.operationId === 'listNotes')!;
    expect(createdWindowQuery(notes, [{ id: 1, day: '2130-03-05' }, { id: 2, day: '2130-01-31' }])).toBe('fromDay=2130-01-30&toDay=2130-03-06');
    // A record the run does not know as created (it may have moved out of any span) leaves the window at its widest.
    expect(createdWindowQuery(notes, [{ id: 1, day: '2130-03-05' }, undefined])).toBe('');
  });

  test('a server holding more than the bound passes, and the advice names the bound it stopped at', async () => {
    const asked: string[] = [];
    const server = await notesServer(false, asked);
    try {
      const outcome = await runCheck('listNotes.pages', { baseUrl: server.baseUrl, apiKey: KEY, spec, runs: 3, seed: 7 });
      expect(outcome.ok ? '' : outcome.report).toBe('');
      const advice = outcome.ok ? outcome.advice.join('\n') : '';
      expect(advice).toContain(`the walk stopped at its bound of ${MAX_LIST_WALK_RECORDS} records`);
      // Each page past the first is asked within the window of the run's records, never the widest one.
      const walks = asked.filter((query) => query.includes('page='));
      expect(walks.length).toBeGreaterThan(0);
      expect(walks.filter((query) => !query.includes('fromDay=') || query.includes('fromDay=1970-01-01&toDay=2999-12-31'))).toEqual([]);
    } finally {
      await server.close();
    }
  }, 120_000);

  test('a server answering the first page for every page number fails with a record on two pages', async () => {
    const server = await notesServer(true, []);
    try {
      const outcome = await runCheck('listNotes.pages', { baseUrl: server.baseUrl, apiKey: KEY, spec, runs: 3, seed: 7 });
      expect(outcome.ok).toBe(false);
      expect(outcome.ok ? '' : outcome.report).toMatch(/is on page 1 and again on page 2/);
    } finally {
      await server.close();
    }
  }, 120_000);
});
