import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadModel } from './loader.js';
import { OverlayError } from './overlay.js';

/** A folder holding `spec.yaml` (a small OpenAPI 3.1 description, its record schema in a second file) and the overlays each test writes. */
function folder(): { dir: string; spec: string; overlay: (name: string, text: string) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'overlay-'));
  writeFileSync(
    join(dir, 'spec.yaml'),
    [
      'openapi: 3.1.0',
      'info: { title: Boxes, version: "1" }',
      'paths:',
      '  /boxes:',
      '    get:',
      '      operationId: listBoxes',
      '      parameters: [{ name: colour, in: query, schema: { type: string } }]',
      '      responses: { "200": { description: ok, content: { application/json: { schema: { type: array, items: { $ref: "box.yaml" } } } } } }',
      '    post:',
      '      operationId: createBox',
      '      requestBody: { content: { application/json: { schema: { $ref: "box.yaml" } } } }',
      '      responses: { "201": { description: ok, content: { application/json: { schema: { $ref: "box.yaml" } } } } }',
      '  /boxes/{boxId}:',
      '    get:',
      '      operationId: getBox',
      '      parameters: [{ name: boxId, in: path, required: true, schema: { type: integer } }]',
      '      responses: { "200": { description: the box asked for, content: { application/json: { schema: { $ref: "box.yaml" } } } } }',
      '  /crates/{crateId}:',
      '    get:',
      '      operationId: getCrate',
      '      parameters: [{ name: crateId, in: path, required: true, schema: { type: integer } }]',
      '      responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "box.yaml" } } } } }',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'box.yaml'), 'type: object\nproperties: { id: { type: integer, readOnly: true }, label: { type: string } }\n');
  return {
    dir,
    spec: join(dir, 'spec.yaml'),
    overlay: (name, text) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    },
  };
}

describe('overlays applied before the description is read (model/overlay.ts)', () => {
  test('an update adds a hint, a remove takes a parameter out, and a $ref into another file still resolves', async () => {
    const { spec, overlay } = folder();
    const before = await loadModel(spec);
    expect(before.operations.find((op) => op.operationId === 'listBoxes')!.queryParams.map((p) => p.name)).toEqual(['colour']);
    const file = overlay('o.yaml', ['overlay: 1.0.0', 'info: { title: t, version: "1" }', 'actions:', "  - target: $.paths['/boxes'].get.parameters[?(@.name == 'colour')]", '    remove: true', "  - target: $.paths['/boxes'].post", '    update: { x-resource: { role: none } }', ''].join('\n'));
    const after = await loadModel(spec, { overlays: [file] });
    expect(after.operations.find((op) => op.operationId === 'listBoxes')!.queryParams).toEqual([]);
    const create = after.operations.find((op) => op.operationId === 'createBox')!;
    expect(create.resource).toBeUndefined();
    expect(create.reading).toEqual({ reason: 'its x-resource says role: none, so no resource holds it', decision: 'D32' });
    // The record schema of the other file is still read where the overlay left it.
    expect(Object.keys(after.resources[0]!.properties)).toEqual(['id', 'label']);
  });

  test('copy (Overlay 1.1) copies one node onto each target, and 1.2 is read too', async () => {
    const { spec, overlay } = folder();
    const described = async (overlays: string[]): Promise<string | undefined> => (await loadModel(spec, { overlays })).operations.find((op) => op.operationId === 'getCrate')!.responses[0]!.description;
    expect(await described([])).toBe('ok');
    for (const version of ['1.1.0', '1.2.0']) {
      const file = overlay(`copy-${version}.yaml`, [`overlay: ${version}`, 'info: { title: t, version: "1" }', 'actions:', "  - target: $.paths['/crates/{crateId}'].get.responses['200']", "    copy: $.paths['/boxes/{boxId}'].get.responses['200']", ''].join('\n'));
      expect(await described([file])).toBe('the box asked for');
    }
  });

  test('an action that selects nothing changes nothing and is named in the notes', async () => {
    const { spec, overlay } = folder();
    const file = overlay('none.yaml', ['overlay: 1.0.0', 'info: { title: t, version: "1" }', 'actions:', "  - target: $.paths['/nowhere'].get", '    update: { x-resource: { role: none } }', ''].join('\n'));
    const model = await loadModel(spec, { overlays: [file] });
    expect(model.notes.find((note) => note.includes('none.yaml'))).toMatch(/actions\[0\] \(target "\$\.paths\['\/nowhere'\]\.get"\) selected nothing/);
  });

  test.each([
    ['no version', 'info: { title: t, version: "1" }\nactions: []\n', /bad\.yaml#\/overlay: missing/],
    ['version 2', 'overlay: 2.0.0\nactions: []\n', /bad\.yaml#\/overlay: version "2\.0\.0" is not supported/],
    ['no target', 'overlay: 1.0.0\nactions:\n  - update: {}\n', /bad\.yaml › actions\[0\]: "target" must be a JSONPath/],
    ['no action', "overlay: 1.0.0\nactions:\n  - target: $.info\n", /bad\.yaml › actions\[0\] \(target "\$\.info"\): an action needs "update", "remove" or "copy"/],
    ['copy in 1.0', "overlay: 1.0.0\nactions:\n  - target: $.info\n    copy: $.info\n", /actions\[0\] \(target "\$\.info"\): "copy" needs an overlay of version 1\.1 or later/],
    ['copy of two nodes', "overlay: 1.1.0\nactions:\n  - target: $.info\n    copy: $.paths.*\n", /bad\.yaml › actions\[0\] \(target "\$\.info"\): "copy" must resolve to exactly one node, resolved 3/],
    ['a type that does not fit', "overlay: 1.1.0\nactions:\n  - target: $.info.title\n    update: { a: 1 }\n", /actions\[0\] \(target "\$\.info\.title"\): update type mismatch/],
    ['not YAML', 'overlay: [\n', /bad\.yaml: not YAML or JSON/],
  ])('%s: an OverlayError naming the file and the action', async (_name, text, message) => {
    const { spec, overlay } = folder();
    const file = overlay('bad.yaml', text);
    const failure = await loadModel(spec, { overlays: [file] }).then(() => undefined, (error: unknown) => error);
    expect(failure).toBeInstanceOf(OverlayError);
    expect((failure as Error).message).toMatch(message);
  });

  test('a missing overlay file is named', async () => {
    const { spec, dir } = folder();
    await expect(loadModel(spec, { overlays: [join(dir, 'absent.yaml')] })).rejects.toThrow(/absent\.yaml: cannot read the overlay \(ENOENT\)/);
  });
});
