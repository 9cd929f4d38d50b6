import { getHeapStatistics } from 'node:v8';
import { describe, expect, test } from 'vitest';
import { fakeHeap } from '../test/fake-heap.js';
import { watchHeap } from './heap-watch.js';

describe("the mock's garbage is collected once its heap outgrows what is live (D582)", () => {
  test('under the floor nothing is collected; over it, once; then only past twice what survived', () => {
    const heap = fakeHeap(200);
    const watch = watchHeap({ heap, floorBytes: 300, factor: 2, intervalMs: 0 });
    heap.now = 299;
    expect(watch.check()).toBe(false);
    heap.now = 301;
    expect(watch.check()).toBe(true);
    expect(heap.collections).toBe(1);
    // 200 survived: twice that (400) is the threshold now, above the floor.
    heap.now = 399;
    expect(watch.check()).toBe(false);
    heap.now = 401;
    expect(watch.check()).toBe(true);
    expect(heap.collections).toBe(2);
    watch.stop();
  });

  test("this process's heap: over the floor, the watcher collects, and the garbage is gone", () => {
    const watch = watchHeap({ floorBytes: 0, intervalMs: 0 });
    // Some 10 MB of strings no one refers to once the function returns.
    const made = ((): number => Array.from({ length: 200_000 }, (_, i) => `dropped ${i}`.padEnd(40, '.')).length)();
    expect(made).toBe(200_000);
    const before = getHeapStatistics().used_heap_size;
    expect(watch.check()).toBe(true);
    expect(getHeapStatistics().used_heap_size).toBeLessThan(before - 5_000_000);
    watch.stop();
  });
});
