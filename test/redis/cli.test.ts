import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli, startCli } from '../built-cli.js';
import { startRedis, type TestRedis } from './redis-server.js';

/**
 * `petstore-mock --store redis://…` as an operator starts replicas (README › Several replicas): the banner names
 * the store and prefix, two CLI replicas share one state, `PETSTORE_STORE` works, and conflicting options are
 * refused with a clear message and exit code 1.
 */
const AUTH = { authorization: 'Bearer petstore-dev-key', 'content-type': 'application/json' };

let redis: TestRedis;
beforeAll(async () => {
  ensureBuilt();
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.dispose();
});

describe('petstore-mock --store', () => {
  it('two CLI replicas on one Redis share one state; the demo pets are loaded once', async () => {
    const a = await startCli(['--store', `${redis.url}/2`, '--log-level', 'silent']);
    const b = await startCli(['--log-level', 'silent'], { PETSTORE_STORE: `${redis.url}/2` });
    try {
      expect(a.stdout()).toMatch(/Store: redis:\/\/127\.0\.0\.1:\d+\/2, prefix pet-store-service-animals-interface:1\.0\.0/);
      const demo = (await (await fetch(`${a.baseUrl}/pets?limit=100`, { headers: AUTH })).json()) as unknown[];
      const created = await fetch(`${a.baseUrl}/pets`, { method: 'POST', headers: AUTH, body: '{"name":"Shared","categoryId":-9223372036854775808}' });
      expect(created.status).toBe(201);
      const text = await created.text();
      const id = /"id":(\d+)/.exec(text)![1]!;
      expect(await (await fetch(`${b.baseUrl}/pets/${id}`, { headers: AUTH })).text()).toBe(text);
      expect(((await (await fetch(`${b.baseUrl}/pets?limit=100`, { headers: AUTH })).json()) as unknown[]).length).toBe(demo.length + 1);
      const health = await fetch(`${b.baseUrl.replace(/\/v1$/, '')}/__health`);
      expect(await health.json()).toMatchObject({ status: 'ok', store: 'redis', state: 'ready' });
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it('refuses --state-file with a Redis store, and --store-prefix without one', async () => {
    const both = await runCli(['--port', '0', '--store', redis.url, '--state-file', '/tmp/never.json']);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('--state-file cannot be used with --store');
    const prefix = await runCli(['--port', '0', '--store-prefix', 'x']);
    expect(prefix.code).toBe(1);
    expect(prefix.stderr).toContain('--store-prefix needs a Redis store');
    const bad = await runCli(['--port', '0', '--store', 'mysql://x']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('must be "memory" or a Redis URL');
  });

  it('a Redis that cannot be reached at start stops the start with exit code 1 naming it', async () => {
    const down = await runCli(['--port', '0', '--store', 'redis://127.0.0.1:1', '--store-timeout', '300']);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('cannot reach the store redis://127.0.0.1:1');
  });
});
