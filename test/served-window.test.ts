import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import { specMock } from './spec-mock.js';
import { fixedClock, TEST_DAY } from './fixed-clock.js';

/**
 * A list computed for the window it is asked, which the suite cannot write (spec/DECISIONS.md › D276): the mock
 * narrows its example to the window asked, the suite's `<op>.window` check passes it, and a server that takes in
 * the day before the start fails that check on every seed.
 */
const SPEC = `openapi: 3.0.3
info: { title: Opening hours, version: '1' }
paths:
  /opening-hours:
    get:
      operationId: listOpeningHours
      parameters:
        - { name: startDate, in: query, description: The first date to list opening hours for, schema: { type: string, format: date } }
        - { name: endDate, in: query, description: The last date to list opening hours for, schema: { type: string, format: date } }
        - { name: page, in: query, schema: { type: integer, minimum: 1, default: 1 } }
        - { name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 30, default: 10 } }
      responses:
        '200':
          description: The opening hours of each day of the window.
          content:
            application/json:
              schema:
                type: array
                items: { type: object, required: [date, opens], properties: { date: { type: string, format: date }, opens: { type: string } } }
              example:
                - { date: '2024-03-01', opens: '09:00' }
                - { date: '2024-03-02', opens: '10:00' }
                - { date: '2024-03-03', opens: '10:00' }
                - { date: '2024-03-04', opens: '09:00' }
        '400':
          description: A window that cannot be read.
          content:
            application/json:
              schema: { type: object, required: [message], properties: { message: { type: string } } }
`;

const DAY_MS = 86_400_000;

/** The clock of the server below and of the suite run against it: the verdict must not depend on the day. */
const NOW = fixedClock(TEST_DAY);

/**
 * A server of the spec that computes a day for every date of the window asked (today, by {@link NOW}, to a week on
 * when not asked), page by page; with `dayBefore` it starts a day early, as a start read in a zone west of UTC would.
 */
function hoursServer(dayBefore: boolean): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const today = NOW().toISOString().slice(0, 10);
    const start = Date.parse(url.searchParams.get('startDate') ?? today) - (dayBefore ? DAY_MS : 0);
    const end = Date.parse(url.searchParams.get('endDate') ?? new Date(Date.parse(today) + 7 * DAY_MS).toISOString().slice(0, 10));
    const limit = Number(url.searchParams.get('limit') ?? 10);
    const page = Number(url.searchParams.get('page') ?? 1);
    const days: { date: string; opens: string }[] = [];
    for (let index = (page - 1) * limit; index < page * limit && start + index * DAY_MS <= end; index++) days.push({ date: new Date(start + index * DAY_MS).toISOString().slice(0, 10), opens: '09:00' });
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(days));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ baseUrl: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

const KEY = 'served-window-key-0123456789';
const started = specMock('served-window', SPEC, [KEY]);

describe('a list computed for its window is judged within it (D276)', () => {
  test("the mock answers the example's days within the window asked, and none outside", async () => {
    const response = await fetch(`${started.mock.baseUrl}/opening-hours?startDate=2024-03-02&endDate=2024-03-03`, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { date: string }[]).map((day) => day.date)).toEqual(['2024-03-02', '2024-03-03']);
  });

  test('the window check runs and passes on the mock and on a server computing every day of the window', async () => {
    const ids = await listCheckIds({ baseUrl: started.mock.baseUrl, apiKey: KEY, spec: started.spec });
    expect(ids).toContain('listOpeningHours.window');
    const server = await hoursServer(false);
    try {
      for (const baseUrl of [started.mock.baseUrl, server.baseUrl]) {
        const outcome = await runCheck('listOpeningHours.window', { baseUrl, apiKey: KEY, spec: started.spec, runs: 5, now: NOW });
        expect(outcome.ok ? '' : outcome.report, baseUrl).toBe('');
        expect(outcome.ok && outcome.skipped, baseUrl).toBeFalsy();
      }
    } finally {
      await server.close();
    }
  });

  test('a server that lists the day before the start fails it with every seed', async () => {
    const server = await hoursServer(true);
    try {
      for (const seed of [1, 2, 3]) {
        const outcome = await runCheck('listOpeningHours.window', { baseUrl: server.baseUrl, apiKey: KEY, spec: started.spec, runs: 5, seed, now: NOW });
        expect(outcome.ok, `seed ${seed}`).toBe(false);
        expect(outcome.ok ? '' : outcome.report).toContain('wholly outside that window');
      }
    } finally {
      await server.close();
    }
  });
});
