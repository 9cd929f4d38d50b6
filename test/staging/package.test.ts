import { execFile, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type StartedMock } from '../../mock/index.js';
import type * as MockModule from '../../mock/index.js';
import { ensureBuilt } from '../built-cli.js';
import { absentReason, sharedCorpusFile } from '../shared-corpus.js';

/**
 * Distribution: the tarball of `npm pack` installed into an empty folder without the registry, then used as a
 * team would: the library (`import { runSuite } from 'openapi-harness'`, with its declarations), and the one
 * command, `npx openapi-harness mock` and `npx openapi-harness test`, on the compiled JavaScript only.
 * The install is `npm install --offline` (npm's cache, which `npm ci` filled on a fresh clone); without a cache
 * (a machine whose node_modules came from elsewhere) the tarball is unpacked as npm would and its production
 * dependencies, read from package-lock.json, are linked from this checkout's node_modules.
 */

const run = promisify(execFile);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const NAME = 'openapi-harness';
// An `npx -p <pkg> -c <cmd>` around the tests (CI runs them so on Node 24) leaves its `package` and `call` in the
// environment, where the inner `npx` would read them as its own options; the harness's own variables would
// configure the commands under test: neither is passed on.
const INHERITED = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_config_(package|call|yes)$/i.test(name) && !/^(OPENAPI_HARNESS|PETSTORE)_/.test(name)));
const NPM_ENV = { ...INHERITED, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
let dir: string;
let installed: string;
let how: 'npm install --offline' | 'linked from node_modules';
let mock: StartedMock;

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'openapi-harness-package-'));
  // --ignore-scripts: `prepare` would compile again; ensureBuilt() just did.
  await run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], { cwd: ROOT, env: NPM_ENV });
  const tarball = join(dir, readdirSync(dir).find((name) => name.endsWith('.tgz'))!);
  installed = join(dir, 'app');
  mkdirSync(installed);
  writeFileSync(join(installed, 'package.json'), '{"name":"empty-folder","version":"1.0.0","private":true,"type":"module"}\n');
  try {
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: installed, env: NPM_ENV, timeout: 90_000 });
    how = 'npm install --offline';
  } catch {
    await installFromLocalModules(tarball, installed);
    how = 'linked from node_modules';
  }
  mock = await startMock({ port: 0, apiKeys: ['k'], pets: [] });
}, 120_000);
afterAll(async () => {
  await mock?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/**
 * What `npm install TARBALL` leaves, without a registry or a cache: the package unpacked into node_modules, its
 * bins linked into node_modules/.bin, and each production dependency of package-lock.json (not `dev`, not only
 * for an optional peer) linked from this checkout's node_modules. The package's own imports resolve from the
 * folder's node_modules alone, so a dependency it lacks (vitest, say) fails here as it would for a user.
 */
async function installFromLocalModules(tarball: string, folder: string): Promise<void> {
  const modules = join(folder, 'node_modules');
  // Whatever a failed `npm install --offline` left behind goes first.
  rmSync(modules, { recursive: true, force: true });
  mkdirSync(join(modules, '.bin'), { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', dir]);
  renameSync(join(dir, 'package'), join(modules, NAME));
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; devOptional?: boolean }> };
  for (const [path, entry] of Object.entries(lock.packages)) {
    const name = path.slice('node_modules/'.length);
    if (!path.startsWith('node_modules/') || name.includes('/node_modules/') || entry.dev === true || entry.devOptional === true) continue;
    if (!existsSync(join(ROOT, path))) continue; // an optional dependency of another platform
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(join(ROOT, path), join(modules, name));
  }
  const bins = (JSON.parse(readFileSync(join(modules, NAME, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin;
  for (const [bin, file] of Object.entries(bins)) {
    chmodSync(join(modules, NAME, file), 0o755);
    symlinkSync(relative(join(modules, '.bin'), join(modules, NAME, file)), join(modules, '.bin', bin));
  }
}

/** Runs `npx <args>` inside the folder the package was installed into; resolves with exit code and output. */
function npx(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile('npx', ['--no-install', ...args], { cwd: installed, env: NPM_ENV, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, output: `${stdout}${stderr}` });
    });
  });
}

describe('the package as npm installs it', () => {
  const root = (): string => join(installed, 'node_modules', NAME);

  it('ships compiled JavaScript with a declaration file for every export, the spec, and no TypeScript source', () => {
    const manifest = JSON.parse(readFileSync(join(root(), 'package.json'), 'utf8')) as { exports: Record<string, string | { types: string; default: string }>; dependencies: Record<string, string> };
    for (const [entry, target] of Object.entries(manifest.exports)) {
      if (typeof target === 'string') continue;
      expect(existsSync(join(root(), target.default)), `${entry} → ${target.default}`).toBe(true);
      expect(existsSync(join(root(), target.types)), `${entry} → ${target.types}`).toBe(true);
    }
    expect(Object.keys(manifest.exports)).toEqual(expect.arrayContaining(['.', './mock', './vitest', './types']));
    expect(manifest.dependencies['vitest'], 'vitest is needed only by openapi-harness/vitest, as an optional peer').toBeUndefined();
    expect(existsSync(join(root(), 'spec', 'openapi.yaml'))).toBe(true);
    const sources = readdirSync(root(), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'));
    expect(sources).toEqual([]);
  });

  it(`imports runSuite and the reporters from '${NAME}' and runs the suite against a server`, async () => {
    writeFileSync(
      join(installed, 'use.mjs'),
      `import { modelOf, reachOf, renderHtml, renderJunit, runSuite } from '${NAME}';
const [baseUrl] = process.argv.slice(2);
const target = { baseUrl, apiKey: 'k', runs: 3 };
const model = await modelOf(undefined);
const result = await runSuite(model, target, { checks: ['auth.listPets', 'listPets.status-filter'] });
const reach = reachOf(model, result.summary.statuses, result.checks);
const junit = renderJunit('installed', result.checks, reach);
const html = renderHtml({ baseUrl, finishedAt: new Date().toISOString(), checks: result.checks, summary: result.summary, operations: [], unmatched: new Map(), reach });
console.log(JSON.stringify({ states: result.checks.map((check) => check.id + ' ' + check.state), junit: junit.includes('<testsuites'), html: html.startsWith('<!doctype html>') }));
`,
    );
    const { stdout } = await run(process.execPath, ['use.mjs', mock.baseUrl], { cwd: installed, env: NPM_ENV, timeout: 120_000 });
    expect(JSON.parse(stdout)).toEqual({ states: ['auth.listPets passed', 'listPets.status-filter passed'], junit: true, html: true });
  });

  it('its declarations type a TypeScript user of the library and of the mock', async () => {
    writeFileSync(
      join(installed, 'use.ts'),
      `import { runSuite, modelOf, renderJunit, type SuiteResult, type Target } from '${NAME}';
import { startMock } from '${NAME}/mock';
const mock = await startMock({ port: 0 });
const target: Target = { baseUrl: mock.baseUrl, apiKey: 'openapi-harness-dev-key' };
const result: SuiteResult = await runSuite(await modelOf(undefined), target);
const failed: number = result.checks.filter((check) => check.state === 'failed').length;
export const xml: string = renderJunit('typed', result.checks) + String(failed);
`,
    );
    writeFileSync(join(installed, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2023', lib: ['ES2023'], module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: [] }, files: ['use.ts'] }));
    const typed = await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: installed }).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    expect(typed).toBe('');
    writeFileSync(join(installed, 'wrong.ts'), `import { runSuite } from '${NAME}';\nexport const wrong: string = runSuite;\n`);
    writeFileSync(join(installed, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: [] }, files: ['wrong.ts'] }));
    const refused = await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: installed }).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    expect(refused, 'the declarations carry real types, not any').toMatch(/wrong\.ts.*error TS2322/);
  });

  it('the installed mock serves its console: the page and its modules come with the package', async () => {
    const installedMock = (await import(join(root(), 'dist', 'mock', 'index.js'))) as typeof MockModule;
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

  it('npx openapi-harness mock <spec> serves the shipped spec from the empty folder, and npx openapi-harness test <spec> passes against it', async () => {
    copyFileSync(join(root(), 'spec', 'openapi.yaml'), join(installed, 'openapi.yaml'));
    const child = spawn('npx', ['--no-install', NAME, 'mock', 'openapi.yaml', '--port', '0', '--log-level', 'warn'], { cwd: installed, env: NPM_ENV, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let banner = '';
    child.stdout.on('data', (chunk: Buffer) => (banner += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (banner += chunk.toString('utf8')));
    try {
      const baseUrl = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no banner within 30 s (${how}): ${banner}`)), 30_000);
        child.stdout.on('data', () => {
          const match = /serving (http:\/\/\S+)/.exec(banner);
          if (match === null) return;
          clearTimeout(timer);
          resolve(match[1]!);
        });
      });
      expect(banner).toContain('API key: openapi-harness-dev-key');
      const suite = await npx([NAME, 'test', 'openapi.yaml', '--base-url', baseUrl, '--api-key', 'openapi-harness-dev-key', '--runs', '5']);
      expect(suite.code, `${how}: ${suite.output}`).toBe(0);
      expect(suite.output).toMatch(/openapi-harness test: Pet Store .* \(openapi\.yaml\) against/);
      expect(suite.output).toMatch(/\d+ passed, 0 failed/);
    } finally {
      // npx runs the bin in a child of its own: the whole group this test started goes.
      process.kill(-child.pid!, 'SIGTERM');
    }
  });

  const MUSEUM = sharedCorpusFile('museum/openapi.yaml');
  it.skipIf(MUSEUM === undefined)(`npx openapi-harness mock and proxy on a public description${MUSEUM === undefined ? ` (${absentReason('museum/openapi.yaml')})` : ''}: the proxy forwards to the mock, and a request without credentials is answered 401`, async () => {
    copyFileSync(MUSEUM!, join(installed, 'museum.yaml'));
    const mock = started(['mock', 'museum.yaml', '--port', '0', '--api-key', 'museum-key', '--log-level', 'warn']);
    try {
      const upstream = await mock.url;
      const proxy = started(['proxy', 'museum.yaml', '--upstream', upstream, '--port', '0', '--api-key', 'museum-key', '--log-level', 'warn']);
      try {
        const response = await fetch(`${await proxy.url}/special-events`, { headers: { authorization: `Basic ${Buffer.from('museum-key:').toString('base64')}` } });
        expect(response.status, await response.clone().text()).toBe(200);
        expect(Array.isArray(await response.json())).toBe(true);
        const refused = await fetch(`${await proxy.url}/special-events`);
        expect(refused.status).toBe(401);
      } finally {
        proxy.stop();
      }
    } finally {
      mock.stop();
    }
  });

  it('the Pet Store commands are installed too, as aliases of the subcommands', async () => {
    const help = await npx(['openapi-harness', '--help']);
    expect(help.code, help.output).toBe(0);
    expect(help.output).toMatch(/mock .*\n.*test .*\n.*proxy /);
    const conformance = await npx(['petstore-conformance', '--help']);
    expect(conformance.code, conformance.output).toBe(0);
    expect(conformance.output).toContain('Usage: openapi-harness test');
    const mockHelp = await npx(['petstore-mock', '--help']);
    expect(mockHelp.code, mockHelp.output).toBe(0);
    expect(mockHelp.output).toContain('Usage: openapi-harness mock');
    const unknown = await npx(['openapi-harness', 'serve']);
    expect(unknown.code).toBe(2);
    expect(unknown.output).toContain('unknown command "serve"');
  });
});

/**
 * `npx openapi-harness <args>` started in the installed folder: `url` resolves to the base URL its banner says it
 * serves (within 30 s), `stop` ends the whole process group npx started.
 */
function started(args: string[]): { url: Promise<string>; stop(): void } {
  const child = spawn('npx', ['--no-install', NAME, ...args], { cwd: installed, env: NPM_ENV, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let banner = '';
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within 30 s from ${args.join(' ')}: ${banner}`)), 30_000);
    const read = (chunk: Buffer): void => {
      banner += chunk.toString('utf8');
      const match = /serving (http:\/\/\S+)/.exec(banner);
      if (match === null) return;
      clearTimeout(timer);
      resolve(match[1]!);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
  });
  return { url, stop: () => process.kill(-child.pid!, 'SIGTERM') };
}
