import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModel } from '../../spec/model.js';
import { MemoryRecordStore } from './memory-store.js';
import { filterKey, type RecordValue } from './record-store.js';

/**
 * The in-memory store against a model (an array of records, newest last): any sequence of commands (create,
 * replace, delete, load) leaves every list query (any filters, any limit) answering what the model answers:
 * the matching records newest first, at most `limit`, and the exact total. Indexes (enum, boolean), columns
 * (other filters), tombstones and the page cache are what is exercised.
 */
const shop = await loadModel(join(import.meta.dirname, '..', 'fixtures', 'shop.openapi.json'));
const owners = shop.resources.find((r) => r.name === 'owners')!;
const toys = shop.resources.find((r) => r.name === 'toys')!;

type Command =
  | { kind: 'create'; name: string; active: boolean | undefined; rank: number }
  | { kind: 'replace'; pick: number; name: string; active: boolean | undefined; rank: number }
  | { kind: 'delete'; pick: number }
  | { kind: 'list'; name: string | undefined; active: boolean | undefined; rank: number | undefined; limit: number };

const names = fc.constantFrom('a', 'b', 'c');
const flag = fc.option(fc.boolean(), { nil: undefined });
const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), name: names, active: flag, rank: fc.integer({ min: 0, max: 2 }) }),
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

describe('MemoryRecordStore', () => {
  it('answers every list as the model does, after any commands (property)', () => {
    const filterNames = owners.filters.map((f) => f.property);
    expect(filterNames).toEqual(['name', 'active', 'rank']);
    fc.assert(
      fc.property(fc.array(command, { maxLength: 60 }), fc.boolean(), (commands, countAll) => {
        const store = new MemoryRecordStore(owners, 1_000);
        const model: RecordValue[] = [];
        for (const c of commands) {
          if (c.kind === 'create') {
            const created = store.create(fields(c));
            if (!created.ok) throw new Error('refused');
            model.push({ ...fields(c), id: created.id });
          } else if (c.kind === 'replace' && model.length > 0) {
            const target = model[c.pick % model.length]!;
            expect(store.replace(target['id'] as string, fields(c))).toBeDefined();
            model[c.pick % model.length] = { ...fields(c), id: target['id'] };
          } else if (c.kind === 'delete' && model.length > 0) {
            const [target] = model.splice(c.pick % model.length, 1);
            expect(store.delete(target!['id'] as string)).toBeDefined();
            expect(store.get(target!['id'] as string)).toBeUndefined();
          } else if (c.kind === 'list') {
            const wanted = [c.name, c.active, c.rank];
            const keys = wanted.map(filterKey);
            const matching = model.filter((record) => filterNames.every((name, i) => wanted[i] === undefined || record[name] === wanted[i])).reverse();
            const page = store.list({ keys, limit: c.limit, countAll });
            const ids = (JSON.parse(page.json) as { id: string }[]).map((record) => record.id);
            expect(ids).toEqual(matching.slice(0, c.limit).map((record) => record['id']));
            if (countAll || keys.every((key) => key === undefined)) expect(page.total).toBe(matching.length);
          }
        }
        expect(store.size).toBe(model.length);
        expect(store.all().map((json) => (JSON.parse(json) as { id: string }).id)).toEqual(model.map((record) => record['id']));
      }),
      { numRuns: 200 },
    );
  });

  it('never reuses an id after a delete, refuses beyond maxRecords, and keeps int64 ids exact', () => {
    const store = new MemoryRecordStore(toys, 2, [{ id: 9223372036854775806n, label: 'a' }]);
    const created = store.create({ label: 'b' });
    expect(created).toMatchObject({ ok: true, id: 9223372036854775807n });
    expect(store.create({ label: 'c' })).toEqual({ ok: false, reason: 'full' });
    store.delete(9223372036854775807n);
    expect(store.create({ label: 'd' })).toEqual({ ok: false, reason: 'ids-exhausted' });
    expect(store.get(9223372036854775806n)).toBe('{"id":9223372036854775806,"label":"a"}');
    expect(() => store.load([{ id: 1n, label: 'x' }, { id: 1n, label: 'y' }])).toThrow(/repeated/);
  });

  it('a filtered page at 1,000,000 records costs about what it costs at 1,000 (enum index)', () => {
    const time = (size: number): number => {
      const store = new MemoryRecordStore(toys, size);
      for (let i = 0; i < size; i++) store.create({ label: `t${i}`, color: i % 2 === 0 ? 'red' : 'blue' });
      const key = filterKey('red');
      // Each list after a create: the page cache is empty, so the walk itself is measured.
      const started = performance.now();
      for (let i = 0; i < 200; i++) {
        store.replace(BigInt(size - (i % 10)), { label: 'r', color: 'blue' });
        store.list({ keys: [key], limit: 20 });
      }
      return performance.now() - started;
    };
    time(1_000);
    const small = time(1_000);
    const large = time(1_000_000);
    expect(large).toBeLessThan(small * 20 + 50);
  });
});
