import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { createErrorShape, type ErrorShape } from './error-shape.js';
import { findResources, type ResourceExtension } from './resources.js';
import { compile, createAjv, directionalView, isInt64, isJsonMediaType, mainType, toJsonSchema, type Schema, type Validator } from './schema.js';

/** Root folder of this package (the one holding package.json), from the source tree or from `dist/`. */
export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

/** The OpenAPI document shipped with the package, written from the seed: the default of `--spec`. */
export const SPEC_PATH = join(PACKAGE_ROOT, 'spec', 'openapi.yaml');

function findPackageRoot(dir: string): string {
  return existsSync(join(dir, 'package.json')) || dirname(dir) === dir ? dir : findPackageRoot(dirname(dir));
}

/** HTTP methods an OpenAPI path item may hold, as the model names them. */
export type Method = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH' | 'HEAD' | 'OPTIONS';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** A query or path parameter: its schema (2020-12), and how its raw text becomes a value. */
export interface ParameterModel {
  name: string;
  in: 'query' | 'path' | 'header';
  required: boolean;
  schema: Schema;
  /** The schema's main type (`integer`, `string`, `boolean`, `number`, `array`…), `undefined` when unsaid. */
  type: string | undefined;
  int64: boolean;
  validate: Validator;
}

/** The request body of an operation: its media types and the schema a request must satisfy (`readOnly` forbidden). */
export interface BodyModel {
  required: boolean;
  mediaTypes: string[];
  /** The JSON media type's schema as a request sees it. */
  schema: Schema;
  validate: Validator;
}

/** An example the spec gives for a media type: a named one of `examples` (its key), or the media `example` (no name). */
export interface NamedExample {
  name: string | undefined;
  value: unknown;
}

/**
 * One media type of a documented response (`application/json`, `image/png`, `text/plain`…): its schema as a
 * response must satisfy it (`writeOnly` forbidden) and the examples the spec gives for it (media `example`
 * first, then the named `examples`; a schema's own `example` stays in the schema).
 */
export interface ContentModel {
  mediaType: string;
  schema: Schema | undefined;
  validate: Validator | undefined;
  examples: NamedExample[];
}

/** A response header the spec declares (`Location`, `X-Rate-Limit`…): whether it is required, its schema and example. */
export interface HeaderModel {
  name: string;
  required: boolean;
  schema: Schema;
  /** The header's own `example`, or the first of its `examples`. */
  example: unknown;
}

/**
 * One documented response: a status (`200`, `4XX`, `default`), and its content. `mediaType`/`schema`/`validate`/
 * `example`/`examples` describe the JSON media type when there is one (else the first); `contents` lists every one.
 */
export interface ResponseModel {
  status: string;
  mediaType: string | undefined;
  /** The schema as a response must satisfy it (`writeOnly` forbidden). */
  schema: Schema | undefined;
  validate: Validator | undefined;
  /** The first example the spec gives for this response, if any. */
  example: unknown;
  /** Every example the spec gives for the media type of `mediaType`, in the spec's order. */
  examples: NamedExample[];
  /** Every documented media type, in the spec's order (empty for a response without body). */
  contents: ContentModel[];
  /** The response headers the spec declares (`Content-Type` left out: the media type says it). */
  headers: HeaderModel[];
}

/**
 * How a request authenticates (OpenAPI security schemes): a bearer token, an API key in a header or the query,
 * HTTP basic, or a scheme the model cannot check (OAuth 2, OpenID Connect: then a bearer token is expected).
 */
export type AuthScheme =
  | { kind: 'bearer'; name: string }
  | { kind: 'apiKey'; name: string; in: 'header' | 'query' | 'cookie'; parameter: string }
  | { kind: 'basic'; name: string };

/** The part an operation plays for its resource (README › Resources): the convention, or `x-resource`. */
export type Role = 'list' | 'create' | 'read' | 'replace' | 'update' | 'delete';

/** One operation of the spec, normalised once: everything a request needs, nothing to look up again. */
export interface OperationModel {
  operationId: string;
  method: Method;
  /** The path template as in the spec, for example `/pets/{petId}`. */
  path: string;
  /** Matches a path below the base path; one group per template segment, in `pathParams` order. */
  pattern: RegExp;
  pathParams: ParameterModel[];
  queryParams: ParameterModel[];
  body: BodyModel | undefined;
  /** Alternatives the request may satisfy (any one); empty when the spec asks for no credentials. */
  security: AuthScheme[];
  deprecated: boolean;
  /** `x-sunset` of a deprecated operation (an ISO date) when the spec records one. */
  sunset: string | undefined;
  responses: ResponseModel[];
  /** The first documented 2xx status, as a number (`201` for the seed's createPet); 200 when none is. */
  successStatus: number;
  /** The resource this operation belongs to and its part, or `undefined` (answered from examples). */
  resource: ResourceModel | undefined;
  role: Role | undefined;
  /** Error bodies in the shape the spec documents for each status of this operation (seed: `Error`). */
  errors: ErrorShape;
}

