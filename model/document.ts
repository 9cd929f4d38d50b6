import { relative, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import $RefParser, { getJsonSchemaRefParserDefaultOptions, JSONParserErrorGroup, ParserError, type FileInfo, type JSONParserError, type ParserOptions, type Plugin } from '@apidevtools/json-schema-ref-parser';
import { JSON_SCHEMA, load as loadYaml } from 'js-yaml';
import type { OpenAPIV2 } from 'openapi-types';
import { applyOverlays, OverlayError } from './overlay.js';

/** A spec as read from disk: one OpenAPI 3 object, every `$ref` serving needs replaced by its target. */
export interface SpecDocument {
  /** The dereferenced OpenAPI 3.x document (a Swagger 2.0 input already converted). May hold cycles. */
  document: Record<string, unknown>;
  /** What the file was: OpenAPI `3.0.x`, or `3.1.x`/`3.2.x` (one schema dialect, 2020-12), or Swagger `2.0` converted on load. */
  format: 'openapi-3.0' | 'openapi-3.1' | 'swagger-2.0';
  /** References not followed because serving never reads them (`x-` extensions, descriptions, `tags`, `info`): `file#pointer → $ref`. */
  skipped: string[];
  /** Where a `$ref` has sibling keywords (`file#pointer`), which dereferencing keeps beside the target's (D130). */
  refSiblings: string[];
  /** Where an object of the document was written, `file#/json/pointer` (file relative to the working directory). */
  locate: (value: object) => string | undefined;
  /** What applying the overlays left to say (an action that selected nothing); empty without overlays. */
  overlayNotes: string[];
  /** Every file read, as absolute paths (URLs as given), the root first: what a cached copy depends on (model/document-cache.ts). */
  files: string[];
  /** The map behind `locate`, each object of the files read and where it was written: kept only when asked (`keepOrigins`), for the cache. */
  origins?: ReadonlyMap<object, string> | undefined;
}

/** How to read a description beyond its path. */
export interface ReadOptions {
  /** OpenAPI Overlay files applied, in order, to the description as written, before any `$ref` is followed (model/overlay.ts). */
  overlays?: readonly string[] | undefined;
  /**
   * The cache of read descriptions (model/document-cache.ts, used by `loadModel`): a folder to keep it in, `false`
   * for none; unset, the `OPENAPI_HARNESS_MODEL_CACHE` variable decides (unset too: no cache).
   */
  cache?: string | false | undefined;
}

/**
 * A spec that cannot be served: the file and JSON pointer where the problem is, and why. Its message reads
 * `<file>#<pointer>: <reason>` (several problems on several lines).
 */
export class SpecDocumentError extends Error {
  override name = 'SpecDocumentError';
}

/**
 * Members whose keys are names chosen by the author (properties, headers, schemas…), where a key starting with
 * `x-` is a name like any other, not an extension.
 */
const NAMED_MEMBERS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas', 'schemas', 'parameters', 'requestBodies', 'headers', 'securitySchemes', 'links', 'callbacks', 'examples', 'encoding', 'variables', 'mapping', 'pathItems', 'content']);

/** Root members of a document that only documentation tools read. */
const DOCUMENTATION_ROOT = new Set(['tags', 'info', 'externalDocs']);

/** Extensions this project reads: their references are followed like any other. */
const SERVED_EXTENSIONS = new Set(['x-resource']);

/**
 * Reads an OpenAPI 3.0 or 3.1 document, or a Swagger 2.0 one (converted with swagger2openapi), YAML or JSON,
 * in one file or several (relative `$ref`s), from a path or an `http(s)` URL, and resolves every reference
 * serving needs.
 *
 * A `$ref` inside an `x-` extension (other than `x-resource`), standing for a `description` or `summary`, or in
 * the root's `tags`, `info` or `externalDocs` is not followed: serving never reads it, so a Markdown page or a
 * missing file there never stops the start (the caller logs `skipped`). Errors: {@link SpecDocumentError} naming the file, the pointer and the reason for
 * a file that cannot be read or parsed, a `$ref` that does not resolve, or a document that is neither OpenAPI 3
 * nor Swagger 2.0. `keepOrigins` returns the map behind `locate` as `origins` (a Map, which holds more memory than
 * the WeakMap used otherwise), for the cache of model/document-cache.ts to carry.
 */
export async function readSpecDocument(specPath: string, readOptions: ReadOptions = {}, keepOrigins = false): Promise<SpecDocument> {
  const overlays = readOptions.overlays ?? [];
  const overlayNotes: string[] = [];
  // A URL is read as json-schema-ref-parser reads it (http/https); anything else is a file.
  const rootFile = /^https?:\/\//i.test(specPath) ? specPath : resolvePath(specPath);
  // A Map where a cached copy is to carry it (model/document-cache.ts), else a WeakMap, which costs less memory.
  const kept = keepOrigins ? new Map<object, string>() : undefined;
  const origins: Map<object, string> | WeakMap<object, string> = kept ?? new WeakMap<object, string>();
  const files = new Set<string>([rootFile]);
  const skipped: string[] = [];
  const refSiblings: string[] = [];
  const display = (file: string): string => displayPath(file);
  // Whether a file read holds a `$ref` into another file or URL (one not starting with `#`).
  const refs = { external: false };
  const watch = (value: unknown, file: FileInfo): unknown => {
    const path = fileUrlToPath(file.url);
    files.add(path);
    markOrigins(value, display(path), '', path === rootFile, undefined, origins, skipped, refSiblings, refs);
    return value;
  };
  const options: ParserOptions = {
    continueOnError: true,
    parse: withOrigins(watch),
    dereference: { circular: true },
  };

  const parser = new $RefParser();
  let document: Record<string, unknown>;
  let format: SpecDocument['format'];
  try {
    const root = (await parser.parse(rootFile, options)) as Record<string, unknown> | null;
    // With continueOnError, a root that cannot be read or parsed comes back as null, its error kept by the parser.
    if (JSONParserErrorGroup.getParserErrors(parser).length > 0) throw new JSONParserErrorGroup(parser);
    if (root === null || typeof root !== 'object' || Array.isArray(root)) throw new SpecDocumentError(`${display(rootFile)}#: not an OpenAPI document (an object with "openapi" or "swagger" was expected)`);
    if (root['swagger'] !== undefined) {
      // `swagger: 2.0` unquoted is the YAML number 2.
      if (root['swagger'] !== 2 && String(root['swagger']) !== '2.0') throw new SpecDocumentError(`${display(rootFile)}#/swagger: version ${JSON.stringify(root['swagger'])} is not supported (2.0 is)`);
      format = 'swagger-2.0';
      let bundled = (await new $RefParser().bundle(rootFile, root, options)) as Record<string, unknown>;
      // Overlays name what the author wrote: the 2.0 document, before its conversion.
      if (overlays.length > 0) bundled = await overlaid(bundled, overlays, overlayNotes);
      document = await convertSwagger(bundled as unknown as OpenAPIV2.Document, display(rootFile));
      document = (await new $RefParser().dereference(rootFile, document, options)) as Record<string, unknown>;
    } else {
      // `openapi: 3.1` unquoted is the YAML number 3.1 (and `3.0` the number 3): read as the version it spells.
      const version = typeof root['openapi'] === 'number' ? (Number.isInteger(root['openapi']) ? `${root['openapi']}.0` : String(root['openapi'])) : root['openapi'];
      if (typeof version !== 'string' || !/^3\.[012]\./.test(`${version}.`)) {
        throw new SpecDocumentError(`${display(rootFile)}#/openapi: ${version === undefined ? 'missing: not an OpenAPI document (OpenAPI 3.0, 3.1 or Swagger 2.0 expected)' : `version ${JSON.stringify(version)} is not supported (3.0, 3.1, 3.2, or Swagger 2.0)`}`);
      }
      format = version.startsWith('3.0') ? 'openapi-3.0' : 'openapi-3.1';
      // OpenAPI 3.2 `$self`: the document's own URI. A `$ref` to it (`https://…/openapi.yaml#/components/…`) points into this file.
      if (typeof root['$self'] === 'string' && root['$self'] !== '') localiseSelfReferences(root, root['$self'].replace(/#.*$/, ''));
      // Overlays apply to the description bundled into one document (every other file's part reached by a local
      // `$ref`), so a target can name any part and every `$ref`, the overlay's own included, still resolves after.
      const source = overlays.length === 0 ? root : await overlaid((await new $RefParser().bundle(rootFile, root, options)) as Record<string, unknown>, overlays, overlayNotes);
      // The root is parsed already: dereferencing it as an object reads only the files it refers to. A root that
      // refers to no other file (nothing but local `$ref`s, as every read member was looked at above) skips the
      // parser's walk of the whole document in search of one (D641).
      const local = overlays.length === 0 && !refs.external;
      document = (await new $RefParser().dereference(rootFile, source, local ? { ...options, resolve: { ...options.resolve, external: false } } : options)) as Record<string, unknown>;
    }
  } catch (error) {
    throw describeFailure(error, rootFile);
  }
  checkStructure(document, display(rootFile));
  return { document, format, skipped: [...new Set(skipped)], refSiblings: [...new Set(refSiblings)], locate: (value) => origins.get(value), overlayNotes, files: [...files], origins: kept };
}

/** `document` with `overlays` applied (model/overlay.ts), their notes added to `notes`. */
async function overlaid(document: Record<string, unknown>, overlays: readonly string[], notes: string[]): Promise<Record<string, unknown>> {
  const applied = await applyOverlays(document, overlays);
  notes.push(...applied.outcome.notes);
  return applied.document;
}

/** The parsers of json-schema-ref-parser (YAML: {@link parseYaml}), each followed by `watch` on what it returns. */
function withOrigins(watch: (value: unknown, file: FileInfo) => unknown): Record<string, Plugin> {
  const defaults = getJsonSchemaRefParserDefaultOptions().parse as Record<string, Plugin>;
  const plugins: Record<string, Plugin> = {};
  for (const [name, plugin] of Object.entries(defaults)) {
    const parse = name === 'yaml' ? parseYaml : plugin.parse;
    if (typeof parse !== 'function' || (name !== 'json' && name !== 'yaml')) {
      plugins[name] = plugin;
      continue;
    }
    plugins[name] = { ...plugin, parse: async (file: FileInfo) => watch(await parse(file), file) };
  }
  return plugins;
}

/**
 * YAML as JSON reads it: the JSON schema of YAML (`2024-01-01` and `yes` stay strings, as an OpenAPI author
 * means them), and a key repeated in a mapping takes its last value, as `JSON.parse` does, instead of failing the
 * whole spec (public specs hold such slips). A file that needs YAML's full types is read with them.
 */
function parseYaml(file: FileInfo): unknown {
  const text = Buffer.isBuffer(file.data) ? file.data.toString('utf8') : file.data;
  try {
    return loadYaml(text, { schema: JSON_SCHEMA, json: true });
  } catch {
    try {
      return loadYaml(text, { json: true });
    } catch (error) {
      throw new ParserError((error as Error).message, file.url);
    }
  }
}

/**
 * Records where each object of a freshly parsed file sits, and turns every `$ref` that serving never reads into
 * `x-unresolved-ref` (recorded in `skipped`), so that it is never fetched.
 */
function markOrigins(value: unknown, file: string, pointer: string, rootFile: boolean, parentKey: string | undefined, origins: Map<object, string> | WeakMap<object, string>, skipped: string[], siblings: string[], refs: { external: boolean }): void {
  if (typeof value !== 'object' || value === null) return;
  origins.set(value, `${file}#${pointer}`);
  // Only objects and arrays have an origin or hold a `$ref`: a member of another type is passed over without a pointer.
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (typeof item === 'object' && item !== null) markOrigins(item, file, `${pointer}/${index}`, rootFile, String(index), origins, skipped, siblings, refs);
    }
    return;
  }
  const record = value as Record<string, unknown>;
  const named = NAMED_MEMBERS.has(parentKey ?? '');
  const ref = record['$ref'];
  if (typeof ref === 'string') {
    // A `$ref` beside keywords other than a summary or description (3.0 says to ignore them): dereferencing keeps them (D130).
    if (!named && Object.keys(record).some((key) => key !== '$ref' && key !== 'description' && key !== 'summary' && !key.startsWith('x-'))) siblings.push(`${file}#${pointer}`);
    if (!ref.startsWith('#')) refs.external = true;
  }
  for (const key of Object.keys(record)) {
    const member = record[key];
    if (typeof member !== 'object' || member === null) continue;
    const at = `${pointer}/${escapePointerToken(key)}`;
    // Descriptions are prose for people (some specs keep them in Markdown files): serving never reads them.
    const extension = !named && ((key.startsWith('x-') && !SERVED_EXTENSIONS.has(key)) || key === 'description' || key === 'summary');
    const documentation = rootFile && pointer === '' && DOCUMENTATION_ROOT.has(key);
    if (extension || documentation) disarmReferences(member, file, at, skipped);
    else markOrigins(member, file, at, rootFile, key, origins, skipped, siblings, refs);
  }
}

/** A member name as a JSON Pointer token (RFC 6901: `~` as `~0`, `/` as `~1`). */
function escapePointerToken(key: string): string {
  return key.includes('~') || key.includes('/') ? key.replace(/~/g, '~0').replace(/\//g, '~1') : key;
}

function disarmReferences(value: unknown, file: string, pointer: string, skipped: string[]): void {
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (typeof item === 'object' && item !== null) disarmReferences(item, file, `${pointer}/${index}`, skipped);
    }
    return;
  }
  const record = value as Record<string, unknown>;
  if (typeof record['$ref'] === 'string') {
    skipped.push(`${file}#${pointer} → ${record['$ref']}`);
    record['x-unresolved-ref'] = record['$ref'];
    delete record['$ref'];
  }
  for (const key of Object.keys(record)) {
    const member = record[key];
    if (typeof member === 'object' && member !== null) disarmReferences(member, file, `${pointer}/${key}`, skipped);
  }
}

