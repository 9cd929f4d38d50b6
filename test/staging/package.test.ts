import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type StartedMock } from '../../mock/index.js';
import type * as MockModule from '../../mock/index.js';
import { ensureBuilt } from '../built-cli.js';

/**
 * Distribution: the tarball of `npm pack` installs into an empty folder, and both commands run from there,
 * on the compiled JavaScript only. Installs prefer npm's local cache (`--prefer-offline`); the registry is
 * asked only for what the cache lacks.
 */

const run = promisify(execFile);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// An `npx -p <pkg> -c <cmd>` around the tests (CI runs them so on Node 24) leaves its `package` and `call` in the
// environment, where the inner `npx` would read them as its own options: they are not passed on.
const INHERITED = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_config_(package|call|yes)$/i.test(name)));
const NPM_ENV = { ...INHERITED, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
let dir: string;
let installed: string;
let mock: StartedMock;

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'petstore-package-'));
  // --ignore-scripts: `prepare` would compile again; ensureBuilt() just did.
  await run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], { cwd: ROOT, env: NPM_ENV });
  const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'))!;
  installed = join(dir, 'app');
  rmSync(installed, { recursive: true, force: true });
  await run('mkdir', ['-p', installed]);
  writeFileSync(join(installed, 'package.json'), '{"name":"empty-folder","version":"1.0.0","private":true}\n');
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(dir, tarball)], { cwd: installed, env: NPM_ENV, timeout: 90_000 });
  mock = await startMock({ port: 0, apiKeys: ['k'], pets: [] });
}, 120_000);
afterAll(async () => {
  await mock?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** Runs `npx <command> ...` inside the folder the package was installed into; resolves with exit code and output. */
function npx(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile('npx', ['--no-install', ...args], { cwd: installed, env: { ...NPM_ENV, OPENAPI_HARNESS_BASE_URL: '', OPENAPI_HARNESS_API_KEY: '' }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, output: `${stdout}${stderr}` });
    });
  });
}

describe('the package as npm installs it', () => {
  it('ships compiled JavaScript, the spec and the suite, and no TypeScript source', () => {
    const root = join(installed, 'node_modules', 'petstore-animals-harness');
    for (const file of ['dist/conformance/cli.js', 'dist/mock/cli.js', 'dist/proxy/cli.js', 'spec/openapi.yaml']) expect(existsSync(join(root, file)), file).toBe(true);
    const sources = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'));
    expect(sources).toEqual([]);
  });

  it('the installed mock serves its console: the page and its modules come with the package', async () => {
    const root = join(installed, 'node_modules', 'petstore-animals-harness');
    const installedMock = (await import(join(root, 'dist', 'mock', 'index.js'))) as typeof MockModule;
    const served = await installedMock.startMock({ port: 0, adminToken: 'package-admin' });
    try {
      for (const asset of ['', 'console.js', 'resources.js', 'console.css']) {
        const response = await fetch(`${served.origin}/__admin/${asset}`);
        expect(response.status, asset).toBe(200);
        expect(response.headers.get('content-security-policy'), asset).toContain("script-src 'self'");
      }
    } finally {
      await served.close();
    }
  });

  it('npx petstore-conformance --help and npx petstore-mock --help work from the empty folder', async () => {
    const conformance = await npx(['petstore-conformance', '--help']);
    expect(conformance.code, conformance.output).toBe(0);
    expect(conformance.output).toContain('--concurrency <n>');
    const mockHelp = await npx(['petstore-mock', '--help']);
    expect(mockHelp.code, mockHelp.output).toBe(0);
    expect(mockHelp.output).toContain('Usage: petstore-mock');
  });

  it('the installed petstore-conformance runs its suite (vitest inside node_modules) against a server', async () => {
    const result = await npx(['petstore-conformance', '--base-url', mock.baseUrl, '--api-key', 'k', '--runs', '5', '--check', 'auth.listPets']);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/✓ .*auth\.listPets/);
    expect(result.output).toMatch(/conformance: \d+ requests/);
  });
});
