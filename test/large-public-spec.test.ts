import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listCheckIds } from '../conformance/run-suite.js';
import { startMock, type StartedMock } from '../mock/index.js';
import { failingChecks } from './corpus/harness.js';
import { absentReason, sharedCorpusFile } from './shared-corpus.js';
import { WILD_KEY, expectStatus, object, records, wildClient } from './wild-corpus/wild-client.js';

/**
 * The large public spec of the corpus: DigitalOcean's own description, read where it is kept as published,
 * ../shared/corpus/digitalocean/ (about 650 operations in some 2,900 files, Apache-2.0; that folder's README). The mock
 * starts from it as `--spec` would, a front-end's first steps on it behave, and the suite's checks of its main
 * resources pass against that mock. (The whole suite of it, some 1,700 checks in about six minutes, is run and
 * recorded in bench/RESULTS.md rather than on every test run.) Start-up time and memory beside Prism are in
 * `npm run bench:startup`. Where the shared corpus is absent, the tests skip and say so.
 */
const FILE = 'digitalocean/DigitalOcean-public.v2.yaml';
const SPEC = sharedCorpusFile(FILE);
/** The resources whose checks run here: a droplet and its neighbours, each with a list, a create and an item path. */
const RESOURCES = ['droplets', 'certificates', 'keys', 'domains', 'firewalls', 'projects', 'vpcs', 'volumes'];

describe.skipIf(SPEC === undefined)(`DigitalOcean's public description${SPEC === undefined ? ` (${absentReason(FILE)})` : ''}`, () => {
  let mock: StartedMock;
  beforeAll(async () => {
    mock = await startMock({ spec: SPEC!, port: 0, apiKeys: [WILD_KEY] });
  }, 120_000);
  afterAll(async () => {
    await mock?.close();
  });

  test('starts with its resources and its examples as starting records', () => {
    expect(mock.model.operations.length).toBeGreaterThan(600);
    expect(mock.model.resources.length).toBeGreaterThan(100);
    expect(mock.model.resources.map((resource) => resource.name)).toEqual(expect.arrayContaining(RESOURCES));
  });

  test('a droplet is created (202 in its envelope), read, listed with meta.total, deleted (204), then a 404 {id, message}', async () => {
    const { call } = wildClient(mock.baseUrl, 'bearer');
    const created = await call('POST', '/v2/droplets', { json: { name: 'web-1', region: 'nyc3', size: 's-1vcpu-1gb', image: 'ubuntu-24-04-x64', tags: ['web'] } });
    expectStatus(created, 202);
    const droplet = object(created)['droplet'] as Record<string, unknown>;
    expect(droplet).toMatchObject({ name: 'web-1', tags: ['web'] });
    const read = await call('GET', `/v2/droplets/${String(droplet['id'])}`);
    expectStatus(read, 200);
    expect(object(read)['droplet']).toEqual(droplet);
    const list = await call('GET', '/v2/droplets?per_page=200');
    expect(records(list, 'droplets').map((record) => record['id'])).toContain(droplet['id']);
    expect((object(list)['meta'] as Record<string, unknown>)['total']).toBe(records(list, 'droplets').length);
    expectStatus(await call('DELETE', `/v2/droplets/${String(droplet['id'])}`), 204);
    const gone = await call('GET', `/v2/droplets/${String(droplet['id'])}`);
    expectStatus(gone, 404);
    expect(object(gone)).toMatchObject({ id: expect.any(String), message: expect.any(String) });
    expectStatus(await call('GET', '/v2/droplets', { auth: false }), 401);
  });

  test('every check of its main resources passes against the mock', async () => {
    const target = { baseUrl: mock.baseUrl, apiKey: WILD_KEY, spec: SPEC!, runs: 5 };
    const operations = new Set(mock.model.resources.filter((resource) => RESOURCES.includes(resource.name)).flatMap((resource) => Object.values(resource.operations).map((op) => op!.operationId)));
    const ids = (await listCheckIds(target)).filter((id) => operations.has(id.startsWith('auth.') ? id.slice('auth.'.length) : id.slice(0, id.lastIndexOf('.'))));
    expect(ids.length).toBeGreaterThan(50);
    expect((await failingChecks(target, ids)).map((failure) => failure.report).join('\n\n')).toBe('');
  }, 600_000);
});
