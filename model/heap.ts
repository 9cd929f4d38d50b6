import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A long run's garbage, collected between checks (spec/DECISIONS.md › D522), and the mock's, collected on a timer
 * (D582, mock/heap-watch.ts): one rule for both, here on the floor they share. V8 lets its old space grow to a few
 * times what survived its last full collection before it collects again, and a check of a large description
 * allocates hundreds of MB it drops when it ends (drawn bodies, parsed pages): over a whole run the heap then grows
 * far past what is live (Stripe's: 2.77 GB peak with about 130 MB live). The CLI collects between two checks once
 * the heap holds more than `factor` times what the last collection kept, and at least `floorBytes`, so that the
 * next check starts from what is live; a run whose heap stays small never pays for a collection.
 */
export interface BetweenChecks {
  /** Called as a check ends: collects when the heap is over the threshold. Returns whether it collected. */
  (): boolean;
}

/** Where {@link collectorBetweenChecks} reads the heap and how it collects; the defaults are this process's. */
export interface HeapAccess {
  /** Bytes of the heap in use now (`process.memoryUsage().heapUsed`). */
  used: () => number;
  /** A full collection (V8's `gc`, exposed at run time). */
  collect: () => void;
}

/** 256 MiB: below this the heap is left to V8 (a small description's run never collects). */
export const HEAP_FLOOR_BYTES = 256 * 1024 * 1024;

/**
 * A {@link BetweenChecks} over `heap` (default: this process's, V8's collector exposed once with `--expose-gc` set at
 * run time). `factor`: how many times the last collection's survivors the heap may hold before the next (default 2).
 */
export function collectorBetweenChecks(options: { heap?: HeapAccess; floorBytes?: number; factor?: number } = {}): BetweenChecks {
  const heap = options.heap ?? processHeap();
  const floor = options.floorBytes ?? HEAP_FLOOR_BYTES;
  const factor = options.factor ?? 2;
  let live = 0;
  return () => {
    if (heap.used() <= Math.max(floor, live * factor)) return false;
    heap.collect();
    live = heap.used();
    return true;
  };
}

/** This process's heap; the collector is exposed once, on first use. */
function processHeap(): HeapAccess {
  let gc: (() => void) | undefined;
  return {
    used: () => process.memoryUsage().heapUsed,
    collect: () => {
      if (gc === undefined) {
        // `--expose-gc` set now defines `gc` in contexts made from now on: a new context hands it over.
        setFlagsFromString('--expose-gc');
        gc = runInNewContext('gc') as () => void;
      }
      gc();
    },
  };
}

/** A {@link BetweenChecks} also run on a timer; `stop` ends the timer. */
export interface HeapWatchOnTimer {
  /** Looks once now: collects when the heap is over the threshold. Returns whether it collected. */
  check: BetweenChecks;
  /** Stops the timer. */
  stop: () => void;
}

/**
 * The rule of {@link collectorBetweenChecks}, also applied every `intervalMs` (default 250; 0 starts no timer) on a
 * timer that never keeps the process up (spec/DECISIONS.md › D760). Between checks alone, one long check of a large
 * description could pile up hundreds of MB of garbage before the next check's end looked (GitHub's whole run: the
 * suite at 848 MiB during one check, 400 MB once it ended); the timer looks while the check waits on its requests.
 * `check` and the timer share what the last collection kept, so calling `check` as a check ends as well never
 * collects twice for the same garbage.
 */
export function watchHeapOnTimer(options: { heap?: HeapAccess; floorBytes?: number; factor?: number; intervalMs?: number } = {}): HeapWatchOnTimer {
  const check = collectorBetweenChecks(options);
  const intervalMs = options.intervalMs ?? 250;
  const timer = intervalMs > 0 ? setInterval(check, intervalMs) : undefined;
  timer?.unref();
  return { check, stop: () => clearInterval(timer) };
}
