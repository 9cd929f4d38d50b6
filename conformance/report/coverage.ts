import { routeOf } from '../../model/fragments.js';
import { readSpecDocument } from '../../model/document.js';
import type { OpenAPIV3_1 } from 'openapi-types';

/** An operation of the spec as the reports show it: its documented statuses, and the statuses the run saw. */
export interface OperationCoverage {
  operationId: string;
  method: string;
  /** Path template as written in the spec, e.g. `/pets/{petId}`. */
  path: string;
  deprecated: boolean;
  /** Response keys of the spec, e.g. `200`, `404`, `default`. */
  documented: string[];
  /** Final statuses seen for this operation, with counts. */
  seen: Map<number, number>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * Reads the spec's operations (from `specPath`, with the OpenAPI Overlay files `overlays` applied) and files the statuses seen per `METHOD path` (query stripped,
 * as `traffic.statuses` records them) under the operation whose path template matches. Requests matching no
 * operation (unknown routes, other methods) are returned apart, by their key. Errors: an unreadable spec rejects.
 */
export async function coverage(specPath: string, statuses: readonly [string, readonly [number, number][]][], overlays: readonly string[] = []): Promise<{ operations: OperationCoverage[]; unmatched: Map<string, Map<number, number>> }> {
  // The model's loader: path items by `$ref` (multi-file specs) and Swagger 2.0 documents read as the suite reads them.
  const document = (await readSpecDocument(specPath, { overlays })).document as unknown as OpenAPIV3_1.Document;
  const operations: (OperationCoverage & { pattern: RegExp })[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item?.[method];
      if (operation === undefined) continue;
      operations.push({
        operationId: operation.operationId ?? `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        deprecated: operation.deprecated === true,
        documented: Object.keys(operation.responses ?? {}),
        seen: new Map(),
        // Matched at the key's route: without its fragment (D133) and its query part (D250, D941), which no request's path holds.
        pattern: new RegExp(`^${(routeOf(path).split('?')[0] ?? path).split(/\{[^}]+\}/).map(escapeRegExp).join('[^/]+')}$`),
      });
    }
  }
  const unmatched = new Map<string, Map<number, number>>();
  for (const [key, counts] of statuses) {
    const space = key.indexOf(' ');
    const method = key.slice(0, space);
    const path = key.slice(space + 1);
    const operation = operations.find((candidate) => candidate.method === method && candidate.pattern.test(path));
    const into = operation?.seen ?? unmatched.get(key) ?? new Map<number, number>();
    if (operation === undefined) unmatched.set(key, into);
    for (const [status, count] of counts) into.set(status, (into.get(status) ?? 0) + count);
  }
  return { operations: operations.map(({ pattern: _pattern, ...rest }) => rest), unmatched };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
