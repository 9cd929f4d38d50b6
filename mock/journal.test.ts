import { describe, expect, it, vi } from 'vitest';
import { Journal, type JournalEntry } from './journal.js';
import type { MockRequest, MockResponse } from './index.js';

/** The journal behind `GET /__admin/requests` and the console's stream (README › Console; DECISIONS D68, D69). */

const request = (url: string, headers: MockRequest['headers'] = {}): MockRequest => ({ method: 'GET', url, headers: { host: '127.0.0.1:4010', ...headers } });
const answer = (status: number, body = '[]'): MockResponse => ({ status, headers: { 'content-type': 'application/json' }, body });

describe('Journal', () => {
  it('keeps the newest entries, filters by status and class, and never holds a credential', () => {
    const journal = new Journal(3);
    journal.record(request('/v1/pets?a', { authorization: 'Bearer secret', cookie: 'c=1' }), answer(200));
    journal.record(request('/v1/pets/9'), answer(404, '{"code":"PET_NOT_FOUND"}'));
    journal.record(request('/v1/pets?b'), answer(401));
    journal.record(request('/v1/pets?c'), answer(200));
    expect(journal.entries().map((e) => e.url)).toEqual(['/v1/pets?c', '/v1/pets?b', '/v1/pets/9']);
    expect(journal.entries({ status: '4xx' }).map((e) => e.status)).toEqual([401, 404]);
    expect(journal.entries({ status: '404', limit: 5 })).toHaveLength(1);
    const first = new Journal(1);
    first.record(request('/v1/pets', { authorization: 'Bearer secret', cookie: 'c=1' }), answer(200), undefined, 1.23456);
    const [entry] = first.entries() as [JournalEntry];
    expect(JSON.stringify(entry)).not.toContain('secret');
    expect(entry.headers['cookie']).toBeUndefined();
    expect(entry.durationMs).toBe(1.235);
    expect(entry.curl).toBe(`curl -sS -i 'http://127.0.0.1:4010/v1/pets' -H "Authorization: Bearer $OPENAPI_HARNESS_API_KEY"`);
  });

  it('quotes a replayed body for the shell and cuts bodies at 4 KiB', () => {
    const journal = new Journal(2);
    journal.record({ method: 'POST', url: '/v1/pets', headers: { 'content-type': 'application/json' }, body: Buffer.from(`{"name":"O'Hara"}`) }, answer(201, 'x'.repeat(5000)));
    const [entry] = journal.entries() as [JournalEntry];
    expect(entry.curl).toBe(`curl -sS -i -X POST 'http://127.0.0.1:4010/v1/pets' -H 'content-type: application/json' --data-raw '{"name":"O'\\''Hara"}'`);
    expect(entry.response.body).toHaveLength(4096);
    expect(entry.response.bodyTruncated).toBe(true);
  });

  it('sends watchers one batch per 100 ms under a flood: the newest 25, the others counted as skipped', () => {
    vi.useFakeTimers();
    try {
      const journal = new Journal(100);
      const batches: { entries: JournalEntry[]; skipped: number }[] = [];
      const stop = journal.subscribe((batch) => batches.push(batch));
      for (let i = 0; i < 1000; i++) journal.record(request(`/v1/pets?i=${i}`), answer(200));
      expect(batches).toHaveLength(0);
      vi.advanceTimersByTime(100);
      expect(batches).toHaveLength(1);
      expect(batches[0]!.entries).toHaveLength(25);
      expect(batches[0]!.entries.at(-1)!.url).toBe('/v1/pets?i=999');
      expect(batches[0]!.skipped).toBe(975);
      journal.record(request('/v1/pets?last'), answer(200));
      vi.advanceTimersByTime(100);
      expect(batches[1]).toMatchObject({ skipped: 0, entries: [{ url: '/v1/pets?last' }] });
      stop();
      journal.record(request('/v1/pets?after'), answer(200));
      vi.advanceTimersByTime(100);
      expect(batches).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps what a recorder adds (the proxy: who answered, what it broke) and takes an answer without a body', () => {
    const journal = new Journal(2);
    const violation = { operationId: 'getPet', rule: 'schema', side: 'response' as const, pointer: '/id', expected: 'integer', got: '"7"' };
    journal.record(request('/v1/pets/7'), { status: 200 }, { answeredBy: 'upstream', violations: [violation] });
    expect(journal.entries()[0]).toMatchObject({ status: 200, answeredBy: 'upstream', violations: [violation], response: { headers: {}, body: '' } });
  });

  it('a cleared journal tells its watchers', () => {
    const journal = new Journal(5);
    let changes = 0;
    journal.onChanged(() => changes++);
    journal.record(request('/v1/pets'), answer(200));
    journal.clear();
    expect(journal.size).toBe(0);
    expect(changes).toBe(1);
  });
});