/** Swagger 2.0 to OpenAPI 3.0 (`basePath` → `servers`, body/formData → `requestBody`, `definitions` → `components`). */
async function convertSwagger(bundled: OpenAPIV2.Document, file: string): Promise<Record<string, unknown>> {
  // Imported only for a 2.0 document: the converter and its dependencies take about 0.3 s to load.
  const { convertObj } = await import('swagger2openapi');
  try {
    const converted = await convertObj({ ...bundled, swagger: '2.0' }, { patch: true, warnOnly: true, resolve: false });
    return converted.openapi as unknown as Record<string, unknown>;
  } catch (error) {
    throw new SpecDocumentError(`${file}#: this Swagger 2.0 document cannot be converted to OpenAPI 3: ${(error as Error).message}`);
  }
}

/** The members serving reads must have the right JSON type: a wrong one is named with its pointer. */
function checkStructure(document: Record<string, unknown>, file: string): void {
  const isObject = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);
  const problems: string[] = [];
  if (document['paths'] !== undefined && !isObject(document['paths'])) problems.push(`${file}#/paths: must be an object of path items`);
  for (const [path, item] of Object.entries(isObject(document['paths']) ? (document['paths'] as Record<string, unknown>) : {})) {
    const at = `${file}#/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    // A specification extension of the Paths Object (`x-codegen-contextRoot: "/v2"`) may hold any value: serving never reads it.
    if (path.startsWith('x-')) continue;
    if (!path.startsWith('/')) problems.push(`${at}: a path must start with "/"`);
    if (!isObject(item)) {
      problems.push(`${at}: must be a path item object`);
      continue;
    }
    for (const [method, op] of Object.entries(item as Record<string, unknown>)) {
      if (!['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace', 'query'].includes(method)) continue;
      if (!isObject(op)) {
        problems.push(`${at}/${method}: must be an operation object`);
        continue;
      }
      const operation = op as Record<string, unknown>;
      if (operation['responses'] !== undefined && !isObject(operation['responses'])) problems.push(`${at}/${method}/responses: must be an object of responses`);
      const parameters = operation['parameters'];
      if (parameters !== undefined && !Array.isArray(parameters)) problems.push(`${at}/${method}/parameters: must be an array`);
      (Array.isArray(parameters) ? (parameters as unknown[]) : []).forEach((parameter, index) => {
        const p = isObject(parameter) ? (parameter as Record<string, unknown>) : {};
        if (typeof p['name'] !== 'string' || typeof p['in'] !== 'string') problems.push(`${at}/${method}/parameters/${index}: a parameter needs a "name" and an "in"`);
      });
    }
  }
  if (problems.length > 0) throw new SpecDocumentError(problems.slice(0, 10).join('\n'));
}

/**
 * Rewrites every `$ref` that names the document by its OpenAPI 3.2 `$self` URI (`<self>#/pointer`) as the local
 * `#/pointer` (D87): the file may be read from anywhere, and its `$self` need not be reachable from here.
 */
function localiseSelfReferences(value: unknown, self: string): void {
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) localiseSelfReferences(item, self);
    return;
  }
  const record = value as Record<string, unknown>;
  const ref = record['$ref'];
  if (typeof ref === 'string' && (ref === self || ref.startsWith(`${self}#`))) record['$ref'] = ref === self ? '#' : ref.slice(self.length);
  for (const member of Object.values(record)) localiseSelfReferences(member, self);
}

