import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, startMock, type StartedMock } from '../mock/index.js';
import { PACKAGE_ROOT } from '../mock/operations.js';
import { ensureBuilt } from './built-cli.js';
import { MUTANT_KEY } from './self-test/mutant-kit.js';
import { MUTANTS } from './self-test/mutants.js';
import { serveHandler, type TestServer } from './self-test/serve-handler.js';

/** `petstore-conformance` as a CI pipeline runs it: exit codes, the report, JUnit XML. */

const CLI = join(PACKAGE_ROOT, 'dist', 'conformance', 'cli.js');
let mock: StartedMock;
let broken: TestServer;
let dir: string;

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'petstore-conformance-'));
  mock = await startMock({ port: 0, apiKeys: ['cli-key'] });
  const mutant = MUTANTS.find((candidate) => candidate.name === 'no-auth-list')!;
  broken = await serveHandler(mutant.wrap((await createMock({ pets: [], apiKeys: [MUTANT_KEY] })).handle));
});
afterAll(async () => {
  await mock.close();
  await broken.close();
  rmSync(dir, { recursive: true, force: true });
});

function run(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: PACKAGE_ROOT, env: { ...process.env, OPENAPI_HARNESS_BASE_URL: '', OPENAPI_HARNESS_API_KEY: '' }, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, output: `${stdout}${stderr}` });
    });
  });
}

describe('petstore-conformance', () => {
  it('exits 0 on a conforming target and prints the requests it sent', async () => {
    const { code, output } = await run(['--base-url', mock.baseUrl, '--api-key', 'cli-key', '--runs', '10', '--check', 'listPets.limit', 'auth.listPets']);
    expect(code, output).toBe(0);
    expect(output).toMatch(/conformance: \d+ requests in [\d.]+ s \(\d+ requests\/s\)/);
    // The reach per operation closes the report, before the counts; the checks --check left out are not run.
    expect(output).toMatch(/Reach per operation: 0 of 3 reached in full[\s\S]*GET \/pets\/\{petId\} getPet +never called · 3 not run · never seen: 200, 401, 404\n +↓ auth\.getPet, not-found, found not run: not selected \(--check\)[\s\S]*\n2 passed, 0 failed, 0 skipped\n/);
  });

  it('exits 1 on a broken target, with the rule, the curl line and a replay command; --reporter junit writes XML', async () => {
    const junit = join(dir, 'report.xml');
    const { code, output } = await run(['--base-url', broken.baseUrl, '--api-key', MUTANT_KEY, '--runs', '10', '--check', 'auth.listPets', '--reporter', 'junit', '--output', junit]);
    expect(code, output).toBe(1);
    expect(output).toContain('✗ auth.listPets');
    expect(output).toContain('rule:      Authentication');
    expect(output).toMatch(/request: {3}curl -sS -i -X GET/);
    expect(output).toMatch(/replay: {4}npm run conformance -- .*--base-url \S+ --api-key "\$OPENAPI_HARNESS_API_KEY" --check auth\.listPets/);
    expect(readFileSync(junit, 'utf8')).toMatch(/<testsuite name="listPets \(GET \/pets\)"[^>]*>\n    <properties>[\s\S]*<testcase classname="listPets" name="auth\.listPets[^>]*>\n      <failure/);
  });

  it('exits 2 with a message when the target is unreachable, refuses the key, or the usage is wrong', async () => {
    const unreachable = await run(['--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'k']);
    expect(unreachable.code).toBe(2);
    expect(unreachable.output).toContain('target unreachable');
    const refused = await run(['--base-url', mock.baseUrl, '--api-key', 'wrong']);
    expect(refused.code).toBe(2);
    expect(refused.output).toContain('refused the API key');
    const noVersion = await run(['--base-url', mock.origin, '--api-key', 'cli-key']);
    expect(noVersion.code).toBe(2);
    expect(noVersion.output).toMatch(/answered 404: the base URL should end with the (version segment|spec's base path)/);
    const unknown = await run(['--base-url', mock.baseUrl, '--api-key', 'cli-key', '--check', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.output).toContain('unknown check nope');
    const noConcurrency = await run(['--base-url', mock.baseUrl, '--api-key', 'cli-key', '--concurrency', '0']);
    expect(noConcurrency.code).toBe(2);
    expect(noConcurrency.output).toContain('must be a positive integer');
    const negativeWindow = await run(['--base-url', mock.baseUrl, '--api-key', 'cli-key', '--consistency-window', '-5']);
    expect(negativeWindow.code).toBe(2);
    expect(negativeWindow.output).toContain('must be a number of milliseconds, 0 or more');
    const missingCa = await run(['--base-url', mock.baseUrl.replace('http:', 'https:'), '--api-key', 'cli-key', '--ca', '/nonexistent/ca.pem']);
    expect(missingCa.code).toBe(2);
    expect(missingCa.output).toContain('cannot read the CA file /nonexistent/ca.pem');
  });

  it('--read-only skips the checks that write, and says why', async () => {
    const { code, output } = await run(['--base-url', mock.baseUrl, '--api-key', 'cli-key', '--runs', '5', '--read-only', '--check', 'createPet.echo', 'listPets.limit']);
    expect(code, output).toBe(0);
    expect(output).toMatch(/createPet\.echo: skipped \(read-only: this check must (write|create pets)\)/);
  });
});
