import type { HeapAccess } from '../model/heap.js';

/** A heap whose use a test sets (`now`, bytes), and whose collection keeps `survives` bytes of it, counted in `collections`. */
export function fakeHeap(survives: number): HeapAccess & { now: number; collections: number } {
  const heap = {
    now: 0,
    collections: 0,
    used: () => heap.now,
    collect: () => {
      heap.collections += 1;
      heap.now = survives;
    },
  };
  return heap;
}
