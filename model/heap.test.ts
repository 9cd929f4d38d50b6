import { describe, expect, test, vi } from 'vitest';
import { fakeHeap } from '../test/fake-heap.js';
import { collectorBetweenChecks, watchHeapOnTimer } from './heap.js';

describe('garbage is collected between checks once the heap outgrows what is live (D522)', () => {
  test('under the floor nothing is collected; over it, once; then only past twice what survived', () => {
    const heap = fakeHeap(100);
    const between = collectorBetweenChecks({ heap, floorBytes: 300, factor: 2 });
    heap.now = 250;
    expect(between()).toBe(false);
    heap.now = 301;
    expect(between()).toBe(true);
    expect(heap.collections).toBe(1);
    // 100 survived: the floor (300) is the threshold until twice the survivors passes it.
    heap.now = 299;
    expect(between()).toBe(false);
    heap.now = 301;
    expect(between()).toBe(true);
    expect(heap.collections).toBe(2);
  });

  test('the threshold follows what survived when that is over half the floor', () => {
    const heap = fakeHeap(400);
    const between = collectorBetweenChecks({ heap, floorBytes: 300, factor: 2 });
    heap.now = 500;
    expect(between()).toBe(true);
    heap.now = 799;
    expect(between()).toBe(false);
    heap.now = 801;
    expect(between()).toBe(true);
    expect(heap.collections).toBe(2);
  });

  test("this process's heap: V8's collector is exposed at run time and runs (a process started without --expose-gc)", () => {
    const between = collectorBetweenChecks({ floorBytes: 0, factor: 0 });
    expect(between()).toBe(true);
    expect(between()).toBe(true);
  });
});

describe('during a check, the same rule on a timer (D760)', () => {
  test('the timer collects over the threshold while no check has ended, and shares what survived with the calls between checks', () => {
    vi.useFakeTimers();
    try {
      const heap = fakeHeap(200);
      const watch = watchHeapOnTimer({ heap, floorBytes: 300, factor: 2, intervalMs: 250 });
      heap.now = 299;
      vi.advanceTimersByTime(250);
      expect(heap.collections).toBe(0);
      // A check's garbage grows past the floor before it ends: the timer collects.
      heap.now = 301;
      vi.advanceTimersByTime(250);
      expect(heap.collections).toBe(1);
      // The check ends: 200 survived, twice that is the threshold for the call between checks too.
      heap.now = 399;
      expect(watch.check()).toBe(false);
      heap.now = 401;
      vi.advanceTimersByTime(250);
      expect(heap.collections).toBe(2);
      watch.stop();
      heap.now = 10_000;
      vi.advanceTimersByTime(1_000);
      expect(heap.collections).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
