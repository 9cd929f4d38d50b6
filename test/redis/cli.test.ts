import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli, startCli } from '../built-cli.js';
import { freePort, startRedis, type TestRedis } from './redis-server.js';

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

  it('starts before its Redis: 503 with Retry-After meanwhile, then the demo pets once Redis runs', async () => {
    const port = await freePort();
    const cli = await startCli(['--store', `redis://127.0.0.1:${port}`, '--store-timeout', '300', '--log-format', 'json']);
    let late: TestRedis | undefined;
    try {
      expect(cli.stdout()).toContain('not reachable yet');
      const early = await fetch(`${cli.baseUrl}/pets`, { headers: AUTH });
      expect(early.status).toBe(503);
      expect(early.headers.get('retry-after')).toBe('1');
      late = await startRedis({ port });
      let pets: unknown[] | undefined;
      for (const deadline = Date.now() + 5_000; pets === undefined && Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100))) {
        const response = await fetch(`${cli.baseUrl}/pets`, { headers: AUTH });
        if (response.status === 200) pets = (await response.json()) as unknown[];
      }
      expect(pets?.length).toBe(8);
    } finally {
      await cli.stop();
      await late?.dispose();
    }
  });
});
