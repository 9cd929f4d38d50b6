import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, call } from '../test/in-process.js';
import { createMock, DEFAULT_API_KEY, loadApi, type Api, type Mock } from './index.js';
import { keyDigest } from './isolation.js';

/** `--state-file` (README › State file): the pets survive a restart; writes are debounced and atomic. */

let api: Api;
let dir: string;
beforeAll(async () => {
  api = await loadApi();
  dir = mkdtempSync(join(tmpdir(), 'petstore-state-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const JSON_BODY = { 'content-type': 'application/json' };
const create = (m: Mock, key: string, name: string, categoryId = '1') =>
  call(m.handle, { method: 'POST', body: `{"name":${JSON.stringify(name)},"categoryId":${categoryId}}`, headers: bearer(key, JSON_BODY) });

describe('state file', () => {
  it('keeps created pets across a restart, int64 values exact, and continues the ids', async () => {
    const path = join(dir, 'restart.json');
    const first = await createMock({ api, stateFile: path });
    create(first, DEFAULT_API_KEY, 'Persisted', '9223372036854775807');
    first.flush();
    const second = await createMock({ api, stateFile: path });
    expect(second.store.size).toBe(9);
    const listed = call(second.handle, { url: '/v1/pets?limit=1', headers: bearer(DEFAULT_API_KEY) });
    expect(listed.body).toBe('[{"id":9,"name":"Persisted","categoryId":9223372036854775807}]');
    expect(create(second, DEFAULT_API_KEY, 'Next').json.id).toBe(10);
  });

  it('is written within the debounce time without flush(), after admin changes too, and leaves no temporary file', async () => {
    const path = join(dir, 'debounce.json');
    const mock = await createMock({ api, stateFile: path, pets: [] });
    create(mock, DEFAULT_API_KEY, 'Soon');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(readFileSync(path, 'utf8')).toContain('"Soon"');
    call(mock.handle, { method: 'PUT', url: '/__admin/pets', body: '[{"id":5,"name":"Replaced","categoryId":2}]' });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(JSON.parse(readFileSync(path, 'utf8')).data.pets).toEqual([{ id: 5, name: 'Replaced', categoryId: 2 }]);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('holds each isolated key\'s pets under the SHA-256 of the key, never the key itself', async () => {
    const path = join(dir, 'keys.json');
    const first = await createMock({ api, stateFile: path, isolateByKey: true, pets: [] });
    create(first, 'worker-secret-1', 'Mine');
    first.flush();
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('worker-secret-1');
    expect(JSON.parse(text).keys).toEqual({ [keyDigest('worker-secret-1')]: { pets: [{ id: 1, name: 'Mine', categoryId: 1 }] } });
    const second = await createMock({ api, stateFile: path, isolateByKey: true, pets: [] });
    expect(call(second.handle, { headers: bearer('worker-secret-1') }).json).toEqual([{ id: 1, name: 'Mine', categoryId: 1 }]);
    expect(call(second.handle, { headers: bearer('someone-else') }).json).toEqual([]);
  });

  it('keeps the pets of a saved key that is not used after a restart when the file is written again', async () => {
    const path = join(dir, 'unused-key.json');
    const first = await createMock({ api, stateFile: path, isolateByKey: true, pets: [] });
    create(first, 'sleeper', 'Dormant');
    create(first, 'active', 'Busy');
    first.flush();
    const second = await createMock({ api, stateFile: path, isolateByKey: true, pets: [] });
    create(second, 'active', 'Busier');
    second.flush();
    const third = await createMock({ api, stateFile: path, isolateByKey: true, pets: [] });
    expect(call(third.handle, { headers: bearer('sleeper') }).json).toEqual([{ id: 1, name: 'Dormant', categoryId: 1 }]);
    expect(call(third.handle, { headers: bearer('active') }).json.map((pet: { name: string }) => pet.name)).toEqual(['Busier', 'Busy']);
  });

  it('a bad state file stops the start with a message naming the file and the entry', async () => {
    const cases: [string, RegExp][] = [
      ['{"format":"petstore-mock-state/1","pets":[{"id":1,"name":"A"}],"keys":{}}', /bad\.json › pets: entry 0 is not a Pet: .*categoryId/],
      ['{"format":"petstore-mock-state/2","data":{"pets":[{"id":1,"name":"A"}]},"keys":{}}', /bad\.json › pets: entry 0 is not a Pet: .*categoryId/],
      ['{"format":"petstore-mock-state/2","data":{"owners":[]},"keys":{}}', /bad\.json: no resource is named "owners"/],
      ['[1,2]', /bad\.json: not a state file of this mock/],
      ['{"format":', /bad\.json: the state file is not valid JSON/],
    ];
    for (const [text, message] of cases) {
      writeFileSync(join(dir, 'bad.json'), text);
      await expect(createMock({ api, stateFile: join(dir, 'bad.json') })).rejects.toThrow(message);
    }
  });

  it('a missing file starts from the starting data and is created', async () => {
    const path = join(dir, 'new.json');
    const mock = await createMock({ api, stateFile: path });
    expect(mock.store.size).toBe(8);
    mock.flush();
    expect(JSON.parse(readFileSync(path, 'utf8')).data.pets).toHaveLength(8);
  });

  it('reads the earlier format (/1), whose pets are the first resource\'s records', async () => {
    const path = join(dir, 'format-1.json');
    writeFileSync(path, '{"format":"petstore-mock-state/1","pets":[{"id":9223372036854775807,"name":"Old","categoryId":1}],"keys":{}}');
    const mock = await createMock({ api, stateFile: path });
    expect(mock.store.all()).toEqual(['{"id":9223372036854775807,"name":"Old","categoryId":1}']);
  });
});
