import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReadOptions } from './document.js';
import { readSpecDocumentCached } from './document-cache.js';
import { createErrorShape } from './error-shape.js';
import { findResources, type ResourceExtension } from './resources.js';
import { acceptFormats, compile, createAjv, createSchemaConverter, directionalView, type SchemaFailures, isInt64, isJsonMediaType, mainType, objectShape, type Schema, type Validator } from './schema.js';
import { joinFragmentVariants, routeOf } from './fragments.js';
import { queryKeyParameters, splitQueryKey } from './query-keys.js';
import { lenientNotes, namedExamples, withoutNull, type LenientTally } from './lenient-schema.js';
import { carriesApiVersion, servesWithoutPrefix } from './api-version.js';
import { linksOf } from './links.js';
import { streamMemberOf, streamOf } from './streams.js';
import type { ApiModel, AuthScheme, BodyModel, ContentModel, HeaderModel, Method, NamedExample, OperationModel, ParameterModel, ResponseModel, TagModel } from './model.js';

/** Root folder of this package (the one holding package.json), from the source tree or from `dist/`. */
export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

/** This package's version (package.json), for start-up lines, HAR creators and reports. */
export const PACKAGE_VERSION = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** The OpenAPI document shipped with the package, written from the seed: the default of `--spec`. */
export const SPEC_PATH = join(PACKAGE_ROOT, 'spec', 'openapi.yaml');

function findPackageRoot(dir: string): string {
  return existsSync(join(dir, 'package.json')) || dirname(dir) === dir ? dir : findPackageRoot(dirname(dir));
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'query'] as const;

/**
 * Methods an HTTP/1.1 server built on node can receive (node's parser refuses any other): an operation of another
 * method under `additionalOperations` can never be called, and is left out with a note (D87).
 */
const RECEIVABLE_METHODS: ReadonlySet<string> = new Set(['ACL', 'BIND', 'CHECKOUT', 'COPY', 'LINK', 'LOCK', 'MERGE', 'MKACTIVITY', 'MKCALENDAR', 'MKCOL', 'MOVE', 'NOTIFY', 'PROPFIND', 'PROPPATCH', 'PURGE', 'REBIND', 'REPORT', 'SEARCH', 'SOURCE', 'SUBSCRIBE', 'UNBIND', 'UNLINK', 'UNLOCK', 'UNSUBSCRIBE', 'TRACE']);

/**
 * Reads a spec (OpenAPI 3.0 or 3.1, or Swagger 2.0 converted on load; YAML or JSON; one file or several, see
 * `readSpecDocument`; where the cache of model/document-cache.ts is on, read once, then from it while its content, its
 * overlays' and the package's stay the same), with `options.overlays` (OpenAPI Overlay files) applied to it first, resolves every `$ref` serving needs, converts every schema once, and finds its resources,
 * once at start-up, so no request looks anything up again. Validators compile on their first use (`compile`).
 * A schema keyword no validator can compile is left out and named in `notes` (file, pointer, reason).
 * Errors: rejects with a message naming the file, the JSON pointer and the reason when the document cannot be
 * read, a `$ref` serving needs does not resolve, or the document is not OpenAPI (`spec/document.ts`); an
 * `OverlayError` naming the overlay file and the action when an overlay cannot be applied (model/overlay.ts).
 */
