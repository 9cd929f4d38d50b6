import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import madge from 'madge';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The floors of docs/layout.md as madge reads the imports (type-only imports included: a circle of types still ties
 * the files together). Each file stands only on floors below its own or on files of its own folder: no two files
 * import each other in a circle, and no import runs back up. The mock and the judge share a floor and never import
 * each other (the suite imports the judge and never the mock).
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The product's folders, from the top floor down: bench/ on everything, cli/product.ts and cli/config.ts under every floor. */
const FOLDERS = ['bench', 'cli', 'proxy', 'conformance', 'judge', 'mock', 'model'];

/** The floor a file stands on (higher stands on lower) and its room; `undefined` for a file outside the product (a test helper). */
function placeOf(file: string): { floor: number; room: string } | undefined {
  if (file === 'cli/product.ts' || file === 'cli/config.ts') return { floor: 0, room: 'cli-names' };
  const room = file.split('/')[0]!;
  const floors: Record<string, number> = { model: 1, mock: 2, judge: 2, conformance: 3, proxy: 4, cli: 5, bench: 6 };
  const floor = floors[room];
  return floor === undefined ? undefined : { floor, room };
}

/** What {@link readGraph} finds: the circles (each a list of files) and the imports that run up or across a floor. */
interface GraphFindings {
  files: number;
  circles: string[][];
  upward: string[];
}

/** Reads the imports of the TypeScript files under `folders` of `baseDir` (tests left out) and judges them by {@link placeOf}. */
async function readGraph(baseDir: string, folders: readonly string[]): Promise<GraphFindings> {
  const graph = await madge(
    folders.map((folder) => join(baseDir, folder)),
    {
      baseDir,
      fileExtensions: ['ts'],
      tsConfig: { compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', allowJs: false } },
      excludeRegExp: [/\.test\.ts$/, /\.measure\.ts$/, /node_modules/, /(^|\/)dist\//],
      detectiveOptions: { ts: { skipTypeImports: false }, es6: { skipTypeImports: false } },
    },
  );
  const imports = graph.obj();
  const product = Object.keys(imports).filter((file) => placeOf(file) !== undefined);
  const upward: string[] = [];
  for (const from of product) {
    const at = placeOf(from)!;
    for (const to of imports[from]!) {
      const there = placeOf(to);
      if (there === undefined || there.room === at.room) continue;
      if (there.floor >= at.floor) upward.push(`${from} -> ${to}`);
    }
  }
  const circles = graph.circular().filter((circle) => circle.some((file) => placeOf(file) !== undefined));
  return { files: product.length, circles, upward };
}

describe('imports', () => {
  const fixture = mkdtempSync(join(tmpdir(), 'import-graph-'));
  afterAll(() => rmSync(fixture, { recursive: true, force: true }));

  it('form no circle and never run up a floor (docs/layout.md)', async () => {
    const findings = await readGraph(ROOT, FOLDERS);
    expect(findings.files).toBeGreaterThan(150);
    expect(findings.circles).toEqual([]);
    expect(findings.upward).toEqual([]);
  }, 180_000);

  it('are read closely enough to find a circle of types and an import that runs up', async () => {
    // Two files of the model that name each other's types only, and a model file reaching up into the suite.
    const write = (path: string, text: string): void => {
      mkdirSync(dirname(join(fixture, path)), { recursive: true });
      writeFileSync(join(fixture, path), text);
    };
    write('model/model.ts', "import type { Numbering } from './numbering.js';\nexport interface Resource { numbering?: Numbering }\n");
    write('model/numbering.ts', "import type { Resource } from './model.js';\nexport interface Numbering { of: Resource }\n");
    write('model/loader.ts', "import { run } from '../conformance/run.js';\nexport const load = (): number => run();\n");
    write('conformance/run.ts', 'export const run = (): number => 1;\n');
    const findings = await readGraph(fixture, ['model', 'conformance']);
    expect(findings.circles).toEqual([['model/model.ts', 'model/numbering.ts']]);
    expect(findings.upward).toEqual(['model/loader.ts -> conformance/run.ts']);
  }, 60_000);
});
