import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { PACKAGE_ROOT } from '../model/loader.js';
import type { Explanation } from '../mock/explain.js';
import { ensureBuilt } from '../test/built-cli.js';

/** Runs the built `openapi-harness` with `args`; resolves with the exit code and what it wrote. */
function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(PACKAGE_ROOT, 'dist', 'cli', 'main.js'), ...args], { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
    });
  });
}

describe('openapi-harness explain, and --overlay on every command', () => {
  let broken: string;
  let hint: string;
  beforeAll(() => {
    ensureBuilt();
    const dir = mkdtempSync(join(tmpdir(), 'explain-cli-'));
    broken = join(dir, 'broken.yaml');
    writeFileSync(broken, "overlay: 1.1.0\nactions:\n  - target: $.paths['/pets'].get\n    update: { x-resource: { role: none } }\n  - target: $.info\n    copy: $.paths.*\n");
    hint = join(dir, 'hint.yaml');
    writeFileSync(hint, "overlay: 1.0.0\nactions:\n  - target: $.paths['/pets'].get\n    update: { x-resource: { role: none } }\n");
  }, 300_000);

  test('on the shipped description: text with reasons and decisions, and the same as JSON', async () => {
    const text = await run(['explain']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/list {8}listPets \(GET \/pets\): by the convention, GET on a collection path is the list \(D33\)/);
    expect(text.stdout).toMatch(/filter {2}status → status: keeps the records whose `status` equals the value sent/);
    expect(text.stdout).toMatch(/listPets: auth\.listPets, listPets\.invalid-query/);
    const json = await run(['explain', '--json']);
    const explanation = JSON.parse(json.stdout) as Explanation;
    expect(explanation.resources.map((resource) => resource.name)).toEqual(['pets']);
    expect(explanation.checks!.flatMap((group) => group.checks).length).toBeGreaterThanOrEqual(16);
  }, 120_000);

  test('an overlay changes what explain shows', async () => {
    const explanation = JSON.parse((await run(['explain', '--json', '--overlay', hint])).stdout) as Explanation;
    expect(explanation.overlays).toEqual([hint]);
    expect(explanation.answered.find((op) => op.operationId === 'listPets')).toMatchObject({ reason: 'its x-resource says role: none, so no resource holds it', decision: 'D32' });
  }, 120_000);

  test.each([['explain'], ['test', '--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'k'], ['mock', '--port', '0']])('%s: an overlay that cannot be applied exits 2 naming the file and the action', async (...args) => {
    const result = await run([...args, '--overlay', broken]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${broken} › actions[1] (target "$.info"): "copy" must resolve to exactly one node`);
  }, 120_000);
});
