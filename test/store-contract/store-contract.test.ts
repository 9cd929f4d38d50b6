import fc from 'fast-check';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../../model/loader.js';
import type { ResourceModel } from '../../model/model.js';
import { MemoryRecordStore } from '../../mock/store/memory-store.js';
import { filterKey, withoutLink, type AsyncRecordStore, type RecordValue } from '../../mock/store/record-store.js';
import { PARENT_LINK } from '../../model/model.js';
import { RedisConnection } from '../../mock/store/redis-connection.js';
import { RedisRecordStore } from '../../mock/store/redis-store.js';
import { startRedis, type TestRedis } from '../redis/redis-server.js';

/**
 * The record store contract (mock/store/record-store.ts), one suite run against both implementations: the
 * in-memory store (through a promise adapter) and the Redis store on a redis-server this file starts. Any
 * sequence of commands (create, replace, delete, list) must leave every list (any filters, any limit) answering
 * what a model (an array, newest last) answers; ids are never reused, int64 exact, `maxRecords` honoured.
 */
const shop = await loadModel(join(import.meta.dirname, '..', '..', 'mock', 'fixtures', 'shop.openapi.json'));
const seed = await loadModel();
const owners = shop.resources.find((r) => r.name === 'owners')!;
const toys = shop.resources.find((r) => r.name === 'toys')!;
const pets = seed.resources[0]!;
const writes = await loadModel(join(import.meta.dirname, '..', '..', 'mock', 'fixtures', 'writes.openapi.yaml'));
const animals = writes.resources.find((r) => r.name === 'animals')!;

type Make = (resource: ResourceModel, maxRecords: number, initial?: readonly RecordValue[]) => AsyncRecordStore;

/** The in-memory store behind the asynchronous form of the contract. */
function memory(resource: ResourceModel, maxRecords: number, initial: readonly RecordValue[] = []): AsyncRecordStore {
  const store = new MemoryRecordStore(resource, maxRecords, initial);
  return {
    resource,
    maxRecords,
    size: async () => store.size,
    create: async (fields, id) => store.create(fields, id),
    get: async (id) => store.get(id),
    value: async (id) => store.value(id),
    replace: async (id, record) => store.replace(id, record),
    delete: async (id) => store.delete(id),
    list: async (query) => store.list(query),
    load: async (records) => store.load(records),
    all: async () => store.all(),
  };
}

let redis: TestRedis;
let connection: RedisConnection;
let namespaces = 0;
const META = { title: 'contract', version: '1', fingerprint: '' };

beforeAll(async () => {
  redis = await startRedis();
  connection = new RedisConnection({ url: redis.url });
  await connection.connect();
});
afterAll(async () => {
  await connection?.close();
  await redis?.dispose();
});

const implementations: [string, Make][] = [
  ['memory', memory],
  ['redis', (resource, maxRecords, initial = []) => new RedisRecordStore(resource, connection, `contract:${++namespaces}:${resource.name}:`, maxRecords, initial, META)],
];

type Command =
  | { kind: 'create'; name: string; active: boolean | undefined; rank: number }
  | { kind: 'replace'; pick: number; name: string; active: boolean | undefined; rank: number }
  | { kind: 'delete'; pick: number }
  | { kind: 'list'; name: string | undefined; active: boolean | undefined; rank: number | undefined; limit: number };

const names = fc.constantFrom('a', 'b', 'c');
const flag = fc.option(fc.boolean(), { nil: undefined });
// Creates weigh more, so that lists meet several matching records (a page's order and limit then matter).
const command: fc.Arbitrary<Command> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('create' as const), name: names, active: flag, rank: fc.integer({ min: 0, max: 2 }) }), weight: 3 },
  fc.record({ kind: fc.constant('replace' as const), pick: fc.nat(), name: names, active: flag, rank: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('list' as const), name: fc.option(names, { nil: undefined }), active: flag, rank: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }), limit: fc.integer({ min: 1, max: 6 }) }),
);

