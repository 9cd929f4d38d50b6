import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PACKAGE_ROOT } from '../../model/loader.js';
import { ensureBuilt } from '../built-cli.js';
import { BROKEN_SERVERS, startBroken, type RunningBroken } from './broken-servers.js';
import { startCorpusCli } from './corpus-cli.js';
import { corpusSpec } from './corpus.js';
import { CORPUS_KEY, type CorpusServer } from './harness.js';

// Both commands as a user runs them on an edited spec: `petstore-mock --spec FILE` and
// `petstore-conformance --spec FILE`. Exit 0 against the mock of the spec, 1 against a server that breaks it.

const CONFORMANCE_CLI = join(PACKAGE_ROOT, 'dist', 'conformance', 'cli.js');

function conformance(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CONFORMANCE_CLI, ...args], { cwd: PACKAGE_ROOT, env: { ...process.env, OPENAPI_HARNESS_BASE_URL: '', OPENAPI_HARNESS_API_KEY: '', OPENAPI_HARNESS_SPEC: '' }, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, output: `${stdout}${stderr}` });
    });
  });
}

describe('the built CLIs with --spec on the delete case', () => {
  const spec = corpusSpec('delete');
  const checks = ['--check', 'deletePet.gone', 'auth.deletePet', 'getPet.found'];
  let mock: CorpusServer;
  let broken: RunningBroken;

  beforeAll(async () => {
    ensureBuilt();
    mock = await startCorpusCli('delete');
    broken = await startBroken(BROKEN_SERVERS.find((server) => server.name === 'DELETE not deleting')!);
  });
  afterAll(async () => {
    await mock?.close();
    await broken?.close();
  });

  test('petstore-conformance --spec exits 0 against petstore-mock --spec', async () => {
    const { code, output } = await conformance(['--spec', spec, '--base-url', mock.baseUrl, '--api-key', CORPUS_KEY, '--runs', '5', ...checks]);
    expect(code, output).toBe(0);
    expect(output).toContain('deletePet.gone');
  });

  test('petstore-conformance --spec exits 1 against a DELETE that deletes nothing, naming deletePet.gone', async () => {
    const { code, output } = await conformance(['--spec', spec, '--base-url', broken.baseUrl, '--api-key', CORPUS_KEY, '--runs', '5', ...checks]);
    expect(code, output).toBe(1);
    expect(output).toContain('✗ deletePet.gone');
  });
});