/** One message naming the file, the pointer and the reason of each problem json-schema-ref-parser met. */
function describeFailure(error: unknown, rootFile: string): Error {
  if (error instanceof SpecDocumentError || error instanceof OverlayError) return error;
  const errors: JSONParserError[] = error instanceof JSONParserErrorGroup ? (error.errors as JSONParserError[]) : [];
  if (errors.length === 0) return new SpecDocumentError(`${displayPath(rootFile)}#: ${(error as Error).message}`);
  const lines = errors.slice(0, 10).map((problem) => {
    const source = problem.source === undefined || problem.source === '' ? rootFile : fileUrlToPath(problem.source);
    const pointer = (problem.path ?? []).map((token) => String(token).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
    // js-yaml's code frame (`1 | openapi: …`) does not survive one line: the line and column before it say where.
    const reason = problem.message.replace(/\n\s*\d+ \|[\s\S]*$/, '').replace(/\s+/g, ' ').trim();
    // A pointer that does not resolve is found while dereferencing: its path is where the document (from its
    // root) holds the `$ref`, its source the file the `$ref` points into.
    if (problem.name === 'MissingPointerError' || problem.name === 'InvalidPointerError') return `${displayPath(rootFile)}#${pointer === '' ? '' : `/${pointer}`}: $ref into ${displayPath(source)}: ${reason}`;
    return `${displayPath(source)}#${pointer === '' ? '' : `/${pointer}`}: ${reason}`;
  });
  if (errors.length > 10) lines.push(`… and ${errors.length - 10} more`);
  return new SpecDocumentError(lines.join('\n'));
}

function fileUrlToPath(url: string): string {
  const bare = url.replace(/#.*$/, '');
  return bare.startsWith('file://') ? fileURLToPath(bare) : bare;
}

/** A file as the user knows it: relative to the working directory when below it, else absolute. */
function displayPath(file: string): string {
  if (/^https?:\/\//i.test(file)) return file;
  const rel = relative(process.cwd(), file);
  return rel === '' || rel.startsWith('..') ? file : rel;
}
