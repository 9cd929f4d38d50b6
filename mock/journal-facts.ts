import { parseExact } from '../model/json.js';
import type { ApiModel, OperationModel } from '../model/model.js';
import type { EntryFacts, JournalResponse, Validation } from './journal.js';
import { routingMethod, slashToggled } from './refusals.js';
import type { MockRequest } from './messages.js';

/** Codes of the answers the pipeline gives before routing found an operation (spec/DECISIONS.md › D11, D12). */
const UNROUTED = new Set(['ROUTE_NOT_FOUND', 'METHOD_NOT_ALLOWED']);

/**
 * What the console shows of a journaled request (README › Console › Requests), worked out when the journal is
 * read, never while the request is answered: the operation its method and path route to in `api`, and how the
 * mock judged it. A 4xx names the mock's code and message (read back from the answer, in whatever error shape the
 * spec documents) and, for a refused body, the JSON pointer of the first failing value, found by validating the
 * kept body again with the operation's own validator.
 */
export function journalFacts(api: () => ApiModel): (request: MockRequest, response: JournalResponse) => EntryFacts {
  return (request, response) => {
    const model = api();
    const op = routeOf(model, request);
    const error = response.status >= 400 ? errorFacts(response.body ?? '') : undefined;
    if (op === undefined) return { validation: error === undefined ? { outcome: 'valid' } : { outcome: 'unrouted', code: error.code ?? String(response.status) } };
    if (error === undefined || response.status >= 500 || (error.code !== undefined && UNROUTED.has(error.code))) return { operationId: op.operationId, validation: { outcome: 'valid' } };
    const validation: Validation = { outcome: 'refused', code: error.code ?? String(response.status), message: error.message ?? '' };
    const pointer = bodyPointer(op, request);
    if (pointer !== undefined) validation.pointer = pointer;
    return { operationId: op.operationId, validation };
  };
}

/** The operation a request's method and path route to, as the pipeline routes it (first match in spec order). */
export function routeOf(api: ApiModel, request: Pick<MockRequest, 'method' | 'url'>): OperationModel | undefined {
  const queryAt = request.url.indexOf('?');
  const pathname = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
  if (!pathname.startsWith(`${api.basePath}/`) && pathname !== api.basePath) return undefined;
  const path = pathname.slice(api.basePath.length);
  const method = routingMethod(api, request.method, pathname);
  const found = api.operations.find((op) => op.method === method && op.pattern.test(path));
  if (found !== undefined || api.operations.some((op) => op.pattern.test(path))) return found;
  // A path that differs from a described one only by a trailing slash names it, as the pipeline routes it (D500).
  const other = slashToggled(api, path);
  return other === undefined ? undefined : api.operations.find((op) => op.method === method && op.pattern.test(other));
}

function errorFacts(body: string): { code: string | undefined; message: string | undefined } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { code: undefined, message: undefined };
  }
  if (typeof value !== 'object' || value === null) return { code: undefined, message: undefined };
  const fields = value as Record<string, unknown>;
  const text = (...names: string[]): string | undefined => {
    for (const name of names) if (typeof fields[name] === 'string') return fields[name];
    return undefined;
  };
  return { code: text('code', 'type', 'error'), message: text('message', 'detail', 'title') };
}

function bodyPointer(op: OperationModel, request: MockRequest): string | undefined {
  if (op.body === undefined || request.body === undefined || request.body.length === 0) return undefined;
  const parsed = parseExact(request.body.toString('utf8'));
  if (!parsed.ok) return '';
  return op.body.validate(parsed.document.view) ? undefined : (op.body.validate.issues()[0]?.pointer ?? '');
}
