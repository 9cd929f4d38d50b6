import type { Reporter, TestCase, TestModule } from 'vitest/node';

/**
 * A vitest reporter for a terminal: during a long run (over 5 s), every 5 s a line with the checks finished so
 * far and the time elapsed, so a run against a slow staging is visibly alive. Written to `stream` (stderr),
 * never to a pipe: the CLI adds it only when stderr is a TTY.
 */
export function progressReporter(stream: NodeJS.WritableStream, everyMs = 5000): Reporter {
  let total = 0;
  let done = 0;
  let failed = 0;
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  return {
    onTestModuleCollected(module: TestModule) {
      for (const test of module.children.allTests()) if (test.options.mode === 'run') total += 1;
      timer ??= setInterval(() => {
        const seconds = (performance.now() - started) / 1000;
        stream.write(`… ${done}/${total} checks done${failed === 0 ? '' : `, ${failed} failed`}, ${seconds.toFixed(0)} s\n`);
      }, everyMs);
      timer.unref();
    },
    onTestCaseResult(test: TestCase) {
      done += 1;
      if (test.result().state === 'failed') failed += 1;
    },
    onTestRunEnd() {
      if (timer !== undefined) clearInterval(timer);
    },
  };
}
