import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import { readSpecDocument, type ReadOptions, type SpecDocument } from './document.js';

/**
 * The variable that turns the cache of read descriptions on (`on`, `true`, `1` or `yes`: in {@link defaultCacheDir};
 * any other text but `off`, `false`, `0` or `no` names its folder). Unset, the cache is off: on GitHub's description
 * it saves about 0.5 s of CPU of a second start and costs 18 MB of peak RSS (36 MB on the start that writes the
 * entry), against a 250 MB target (bench/RESULTS.md).
 */
export const MODEL_CACHE_VARIABLE = 'OPENAPI_HARNESS_MODEL_CACHE';

/** Entries kept in one folder: writing one more removes the least recently written beyond it. */
const MAX_ENTRIES = 24;

/** Bumped when what an entry holds changes shape, so that an entry written by another layout is never read. */
const ENTRY_FORMAT = 2;

/**
 * This module's code and the code that reads a description, as run (compiled `.js`, or `.ts` under a test runner):
 * an entry is only as good as the code that wrote it.
 */
const READER_FILES = ['document', 'overlay', 'document-cache'].map((name) => fileURLToPath(new URL(`./${name}${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url)));

/**
 * Where read descriptions are kept when nothing names a folder: `node_modules/.cache/openapi-harness` of the
 * working directory when it has a `node_modules` (the place build tools keep their caches, removed with it), else
 * `openapi-harness-cache` in the OS's temporary folder.
 */
export function defaultCacheDir(cwd: string = process.cwd()): string {
  return existsSync(join(cwd, 'node_modules')) ? join(cwd, 'node_modules', '.cache', 'openapi-harness') : join(tmpdir(), 'openapi-harness-cache');
}

/** The cache folder `options.cache` and {@link MODEL_CACHE_VARIABLE} ask for, or `undefined` when the cache is off (the default). */
export function cacheDirOf(options: ReadOptions): string | undefined {
  if (options.cache === false) return undefined;
  if (typeof options.cache === 'string') return resolve(options.cache);
  const variable = process.env[MODEL_CACHE_VARIABLE]?.trim();
  if (variable === undefined || variable === '' || /^(?:off|false|0|no)$/i.test(variable)) return undefined;
  return /^(?:on|true|1|yes)$/i.test(variable) ? defaultCacheDir() : resolve(variable);
}

/** What an entry keeps beside the read description: the files it was read from, each with the hash of its bytes. */
interface EntryIndex {
  format: number;
  files: { path: string; sha256: string }[];
}

/**
 * What an entry holds: the read description and its origins, flat as object, file index, pointer, … (v8's serializer
 * keeps the objects' identity; each file's name is kept once, not with each of a large file's objects).
 */
interface EntryBody {
  document: Record<string, unknown>;
  format: SpecDocument['format'];
  skipped: string[];
  refSiblings: string[];
  overlayNotes: string[];
  files: string[];
  originFiles: string[];
  origins: unknown[];
}

const sha256 = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

/**
 * Reads a description as {@link readSpecDocument} does, through a cache keyed by its content (spec/DECISIONS.md ›
 * D510): the key hashes the bytes of the root file and of each overlay (in order), the package's version, the code
 * that reads descriptions, Node's V8 version, the working directory (origins are written relative to it) and the
 * paths given; an entry also lists every other file the description was read from with the hash of its bytes, and is
 * used only when each still hashes the same. So a changed root, overlay, referenced file or package is read afresh,
 * never served from the cache. Entries are `<key>.json` (the file list) and `<key>.v8` (the document, v8-serialised)
 * in {@link cacheDirOf}; written after a successful read, renamed into place so that a reader never sees half an
 * entry; at most 24 entries are kept, the least recently written removed first. A description read over http(s) is never cached. The cache never fails a read: an entry that cannot be read
 * or written is ignored. `packageVersion` is this package's (model/loader.ts). Errors: those of {@link readSpecDocument}.
 */
export async function readSpecDocumentCached(specPath: string, options: ReadOptions, packageVersion: string): Promise<SpecDocument & { cached: boolean }> {
  const dir = cacheDirOf(options);
  if (dir === undefined || /^https?:\/\//i.test(specPath)) return { ...(await readSpecDocument(specPath, options)), cached: false };
  const root = resolve(specPath);
  const overlays = (options.overlays ?? []).map((file) => resolve(file));
  let key: string;
  try {
    const parts = [`format ${ENTRY_FORMAT}`, `package ${packageVersion}`, `v8 ${process.versions.v8}`, `cwd ${process.cwd()}`, `spec ${root} ${sha256(readFileSync(root))}`, ...overlays.map((file) => `overlay ${file} ${sha256(readFileSync(file))}`), ...READER_FILES.map((file) => `code ${sha256(readFileSync(file))}`)];
    key = sha256(parts.join('\n'));
  } catch {
    // A file that cannot be read: the reader names it in its own error.
    return { ...(await readSpecDocument(specPath, options)), cached: false };
  }
  const found = readEntry(dir, key, root);
  if (found !== undefined) return { ...found, cached: true };
  const read = await readSpecDocument(specPath, options, true);
  writeEntry(dir, key, read, root);
  return { ...read, cached: false };
}

function readEntry(dir: string, key: string, root: string): SpecDocument | undefined {
  try {
    const index = JSON.parse(readFileSync(join(dir, `${key}.json`), 'utf8')) as EntryIndex;
    if (index.format !== ENTRY_FORMAT) return undefined;
    for (const file of index.files) if (file.path !== root && sha256(readFileSync(file.path)) !== file.sha256) return undefined;
    const body = deserialize(readFileSync(join(dir, `${key}.v8`))) as EntryBody;
    // The origins are asked for only where a start-up note names a place: the map is built on the first question.
    let origins: Map<object, string> | undefined;
    const originsOf = (): Map<object, string> => {
      if (origins === undefined) {
        origins = new Map();
        for (let at = 0; at < body.origins.length; at += 3) origins.set(body.origins[at] as object, `${body.originFiles[body.origins[at + 1] as number]}#${body.origins[at + 2] as string}`);
        body.origins = [];
      }
      return origins;
    };
    return {
      document: body.document,
      format: body.format,
      skipped: body.skipped,
      refSiblings: body.refSiblings,
      overlayNotes: body.overlayNotes,
      files: body.files,
      get origins() {
        return originsOf();
      },
      locate: (value) => originsOf().get(value),
    };
  } catch {
    return undefined;
  }
}

