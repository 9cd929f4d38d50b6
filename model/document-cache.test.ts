import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, test } from 'vitest';
import { cacheDirOf, defaultCacheDir, MODEL_CACHE_VARIABLE, readSpecDocumentCached } from './document-cache.js';
import { loadModel, PACKAGE_VERSION } from './loader.js';

/** A description in two files: the root names a schema kept in `schemas.yaml`. */
const root = (title: string, paths = ''): string => `openapi: 3.1.0
info: { title: ${title}, version: 1.0.0 }
paths:
  /things:
    get:
      operationId: listThings
      responses:
        '200':
          description: the things
          content:
            application/json:
              schema: { type: array, items: { $ref: './schemas.yaml#/Thing' } }
${paths}`;
const schemas = (member: string): string => `Thing:\n  type: object\n  properties:\n    id: { type: string }\n    ${member}: { type: string }\n`;
const overlay = (summary: string): string => `overlay: 1.0.0\ninfo: { title: o, version: 1.0.0 }\nactions:\n  - target: $.paths['/things'].get\n    update: { summary: ${summary} }\n`;

/** The members of the `Thing` schema in a read description. */
const members = (document: Record<string, unknown>): string[] => {
  const get = ((document['paths'] as Record<string, Record<string, unknown>>)['/things']!['get'] as Record<string, unknown>);
  const schema = (((get['responses'] as Record<string, Record<string, unknown>>)['200']!['content'] as Record<string, { schema: { items: { properties: Record<string, unknown> } } }>)['application/json']!.schema.items);
  return Object.keys(schema.properties);
};

describe('the cache of read descriptions (keyed by content: a changed description is never served from it)', () => {
  let dir: string;
  let cache: string;
  let spec: string;
  let layer: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'document-cache-'));
    cache = join(dir, 'cache');
    spec = join(dir, 'openapi.yaml');
    layer = join(dir, 'overlay.yaml');
    writeFileSync(spec, root('First'));
    writeFileSync(join(dir, 'schemas.yaml'), schemas('name'));
    writeFileSync(layer, overlay('listed'));
  });

  test('a second read of the same files comes from the cache, the same document with its origins', async () => {
    const first = await readSpecDocumentCached(spec, { cache }, PACKAGE_VERSION);
    const second = await readSpecDocumentCached(spec, { cache }, PACKAGE_VERSION);
    expect([first.cached, second.cached]).toEqual([false, true]);
    expect(second.document).toEqual(first.document);
    expect(second.files).toEqual(first.files);
    expect(first.files).toContain(join(dir, 'schemas.yaml'));
    // Where an object was written survives the cache: the start-up notes name files and pointers with it.
    const thing = (second.document['paths'] as Record<string, Record<string, Record<string, unknown>>>)['/things']!['get']!;
    expect(second.locate(thing)).toBe(first.locate((first.document['paths'] as Record<string, Record<string, Record<string, unknown>>>)['/things']!['get']!));
    expect(second.locate(thing)).toMatch(/openapi\.yaml#\/paths\/~1things\/get$/);
  });

  test('a changed root file is read afresh', async () => {
    await readSpecDocumentCached(spec, { cache }, PACKAGE_VERSION);
    writeFileSync(spec, root('Second'));
    const read = await readSpecDocumentCached(spec, { cache }, PACKAGE_VERSION);
    expect(read.cached).toBe(false);
    expect((read.document['info'] as { title: string }).title).toBe('Second');
  });

  test('a changed file the root refers to is read afresh, though the root is the same', async () => {
    await readSpecDocumentCached(spec, { cache }, PACKAGE_VERSION);
    writeFileSync(join(dir, 'schemas.yaml'), schemas('colour'));
    const read = await readSpecDocumentCached(spec, { cache }, PACKAGE_VERSION);
    expect(read.cached).toBe(false);
    expect(members(read.document)).toEqual(['id', 'colour']);
    expect((await readSpecDocumentCached(spec, { cache }, PACKAGE_VERSION)).cached).toBe(true);
  });

  test('an overlay added or changed, or another package version, is read afresh', async () => {
    const plain = await readSpecDocumentCached(spec, { cache }, PACKAGE_VERSION);
    const overlaid = await readSpecDocumentCached(spec, { cache, overlays: [layer] }, PACKAGE_VERSION);
    writeFileSync(layer, overlay('changed'));
    const changed = await readSpecDocumentCached(spec, { cache, overlays: [layer] }, PACKAGE_VERSION);
    const other = await readSpecDocumentCached(spec, { cache }, `${PACKAGE_VERSION}-next`);
    expect([plain.cached, overlaid.cached, changed.cached, other.cached]).toEqual([false, false, false, false]);
    const summary = (read: { document: Record<string, unknown> }): unknown => (read.document['paths'] as Record<string, Record<string, Record<string, unknown>>>)['/things']!['get']!['summary'];
    expect([summary(plain), summary(overlaid), summary(changed)]).toEqual([undefined, 'listed', 'changed']);
  });

  test('loadModel reads through it: a model of a changed description has the change', async () => {
    expect((await loadModel(spec, { cache })).operations.map((op) => op.operationId)).toEqual(['listThings']);
    writeFileSync(spec, root('First', '  /others:\n    get:\n      operationId: listOthers\n      responses:\n        \'204\': { description: none }\n'));
    expect((await loadModel(spec, { cache })).operations.map((op) => op.operationId)).toEqual(['listThings', 'listOthers']);
  });

  test('turned off, nothing is written; the variable turns it on, names the folder or turns it off, and is off unset', async () => {
    const read = await readSpecDocumentCached(spec, { cache: false }, PACKAGE_VERSION);
    expect(read.cached).toBe(false);
    expect(readdirSync(dir)).not.toContain('cache');
    const before = process.env[MODEL_CACHE_VARIABLE];
    try {
      delete process.env[MODEL_CACHE_VARIABLE];
      expect(cacheDirOf({})).toBeUndefined();
      expect(cacheDirOf({ cache })).toBe(cache);
      process.env[MODEL_CACHE_VARIABLE] = 'off';
      expect(cacheDirOf({})).toBeUndefined();
      process.env[MODEL_CACHE_VARIABLE] = 'on';
      expect(cacheDirOf({})).toBe(defaultCacheDir());
      process.env[MODEL_CACHE_VARIABLE] = cache;
      expect(cacheDirOf({})).toBe(cache);
      expect(cacheDirOf({ cache: false })).toBeUndefined();
    } finally {
      if (before === undefined) delete process.env[MODEL_CACHE_VARIABLE];
      else process.env[MODEL_CACHE_VARIABLE] = before;
    }
  });
});
