import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { OpenAPIV3_1 } from 'openapi-types';
import { PACKAGE_ROOT } from '../mock/operations.js';

/** The request a response answered: method and path with query, as sent (for example `/v1/pets?limit=5`). */
export interface SentRequest {
  method: string;
  url: string;
}

/** A response as received: status, headers (lower-case names, as node gives them) and the body text. */
export interface ReceivedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Checks responses against `spec/openapi.yaml`, independently of the mock's own code (it reads the spec
 * itself with swagger-parser and compiles the response schemas with ajv 2020).
 */
export interface SpecValidator {
  /**
   * Problems of one response, empty when it is valid. A response is valid when either
   * - its request routes to an operation of the spec, its status is documented for that operation, its
   *   `content-type` is a documented media type and its body matches the documented schema; or
   * - it is a 4xx whose body is the seed's `Error` with `status` equal to the HTTP status and
   *   `content-type: application/json` (seed, Errors: every error response is an Error object), which covers
   *   the statuses the mock adds where the seed is silent (404 route, 405, 409, 413, 415, 431...).
   * HEAD answers carry no body, and `OPTIONS` may answer `204` with an `allow` header: both are checked for
   * status and headers only.
   */
  check(request: SentRequest, response: ReceivedResponse): string[];
  /** The spec's `Error` schema validator, for tests that only expect an error. */
  validateError: ValidateFunction;
}

interface DocumentedResponse {
  mediaTypes: Map<string, ValidateFunction | undefined>;
}

interface Route {
  method: string;
  pattern: RegExp;
  responses: Map<number, DocumentedResponse>;
}

/**
 * Loads the spec and compiles one validator per documented response (once, before any check).
 * `basePath` is the prefix the requests carry before the spec's paths (default `/v1`, the version segment
 * of the seed's Versioning section). Errors: rejects when the spec cannot be read or a schema not compiled.
 */
export async function loadSpecValidator(specPath = join(PACKAGE_ROOT, 'spec', 'openapi.yaml'), basePath = '/v1'): Promise<SpecValidator> {
  const document = (await SwaggerParser.dereference(specPath)) as OpenAPIV3_1.Document;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  ajv.addFormat('int64', true);
  const errorSchema = document.components?.schemas?.['Error'];
  if (errorSchema === undefined) throw new Error('spec: components.schemas.Error is missing');
  const validateError = ajv.compile(errorSchema);

  const routes: Route[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const op = item?.[method];
      if (op === undefined) continue;
      const responses = new Map<number, DocumentedResponse>();
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const content = (response as OpenAPIV3_1.ResponseObject).content ?? {};
        const mediaTypes = new Map<string, ValidateFunction | undefined>();
        for (const [mediaType, media] of Object.entries(content)) mediaTypes.set(mediaType, media.schema === undefined ? undefined : ajv.compile(media.schema));
        responses.set(Number(status), { mediaTypes });
      }
      const pattern = new RegExp(`^${basePath}${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`);
      routes.push({ method: method.toUpperCase(), pattern, responses });
    }
  }

  function checkError(response: ReceivedResponse, contentType: string): string[] {
    if (response.status < 400 || response.status > 499) return [`status ${response.status} is neither documented for this request nor a 4xx`];
    if (contentType !== 'application/json') return [`error ${response.status} has content-type ${JSON.stringify(contentType)}, not application/json`];
    const body = parse(response.body);
    if (!body.ok) return [`error ${response.status} body is not JSON: ${JSON.stringify(response.body.slice(0, 200))}`];
    if (!validateError(body.value)) return [`error ${response.status} body is no Error: ${ajv.errorsText(validateError.errors)}`];
    const status = (body.value as { status: unknown }).status;
    return status === response.status ? [] : [`Error.status ${String(status)} differs from the HTTP status ${response.status}`];
  }

  return {
    validateError,
    check(request, response) {
      const pathname = request.url.split('?')[0]!;
      const method = request.method.toUpperCase();
      const contentType = String(response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      const matching = routes.filter((route) => route.pattern.test(pathname));
      if (method === 'OPTIONS' && response.status === 204) {
        return matching.length > 0 && response.headers['allow'] !== undefined ? [] : ['OPTIONS answered 204 without an allow header or on an unknown path'];
      }
      const head = method === 'HEAD';
      const operation = matching.find((route) => route.method === (head ? 'GET' : method));
      const documented = operation?.responses.get(response.status);
      if (documented === undefined) return head ? (response.status >= 400 && response.status < 500 ? [] : [`HEAD answered ${response.status}`]) : checkError(response, contentType);
      if (documented.mediaTypes.size === 0) return [];
      if (!documented.mediaTypes.has(contentType)) return [`${response.status} has content-type ${JSON.stringify(contentType)}; documented: ${[...documented.mediaTypes.keys()].join(', ')}`];
      if (head) return [];
      const body = parse(response.body);
      if (!body.ok) return [`${response.status} body is not JSON: ${JSON.stringify(response.body.slice(0, 200))}`];
      const validate = documented.mediaTypes.get(contentType);
      if (validate !== undefined && !validate(body.value)) return [`${response.status} body does not match the spec: ${ajv.errorsText(validate.errors)}`];
      if (response.status >= 400) return checkError(response, contentType);
      return [];
    },
  };
}

function parse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