/** Removes the entries beyond {@link MAX_ENTRIES}, the least recently written first, so the folder does not grow without end. */
function prune(dir: string): void {
  const entries = readdirSync(dir)
    .filter((name) => /^[0-9a-f]{64}\.json$/.test(name))
    .map((name) => ({ key: name.slice(0, 64), at: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { key } of entries.slice(MAX_ENTRIES)) for (const suffix of ['.json', '.v8']) rmSync(join(dir, `${key}${suffix}`), { force: true });
}

function writeEntry(dir: string, key: string, read: SpecDocument, root: string): void {
  if (read.files.some((file) => /^https?:\/\//i.test(file))) return;
  try {
    const originFiles: string[] = [];
    const fileIndex = new Map<string, number>();
    const origins: unknown[] = [];
    for (const [value, where] of read.origins ?? []) {
      const hash = where.indexOf('#');
      const file = where.slice(0, hash);
      let index = fileIndex.get(file);
      if (index === undefined) fileIndex.set(file, (index = originFiles.push(file) - 1));
      origins.push(value, index, where.slice(hash + 1));
    }
    const body: EntryBody = { document: read.document, format: read.format, skipped: read.skipped, refSiblings: read.refSiblings, overlayNotes: read.overlayNotes, files: read.files, originFiles, origins };
    const index: EntryIndex = { format: ENTRY_FORMAT, files: read.files.filter((file) => file !== root).map((path) => ({ path, sha256: sha256(readFileSync(path)) })) };
    mkdirSync(dir, { recursive: true });
    const temp = `.${process.pid}-${Date.now()}`;
    writeFileSync(join(dir, `${key}.v8${temp}`), serialize(body));
    renameSync(join(dir, `${key}.v8${temp}`), join(dir, `${key}.v8`));
    // The index last: an entry is read only once both are in place.
    writeFileSync(join(dir, `${key}.json${temp}`), JSON.stringify(index));
    renameSync(join(dir, `${key}.json${temp}`), join(dir, `${key}.json`));
    prune(dir);
  } catch {
    // A cache that cannot be written costs only the next start's time.
  }
}
