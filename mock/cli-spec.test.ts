import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli, startCli } from '../test/built-cli.js';

/** `petstore-mock --spec FILE` (README › Options): any spec of this style served from outside, nothing edited. */
const SHOP = join(import.meta.dirname, 'fixtures', 'shop.openapi.json');
let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'petstore-cli-spec-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--spec', () => {
  it('serves another spec at its base path with the given key, empty, and warns of what the spec does not say', async () => {
    const cli = await startCli(['--spec', SHOP, '--api-key', 'KEY', '--empty', '--log-format', 'json']);
    try {
      expect(cli.baseUrl).toMatch(/\/v2$/);
      expect(cli.stdout()).toContain('with 0 owners, 0 toys');
      const created = await request(`${cli.baseUrl}/owners`, { method: 'POST', headers: { 'x-api-key': 'KEY', 'content-type': 'application/json' }, body: '{"name":"Ann"}' });
      expect(created.statusCode).toBe(200);
      const owner = (await created.body.json()) as { id: string; name: string };
      const read = await request(`${cli.baseUrl}/owners/${owner.id}`, { headers: { 'x-api-key': 'KEY' } });
      expect(await read.body.json()).toEqual(owner);
      const refused = await request(`${cli.baseUrl}/owners`, { headers: { authorization: 'Bearer KEY' } });
      expect(refused.statusCode).toBe(401);
      expect(refused.headers['content-type']).toBe('application/problem+json');
      await refused.body.dump();
      expect(cli.stdout()).toContain('GET /health (health) is not part of a resource');
    } finally {
      await cli.stop();
    }
  });

  it('a spec that cannot be loaded stops the start with exit code 1 and a clear message, no stack', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'openapi: 3.1.0\npaths: [\n');
    for (const spec of [bad, join(dir, 'absent.yaml')]) {
      const { code, stderr } = await runCli(['--port', '0', '--spec', spec]);
      expect(code).toBe(1);
      expect(stderr.startsWith(`openapi-harness mock: cannot load the spec ${spec}: `), stderr).toBe(true);
      expect(stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('PETSTORE_SPEC names the spec too', async () => {
    const cli = await startCli(['--empty'], { PETSTORE_SPEC: SHOP });
    try {
      expect(cli.baseUrl).toMatch(/\/v2$/);
    } finally {
      await cli.stop();
    }
  });
});
