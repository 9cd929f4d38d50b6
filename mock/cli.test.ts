import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_PATH, ensureBuilt, runCli, startCli } from '../test/built-cli.js';
import { DEFAULT_API_KEY } from './index.js';

/** `petstore-mock` as a front-end developer starts it (README › Running the mock): flags, starting data, state file. */

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'petstore-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const AUTH = { authorization: `Bearer ${DEFAULT_API_KEY}` };

describe('--help', () => {
  it('lists every flag with its environment variable and its default', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    // One entry per flag: commander wraps long descriptions onto indented continuation lines.
    const lines = stdout.split(/\n(?=\s+-)/).filter((entry) => /^\s+--/.test(entry)).map((entry) => entry.replace(/\s+/g, ' '));
    const flags = lines.map((line) => line.trim().split(/\s/)[0]);
    expect(flags).toEqual(expect.arrayContaining(['--port', '--host', '--api-key', '--data', '--empty', '--cors-origin', '--no-cors', '--latency', '--isolate-by-key', '--state-file', '--admin-token', '--no-admin', '--journal-size', '--log-level', '--log-format']));
    for (const line of lines) expect(line, line).toMatch(/\(.*default: .+, env: [A-Z_]+\)$/);
  });
});

describe('starting data', () => {
  it('--data FILE loads the pets of a valid file', async () => {
    const file = join(dir, 'pets.json');
    writeFileSync(file, '[{"id":10,"name":"Nemo","categoryId":3,"status":"available"},{"id":11,"name":"Dory","categoryId":3}]');
    const cli = await startCli(['--data', file, '--log-level', 'silent']);
    try {
      expect(cli.stdout()).toContain('with 2 pets');
      const pets = await (await fetch(`${cli.baseUrl}/pets`, { headers: AUTH })).json();
      expect(pets).toEqual([
        { id: 11, name: 'Dory', categoryId: 3 },
        { id: 10, name: 'Nemo', categoryId: 3, status: 'available' },
      ]);
    } finally {
      await cli.stop();
    }
  });

  it('a bad --data file stops the start with exit code 1 and a message naming the file and the entry', async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, '[{"id":1,"name":"Ok","categoryId":1},{"id":2,"name":"NoCategory"}]');
    const { code, stderr } = await runCli(['--port', '0', '--data', file]);
    expect(code).toBe(1);
    expect(stderr).toBe(`openapi-harness mock: ${file}: entry 1 is not a Pet: must have the property "categoryId"\n`);
    const missing = await runCli(['--port', '0', '--data', join(dir, 'absent.json')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/absent\.json: cannot read the file \(ENOENT\)/);
  });

  it('the demo set by default, none with --empty, and PETSTORE_EMPTY=false means not empty', async () => {
    for (const [args, env, count] of [[[], {}, 8], [['--empty'], {}, 0], [[], { PETSTORE_EMPTY: '1' }, 0], [[], { PETSTORE_EMPTY: 'false' }, 8]] as const) {
      const cli = await startCli([...args, '--log-level', 'silent'], env);
      const text = cli.stdout();
      await cli.stop();
      expect(text, JSON.stringify(env)).toContain(`with ${count} pets`);
    }
  });
});

describe('--state-file', () => {
  it('survives a restart: SIGTERM right after a create still writes it, and the next start reads it', async () => {
    const file = join(dir, 'state.json');
    const first = await startCli(['--state-file', file, '--log-level', 'silent']);
    const created = await fetch(`${first.baseUrl}/pets`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: '{"name":"Survivor","categoryId":9223372036854775807}' });
    expect(created.status).toBe(201);
    expect(await first.stop('SIGTERM')).toBe(0);
    const second = await startCli(['--state-file', file, '--log-level', 'silent']);
    try {
      expect(second.stdout()).toContain('with 9 pets');
      expect(await (await fetch(`${second.baseUrl}/pets?limit=1`, { headers: AUTH })).text()).toBe('[{"id":9,"name":"Survivor","categoryId":9223372036854775807}]');
    } finally {
      await second.stop('SIGINT');
    }
  });
});

describe('--isolate-by-key and the admin flags', () => {
  it('accepts any bearer key and says so; --admin-token guards /__admin; --no-admin turns it off', async () => {
    const cli = await startCli(['--isolate-by-key', '--admin-token', 'tok', '--log-level', 'silent']);
    try {
      expect(cli.stdout()).toContain('API key: any bearer key (each key sees its own pets)');
      expect(cli.stdout()).toContain('/__admin (token required)');
      expect((await fetch(`${cli.baseUrl}/pets`, { headers: { authorization: 'Bearer anything' } })).status).toBe(200);
      const origin = new URL(cli.baseUrl).origin;
      expect((await fetch(`${origin}/__admin/reset`, { method: 'POST', headers: { authorization: 'Bearer anything' } })).status).toBe(401);
      expect((await fetch(`${origin}/__admin/reset`, { method: 'POST', headers: { authorization: 'Bearer tok' } })).status).toBe(200);
    } finally {
      await cli.stop();
    }
    const off = await startCli(['--no-admin', '--log-level', 'silent']);
    try {
      expect(off.stdout()).toContain('Admin API: off');
      expect((await fetch(`${new URL(off.baseUrl).origin}/__admin/reset`, { method: 'POST' })).status).toBe(404);
    } finally {
      await off.stop();
    }
  });

  it('without --admin-token guards /__admin with a generated token it prints; the API key never opens it', async () => {
    const cli = await startCli(['--log-level', 'silent']);
    try {
      const token = /generated token: send "Authorization: Bearer ([\w-]+)"/.exec(cli.stdout())?.[1];
      expect(token, cli.stdout()).toMatch(/^[\w-]{20,}$/);
      const reset = `${new URL(cli.baseUrl).origin}/__admin/reset`;
      expect((await fetch(reset, { method: 'POST' })).status).toBe(401);
      expect((await fetch(reset, { method: 'POST', headers: AUTH })).status).toBe(401);
      expect((await fetch(reset, { method: 'POST', headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    } finally {
      await cli.stop();
    }
  });

  it('refuses a malformed --latency with exit code 1 and the reason', async () => {
    const { code, stderr } = await runCli(['--latency', '300-100']);
    expect(code).toBe(1);
    expect(stderr).toContain('must be MS or MIN-MAX');
  });
});

describe('shutdown with stdout gone', () => {
  it('a SIGTERM still ends the process when stdout is a pipe its reader closed (`petstore-mock | head -1`)', async () => {
    ensureBuilt();
    const child = spawn(process.execPath, [CLI_PATH, '--port', '0', '--log-format', 'json'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // Read the banner's first chunk, then close our end of the pipe, as `head -1` does.
    await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
    child.stdout!.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    child.kill('SIGTERM');
    const timeout = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 5000).unref());
    const outcome = await Promise.race([exited, timeout]);
    if (outcome === 'hung') child.kill('SIGKILL');
    expect(outcome).toBe(0);
  });
});
