import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../../model/loader.js';
import { startMock, type StartedRedisMock } from '../../mock/index.js';
import { startRedis, type TestRedis } from './redis-server.js';

/**
 * Several mock replicas on one redis-server this file starts (README › Several replicas): what one creates
 * the other reads and lists; parallel creates across both get distinct ids, all visible on both; a restarted
 * replica keeps the records and does not load its starting data again; namespaces (prefixes, API keys) are
 * kept apart, and an admin reset acts on its own namespace only.
 */
const KEY = 'replica-key';
const ADMIN = 'replica-admin';
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const admin = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };

let redis: TestRedis;
const started: StartedRedisMock[] = [];
let prefixes = 0;

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  for (const mock of started) await mock.close();
  await redis?.dispose();
});

async function replica(prefix: string, options: { empty?: boolean; isolateByKey?: boolean; version?: string } = {}): Promise<StartedRedisMock> {
  const model = await loadModel();
  if (options.version !== undefined) model.version = options.version;
  const mock = await startMock({
    port: 0,
    model,
    ...(options.isolateByKey === true ? { isolateByKey: true } : { apiKeys: [KEY] }),
    adminToken: ADMIN,
    ...(options.empty === true ? { data: new Map() } : {}),
    store: { url: redis.url, prefix, timeoutMs: 1_000 },
  });
  started.push(mock);
  return mock;
}

async function call(base: string, path: string, init: RequestInit = {}): Promise<{ status: number; body: unknown; headers: Headers }> {
  const response = await fetch(`${base}${path}`, { ...init, headers: { ...auth, ...(init.headers as Record<string, string> | undefined) } });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown), headers: response.headers };
}

const create = (base: string, name: string, status = 'available') => call(base, '/pets', { method: 'POST', body: JSON.stringify({ name, categoryId: 1, status }) });

