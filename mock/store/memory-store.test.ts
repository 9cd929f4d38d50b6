import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModel } from '../../model/loader.js';
import { MemoryRecordStore } from './memory-store.js';
import { filterKey } from './record-store.js';

/**
 * What only the in-memory store promises: a filtered page costs O(limit) whatever the store holds (enum index).
 * Its behaviour (lists as a model answers them, ids, limits, int64) is the store contract's, in
 * test/store-contract/, run against this store and the Redis one alike.
 */
const shop = await loadModel(join(import.meta.dirname, '..', 'fixtures', 'shop.openapi.json'));
const toys = shop.resources.find((r) => r.name === 'toys')!;

describe('MemoryRecordStore', () => {
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