/** A query parameter of a list operation that keeps only records whose `property` equals its value. */
export interface FilterModel {
  parameter: ParameterModel;
  property: string;
  /** The values the property can take when the schema lists them (`enum`, boolean): such filters are indexed. */
  values: unknown[] | undefined;
}

/** The page size parameter of a list operation, with its bounds (seed, Limits: 1, 100, default 20). */
export interface LimitModel {
  parameter: string;
  minimum: number;
  maximum: number | undefined;
  /** Records returned when the parameter is omitted (`maximum`, or all, when the spec gives no default). */
  default: number | undefined;
}

/** How a list answer holds its records: a bare array (seed, Pets), or an array property of a wrapper object. */
export type ListShape = { kind: 'array' } | { kind: 'object'; itemsProperty: string; schema: Schema };

/**
 * A resource: a collection path with list/create, an item path below it with read/replace/update/delete
 * (README › Resources). Its records have the schema of the item answer; the server assigns `idProperty`.
 */
export interface ResourceModel {
  name: string;
  collectionPath: string;
  itemPath: string | undefined;
  /** The record as responses carry it (`writeOnly` forbidden). */
  recordSchema: Schema;
  /** The record's top-level properties, in the schema's order. */
  properties: Record<string, Schema>;
  required: string[];
  /** Whether records keep properties the schema does not name (only when `additionalProperties` says so). */
  keepsOtherProperties: boolean;
  idProperty: string;
  idType: 'integer' | 'string';
  idSchema: Schema;
  /** The item path's parameter naming the record, e.g. `petId`. */
  idParameter: string | undefined;
  operations: Partial<Record<Role, OperationModel>>;
  filters: FilterModel[];
  limit: LimitModel | undefined;
  listShape: ListShape | undefined;
  validateRecord: Validator;
}

/** The whole interface: what both the mock and the conformance suite stand on. */
export interface ApiModel {
  title: string;
  version: string;
  /** Path prefix of every operation, from the local server entry of `servers` (`/v1` for the seed). */
  basePath: string;
  /** Every server URL of the spec, variables filled with their defaults, and its description. */
  servers: { url: string; description: string }[];
  operations: OperationModel[];
  resources: ResourceModel[];
  /** What the start-up log should say: operations no resource holds, statuses a behaviour needs but the spec lacks. */
  notes: string[];
  /** Absolute path of the document the model was read from (the shipped spec is {@link SPEC_PATH}); unset when built otherwise. */
  source?: string | undefined;
}


/**
 * Reads a spec (OpenAPI 3.0 or 3.1, YAML or JSON), resolves every `$ref`, compiles every validator, and finds
 * its resources, once at start-up, so no request looks anything up again. Errors: rejects with swagger-parser's message when the document is invalid, or
 * with a message naming the method and path of the operation whose schema does not compile.
 */