describe('two replicas sharing one Redis', () => {
  it('a pet created on one is read and listed on the other, and int64 survives the trip', async () => {
    const prefix = `replicas-${++prefixes}`;
    const [a, b] = [await replica(prefix, { empty: true }), await replica(prefix, { empty: true })];
    const body = '{"name":"Rex","categoryId":9223372036854775807,"status":"pending"}';
    const created = await fetch(`${a.baseUrl}/pets`, { method: 'POST', headers: auth, body });
    const text = await created.text();
    expect(created.status).toBe(201);
    const id = /"id":(\d+)/.exec(text)![1]!;
    const read = await fetch(`${b.baseUrl}/pets/${id}`, { headers: auth });
    expect(read.status).toBe(200);
    expect(await read.text()).toBe(text);
    expect(text).toContain('"categoryId":9223372036854775807');
    const listed = await fetch(`${b.baseUrl}/pets?status=pending`, { headers: auth });
    expect(await listed.text()).toBe(`[${text}]`);
  });

  it('200 parallel creates split across both replicas get distinct ids, all visible on both', async () => {
    const prefix = `replicas-${++prefixes}`;
    const [a, b] = [await replica(prefix, { empty: true }), await replica(prefix, { empty: true })];
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => create(i % 2 === 0 ? a.baseUrl : b.baseUrl, `pet-${i}`, ['available', 'pending', 'sold'][i % 3])));
    expect(results.map((r) => r.status)).toEqual(Array(200).fill(201));
    const ids = results.map((r) => String((r.body as { id: number }).id));
    expect(new Set(ids).size).toBe(200);
    for (const mock of [a, b]) {
      const all = await fetch(`${mock.origin}/__admin/pets`, { headers: admin });
      const held = ((await all.json()) as { id: number }[]).map((pet) => String(pet.id));
      expect(held.sort()).toEqual([...ids].sort());
      const page = await call(mock.baseUrl, '/pets?limit=100');
      expect((page.body as unknown[]).length).toBe(100);
      for (const id of ids.slice(0, 20)) expect((await call(mock.baseUrl, `/pets/${id}`)).status).toBe(200);
    }
  });

  it('a restarted replica keeps the records and never loads its starting data over them', async () => {
    const prefix = `replicas-${++prefixes}`;
    const first = await replica(prefix);
    const demo = (await call(first.baseUrl, '/pets?limit=100')).body as unknown[];
    expect(demo.length).toBeGreaterThan(0);
    const created = await create(first.baseUrl, 'after-demo');
    await first.close();
    started.splice(started.indexOf(first), 1);
    const again = await replica(prefix);
    const listed = (await call(again.baseUrl, '/pets?limit=100')).body as { id: number }[];
    expect(listed.length).toBe(demo.length + 1);
    expect(listed[0]!.id).toBe((created.body as { id: number }).id);
  });

  it('two replicas starting at once load the starting data once', async () => {
    const prefix = `together-${++prefixes}`;
    const [a, b] = await Promise.all([replica(prefix), replica(prefix)]);
    const [onA, onB] = [(await call(a.baseUrl, '/pets?limit=100')).body as unknown[], (await call(b.baseUrl, '/pets?limit=100')).body as unknown[]];
    expect(onA.length).toBeGreaterThan(0);
    expect(onB).toEqual(onA);
    // Loaded twice, the same ids would hide it; the creation sequence would not: it counts every record written.
    const client = new Redis(redis.url);
    try {
      expect(Number(await client.get(`${prefix}:data:pets:ord`))).toBe(onA.length);
    } finally {
      client.disconnect();
    }
  });

  it('--empty loads nothing and marks the namespace started: a later replica with starting data does not load it', async () => {
    const prefix = `empty-${++prefixes}`;
    const empty = await replica(prefix, { empty: true });
    expect((await call(empty.baseUrl, '/pets')).body).toEqual([]);
    const later = await replica(prefix);
    expect((await call(later.baseUrl, '/pets')).body).toEqual([]);
    await create(later.baseUrl, 'kept');
    expect(((await call(empty.baseUrl, '/pets')).body as { name: string }[]).map((pet) => pet.name)).toEqual(['kept']);
  });

  it('keeps two prefixes apart, and an admin reset restores its own namespace only', async () => {
    const [a, b] = [await replica(`apart-${++prefixes}`, { empty: true }), await replica(`apart-${++prefixes}`, { empty: true })];
    await create(a.baseUrl, 'only-in-a');
    expect((await call(b.baseUrl, '/pets')).body).toEqual([]);
    await create(b.baseUrl, 'only-in-b');
    const reset = await fetch(`${a.origin}/__admin/reset`, { method: 'POST', headers: admin });
    expect(reset.status).toBe(200);
    expect((await call(a.baseUrl, '/pets')).body).toEqual([]);
    expect(((await call(b.baseUrl, '/pets')).body as { name: string }[]).map((pet) => pet.name)).toEqual(['only-in-b']);
  });

  it('with --isolate-by-key, each key has its own namespace, shared by the replicas', async () => {
    const prefix = `keys-${++prefixes}`;
    const [a, b] = [await replica(prefix, { isolateByKey: true, empty: true }), await replica(prefix, { isolateByKey: true, empty: true })];
    const as = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
    const made = await fetch(`${a.baseUrl}/pets`, { method: 'POST', headers: { authorization: 'Bearer one', 'content-type': 'application/json' }, body: '{"name":"mine","categoryId":1}' });
    expect(made.status).toBe(201);
    expect(await (await fetch(`${b.baseUrl}/pets`, as('one'))).json()).toMatchObject([{ name: 'mine' }]);
    expect(await (await fetch(`${b.baseUrl}/pets`, as('two'))).json()).toEqual([]);
  });

  it('a spec reload (--watch) keeps serving the records held in Redis', async () => {
    const prefix = `reload-${++prefixes}`;
    const mock = await replica(prefix, { empty: true });
    await create(mock.baseUrl, 'before-reload');
    const report = mock.reload(await loadModel());
    expect(report.dropped).toBe(0);
    expect(((await call(mock.baseUrl, '/pets')).body as { name: string }[]).map((pet) => pet.name)).toEqual(['before-reload']);
    await create(mock.baseUrl, 'after-reload');
    expect(((await call(mock.baseUrl, '/pets')).body as unknown[]).length).toBe(2);
  });

  it('a replica of another spec version says so at start, and serves the records it found', async () => {
    const prefix = `versions-${++prefixes}`;
    await replica(prefix);
    const other = await replica(prefix, { version: '2.0.0' });
    expect(other.notes.join('\n')).toMatch(/written by .*1\.0\.0.*this replica serves .*2\.0\.0/);
    expect(((await call(other.baseUrl, '/pets')).body as unknown[]).length).toBeGreaterThan(0);
  });
});