export async function loadModel(specPath: string = SPEC_PATH, options: ReadOptions = {}): Promise<ApiModel> {
  const read = await readSpecDocumentCached(specPath, options, PACKAGE_VERSION);
  const document = read.document as Record<string, unknown> & { paths?: Record<string, Record<string, unknown>> };
  const ajv = createAjv();
  const converter = createSchemaConverter(read.format === 'openapi-3.0' || read.format === 'swagger-2.0', ajv);
  /** Schemas that could not be compiled, and how many values went unjudged (D134). */
  const schemaFailures: SchemaFailures = { reasons: new Set(), uses: 0 };
  /** Examples written another way than the Example Object's map, read leniently (D130). */
  const exampleForms: LenientTally = new Map();
  /** Examples of parameters their own schema refuses, left out (D132): where, and the value. */
  const refusedExamples: { where: string; value: unknown }[] = [];
  const json = (schema: unknown): Schema => converter(schema);
  // One view per schema object and direction for the whole spec: shared schemas are viewed (and compiled) once.
  const views = { request: new Map<Schema, Schema>(), response: new Map<Schema, Schema>() };
  const streamReader = { convert: (schema: unknown): Schema => directionalView(json(schema), 'response', views.response), compile: (schema: Schema): Validator => compile(ajv, schema, 'event', { failures: schemaFailures, where: 'a stream' }) };
  const info = (document['info'] ?? {}) as { title?: string; version?: string; description?: unknown };
  const securitySchemes = ((document['components'] as Record<string, unknown> | undefined)?.['securitySchemes'] ?? {}) as Record<string, Record<string, unknown>>;
  const documentSecurity = document['security'] as Record<string, string[]>[] | undefined;

  const documentServers = new Set(((document['servers'] ?? []) as { url?: unknown }[]).map((server) => String(server.url)));
  const elsewhere = (own: unknown): string | undefined => {
    if (!Array.isArray(own) || own.length === 0) return undefined;
    const urls = own.map((server: { url?: unknown }) => String(server.url));
    // A relative entry (`/v2`) is the document's own host: elsewhere only when its path is not the base path.
    const here = (url: string): boolean => documentServers.has(url) || (!/^[a-z][a-z0-9+.-]*:/i.test(url) && url.replace(/\/+$/, '') === basePathOf([...documentServers].map((u) => ({ url: u }))));
    return urls.some(here) ? undefined : urls[0];
  };
  const operations: (OperationModel & { extension: ResourceExtension | undefined })[] = [];
  /** Each operation's path key as written, fragment included (D133). */
  const pathKeys = new Map<OperationModel & { extension: ResourceExtension | undefined }, string>();
  /** `additionalOperations` of methods no node server can receive (D87), named in the notes. */
  const unreceivable: string[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!path.startsWith('/')) continue;
    const shared = (item['parameters'] ?? []) as Record<string, unknown>[];
    // OpenAPI 3.2: methods without a fixed field are listed under `additionalOperations`, keyed by their name as sent.
    const additional = (item['additionalOperations'] ?? {}) as Record<string, Record<string, unknown>>;
    const entries: [string, Record<string, unknown> | undefined][] = METHODS.map((method): [string, Record<string, unknown> | undefined] => [method.toUpperCase(), item[method] as Record<string, unknown> | undefined]);
    for (const [name, op] of Object.entries(additional)) {
      const method = name.toUpperCase();
      if (entries.some(([known, held]) => known === method && held !== undefined)) continue;
      if (!RECEIVABLE_METHODS.has(method)) {
        unreceivable.push(`${name} ${path}`);
        continue;
      }
      entries.push([method, op]);
    }
    for (const [method, op] of entries) {
      if (op === undefined || typeof op !== 'object') continue;
      const where = `${method} ${path}`;
      try {
        // A key's query templates are the request's query, never its path (D941): query parameters.
        const { path: route, templates } = splitQueryKey(routeOf(path));
        const keyed = queryKeyParameters(templates, (op['parameters'] ?? []) as Record<string, unknown>[], shared);
        const compiled = { ...compileOperation(templates.length === 0 ? op : { ...op, parameters: keyed.own }, route, method, keyed.shared), servedElsewhere: elsewhere(op['servers'] ?? item['servers']), ...(templates.length === 0 ? {} : { keyQuery: templates.map((pair) => pair.name) }) };
        operations.push(compiled);
        pathKeys.set(compiled, path);
      } catch (error) {
        throw new Error(`spec: cannot compile ${where}: ${(error as Error).message}`);
      }
    }
  }

  /**
   * `value` when it is undefined or its schema's validator accepts it, else `undefined`, the refusal kept for the
   * start-up log (D132). A validator that cannot be compiled judges nothing: the value is kept.
   */
  function fitting(value: unknown, validate: Validator, where: string): unknown {
    if (value === undefined) return undefined;
    let fits = true;
    try {
      fits = validate(value);
    } catch {
      fits = true;
    }
    if (fits) return value;
    refusedExamples.push({ where, value });
    return undefined;
  }

  function compileOperation(op: Record<string, unknown>, path: string, method: Method, shared: Record<string, unknown>[]) {
    const own = (op['parameters'] ?? []) as Record<string, unknown>[];
    const parameters = [...shared.filter((p) => !own.some((o) => o['name'] === p['name'] && o['in'] === p['in'])), ...own];
    const parameter = (p: Record<string, unknown>): ParameterModel => {
      // A parameter's text never stands for null: a nullable union is read as its other branch (D131).
      const schema = p['schema'] !== undefined ? withoutNull(json(p['schema'])) : json((p['content'] as Record<string, { schema?: unknown }> | undefined)?.['application/json']?.schema ?? {});
      const name = String(p['name']);
      const type = mainType(schema);
      const named = namedExamples(p['examples'], exampleForms)[0]?.value;
      const validate = compile(ajv, schema, name, { failures: schemaFailures, where: `${method} ${path}` });
      const example = fitting(p['example'] ?? named, validate, `parameter ${name} of ${method} ${path}`);
      const description = typeof p['description'] === 'string' ? p['description'] : typeof schema['description'] === 'string' ? schema['description'] : undefined;
      return { name, in: p['in'] as ParameterModel['in'], required: p['required'] === true, schema, type, int64: isInt64(schema), validate, delimiter: type === 'array' ? delimiterOf(p) : undefined, ...(p['style'] === 'deepObject' ? { deepObject: true } : {}), ...(p['in'] === 'query' && type === 'object' && explodedForm(p) ? { explodedObject: true } : {}), ...(example === undefined ? {} : { example: typeof example === 'object' && example !== null && !Array.isArray(example) ? json(example) : example }), ...(description === undefined ? {} : { description }) };
    };
    const templateNames = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
    const declared = parameters.filter((p) => p['in'] === 'path').map(parameter);
    // A template segment the operation does not declare is still a path parameter: a string.
    const pathParams = templateNames.map((name) => declared.find((p) => p.name === name) ?? { name, in: 'path' as const, required: true, schema: {}, type: undefined, int64: false, validate: compile(ajv, {}, name) });
    const queryParams = parameters.filter((p) => p['in'] === 'query').map(parameter);
    // OpenAPI 3.2 `in: querystring`: the whole query string as one value, its schema under `content` (a form's object).
    const whole = parameters.find((p) => p['in'] === 'querystring');
    const querystring = whole === undefined ? undefined : (() => {
      const content = (whole['content'] ?? {}) as Record<string, { schema?: unknown }>;
      const schema = json(Object.values(content)[0]?.schema ?? whole['schema'] ?? {});
      return { name: String(whole['name'] ?? 'querystring'), in: 'query' as const, required: whole['required'] === true, schema, type: mainType(schema), int64: false, validate: compile(ajv, schema, 'query', { failures: schemaFailures, where: `${method} ${path}` }) };
    })();
    const headerParams = parameters
      .filter((p) => p['in'] === 'header' && !IGNORED_HEADERS.has(String(p['name']).toLowerCase()))
      // `style: simple`, the only one for headers: an array's items are separated by commas.
      .map((p) => { const compiled = parameter(p); return { ...compiled, name: String(p['name']).toLowerCase(), delimiter: compiled.type === 'array' ? ',' : undefined }; });
    const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '([^/]+)')}$`);

    let body: BodyModel | undefined;
    const requestBody = op['requestBody'] as { required?: boolean; content?: Record<string, { schema?: unknown; encoding?: Record<string, { style?: unknown } | undefined> }> } | undefined;
    if (requestBody !== undefined) {
      const mediaTypes = Object.keys(requestBody.content ?? {});
      const jsonType = mediaTypes.find(isJsonMediaType) ?? mediaTypes[0];
      const schema = directionalView(json(jsonType === undefined ? {} : requestBody.content?.[jsonType]?.schema), 'request', views.request);
      const deepObjects = Object.values(requestBody.content ?? {}).flatMap((media) => Object.entries(media?.encoding ?? {}).filter(([, encoding]) => encoding?.style === 'deepObject').map(([name]) => name));
      const media = (jsonType === undefined ? undefined : requestBody.content?.[jsonType]) as { example?: unknown; examples?: unknown } | undefined;
      const examples = [...(media?.example === undefined ? [] : [media.example]), ...namedExamples(media?.examples, exampleForms).map((one) => one.value)].filter((value) => value !== undefined);
      body = { required: requestBody.required === true, mediaTypes, schema, validate: compile(ajv, schema, 'body', { failures: schemaFailures, where: `${method} ${path} request` }), ...(deepObjects.length === 0 ? {} : { deepObjects: [...new Set(deepObjects)] }), ...(examples.length === 0 ? {} : { examples }) };
    }

    // The request member that asks for a stream (D86), and its description, which often states the terminator.
    const candidateMember = streamMemberOf(body?.schema);
    const streamTexts = candidateMember === undefined ? [] : [objectShape(body!.schema).properties[candidateMember]?.['description']];
    const responses: ResponseModel[] = Object.entries((op['responses'] ?? {}) as Record<string, Record<string, unknown>>).map(([status, response]) => {
      const content = (response['content'] ?? {}) as Record<string, { schema?: unknown; itemSchema?: unknown; example?: unknown; examples?: Record<string, { value?: unknown }> }>;
      const contents = Object.entries(content).map(([type, media]): ContentModel => {
        const stream = streamOf(type, media, streamReader, [op['description'], response['description'], ...streamTexts]);
        // A stream's `schema` describes one event (3.1 practice) or the sequence (3.2): the whole body is judged by `stream`.
        if (stream !== undefined) return { mediaType: type, schema: undefined, validate: undefined, examples: [], stream };
        const schema = media.schema === undefined ? undefined : directionalView(json(media.schema), 'response', views.response);
        const examples: NamedExample[] = media.example === undefined ? [] : [{ name: undefined, value: media.example }];
        examples.push(...namedExamples(media.examples, exampleForms));
        // A media type's examples stay: the mock serves only those its validator accepts, keeps a list's valid records, and names the others in its start-up check (mock/answers.ts).
        return { mediaType: type, schema, validate: schema === undefined ? undefined : compile(ajv, schema, 'body', { failures: schemaFailures, where: `${method} ${path} ${status} ${type}` }), examples };
      });
      const main = contents.find((c) => isJsonMediaType(c.mediaType)) ?? contents[0];
      const headers = Object.entries((response['headers'] ?? {}) as Record<string, Record<string, unknown>>)
        .filter(([name, header]) => name.toLowerCase() !== 'content-type' && header !== null && typeof header === 'object')
        .map(([name, header]): HeaderModel => ({
          name,
          required: header['required'] === true,
          schema: withoutNull(json(header['schema'] ?? {})),
          example: header['example'] ?? namedExamples(header['examples'], exampleForms)[0]?.value,
          ...(carriesApiVersion(header['description']) && typeof info.version === 'string' && info.version !== '' ? { value: info.version } : {}),
        }));
      const description = typeof response['description'] === 'string' ? response['description'] : undefined;
      const links = linksOf(response['links']);
      return { status: status.toUpperCase(), mediaType: main?.mediaType, schema: main?.schema, validate: main?.validate, example: main?.examples[0]?.value, examples: main?.examples ?? [], contents, headers, ...(description === undefined ? {} : { description }), ...(links.length === 0 ? {} : { links }) };
    });
    const success = responses.map((r) => Number(r.status)).filter((s) => s >= 200 && s < 300).sort((a, b) => a - b)[0] ?? 200;
    // A success documented only as a range (`2XX`) is the response of the status a server gives within it (D844):
    // every reading of the operation's answer (the record a create or read answers, a list's page) finds it there.
    const range = responses.findIndex((r) => r.status === '2XX');
    if (range >= 0 && !responses.some((r) => /^2\d\d$/.test(r.status))) responses.splice(range, 0, { ...responses[range]!, status: String(success) });
    const requirements = (op['security'] as Record<string, string[]>[] | undefined) ?? documentSecurity ?? [];
    const security = requirements.some((r) => Object.keys(r).length === 0) ? [] : requirements.flatMap((r) => Object.keys(r).slice(0, 1).flatMap((name) => authScheme(name, securitySchemes[name])));
    return {
      operationId: typeof op['operationId'] === 'string' ? op['operationId'] : `${method} ${path}`,
      method,
      path,
      pattern,
      pathParams,
      queryParams,
      // A security scheme's own header (`api_key`) is the authenticator's to judge, not the parameter's.
      headerParams: headerParams.filter((p) => !security.some((scheme) => scheme.kind === 'apiKey' && scheme.in === 'header' && scheme.parameter.toLowerCase() === p.name)),
      body,
      streamMember: responses.some((r) => /^2/.test(r.status) && r.contents.some((c) => c.stream !== undefined)) ? candidateMember : undefined,
      querystring,
      description: [op['summary'], op['description']].filter((text): text is string => typeof text === 'string').join('\n') || undefined,
      tags: Array.isArray(op['tags']) ? op['tags'].filter((tag): tag is string => typeof tag === 'string') : [],
      security,
      deprecated: op['deprecated'] === true,
      sunset: typeof op['x-sunset'] === 'string' ? op['x-sunset'] : undefined,
      responses,
      successStatus: success,
      resource: undefined,
      role: undefined,
      idIn: undefined,
      errors: createErrorShape(responses),
      extension: op['x-resource'] as ResourceExtension | undefined,
    };
  }

  // Operations whose keys differ only by a fragment (`/chat#stream`) share one route: one serves both (D133).
  const variants = joinFragmentVariants(operations, pathKeys, (schema) => compile(ajv, schema, 'body', { failures: schemaFailures, where: 'a joined request' }));
  // Before any validator runs: a format ajv does not know would otherwise be compiled as "ignored" with a warning.
  const unknownFormats = acceptFormats(ajv, converter.formats);
  const resources = findResources(operations, ajv);
  const notes: string[] = [...read.overlayNotes];
  if (unreceivable.length > 0) notes.push(`${unreceivable.length} operation${unreceivable.length === 1 ? '' : 's'} of additionalOperations left out: no HTTP/1.1 server built on node can receive ${unreceivable.length === 1 ? 'its method' : 'their methods'} (${unreceivable.slice(0, 3).join(', ')}${unreceivable.length > 3 ? ', …' : ''}) (D87)`);
  const kinds = new Map([...converter.lenient, ...exampleForms]);
  if (read.refSiblings.length > 0) kinds.set('ref-with-siblings', read.refSiblings.length);
  notes.push(...lenientNotes(kinds), ...variants);
  const details: string[] = [];
  const invalid = [...converter.invalidExamples.map((example) => ({ where: read.locate(example.source) ?? 'a schema', value: example.value })), ...refusedExamples];
  if (invalid.length > 0) {
    notes.push(`${invalid.length} example${invalid.length === 1 ? '' : 's'} their own schema refuses left out: never served as data nor sent by the suite (D132); --log-level debug lists them`);
    for (const example of invalid) details.push(`example left out, its schema refuses it: ${example.where}: ${JSON.stringify(example.value)?.slice(0, 120)}`);
  }
  if (unknownFormats.length > 0) notes.push(`formats this mock does not know are accepted as any value: ${unknownFormats.join(', ')}`);
  if (read.format === 'swagger-2.0') notes.push('Swagger 2.0 document converted to OpenAPI 3.0 on load (swagger2openapi): basePath, body and formData parameters, definitions, produces/consumes');
  if (converter.problems.length > 0) {
    const where = converter.problems.map((problem) => {
      const at = read.locate(problem.source);
      return `${at === undefined ? '' : `${at}${at.endsWith('#') ? '' : '/'}`}${problem.keyword} ${problem.reason}`;
    });
    const unique = [...new Set(where)];
    notes.push(`${unique.length} schema keyword${unique.length === 1 ? '' : 's'} no validator can compile left out (the rest of each schema still applies): ${unique.slice(0, 3).join('; ')}${unique.length > 3 ? '; …' : ''}`);
  }
  if (read.skipped.length > 0) {
    const shown = read.skipped.slice(0, 3).join(', ');
    notes.push(`${read.skipped.length} $ref${read.skipped.length === 1 ? '' : 's'} that serving never reads (in x- extensions, descriptions, tags or info) not followed: ${shown}${read.skipped.length > 3 ? ', …' : ''}`);
  }
  // One line per such operation on a small spec; on a large one, a line per operation would bury the rest of the log.
  const unheld = operations.filter((op) => op.resource === undefined);
  if (unheld.length <= 20) {
    for (const op of unheld) notes.push(`${op.method} ${op.path} (${op.operationId}) is not part of a resource: it answers from the spec's examples or a schema-valid sample`);
  } else {
    const shown = unheld.slice(0, 5).map((op) => `${op.method} ${op.path} (${op.operationId})`);
    notes.push(`${unheld.length} operations are not part of a resource: they answer from the spec's examples or a schema-valid sample: ${shown.join(', ')}, …`);
  }
  const elsewhereOps = operations.filter((op) => op.servedElsewhere !== undefined);
  if (elsewhereOps.length > 0) {
    const shown = elsewhereOps.slice(0, 3).map((op) => `${op.method} ${op.path} (${op.servedElsewhere})`).join(', ');
    notes.push(`${elsewhereOps.length} operation${elsewhereOps.length === 1 ? ' is' : 's are'} served at ${elsewhereOps.length === 1 ? 'its' : 'their'} own servers: ${shown}${elsewhereOps.length > 3 ? ', …' : ''}; the mock answers ${elsewhereOps.length === 1 ? 'it' : 'them'} at its base path too, and the suite does not judge ${elsewhereOps.length === 1 ? 'it' : 'them'} (D78)`);
  }
  const servers = ((document['servers'] ?? []) as { url: string; description?: string; variables?: Record<string, { default?: string }> }[]).map((server) => ({
    url: server.url.replace(/\{(\w+)\}/g, (_m, name: string) => server.variables?.[name]?.default ?? ''),
    description: server.description ?? '',
  }));
  // In place, so that the operations a resource (or a list model) holds are the very ones the model lists.
  for (const op of operations) Reflect.deleteProperty(op, 'extension');
  const basePath = basePathOf(servers);
  const unprefixed = servesWithoutPrefix(info.description, basePath);
  return { title: info.title ?? '', version: info.version ?? '', basePath, servers, ...(unprefixed ? { unprefixed } : {}), operations, resources, notes, details, schemaFailures, tags: tagsOf(document['tags']), source: resolve(specPath) };
}

