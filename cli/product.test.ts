import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel, PACKAGE_ROOT } from '../model/loader.js';
import { serveCommand } from '../mock/cli-options.js';
import type { ApiModel } from '../model/model.js';
import { createMock, startMock, type StartedMock } from '../mock/index.js';
import { startProxy, type StartedProxy } from '../proxy/proxy.js';
import { bearer, call } from '../test/in-process.js';
import { adoptLegacyEnvironment, ADMIN_KEY_HEADER, ANSWERED_BY_HEADER, COMMANDS, DEFAULT_API_KEY, LEGACY, PRODUCT, STATE_FORMAT, VIOLATIONS_HEADER } from './product.js';

/** The new names and the Pet Store names they replaced (README › Renamed): both work, the new one wins. */

let model: ApiModel;
let dir: string;
beforeAll(async () => {
  model = await loadModel();
  dir = mkdtempSync(join(tmpdir(), 'openapi-harness-product-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('environment variables', () => {
  it('reads PETSTORE_X as OPENAPI_HARNESS_X when the new name is unset, and the new name wins when both are set', () => {
    const environment: NodeJS.ProcessEnv = { PETSTORE_SPEC: 'old.yaml', PETSTORE_EMPTY: '1', OPENAPI_HARNESS_EMPTY: 'false', PETSTORE_MAX_PETS: '7', CONFORMANCE_CONSISTENCY_WINDOW: '50', HOME: '/h' };
    expect(adoptLegacyEnvironment(environment)).toEqual(['PETSTORE_SPEC', 'PETSTORE_MAX_PETS', 'CONFORMANCE_CONSISTENCY_WINDOW']);
    expect(environment).toMatchObject({ OPENAPI_HARNESS_SPEC: 'old.yaml', OPENAPI_HARNESS_EMPTY: 'false', OPENAPI_HARNESS_MAX_RECORDS: '7', OPENAPI_HARNESS_CONSISTENCY_WINDOW: '50' });
    expect(environment['OPENAPI_HARNESS_MAX_PETS'], 'the renamed setting is read under its new name only').toBeUndefined();
    expect(adoptLegacyEnvironment(environment), 'a second call takes nothing').toEqual([]);
  });
});

describe('commands and flags', () => {
  it('installs the one command and each old command, running the entry of its subcommand', () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { name: string; bin: Record<string, string> };
    const entries = { mock: 'dist/mock/cli.js', test: 'dist/conformance/cli.js', proxy: 'dist/proxy/cli.js' };
    expect(manifest.name).toBe(PRODUCT);
    expect(manifest.bin).toEqual({ [PRODUCT]: 'dist/cli/main.js', ...Object.fromEntries(Object.entries(LEGACY.bins).map(([bin, subcommand]) => [bin, entries[subcommand]])) });
  });

  it('reads each old flag as its new one, hidden from --help', () => {
    for (const [old, current] of Object.entries(LEGACY.flags)) {
      const command = serveCommand(COMMANDS.mock, 'test').exitOverride();
      command.parse([old, '5'], { from: 'user' });
      const name = current.slice(2).replace(/-(\w)/g, (_all, letter: string) => letter.toUpperCase());
      expect(command.opts()[name], old).toBe(5);
      expect(command.helpInformation()).toContain(current);
      expect(command.helpInformation()).not.toContain(old);
      const refused = serveCommand(COMMANDS.mock, 'test').exitOverride().configureOutput({ writeErr: () => undefined });
      expect(() => refused.parse([old, 'abc'], { from: 'user' }), 'a bad value is a usage error, as with the new name').toThrow(/argument 'abc' is invalid/);
    }
  });
});

describe('the mock', () => {
  it('accepts the new default key and the Pet Store one when no key is given, and no other', async () => {
    const mock = await createMock({ model });
    expect(DEFAULT_API_KEY).toBe('openapi-harness-dev-key');
    expect(call(mock.handle, { url: '/v1/pets', headers: bearer(DEFAULT_API_KEY) }).status).toBe(200);
    expect(call(mock.handle, { url: '/v1/pets', headers: bearer(LEGACY.apiKey) }).status).toBe(200);
    expect(call(mock.handle, { url: '/v1/pets', headers: bearer('another-key') }).status).toBe(401);
  });

  it('names the key of an admin call with X-OpenAPI-Harness-Key, or with the old X-Petstore-Key', async () => {
    const mock = await createMock({ model, isolateByKey: true, pets: [] });
    for (const [header, key] of [[ADMIN_KEY_HEADER, 'a'], [LEGACY.adminKeyHeader, 'b']] as const) {
      const put = call(mock.handle, { method: 'PUT', url: '/__admin/pets', body: `[{"id":3,"name":"${key}","categoryId":1}]`, headers: { [header]: key } });
      expect(put.json, header).toEqual({ pets: 1 });
      expect(call(mock.handle, { url: '/v1/pets', headers: bearer(key) }).json.map((pet: { name: string }) => pet.name), header).toEqual([key]);
    }
    expect(call(mock.handle, { url: '/__admin/pets' }).json.code).toBe('ADMIN_KEY_REQUIRED');
  });

  it('keeps neither admin key header, new or old, in the journal', async () => {
    const mock = await createMock({ model, adminToken: 'admin' });
    for (const header of [ADMIN_KEY_HEADER, LEGACY.adminKeyHeader]) call(mock.handle, { url: '/v1/pets', headers: bearer(DEFAULT_API_KEY, { [header]: `secret-of-${header}` }) });
    const journal = call(mock.handle, { url: '/__admin/requests', headers: { authorization: 'Bearer admin' } });
    expect(journal.status).toBe(200);
    expect(journal.json.length).toBeGreaterThanOrEqual(2);
    expect(journal.body.toString()).not.toContain('secret-of-');
  });

  it('writes the new state format and reads the one the Pet Store harness wrote', async () => {
    const old = join(dir, 'old-state.json');
    writeFileSync(old, `{"format":"${LEGACY.stateFormats.v2}","data":{"pets":[{"id":5,"name":"Kept","categoryId":1}]},"keys":{}}`);
    const mock = await createMock({ model, stateFile: old });
    expect(mock.store.all()).toEqual(['{"id":5,"name":"Kept","categoryId":1}']);
    expect(call(mock.handle, { method: 'POST', url: '/v1/pets', body: '{"name":"New","categoryId":1}', headers: bearer(DEFAULT_API_KEY, { 'content-type': 'application/json' }) }).status).toBe(201);
    mock.flush();
    expect(STATE_FORMAT).toBe('openapi-harness-state/2');
    expect(JSON.parse(readFileSync(old, 'utf8')).format, 'rewritten in the new format after a flush').toBe(STATE_FORMAT);
  });
});

describe('the validating proxy', () => {
  let upstream: StartedMock;
  let proxy: StartedProxy;
  beforeAll(async () => {
    upstream = await startMock({ model, port: 0, apiKeys: ['k'] });
    proxy = await startProxy({ model, upstream: upstream.baseUrl, port: 0 });
  });
  afterAll(async () => {
    await proxy?.close();
    await upstream?.close();
  });

  it('sends its headers under the new names and the old ones, with the same values', async () => {
    // A route the description does not hold is forwarded and reported as a `route` violation.
    const response = await request(`${proxy.baseUrl}/store/orders`, { headers: { authorization: 'Bearer k' } });
    await response.body.text();
    expect(response.headers[ANSWERED_BY_HEADER]).toBe('upstream');
    expect(response.headers[LEGACY.answeredByHeader]).toBe('upstream');
    expect(response.headers[VIOLATIONS_HEADER]).toContain('route');
    expect(response.headers[LEGACY.violationsHeader]).toBe(response.headers[VIOLATIONS_HEADER]);
  });
});
