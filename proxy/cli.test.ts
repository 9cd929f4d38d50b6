import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel, PACKAGE_ROOT } from '../model/loader.js';
import type { ApiModel } from '../model/model.js';
import { ensureBuilt, runCli, startCli } from '../test/built-cli.js';
import { startUpstream, type Fault } from '../test/proxy-upstreams.js';

/**
 * The proxy and `--from-har` as users run them: `petstore-mock --proxy URL --record DIR` (the built CLI), then
 * `petstore-conformance --from-har DIR/traffic.har`, with its exit codes (0 conforms, 1 violations, 2 unreadable).
 */

const CONFORMANCE = join(PACKAGE_ROOT, 'dist', 'conformance', 'cli.js');
let model: ApiModel;
let dir: string;

beforeAll(async () => {
  ensureBuilt();
  model = await loadModel();
  dir = mkdtempSync(join(tmpdir(), 'petstore-proxy-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function conformance(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CONFORMANCE, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

async function recordWithCli(fault: Fault, name: string): Promise<string> {
  const upstream = await startUpstream(model, fault);
  const folder = join(dir, name);
  const cli = await startCli(['--proxy', upstream.baseUrl, '--record', folder, '--admin-token', 'admin-token', '--log-format', 'json']);
  try {
    const headers = { authorization: 'Bearer upstream-key', 'content-type': 'application/json' };
    await (await request(`${cli.baseUrl}/pets?status=sold&limit=3`, { headers })).body.text();
    await (await request(`${cli.baseUrl}/pets`, { method: 'POST', headers, body: '{"name":"Rex","categoryId":9007199254740993}' })).body.text();
  } finally {
    expect(await cli.stop()).toBe(0);
    await upstream.close();
  }
  if (fault !== 'none') expect(cli.stdout()).toMatch(/"msg":"violation /);
  return join(folder, 'traffic.har');
}

describe('petstore-mock --proxy --record, then petstore-conformance --from-har', () => {
  it('exit 0 on a correct upstream\'s traffic, 1 on a broken one\'s, 2 on a missing file', async () => {
    const good = await recordWithCli('none', 'good');
    expect(existsSync(join(dir, 'good', 'data.json'))).toBe(true);
    const passed = await conformance(['--from-har', good]);
    expect(passed.stdout).toContain('conforms');
    expect(passed.code).toBe(0);
    const bad = await recordWithCli('filter', 'bad');
    const failed = await conformance(['--from-har', bad]);
    expect(failed.stdout).toContain('list.filter');
    expect(failed.code).toBe(1);
    const missing = await conformance(['--from-har', join(dir, 'nothing.har')]);
    expect(missing.code).toBe(2);
  });

  it('proxy-only flags without --proxy, and flags that clash with it, are refused', async () => {
    const stray = await runCli(['--fallback']);
    expect(stray.code).not.toBe(0);
    expect(stray.stderr).toContain('--fallback');
    const clash = await runCli(['--proxy', 'http://127.0.0.1:9/v1', '--isolate-by-key']);
    expect(clash.code).not.toBe(0);
    expect(clash.stderr).toContain('--isolate-by-key');
  });
});
