import type { CheckRecord } from './results.js';

/** A running progress line: told of each check as it ends, stopped when the run ends. */
export interface Progress {
  done(record: CheckRecord): void;
  stop(): void;
}

/**
 * Progress on a terminal: during a long run (over `everyMs`, 5 s), every `everyMs` a line with the checks finished
 * so far out of `total`, the failures and the time elapsed, so a run against a slow staging is visibly alive.
 * Written to `stream` (stderr), never to a pipe: the CLI makes one only when stderr is a TTY.
 */
export function progressLine(stream: NodeJS.WritableStream, total: number, everyMs = 5000): Progress {
  let done = 0;
  let failed = 0;
  const started = performance.now();
  const timer = setInterval(() => {
    const seconds = (performance.now() - started) / 1000;
    stream.write(`… ${done}/${total} checks done${failed === 0 ? '' : `, ${failed} failed`}, ${seconds.toFixed(0)} s\n`);
  }, everyMs);
  timer.unref();
  return {
    done(record) {
      done += 1;
      if (record.state === 'failed') failed += 1;
    },
    stop() {
      clearInterval(timer);
    },
  };
}