/** The root's tags, each with its name and, when given as text, its summary (3.2; else the 3.0 `x-displayName`), parent and kind. */
function tagsOf(tags: unknown): TagModel[] {
  if (!Array.isArray(tags)) return [];
  const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
  return tags.flatMap((tag: unknown): TagModel[] => {
    if (tag === null || typeof tag !== 'object' || typeof (tag as Record<string, unknown>)['name'] !== 'string') return [];
    const record = tag as Record<string, unknown>;
    return [{ name: record['name'] as string, summary: text(record['summary']) ?? text(record['x-displayName']), parent: text(record['parent']), kind: text(record['kind']) }];
  });
}

/**
 * Header parameters no client fills: those OpenAPI 3 says are ignored where declared as parameters (Parameter Object,
 * `in: header`), and those HTTP itself writes to frame a message and keep its connection (RFC 9110 § 7.6.1, § 8.6;
 * RFC 9112 § 6), which an HTTP client sets from the body it sends and a server reads before any handler (D911).
 */
const IGNORED_HEADERS: ReadonlySet<string> = new Set(['accept', 'content-type', 'authorization', 'content-length', 'transfer-encoding', 'host', 'connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'upgrade']);

/** Whether a parameter is sent as `style: form` with `explode: true`, OpenAPI 3's default for a query parameter. */
function explodedForm(parameter: Record<string, unknown>): boolean {
  return (parameter['style'] ?? 'form') === 'form' && parameter['explode'] !== false;
}

/** The item delimiter of an array query parameter sent as one value (OpenAPI `style`/`explode`), else `undefined`. */
function delimiterOf(parameter: Record<string, unknown>): string | undefined {
  const style = parameter['style'] ?? 'form';
  // `explode` defaults to true for `form` only (OpenAPI 3, Parameter Object).
  const explode = parameter['explode'] === undefined ? style === 'form' : parameter['explode'] === true;
  if (explode) return undefined;
  return style === 'spaceDelimited' ? ' ' : style === 'pipeDelimited' ? '|' : ',';
}

/**
 * The word an apiKey header's description says its value starts with (D481): `prefixed with "Bearer "`,
 * `the prefix Token`, or a quoted `"Token <key>"` form; `undefined` when the text names none.
 */
export function keyPrefix(description: string): string | undefined {
  const form = /["'`“]\s*(Bearer|Token|JWT)\s+(?:<|\{|\[|\$|x{2,}|[A-Za-z_]*token)/i.exec(description);
  if (form !== null) return form[1];
  const prefixed = /\bprefix(?:ed)?(?:\s+(?:with|by))?\s*[:"'`“]*\s*([A-Za-z][A-Za-z-]*)\s/i.exec(description);
  return prefixed !== null && !/^(the|a|an|your|with|by|to)$/i.test(prefixed[1]!) ? prefixed[1] : undefined;
}

function authScheme(name: string, scheme: Record<string, unknown> | undefined): AuthScheme[] {
  if (scheme === undefined) return [{ kind: 'bearer', name }];
  if (scheme['type'] === 'apiKey') {
    const where = (scheme['in'] as 'header' | 'query' | 'cookie' | undefined) ?? 'header';
    const prefix = where === 'header' && typeof scheme['description'] === 'string' ? keyPrefix(scheme['description']) : undefined;
    return [{ kind: 'apiKey', name, in: where, parameter: String(scheme['name'] ?? 'X-API-Key'), ...(prefix === undefined ? {} : { prefix }) }];
  }
  if (scheme['type'] === 'http' && String(scheme['scheme']).toLowerCase() === 'basic') return [{ kind: 'basic', name }];
  return [{ kind: 'bearer', name }];
}

/**
 * The base path the mock serves at: the path of the local server entry (`http://127.0.0.1…`, `localhost`), else
 * of the first server whose URL has a path, else none. A relative server URL (`/v2`) is a path already.
 */
function basePathOf(servers: { url: string }[]): string {
  const pathOf = (url: string): string => {
    try {
      return new URL(url, 'http://localhost').pathname.replace(/\/+$/, '');
    } catch {
      return '';
    }
  };
  const local = servers.find((server) => /^https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\])(?::\d+)?(?:\/|$)/.test(server.url));
  return pathOf((local ?? servers[0])?.url ?? '');
}