export async function loadModel(specPath: string = SPEC_PATH): Promise<ApiModel> {
  const document = (await SwaggerParser.dereference(specPath)) as Record<string, unknown> & { paths?: Record<string, Record<string, unknown>> };
  const openapi30 = String(document['openapi'] ?? '').startsWith('3.0');
  const ajv = createAjv();
  const json = (schema: unknown): Schema => toJsonSchema(schema, openapi30);
  const info = (document['info'] ?? {}) as { title?: string; version?: string };
  const securitySchemes = ((document['components'] as Record<string, unknown> | undefined)?.['securitySchemes'] ?? {}) as Record<string, Record<string, unknown>>;
  const documentSecurity = document['security'] as Record<string, string[]>[] | undefined;

  const operations: (OperationModel & { extension: ResourceExtension | undefined })[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const shared = (item['parameters'] ?? []) as Record<string, unknown>[];
    for (const method of METHODS) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (op === undefined) continue;
      const where = `${method.toUpperCase()} ${path}`;
      try {
        operations.push(compileOperation(op, path, method.toUpperCase() as Method, shared));
      } catch (error) {
        throw new Error(`spec: cannot compile ${where}: ${(error as Error).message}`);
      }
    }
  }

  function compileOperation(op: Record<string, unknown>, path: string, method: Method, shared: Record<string, unknown>[]) {
    const own = (op['parameters'] ?? []) as Record<string, unknown>[];
    const parameters = [...shared.filter((p) => !own.some((o) => o['name'] === p['name'] && o['in'] === p['in'])), ...own];
    const parameter = (p: Record<string, unknown>): ParameterModel => {
      const schema = json(p['schema'] ?? (p['content'] as Record<string, { schema?: unknown }> | undefined)?.['application/json']?.schema ?? {});
      const name = String(p['name']);
      return { name, in: p['in'] as ParameterModel['in'], required: p['required'] === true, schema, type: mainType(schema), int64: isInt64(schema), validate: compile(ajv, schema, name) };
    };
    const templateNames = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
    const declared = parameters.filter((p) => p['in'] === 'path').map(parameter);
    // A template segment the operation does not declare is still a path parameter: a string.
    const pathParams = templateNames.map((name) => declared.find((p) => p.name === name) ?? { name, in: 'path' as const, required: true, schema: {}, type: undefined, int64: false, validate: compile(ajv, {}, name) });
    const queryParams = parameters.filter((p) => p['in'] === 'query').map(parameter);
    const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '([^/]+)')}$`);

    let body: BodyModel | undefined;
    const requestBody = op['requestBody'] as { required?: boolean; content?: Record<string, { schema?: unknown }> } | undefined;
    if (requestBody !== undefined) {
      const mediaTypes = Object.keys(requestBody.content ?? {});
      const jsonType = mediaTypes.find(isJsonMediaType) ?? mediaTypes[0];
      const schema = directionalView(json(jsonType === undefined ? {} : requestBody.content?.[jsonType]?.schema), 'request');
      body = { required: requestBody.required === true, mediaTypes, schema, validate: compile(ajv, schema, 'body') };
    }

    const responses: ResponseModel[] = Object.entries((op['responses'] ?? {}) as Record<string, Record<string, unknown>>).map(([status, response]) => {
      const content = (response['content'] ?? {}) as Record<string, { schema?: unknown; example?: unknown; examples?: Record<string, { value?: unknown }> }>;
      const contents = Object.entries(content).map(([type, media]): ContentModel => {
        const schema = media.schema === undefined ? undefined : directionalView(json(media.schema), 'response');
        const examples: NamedExample[] = media.example === undefined ? [] : [{ name: undefined, value: media.example }];
        for (const [name, named] of Object.entries(media.examples ?? {})) {
          if (named !== null && typeof named === 'object' && 'value' in named) examples.push({ name, value: named.value });
        }
        return { mediaType: type, schema, validate: schema === undefined ? undefined : compile(ajv, schema, 'body'), examples };
      });
      const main = contents.find((c) => isJsonMediaType(c.mediaType)) ?? contents[0];
      const headers = Object.entries((response['headers'] ?? {}) as Record<string, Record<string, unknown>>)
        .filter(([name, header]) => name.toLowerCase() !== 'content-type' && header !== null && typeof header === 'object')
        .map(([name, header]): HeaderModel => ({
          name,
          required: header['required'] === true,
          schema: json(header['schema'] ?? {}),
          example: header['example'] ?? Object.values((header['examples'] ?? {}) as Record<string, { value?: unknown }>)[0]?.value,
        }));
      return { status: status.toUpperCase(), mediaType: main?.mediaType, schema: main?.schema, validate: main?.validate, example: main?.examples[0]?.value, examples: main?.examples ?? [], contents, headers };
    });
    const success = responses.map((r) => Number(r.status)).filter((s) => s >= 200 && s < 300).sort((a, b) => a - b)[0] ?? 200;
    const requirements = (op['security'] as Record<string, string[]>[] | undefined) ?? documentSecurity ?? [];
    const security = requirements.some((r) => Object.keys(r).length === 0) ? [] : requirements.flatMap((r) => Object.keys(r).slice(0, 1).flatMap((name) => authScheme(name, securitySchemes[name])));
    return {
      operationId: typeof op['operationId'] === 'string' ? op['operationId'] : `${method} ${path}`,
      method,
      path,
      pattern,
      pathParams,
      queryParams,
      body,
      security,
      deprecated: op['deprecated'] === true,
      sunset: typeof op['x-sunset'] === 'string' ? op['x-sunset'] : undefined,
      responses,
      successStatus: success,
      resource: undefined,
      role: undefined,
      errors: createErrorShape(responses),
      extension: op['x-resource'] as ResourceExtension | undefined,
    };
  }

  const resources = findResources(operations, ajv);
  const notes: string[] = [];
  for (const op of operations) {
    if (op.resource === undefined) notes.push(`${op.method} ${op.path} (${op.operationId}) is not part of a resource: it answers from the spec's examples or a schema-valid sample`);
  }
  const servers = ((document['servers'] ?? []) as { url: string; description?: string; variables?: Record<string, { default?: string }> }[]).map((server) => ({
    url: server.url.replace(/\{(\w+)\}/g, (_m, name: string) => server.variables?.[name]?.default ?? ''),
    description: server.description ?? '',
  }));
  return { title: info.title ?? '', version: info.version ?? '', basePath: basePathOf(servers), servers, operations: operations.map(({ extension: _, ...op }) => op), resources, notes, source: resolve(specPath) };
}


function authScheme(name: string, scheme: Record<string, unknown> | undefined): AuthScheme[] {
  if (scheme === undefined) return [{ kind: 'bearer', name }];
  if (scheme['type'] === 'apiKey') return [{ kind: 'apiKey', name, in: (scheme['in'] as 'header' | 'query' | 'cookie') ?? 'header', parameter: String(scheme['name'] ?? 'X-API-Key') }];
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
