import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { OpenAPIV3_1 } from 'openapi-types';
import { INT64_MAX, INT64_MIN } from './json.js';

/** Root folder of this package (the one holding package.json), from the source tree or from `dist/`. */
export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

/** Path of the OpenAPI document shipped with the package: the single source of truth. */
export const SPEC_PATH = join(PACKAGE_ROOT, 'spec', 'openapi.yaml');

function findPackageRoot(dir: string): string {
  return existsSync(join(dir, 'package.json')) || dirname(dir) === dir ? dir : findPackageRoot(dirname(dir));
}

type Schema = OpenAPIV3_1.SchemaObject;

/** A query or path parameter of an operation, with its compiled validator. */
export interface Parameter {
  name: string;
  in: 'query' | 'path';
  required: boolean;
  /** The parameter's schema as written in the spec (after `$ref` resolution). */
  schema: Schema;
  /** Turns the raw text into the schema's type; see {@link Parameter.coerce}. */
  coerce: (raw: string) => { ok: true; value: unknown } | { ok: false; message: string };
}

/** The request body of an operation: required or not, accepted media types, compiled validator. */
export interface RequestBody {
  required: boolean;
  mediaTypes: string[];
  schema: Schema;
  validate: ValidateFunction;
}

/**
 * One operation of the spec, normalised once at start-up: everything the pipeline needs, nothing to look up
 * again per request. `responses` lists the documented status codes.
 */
export interface Operation {
  operationId: string;
  method: string;
  /** The path template as in the spec, for example `/pets/{petId}`. */
  path: string;
  pattern: RegExp;
  pathParams: Parameter[];
  queryParams: Parameter[];
  body: RequestBody | undefined;
  /** Whether a bearer key is required (from `security`, the operation's or the document's). */
  secured: boolean;
  deprecated: boolean;
  /** `x-sunset` of a deprecated operation, as an ISO date, when the spec records one. */
  sunset: string | undefined;
  responses: number[];
}

/** The whole interface as the mock serves it: its operations and the base path of the local server. */
export interface Api {
  title: string;
  version: string;
  /** Path prefix of every operation, from the local server entry of `servers` (`/v1`). */
  basePath: string;
  operations: Operation[];
  /** Validator of the spec's `Pet` schema (for starting data and the admin API). */
  validatePet: ValidateFunction;
}

/**
 * Reads the spec, resolves every `$ref` and compiles every validator before the first request (STYLE 1).
 * Errors: rejects with a message naming the method and path of the operation whose schema does not compile,
 * or swagger-parser's message when the document itself is invalid.
 */
export async function loadApi(specPath: string = SPEC_PATH): Promise<Api> {
  const document = (await SwaggerParser.dereference(specPath)) as OpenAPIV3_1.Document;
  // validateSchema: false skips compiling the 2020-12 meta-schema at every start (a fifth of the start-up, issue 6);
  // a malformed keyword still fails to compile (`minimum value must be ["number"]`), and spectral lints the spec.
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false });
  addFormats.default(ajv);
  // `type: integer` already refuses non-integers; the int64 range is checked on the exact literal (json.ts).
  ajv.addFormat('int64', true);

  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const op = item?.[method];
      if (op === undefined) continue;
      try {
        operations.push(compileOperation(ajv, document, path, method.toUpperCase(), op));
      } catch (error) {
        throw new Error(`spec: cannot compile ${method.toUpperCase()} ${path}: ${(error as Error).message}`);
      }
    }
  }
  const local = document.servers?.find((server) => server.url.startsWith('http://127.0.0.1'));
  const basePath = local === undefined ? '' : new URL(local.url).pathname.replace(/\/$/, '');
  const petSchema = document.components?.schemas?.['Pet'];
  if (petSchema === undefined) throw new Error('spec: components.schemas.Pet is missing');
  return { title: document.info.title, version: document.info.version, basePath, operations, validatePet: ajv.compile(petSchema) };
}

