import { HEAP_FLOOR_BYTES, watchHeapOnTimer, type HeapAccess } from '../model/heap.js';

export type { HeapAccess };

/**
 * The mock's garbage, collected once the heap outgrows what is live (spec/DECISIONS.md › D582). V8 lets its old
 * space grow to up to four times what survived its last full collection before it collects again; a mock answering
 * a long run of the suite on a large description drops hundreds of MB of pages, bodies and parsed values it made
 * per request, so its resident memory rose to several times what it held (GitHub's: 1,008-1,153 MiB peak, with
 * 85-160 MB live after a full collection). The watcher looks at the heap every `intervalMs` (off the request path, on a timer that never keeps the
 * process up) and collects once the heap in use exceeds `factor` times what the last collection kept and at least
 * `floorBytes`: a mock whose heap stays small never pays for a collection. The same rule as the suite's between its
 * checks (D522); what a client wrote is never touched, only what no one refers to any more is reclaimed.
 */
export interface HeapWatch {
  /** Looks once now: collects when the heap is over the threshold. Returns whether it collected. */
  check(): boolean;
  /** Stops the timer. */
  stop(): void;
}

/** 256 MiB: below this the heap is left to V8 (a small description's mock never collects); the suite's floor too. */
export const MOCK_HEAP_FLOOR_BYTES = HEAP_FLOOR_BYTES;

/**
 * Starts a {@link HeapWatch} over `heap` (default this process's). `factor`: how many times the last collection's
 * survivors the heap may hold before the next (default 2); `intervalMs`: how often it looks (default 250; 0 starts
 * no timer, for a caller that calls `check` itself). The rule and the timer are the suite's (model/heap.ts,
 * {@link watchHeapOnTimer}), on the mock's floor.
 */
export function watchHeap(options: { heap?: HeapAccess; floorBytes?: number; factor?: number; intervalMs?: number } = {}): HeapWatch {
  return watchHeapOnTimer({ ...options, floorBytes: options.floorBytes ?? MOCK_HEAP_FLOOR_BYTES });
}
