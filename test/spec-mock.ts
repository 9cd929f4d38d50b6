import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
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
