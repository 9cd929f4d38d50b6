import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checksFor } from '../conformance/catalogue.js';
import { listCheckIds } from '../conformance/run-suite.js';
import { parseShard, shardIds } from '../conformance/shard.js';
import { loadModel, PACKAGE_ROOT } from '../model/loader.js';
import { startMock, type StartedMock } from '../mock/index.js';
import { ensureBuilt } from './built-cli.js';
import { absentReason, sharedCorpusFile } from './shared-corpus.js';

/**
 * `--shard i/n` (spec/DECISIONS.md › D373): shards 1/4 to 4/4 together hold exactly the checks of one whole run, each
 * once, balanced, whatever the order the ids come in; and on the seed's spec, four shards run by the CLI against our
 * mock, each writing its results, merge into one JUnit report whose test cases are the ids of one whole run.
 */
const CLI = join(PACKAGE_ROOT, 'dist', 'conformance', 'cli.js');
const LARGE = 'digitalocean/DigitalOcean-public.v2.yaml';
const KEY = 'shard-key';

/** Every shard of `count` over `ids`: each shard's ids, and checks that together they are the whole, once each, balanced. */
function expectSplit(ids: readonly string[], count: number): string[][] {
  const shards = Array.from({ length: count }, (_, index) => shardIds(ids, { index: index + 1, count }));
  expect(shards.flat().sort()).toEqual([...ids].sort());
  expect(new Set(shards.flat()).size).toBe(ids.length);
  const sizes = shards.map((shard) => shard.length);
  expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  // The same split from the ids in another order, each shard in the order given.
  const reversed = [...ids].reverse();
  expect(Array.from({ length: count }, (_, index) => shardIds(reversed, { index: index + 1, count }))).toEqual(shards.map((shard) => [...shard].reverse()));
  for (const shard of shards) expect(shard).toEqual(ids.filter((id) => shard.includes(id)));
  return shards;
}

describe('shards split the catalogue', () => {
  test('on the seed spec: 1/4..4/4 are the whole run, once each; 1/1 is the whole run', async () => {
    const ids = checksFor(await loadModel()).map((check) => check.id);
    expect(ids.length).toBe(16);
    expectSplit(ids, 4);
    expect(shardIds(ids, { index: 1, count: 1 })).toEqual(ids);
    expectSplit(ids, 20);
  });

  test.skipIf(sharedCorpusFile(LARGE) === undefined)(`on a large description (DigitalOcean's) ${sharedCorpusFile(LARGE) === undefined ? absentReason(LARGE) : ''}`, async () => {
    const ids = checksFor(await loadModel(sharedCorpusFile(LARGE)!)).map((check) => check.id);
    expect(ids.length).toBeGreaterThan(1000);
    expect(new Set(ids).size).toBe(ids.length);
    expectSplit(ids, 4);
    expectSplit(ids, 7);
  }, 120_000);

  test('reads i/n and refuses anything else', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    for (const text of ['0/4', '5/4', '1/0', '1', 'a/b', '-1/2', '1.5/2']) expect(() => parseShard(text)).toThrow(/must be i\/n/);
  });
});

describe('four shards by the CLI, merged', () => {
  let mock: StartedMock;
  let dir: string;
  beforeAll(async () => {
    ensureBuilt();
    mock = await startMock({ port: 0, apiKeys: [KEY] });
    dir = mkdtempSync(join(tmpdir(), 'shards-'));
  });
  afterAll(async () => {
    await mock?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // The shard comes from the flags alone, never from the environment of the machine running the test.
  const { OPENAPI_HARNESS_SHARD: _shard, ...environment } = process.env;
  const withoutShard = { ...environment, OPENAPI_HARNESS_BASE_URL: '', OPENAPI_HARNESS_API_KEY: '' };
  const cli = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile(process.execPath, [CLI, ...args], { cwd: PACKAGE_ROOT, env: withoutShard, timeout: 120_000 }, (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 99, stdout, stderr });
      });
    });

  test('run the checks of one whole run, each once, and merge into one JUnit and HTML report and one verdict', async () => {
    const whole = await listCheckIds({ baseUrl: mock.baseUrl, apiKey: KEY });
    const files: string[] = [];
    for (let index = 1; index <= 4; index++) {
      const file = join(dir, `shard-${index}.json`);
      const run = await cli(['--base-url', mock.baseUrl, '--api-key', KEY, '--runs', '3', '--shard', `${index}/4`, '--results', file]);
      expect(run.stderr + run.stdout).toMatch(/passed, 0 failed/);
      expect(run.code).toBe(0);
      files.push(file);
    }
    const ran = files.flatMap((file) => (JSON.parse(readFileSync(file, 'utf8')) as { checks: { id: string }[] }).checks.map((check) => check.id));
    expect([...ran].sort()).toEqual([...whole].sort());
    expect(new Set(ran).size).toBe(whole.length);

    const junit = join(dir, 'merged.xml');
    const html = join(dir, 'merged.html');
    const merged = await cli(['--merge-reports', ...files, '--junit', junit, '--html', html]);
    expect(merged.stdout).toContain('16 passed, 0 failed');
    expect(merged.code).toBe(0);
    const cases = [...readFileSync(junit, 'utf8').matchAll(/<testcase classname="[^"]*" name="([^":]+):/g)].map((match) => match[1]);
    expect([...cases].sort()).toEqual([...whole].sort());
    expect(readFileSync(html, 'utf8')).toContain('Conforms: 16 checks passed');

    // A shard missing: no verdict.
    const partial = await cli(['--merge-reports', ...files.slice(1)]);
    expect(partial.code).toBe(2);
    expect(partial.stdout).toMatch(/in none of them/);
    // The same shard twice: refused.
    expect((await cli(['--merge-reports', files[0]!, files[0]!])).code).toBe(2);
  }, 240_000);
});
