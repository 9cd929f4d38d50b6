import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
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

  it('holds no more of an answer than an entry shows: a full ring of 1 MiB pages keeps a few KiB each (D581)', () => {
    // V8's collector, exposed at run time: what the ring keeps is what survives a full collection.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const journal = new Journal(50);
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 50; i++) {
      // A fresh page each time, written out as a list of records is (joined, one flat string): no two rows share text.
      const page = `[${Array.from({ length: 5000 }, (_, j) => `{"id":${i * 5000 + j},"name":"${'n'.repeat(200)}"}`).join(',')}]`;
      journal.record(request(`/v1/pets?page=${i}`), answer(200, page));
      journal.record(request(`/v1/pets/stream?page=${i}`), { status: 200, headers: {}, body: '', chunks: [page, page] });
    }
    gc();
    const kept = process.memoryUsage().heapUsed - before;
    // Each page is over 1 MiB: a ring holding them whole keeps some 100 MiB.
    expect(kept).toBeLessThan(8 * 1024 * 1024);
    const [stream, page] = journal.entries() as [JournalEntry, JournalEntry];
    const first = `[${Array.from({ length: 30 }, (_, j) => `{"id":${49 * 5000 + j},"name":"${'n'.repeat(200)}"}`).join(',')}`;
    expect(page.response).toMatchObject({ body: first.slice(0, 4096), bodyTruncated: true });
    expect(stream.response.body).toBe(page.response.body);
    expect(stream.response.bodyTruncated).toBe(true);
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
