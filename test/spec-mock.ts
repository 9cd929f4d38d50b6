import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import { startMock, type StartedMock } from '../mock/index.js';

/** A mock of a spec a test writes out: the spec file's path and the started mock, both set once `beforeAll` ran. */
export interface SpecMock {
  spec: string;
  mock: StartedMock;
}

/**
 * Writes `text` (an OpenAPI document) to a temporary `spec.yaml` and starts the project's mock from it on a free port
 * with `apiKeys`, for the tests of the calling file: registers the `beforeAll` that starts it and the `afterAll` that
 * closes it and removes the file. Read `spec` and `mock` inside tests, not at collection time.
 */
export function specMock(prefix: string, text: string, apiKeys: string[]): SpecMock {
  let dir: string | undefined;
  const started = {} as SpecMock;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
    started.spec = join(dir, 'spec.yaml');
    writeFileSync(started.spec, text);
    started.mock = await startMock({ spec: started.spec, port: 0, apiKeys });
  });
  afterAll(async () => {
    await started.mock?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
  return started;
}

/**
 * The suite's checks of `started`'s mock whose ids `select` keeps (`runs: 3`, key `k`) each pass, and among them are
 * `expected` (so that a catalogue that lost them does not pass by having nothing to run). Fails naming the first
 * check that did not pass, with its report.
 */
export async function expectChecksPass(started: SpecMock, select: (id: string) => boolean, expected: readonly string[]): Promise<void> {
  const target = { baseUrl: started.mock.baseUrl, apiKey: 'k', spec: started.spec, runs: 3 };
  const ids = (await listCheckIds(target)).filter(select);
  expect(ids).toEqual(expect.arrayContaining([...expected]));
  for (const id of ids) {
    const outcome = await runCheck(id, target);
    expect(outcome.ok ? '' : outcome.report, id).toBe('');
  }
}
