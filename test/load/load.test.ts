import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadModel, PACKAGE_ROOT } from '../../model/loader.js';
import { patternRegExp } from '../../model/schema.js';
import { ensureBuilt, startCli } from '../built-cli.js';

/**
 * Loading the specs people have (README › Specs the mock reads): multi-file OpenAPI 3 with relative `$ref`s,
 * Swagger 2.0 converted on load, patterns written without the `u` flag, unknown formats, `$ref`s serving never
 * reads, and invalid documents named by file, pointer and reason.
 */
const HERE = import.meta.dirname;
const MULTI_FILE = join(HERE, 'multi-file', 'openapi.yaml');
const SWAGGER2 = join(HERE, 'swagger2', 'kennel.yaml');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'petstore-load-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `files` (path → text) under a fresh folder and returns the folder. */
function writeFiles(name: string, files: Record<string, string>): string {
  const root = join(dir, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** The message `loadModel` rejects with. */
async function loadError(path: string): Promise<string> {
  return loadModel(path).then(
    () => 'loaded',
    (error: unknown) => (error as Error).message,
  );
}

describe('a multi-file OpenAPI 3.0 spec (test/load/multi-file)', async () => {
  const stderr = vi.spyOn(process.stderr, 'write');
  const warn = vi.spyOn(console, 'warn');
  const model = await loadModel(MULTI_FILE);
  const written = [...stderr.mock.calls, ...warn.mock.calls];
  stderr.mockRestore();
  warn.mockRestore();
  const boats = model.resources[0]!;
  const create = boats.operations.create!;

  it('reads every path item, schema, parameter and response from its own file', () => {
    expect(model.basePath).toBe('/harbour');
    expect(boats).toMatchObject({ name: 'boats', collectionPath: '/boats', itemPath: '/boats/{boatId}', idProperty: 'id', idType: 'integer', idParameter: 'boatId' });
    expect(Object.keys(boats.operations).sort()).toEqual(['create', 'list', 'read']);
    expect(boats.limit).toEqual({ parameter: 'limit', minimum: 1, maximum: 20, default: 5 });
    expect(Object.keys(boats.properties)).toEqual(['id', 'name', 'flag', 'hull']);
    expect(boats.properties['hull']).toMatchObject({ enum: ['wood', 'steel', 'fibreglass'] });
  });

  it('a pattern valid only without the u flag compiles and validates as written', () => {
    expect(() => new RegExp('^[a-zA-Z0-9_\\-\\:]+$', 'u')).toThrow();
    expect(patternRegExp('^[a-zA-Z0-9_\\-\\:]+$').test('dock-7:berth_2')).toBe(true);
    expect(patternRegExp('^\\p{L}+$').test('Ærø')).toBe(true);
    expect(create.body!.validate({ name: 'dock-7:berth_2' })).toBe(true);
    expect(create.body!.validate({ name: 'dock 7' })).toBe(false);
    expect(create.body!.validate.errors()).toContain('pattern');
  });

  it('an unknown format accepts any value, and is named once in the notes, never on stderr', () => {
    expect(create.body!.validate({ name: 'a', flag: 'anything at all' })).toBe(true);
    expect(model.notes.filter((note) => note.includes('iso-country-code'))).toEqual(['formats this mock does not know are accepted as any value: iso-country-code']);
    expect(written).toEqual([]);
  });

  it('$refs in x- extensions, tags and info are not followed (a missing file there does not matter), and the notes say so once', () => {
    const skipped = model.notes.filter((note) => note.includes('not followed'));
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toMatch(/^6 \$refs that serving never reads \(in x- extensions, descriptions, tags or info\) not followed: /);
    expect(skipped[0]).toContain('openapi.yaml#/info/description → docs/introduction.md');
  });

  it('an x- key under a member of names (a response header x-request-id) is a name: its $ref is followed', async () => {
    const { readSpecDocument } = await import('../../model/document.js');
    const { document } = await readSpecDocument(MULTI_FILE);
    const paths = document['paths'] as Record<string, { get: { responses: Record<string, { headers: Record<string, unknown> }> } }>;
    expect(paths['/boats']!.get.responses['default']!.headers['x-request-id']).toEqual({ description: 'The identifier of the request, for support.', schema: { type: 'string', format: 'uuid' } });
  });
});

describe('a Swagger 2.0 spec (test/load/swagger2/kennel.yaml), converted on load', async () => {
  const model = await loadModel(SWAGGER2);
  const dogs = model.resources[0]!;

  it('serves at its basePath, with its definitions as schemas and its body parameter as the request body', () => {
    expect(model.basePath).toBe('/api/v2');
    expect(dogs).toMatchObject({ name: 'dogs', collectionPath: '/dogs', itemPath: '/dogs/{dogId}', idProperty: 'id', idType: 'integer' });
    expect(Object.keys(dogs.operations).sort()).toEqual(['create', 'delete', 'list', 'read']);
    expect(dogs.filters.map((filter) => [filter.property, filter.values])).toEqual([['breed', ['beagle', 'collie', 'poodle']]]);
    const body = dogs.operations.create!.body!;
    expect(body).toMatchObject({ required: true, mediaTypes: ['application/json'] });
    expect(body.validate({ name: 'Rex', breed: 'beagle', chip: null })).toBe(true);
    expect(body.validate({ name: 'Rex' })).toBe(false);
    expect(body.validate.errors()).toContain('breed');
    expect(dogs.operations.list!.responses.find((response) => response.status === '200')!.mediaType).toBe('application/json');
    expect(dogs.operations.list!.security).toEqual([{ kind: 'apiKey', name: 'key', in: 'header', parameter: 'X-Kennel-Key' }]);
    expect(model.notes).toContain('Swagger 2.0 document converted to OpenAPI 3.0 on load (swagger2openapi): basePath, body and formData parameters, definitions, produces/consumes');
    expect(model.notes.filter((note) => note.includes('not followed'))).toEqual([`1 $ref that serving never reads (in x- extensions, descriptions, tags or info) not followed: ${relative(process.cwd(), SWAGGER2)}#/paths/~1dogs/get/x-docs → pages/list-dogs.md`]);
  });

  it('in several files: definitions kept in another file, referred to from several operations', async () => {
    const root = writeFiles('swagger2-files', {
      'api.yaml': [
        "swagger: '2.0'",
        "info: {title: Multi, version: '1'}",
        'basePath: /m',
        'paths:',
        '  /dogs:',
        '    get:',
        "      responses: {'200': {description: ok, schema: {type: array, items: {$ref: 'defs.yaml#/Dog'}}}}",
        '    post:',
        "      parameters: [{name: body, in: body, required: true, schema: {$ref: 'defs.yaml#/Dog'}}]",
        "      responses: {'201': {description: ok, schema: {$ref: 'defs.yaml#/Dog'}}}",
        '  /dogs/{id}:',
        '    get:',
        '      parameters: [{name: id, in: path, required: true, type: integer}]',
        "      responses: {'200': {description: ok, schema: {$ref: 'defs.yaml#/Dog'}}}",
      ].join('\n'),
      'defs.yaml': "Dog:\n  type: object\n  required: [name]\n  properties:\n    id: {type: integer, readOnly: true}\n    name: {type: string}\n    owner: {$ref: '#/Owner'}\nOwner:\n  type: object\n  properties:\n    name: {type: string}\n",
    });
    const multi = await loadModel(join(root, 'api.yaml'));
    expect(multi.basePath).toBe('/m');
    expect(multi.resources.map((resource) => [resource.name, Object.keys(resource.operations).sort(), Object.keys(resource.properties)])).toEqual([['dogs', ['create', 'list', 'read'], ['id', 'name', 'owner']]]);
    expect(multi.resources[0]!.operations.create!.body!.validate({ name: 'Rex', owner: { name: 'Ann' } })).toBe(true);
    expect(multi.resources[0]!.operations.create!.body!.validate({ name: 'Rex', owner: { name: 1 } })).toBe(false);
  });

  it('formData parameters become a form request body', async () => {
    const root = writeFiles('form', {
      'form.yaml': [
        "swagger: '2.0'",
        'info: {title: Forms, version: 1.0.0}',
        'basePath: /forms',
        'paths:',
        '  /uploads:',
        '    post:',
        '      consumes: [multipart/form-data]',
        '      parameters:',
        '        - {name: caption, in: formData, type: string}',
        '        - {name: file, in: formData, type: file, required: true}',
        "      responses: {'201': {description: Stored.}}",
      ].join('\n'),
    });
    const form = await loadModel(join(root, 'form.yaml'));
    expect(form.basePath).toBe('/forms');
    expect(form.operations[0]!.body).toMatchObject({ mediaTypes: ['multipart/form-data'], schema: { type: 'object', required: ['file'], properties: { caption: { type: 'string' }, file: { type: 'string', format: 'binary' } } } });
  });
});

describe('an invalid document stops the load (a keyword no validator can compile is left out), naming the file, the JSON pointer and the reason', () => {
  const pets = (schema: string): Record<string, string> => ({
    'api.yaml': ['openapi: 3.0.3', 'info: {title: T, version: 1.0.0}', 'paths:', '  /pets:', '    get:', '      responses:', "        '200':", '          description: ok', '          content:', '            application/json:', `              schema: ${schema}`].join('\n'),
  });
  // As the loader names a file: relative to the working directory when below it, else absolute.
  const file = (root: string, name: string): string => (relative(process.cwd(), join(root, name)).startsWith('..') ? join(root, name) : relative(process.cwd(), join(root, name)));

  it('a $ref serving needs whose file is missing', async () => {
    const root = writeFiles('missing-file', pets("{$ref: 'schemas/pet.yaml'}"));
    const message = await loadError(join(root, 'api.yaml'));
    expect(message).toContain(`${file(root, 'api.yaml')}#/paths/~1pets/get/responses/200/content/application~1json/schema: `);
    expect(message).toContain('pet.yaml');
  });

  it('a $ref whose pointer does not exist in its file', async () => {
    const root = writeFiles('missing-pointer', { ...pets("{$ref: 'schemas.yaml#/Pet'}"), 'schemas.yaml': 'Dog: {type: object}\n' });
    const message = await loadError(join(root, 'api.yaml'));
    expect(message).toBe(`${file(root, 'api.yaml')}#/paths/~1pets/get/responses/200/content/application~1json/schema: $ref into ${file(root, 'schemas.yaml')}: Missing $ref pointer "#/Pet". Token "Pet" does not exist.`);
  });

  it('a pattern that is a regular expression in neither mode, in another file, is left out and named in the notes; the rest of the schema holds', async () => {
    const root = writeFiles('bad-pattern', { ...pets("{$ref: 'pet.yaml'}"), 'pet.yaml': "type: object\nproperties:\n  name: {type: string, pattern: '^[a-z', maxLength: 3}\n" });
    const model = await loadModel(join(root, 'api.yaml'));
    expect(model.notes).toContain(`1 schema keyword no validator can compile left out (the rest of each schema still applies): ${file(root, 'pet.yaml')}#/properties/name/pattern is not a regular expression (ECMA-262, with or without the u flag): "^[a-z"`);
    const validate = model.operations[0]!.responses[0]!.validate!;
    expect(validate({ name: 'A?' })).toBe(true);
    expect(validate({ name: 'four' })).toBe(false);
  });

  it('keywords of the wrong type (type: file in an OpenAPI 3 spec, required: true, minimum: "3") are left out and named', async () => {
    const root = writeFiles('bad-type', pets("{type: object, required: true, properties: {photo: {type: file}, age: {type: integer, minimum: '3'}}}"));
    const model = await loadModel(join(root, 'api.yaml'));
    const at = `${file(root, 'api.yaml')}#/paths/~1pets/get/responses/200/content/application~1json/schema`;
    expect(model.notes).toContain(
      `3 schema keywords no validator can compile left out (the rest of each schema still applies): ${at}/required must be an array, not true; ${at}/properties/photo/type must be a JSON type (string, number, integer, boolean, object, array, null) or a list of them, not "file"; ${at}/properties/age/minimum must be a number, not "3"`,
    );
    const validate = model.operations[0]!.responses[0]!.validate!;
    expect(validate({ photo: 'x', age: 1 })).toBe(true);
    expect(validate({ age: 1.5 })).toBe(false);
  });

  it('YAML that does not parse, and a file that is no OpenAPI document', async () => {
    const root = writeFiles('not-openapi', { 'broken.yaml': 'openapi: 3.1.0\npaths: [\n', 'other.yaml': 'asyncapi: 2.6.0\n', 'old.yaml': "swagger: '1.2'\n" });
    expect(await loadError(join(root, 'broken.yaml'))).toMatch(new RegExp(`^${file(root, 'broken.yaml').replace(/[.]/g, '\\.')}#: `));
    expect(await loadError(join(root, 'other.yaml'))).toBe(`${file(root, 'other.yaml')}#/openapi: missing: not an OpenAPI document (OpenAPI 3.0, 3.1 or Swagger 2.0 expected)`);
    expect(await loadError(join(root, 'old.yaml'))).toBe(`${file(root, 'old.yaml')}#/swagger: version "1.2" is not supported (2.0 is)`);
  });

  it('a key repeated in a YAML mapping is no error: the last one counts, as JSON.parse does; dates stay strings', async () => {
    const root = writeFiles('duplicate-key', { 'api.yaml': "openapi: 3.0.3\ninfo: {title: First, version: 2024-01-01}\ninfo: {title: Last, version: 2024-01-02}\npaths:\n  /pets:\n    get:\n      responses: {'200': {description: ok}}\n" });
    const model = await loadModel(join(root, 'api.yaml'));
    expect([model.title, model.version]).toEqual(['Last', '2024-01-02']);
  });

  it('a version written as a YAML number (openapi: 3.0, swagger: 2.0, unquoted) is the version it spells', async () => {
    const root = writeFiles('number-version', {
      'v3.yaml': "openapi: 3.0\ninfo: {title: T, version: '1'}\npaths:\n  /pets:\n    get:\n      responses: {'200': {description: ok}}\n",
      'v2.yaml': "swagger: 2.0\ninfo: {title: T, version: '1'}\nbasePath: /two\npaths:\n  /pets:\n    get:\n      responses: {'200': {description: ok}}\n",
    });
    expect((await loadModel(join(root, 'v3.yaml'))).operations).toHaveLength(1);
    expect((await loadModel(join(root, 'v2.yaml'))).basePath).toBe('/two');
  });

  it('a parameter without "in"', async () => {
    const root = writeFiles('bad-parameter', { 'api.yaml': "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths:\n  /pets:\n    get:\n      parameters: [{name: limit}]\n      responses: {'200': {description: ok}}\n" });
    expect(await loadError(join(root, 'api.yaml'))).toBe(`${file(root, 'api.yaml')}#/paths/~1pets/get/parameters/0: a parameter needs a "name" and an "in"`);
  });
});

describe('both CLIs on these specs', () => {
  beforeAll(() => ensureBuilt());

  it('the mock serves the multi-file spec with state and logs the unknown formats in one line, nothing on stderr', async () => {
    const cli = await startCli(['--spec', MULTI_FILE, '--api-key', 'KEY', '--log-format', 'json']);
    let stderr = '';
    cli.child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    try {
      expect(cli.baseUrl).toMatch(/\/harbour$/);
      const headers = { authorization: 'Bearer KEY', 'content-type': 'application/json' };
      const created = await request(`${cli.baseUrl}/boats`, { method: 'POST', headers, body: '{"name":"dock-7:berth_2","flag":"??"}' });
      expect(created.statusCode).toBe(201);
      const boat = (await created.body.json()) as { id: number };
      const refused = await request(`${cli.baseUrl}/boats`, { method: 'POST', headers, body: '{"name":"dock 7"}' });
      expect(refused.statusCode).toBe(400);
      await refused.body.dump();
      const read = await request(`${cli.baseUrl}/boats/${boat.id}`, { headers });
      expect(await read.body.json()).toEqual({ id: boat.id, name: 'dock-7:berth_2', flag: '??' });
      expect(cli.stdout().split('\n').filter((line) => line.includes('iso-country-code'))).toHaveLength(1);
      expect(stderr).toBe('');
    } finally {
      await cli.stop();
    }
  });

  it('the suite run with --spec on the Swagger 2.0 document passes against the mock of it', async () => {
    const cli = await startCli(['--spec', SWAGGER2, '--api-key', 'KEY', '--empty']);
    try {
      expect(cli.baseUrl).toMatch(/\/api\/v2$/);
      const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
        const args = [join(PACKAGE_ROOT, 'dist', 'conformance', 'cli.js'), '--spec', SWAGGER2, '--base-url', cli.baseUrl, '--api-key', 'KEY', '--runs', '20'];
        execFile(process.execPath, args, { cwd: PACKAGE_ROOT, timeout: 120_000 }, (error, stdout, stderr) => {
          resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, output: `${stdout}${stderr}` });
        });
      });
      expect(code, output).toBe(0);
      expect(output).toContain('createDog');
    } finally {
      await cli.stop();
    }
  }, 150_000);
});

describe('the generated large spec (bench/large-spec.ts)', () => {
  it('writes about 2,900 files for 650 operations, and the model reads them all, naming its unknown formats and the x- refs it skipped', async () => {
    const { writeLargeSpec } = await import('../../bench/large-spec.js');
    const spec = writeLargeSpec({ dir: join(dir, 'large') });
    expect(spec.operations).toBe(650);
    expect(spec.files).toBeGreaterThan(2_800);
    const model = await loadModel(spec.root);
    expect(model.operations).toHaveLength(650);
    expect(model.notes).toContain('formats this mock does not know are accepted as any value: cidr, iso-country-code, uint64, uriref');
    expect(model.notes.filter((note) => note.includes('not followed'))).toHaveLength(1);
    // A few lines for the start-up log, not one per operation or schema.
    expect(model.notes.length).toBeLessThan(10);
    const create = model.operations.find((op) => op.operationId === 'droplets_0_create')!;
    expect(create.body!.validate({ name: 'web-01', region: 'nyc1', tags: ['env:prod', 'team_a-b'] })).toBe(true);
    expect(create.body!.validate({ name: 'web-01', region: 'nyc1', tags: ['env prod'] })).toBe(false);
  }, 60_000);
});
