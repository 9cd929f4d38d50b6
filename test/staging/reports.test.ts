import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type StartedMock } from '../../mock/index.js';
import { colours } from '../../conformance/report/colours.js';
import { progressLine } from '../../conformance/report/progress.js';
import { CONFORMANCE_CLI, runConformance, type CliRun } from './run-cli.js';
import { ensureBuilt } from '../built-cli.js';
import { frontDoor, type FrontDoor } from './servers.js';

/** The artefacts of a run people open: HTML in a browser, HAR in devtools, JUnit in CI, the step summary; colours. */

const CHROMIUM = '/usr/bin/chromium';
const KEY = 'staging-key-0123456789';
let mock: StartedMock;
let broken: FrontDoor;
let dir: string;
let run: CliRun;
const files = { html: '', har: '', junit: '', summary: '' };

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'petstore-reports-'));
  Object.assign(files, { html: join(dir, 'report.html'), har: join(dir, 'failures.har'), junit: join(dir, 'junit.xml'), summary: join(dir, 'step-summary.md') });
  writeFileSync(files.summary, '# earlier step\n');
  mock = await startMock({ port: 0, apiKeys: [KEY], pets: [] });
  broken = await frontDoor({ upstream: mock.origin, skipAuthWithKey: KEY });
  run = await runConformance(
    ['--base-url', broken.baseUrl, '--api-key', KEY, '--runs', '5', '--check', 'auth.listPets', 'createPet.echo', 'getPet.not-found', '--html', files.html, '--har', files.har, '--junit', files.junit],
    { GITHUB_STEP_SUMMARY: files.summary, CI: 'true' },
  );
}, 120_000);
afterAll(async () => {
  await broken.close();
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('reports of a run against a broken server', () => {
  it('exits 1 and writes every report asked for', () => {
    expect(run.code, run.output).toBe(1);
    for (const file of [files.html, files.har, files.junit]) expect(existsSync(file), file).toBe(true);
  });

  it('the HTML report opens in Chromium, self-contained: operations with documented and seen statuses, checks, the failure in full', async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: install Debian's chromium package (apt-get install -y chromium).`);
    const html = readFileSync(files.html, 'utf8');
    expect(html).not.toMatch(/<(script|link)\b|src=|url\(/i);
    const profile = mkdtempSync(join(tmpdir(), 'petstore-chromium-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      await page.goto(pathToFileURL(files.html).href);
      expect(await page.title()).toBe(`Conformance of ${broken.baseUrl}`);
      expect(requested.every((url) => url.startsWith('file:'))).toBe(true);
      const operations = await page.$$eval('#operations tbody tr', (rows) => rows.map((row) => Array.from(row.querySelectorAll('td'), (cell: { textContent: string | null }) => cell.textContent ?? '')));
      const listPets = operations.find((cells) => cells[0]?.startsWith('listPets'));
      expect(listPets?.[1]).toBe('GET /pets');
      expect(listPets?.[2]).toMatch(/200 ×\d+/);
      const getPet = operations.find((cells) => cells[0]?.startsWith('getPet'));
      expect(getPet?.[2]).toMatch(/404 ×\d+/);
      const checks = await page.$$eval('#checks tbody tr', (rows) => rows.map((row) => [row.querySelector('td code')?.textContent ?? '', row.querySelector('td:nth-child(2)')?.className ?? '']));
      expect(Object.fromEntries(checks)).toEqual({ 'auth.listPets': 'failed', 'createPet.echo': 'passed', 'getPet.not-found': 'passed' });
      const failure = await page.textContent('#failure-auth\\.listPets pre');
      expect(failure).toContain('rule:      Authentication');
      expect(failure).toMatch(/request: {3}curl -sS -i -X GET/);
      expect(failure).toMatch(/response: {2}200/);
      expect(failure).toMatch(/replay: {4}npm run conformance -- .*--base-url \S+ --api-key "\$OPENAPI_HARNESS_API_KEY" --check auth\.listPets/);
      expect(await page.isVisible('#failure-auth\\.listPets')).toBe(true);
      await page.click('a[href="#failure-auth.listPets"]');
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  }, 60_000);

  it('the HAR file is HAR 1.2 with the failing exchange, the key never in clear', () => {
    const text = readFileSync(files.har, 'utf8');
    const har = JSON.parse(text) as { log: { version: string; creator: { name: string }; entries: { startedDateTime: string; time: number; request: { method: string; url: string; headers: { name: string; value: string }[] }; response: { status: number; content: { mimeType: string; text: string } } }[] } };
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator.name).toBe('openapi-harness test');
    expect(har.log.entries.length).toBe(1);
    const [entry] = har.log.entries;
    expect(entry!.request.url.startsWith(broken.baseUrl)).toBe(true);
    expect(entry!.response.status).toBe(200);
    expect(entry!.response.content.mimeType).toContain('application/json');
    expect(Number.isNaN(Date.parse(entry!.startedDateTime))).toBe(false);
    expect(text).not.toContain(KEY);
  });

  it('--junit writes JUnit XML with the failure', () => {
    expect(readFileSync(files.junit, 'utf8')).toMatch(/<testcase [^>]*auth\.listPets[\s\S]*<failure/);
  });

  it('GITHUB_STEP_SUMMARY gets a markdown table appended', () => {
    const summary = readFileSync(files.summary, 'utf8');
    expect(summary.startsWith('# earlier step\n')).toBe(true);
    expect(summary).toContain('**Does not conform**: 1 of 3 checks failed');
    expect(summary).toMatch(/\| Check \| Result \| Time \| Note \|\n\|---\|---\|---\|---\|/);
    expect(summary).toMatch(/\| `auth\.listPets` \| ❌ failed \| [\d.]+ s \| problem: .*\|/);
    expect(summary).toMatch(/\| `createPet\.echo` \| ✅ passed \|/);
  });

  it('piped into a CI log (CI=true, no TTY), the output holds no colour escape codes', () => {
    expect(run.output).not.toContain('\u001b[');
  });
});

describe('colours and progress', () => {
  it('FORCE_COLOR turns colours on in a pipe; NO_COLOR or a pipe turns them off', async () => {
    const forced = await runConformance(['--base-url', mock.baseUrl, '--api-key', KEY, '--runs', '5', '--check', 'auth.listPets'], { FORCE_COLOR: '1' });
    expect(forced.code, forced.output).toBe(0);
    expect(forced.output).toContain('\u001b[');
    const everything = join(dir, 'all.har');
    const zero = await runConformance(['--base-url', mock.baseUrl, '--api-key', KEY, '--runs', '5', '--check', 'auth.listPets', '--har', everything, '--har-all'], { FORCE_COLOR: '0', CI: 'true' });
    expect(zero.code, zero.output).toBe(0);
    expect(zero.output).not.toContain('\u001b[');
    // --har-all: every exchange of the run (it sent fewer than the cap of 1,000), in order, none failing.
    const har = JSON.parse(readFileSync(everything, 'utf8')) as { log: { entries: { comment?: string; startedDateTime: string }[] } };
    const sent = Number(/conformance: (\d+) requests/.exec(zero.output)?.[1]);
    expect(sent).toBeGreaterThan(5);
    expect(har.log.entries.length).toBe(sent);
    expect(har.log.entries.every((entry) => entry.comment === undefined)).toBe(true);
    expect(colours({ isTTY: true }, { TERM: 'xterm' }).enabled).toBe(true);
    expect(colours({ isTTY: true }, { TERM: 'xterm', NO_COLOR: '1' }).enabled).toBe(false);
    expect(colours({ isTTY: false }, { CI: 'true' }).enabled).toBe(false);
    expect(colours({ isTTY: false }, { FORCE_COLOR: '1', NO_COLOR: '1' }).enabled).toBe(true);
    expect(colours({ isTTY: true }, { TERM: 'dumb' }).enabled).toBe(false);
    expect(colours({ isTTY: false }, {}).red('x')).toBe('x');
  });

  it('on a terminal (a pseudo-TTY from script(1)): colours, and a progress line once a run lasts over 5 s', async () => {
    const slow = await frontDoor({ upstream: mock.origin, latencyMs: [40, 60] });
    try {
      const quote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;
      const command = [process.execPath, CONFORMANCE_CLI, '--base-url', slow.baseUrl, '--api-key', KEY, '--runs', '40', '--check', 'createPet.echo', 'getPet.not-found'].map(quote).join(' ');
      const env: NodeJS.ProcessEnv = { ...process.env, TERM: 'xterm' };
      for (const name of ['NO_COLOR', 'FORCE_COLOR', 'CI', 'OPENAPI_HARNESS_BASE_URL', 'OPENAPI_HARNESS_API_KEY', 'PETSTORE_BASE_URL', 'PETSTORE_API_KEY']) delete env[name];
      const output = await new Promise<string>((resolve) => {
        execFile('script', ['-qec', command, '/dev/null'], { env, timeout: 60_000 }, (_error, stdout) => resolve(stdout));
      });
      expect(output).toContain('\u001b[');
      expect(output).toMatch(/… \d+\/2 checks done, \d+ s/);
    } finally {
      await slow.close();
    }
  }, 70_000);

  it('the progress line prints checks done and time elapsed while a run lasts, and nothing once stopped', async () => {
    let written = '';
    const progress = progressLine({ write: (text: string) => ((written += text), true) } as unknown as NodeJS.WritableStream, 3, 20);
    const record = (state: 'passed' | 'failed') => ({ type: 'check' as const, id: 'x', rule: 'r', state, durationMs: 1, advice: [] });
    progress.done(record('passed'));
    progress.done(record('failed'));
    await new Promise((resolve) => setTimeout(resolve, 70));
    progress.stop();
    expect(written).toMatch(/… 2\/3 checks done, 1 failed, \d+ s\n/);
    const length = written.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(written.length).toBe(length);
  });
});