function compileOperation(
  ajv: Ajv2020,
  document: OpenAPIV3_1.Document,
  path: string,
  method: string,
  op: OpenAPIV3_1.OperationObject,
): Operation {
  const parameters = (op.parameters ?? []) as OpenAPIV3_1.ParameterObject[];
  const compileParameter = (p: OpenAPIV3_1.ParameterObject): Parameter => {
    const schema = (p.schema ?? {}) as Schema;
    return { name: p.name, in: p.in as 'query' | 'path', required: p.required === true, schema, coerce: parameterCoercion(ajv, p.name, schema) };
  };
  const pathParams = parameters.filter((p) => p.in === 'path').map(compileParameter);
  const queryParams = parameters.filter((p) => p.in === 'query').map(compileParameter);
  const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '([^/]+)')}$`);

  let body: RequestBody | undefined;
  const requestBody = op.requestBody as OpenAPIV3_1.RequestBodyObject | undefined;
  if (requestBody !== undefined) {
    const mediaTypes = Object.keys(requestBody.content);
    const schema = (requestBody.content['application/json']?.schema ?? {}) as Schema;
    body = { required: requestBody.required === true, mediaTypes, schema, validate: ajv.compile(schema) };
  }
  const security = op.security ?? document.security ?? [];
  return {
    operationId: op.operationId ?? `${method} ${path}`,
    method,
    path,
    pattern,
    pathParams,
    queryParams,
    body,
    secured: security.length > 0 && !security.some((requirement) => Object.keys(requirement).length === 0),
    deprecated: op.deprecated === true,
    sunset: (op as Record<string, unknown>)['x-sunset'] as string | undefined,
    responses: Object.keys(op.responses ?? {}).map(Number).filter(Number.isInteger),
  };
}

const INTEGER_TEXT = /^[+-]?\d+$/;

/**
 * Coercion of a parameter's raw text to its schema type, then validation against the schema.
 * Integers must be written as decimal digits (`1e1` and `1.0` are refused in a URL); int64 integers become
 * `bigint` and must lie in [-2^63, 2^63-1]; other integers become `number`. Strings stay strings.
 */
function parameterCoercion(ajv: Ajv2020, name: string, schema: Schema): Parameter['coerce'] {
  const validate = ajv.compile(schema);
  const isInteger = schema.type === 'integer';
  const int64 = isInteger && schema.format === 'int64';
  return (raw) => {
    if (isInteger) {
      if (!INTEGER_TEXT.test(raw)) return { ok: false, message: `${name} must be an integer, got ${JSON.stringify(raw)}` };
      if (int64) {
        const exact = BigInt(raw);
        if (exact < INT64_MIN || exact > INT64_MAX) return { ok: false, message: `${name} must be an int64 integer, got ${raw}` };
        return { ok: true, value: exact };
      }
      // At most 15 characters (sign and 14 digits) is exact as a double, no BigInt needed (issue 6); `+ 0` turns -0 into 0.
      const value = raw.length <= 15 ? Number(raw) + 0 : Number(BigInt(raw));
      return validate(value) ? { ok: true, value } : { ok: false, message: `${name} ${describe(validate.errors)}, got ${raw}` };
    }
    return validate(raw) ? { ok: true, value: raw } : { ok: false, message: `${name} ${describe(validate.errors)}, got ${JSON.stringify(raw)}` };
  };
}

/** One readable sentence from ajv errors: `/categoryId must be integer; /status must be one of: available, pending, sold`. */
export function describe(errors: ErrorObject[] | null | undefined, prefix = ''): string {
  return (errors ?? [])
    .map((error) => {
      const where = `${prefix}${error.instancePath}`;
      const allowed = error.keyword === 'enum' ? `must be one of: ${(error.params as { allowedValues: unknown[] }).allowedValues.join(', ')}` : error.message;
      return where === '' ? `${allowed}` : `${where} ${allowed}`;
    })
    .join('; ');
}