const fields = (c: { name: string; active: boolean | undefined; rank: number }): RecordValue => ({
  createdAt: '2024-01-01T00:00:00.000Z',
  name: c.name,
  rank: c.rank,
  ...(c.active === undefined ? {} : { active: c.active }),
});

const idsOf = (json: string): unknown[] => (JSON.parse(json) as { id: unknown }[]).map((record) => record.id);

describe.each(implementations)('record store contract: %s', (_name, make) => {
  it('answers every list as the model does, after any commands (property)', async () => {
    const filterNames = owners.filters.map((f) => f.property);
    expect(filterNames).toEqual(['name', 'active', 'rank']);
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 40, size: 'medium' }), fc.boolean(), async (commands, countAll) => {
        const store = make(owners, 1_000);
        const model: RecordValue[] = [];
        for (const c of commands) {
          if (c.kind === 'create') {
            const created = await store.create(fields(c));
            if (!created.ok) throw new Error('refused');
            model.push({ ...fields(c), id: created.id });
          } else if (c.kind === 'replace' && model.length > 0) {
            const target = model[c.pick % model.length]!;
            expect(await store.replace(target['id'] as string, fields(c))).toBeDefined();
            model[c.pick % model.length] = { ...fields(c), id: target['id'] };
          } else if (c.kind === 'delete' && model.length > 0) {
            const [target] = model.splice(c.pick % model.length, 1);
            expect(await store.delete(target!['id'] as string)).toBeDefined();
            expect(await store.get(target!['id'] as string)).toBeUndefined();
          } else if (c.kind === 'list') {
            const wanted = [c.name, c.active, c.rank];
            const matching = model.filter((record) => filterNames.every((name, i) => wanted[i] === undefined || record[name] === wanted[i])).reverse();
            const page = await store.list({ keys: wanted.map(filterKey), limit: c.limit, countAll });
            expect(idsOf(page.json)).toEqual(matching.slice(0, c.limit).map((record) => record['id']));
            if (countAll || wanted.every((key) => key === undefined)) expect(page.total).toBe(matching.length);
          }
        }
        expect(await store.size()).toBe(model.length);
        expect((await store.all()).map((json) => (JSON.parse(json) as { id: string }).id)).toEqual(model.map((record) => record['id']));
      }),
      { numRuns: 100 },
    );
  });

  it('pages by offset and by position partition every list, with or without a further test (property)', async () => {
    const filterNames = owners.filters.map((f) => f.property);
    const creates = fc.array(fc.record({ name: names, active: flag, rank: fc.integer({ min: 0, max: 2 }) }), { maxLength: 30 });
    const deletes = fc.array(fc.nat(), { maxLength: 5 });
    const wanted = fc.tuple(fc.option(names, { nil: undefined }), flag, fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }));
    await fc.assert(
      fc.asyncProperty(creates, deletes, wanted, fc.integer({ min: 1, max: 7 }), fc.boolean(), fc.boolean(), async (records, removed, keys, size, tested, countAll) => {
        const store = make(owners, 1_000);
        let model: RecordValue[] = [];
        for (const c of records) {
          const created = await store.create(fields(c));
          if (!created.ok) throw new Error('refused');
          model.push({ ...fields(c), id: created.id });
        }
        for (const pick of removed) {
          if (model.length === 0) break;
          const [target] = model.splice(pick % model.length, 1);
          await store.delete(target!['id'] as string);
        }
        // The further test keeps ranks 0 and 2 (a membership filter's shape).
        const test = tested ? (record: RecordValue) => ['0', '2'].includes(String(record['rank'])) : undefined;
        model = model.filter((record) => filterNames.every((name, i) => keys[i] === undefined || record[name] === keys[i]) && (test === undefined || test(record)));
        const expected = model.map((record) => record['id']).reverse();
        const query = { keys: keys.map(filterKey), limit: size, countAll, ...(test === undefined ? {} : { test }) };
        const byOffset: unknown[] = [];
        const byPosition: unknown[] = [];
        let before: string | undefined;
        for (let page = 0; page <= expected.length / size + 1; page++) {
          const skipped = await store.list({ ...query, offset: page * size });
          byOffset.push(...idsOf(skipped.json));
          expect(skipped.more).toBe((page + 1) * size < expected.length);
          if (countAll) expect(skipped.total).toBe(expected.length);
          if (page > 0 && before === undefined) continue;
          const next = await store.list({ ...query, ...(before === undefined ? {} : { before }) });
          byPosition.push(...idsOf(next.json));
          expect(next.more).toBe(byPosition.length < expected.length);
          before = next.more ? next.last : undefined;
        }
        expect(byOffset).toEqual(expected);
        expect(byPosition).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });

  it('a position stays good when its record is deleted or records are created: the next page has no gap and no repeat', async () => {
    const store = make(toys, 100);
    for (let i = 1; i <= 6; i++) await store.create({ label: `t${i}`, color: i % 2 === 0 ? 'red' : 'blue' });
    const first = await store.list({ keys: [undefined], limit: 2 });
    expect(idsOf(first.json)).toEqual([6, 5]);
    await store.delete(5n);
    await store.create({ label: 't7' });
    const second = await store.list({ keys: [undefined], limit: 2, before: first.last! });
    expect(idsOf(second.json)).toEqual([4, 3]);
    const red = await store.list({ keys: [filterKey('red')], limit: 1, before: second.last! });
    expect(idsOf(red.json)).toEqual([2]);
    expect(red.more).toBe(false);
  });

  it('never reuses an id after a delete, refuses beyond maxRecords, and keeps int64 ids exact', async () => {
    const store = make(toys, 2, [{ id: 9223372036854775806n, label: 'a' }]);
    expect(await store.create({ label: 'b' })).toMatchObject({ ok: true, id: 9223372036854775807n, json: '{"id":9223372036854775807,"label":"b"}' });
    expect(await store.create({ label: 'c' })).toEqual({ ok: false, reason: 'full' });
    expect(await store.delete(9223372036854775807n)).toBe('{"id":9223372036854775807,"label":"b"}');
    expect(await store.create({ label: 'd' })).toEqual({ ok: false, reason: 'ids-exhausted' });
    expect(await store.get(9223372036854775806n)).toBe('{"id":9223372036854775806,"label":"a"}');
    await expect(store.load([{ id: 1n, label: 'x' }, { id: 1n, label: 'y' }])).rejects.toThrow(/repeated/);
  });

  it('counts ids up from above the largest loaded, and a delete leaves the next id untouched', async () => {
    const store = make(pets, 100, [{ id: 7n, name: 'a', categoryId: 1n }, { id: -3n, name: 'b', categoryId: 2n }]);
    const first = await store.create({ name: 'c', categoryId: -9223372036854775808n, status: 'sold' });
    expect(first).toEqual({ ok: true, id: 8n, json: '{"id":8,"name":"c","categoryId":-9223372036854775808,"status":"sold"}' });
    await store.delete(8n);
    expect(await store.create({ name: 'd', categoryId: 0n })).toMatchObject({ ok: true, id: 9n });
    const sold = await store.list({ keys: [filterKey('sold')], limit: 20 });
    expect(sold).toEqual({ json: '[]', total: 0, more: false, last: undefined });
    expect(idsOf((await store.list({ keys: [undefined], limit: 2 })).json)).toEqual([9, -3]);
    expect(await store.value(7n)).toMatchObject({ name: 'a' });
    expect(String((await store.value(-3n))?.['categoryId'])).toBe('2');
  });

  it('serves an enum index, replacing a record in its place and moving it between values', async () => {
    const store = make(toys, 100);
    for (const color of ['red', 'blue', 'red', 'green']) await store.create({ label: color, color });
    expect(idsOf((await store.list({ keys: [filterKey('red')], limit: 20 })).json)).toEqual([3, 1]);
    expect(await store.replace(1n, { label: 'now blue', color: 'blue' })).toBe('{"id":1,"label":"now blue","color":"blue"}');
    expect(await store.replace(99n, { label: 'x' })).toBeUndefined();
    expect((await store.list({ keys: [filterKey('red')], limit: 20 })).total).toBe(1);
    expect(idsOf((await store.list({ keys: [filterKey('blue')], limit: 20 })).json)).toEqual([2, 1]);
    expect(idsOf((await store.list({ keys: [undefined], limit: 20 })).json)).toEqual([4, 3, 2, 1]);
    expect(idsOf((await store.list({ keys: [undefined], limit: Infinity })).json)).toEqual([4, 3, 2, 1]);
    expect(await store.delete(99n)).toBeUndefined();
  });

  it('gives string ids: a UUID when the schema says format uuid, never one already held', async () => {
    const store = make(owners, 100);
    const created = await store.create(fields({ name: 'a', active: true, rank: 1 }));
    expect(created.ok && typeof created.id === 'string' && /^[0-9a-f-]{36}$/.test(created.id)).toBe(true);
    if (!created.ok) return;
    expect(await store.get(created.id)).toBe(created.json);
    expect(JSON.parse(created.json)).toMatchObject({ id: created.id, name: 'a', active: true, rank: 1 });
    await store.load([]);
    expect(await store.size()).toBe(0);
    expect(await store.get(created.id)).toBeUndefined();
  });

  it('keeps an id the client chose, refuses it while held, and counts its own ids past it without moving there', async () => {
    const store = make(pets, 100);
    expect(await store.create({ name: 'a', categoryId: 1n }, 2n)).toEqual({ ok: true, id: 2n, json: '{"id":2,"name":"a","categoryId":1}' });
    expect(await store.create({ name: 'b', categoryId: 1n }, 2n)).toEqual({ ok: false, reason: 'taken' });
    expect(await store.create({ name: 'c', categoryId: 1n }, 9223372036854775807n)).toMatchObject({ ok: true, id: 9223372036854775807n });
    expect(await store.create({ name: 'd', categoryId: 1n })).toMatchObject({ ok: true, id: 1n });
    expect(await store.create({ name: 'e', categoryId: 1n })).toMatchObject({ ok: true, id: 3n });
    expect(await store.delete(2n)).toBeDefined();
    expect(await store.create({ name: 'f', categoryId: 1n }, 2n)).toMatchObject({ ok: true, id: 2n });
    const named = make(owners, 100);
    expect(await named.create(fields({ name: 'x', active: true, rank: 0 }), 'a "quoted" key')).toMatchObject({ ok: true, id: 'a "quoted" key' });
    expect(JSON.parse((await named.get('a "quoted" key'))!)).toMatchObject({ id: 'a "quoted" key', name: 'x' });
    expect(await named.create(fields({ name: 'y', active: true, rank: 0 }), 'a "quoted" key')).toEqual({ ok: false, reason: 'taken' });
  });

  it('keeps a sub-resource\'s parent link beside the record: a list by parent, never answered, kept across a load', async () => {
    const store = make(animals, 100);
    for (const [name, owner] of [['a', 1n], ['b', 2n], ['c', 1n]] as const) await store.create({ name, [PARENT_LINK]: owner });
    const first = await store.list({ keys: [filterKey(1n)], limit: 20 });
    expect(JSON.parse(withoutLink(animals, first.json))).toEqual([{ id: 3, name: 'c' }, { id: 1, name: 'a' }]);
    expect(withoutLink(animals, (await store.get(2n))!)).toBe('{"id":2,"name":"b"}');
    const saved = (await store.all()).map((json) => JSON.parse(json) as RecordValue);
    await store.load(saved.map((record) => ({ ...record, id: BigInt(record['id'] as number), [PARENT_LINK]: BigInt(record[PARENT_LINK] as number) })));
    expect(idsOf((await store.list({ keys: [filterKey(2n)], limit: 20 })).json)).toEqual([2]);
  });
});
