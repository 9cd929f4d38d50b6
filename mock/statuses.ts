import type { ApiModel, OperationModel } from '../model/model.js';
import { appliedParameters, unappliedJsonFilters } from './list-handler.js';

/**
 * The statuses the mock may answer for an operation besides its success (README › Error bodies): 400 for an
 * invalid query, path or body; 401 when it asks for a key; 404 for an item operation or one whose body names
 * the record (no such record); 409 for a create (the store is full, or the id sent is taken); 413 and 415 for a body (too large, wrong media type); with a shared store
 * (`sharedStore`), 503 for an operation of a resource while the store does not answer.
 */
export function answerableStatuses(op: OperationModel, sharedStore = false): number[] {
  const statuses = new Set<number>();
  if (op.queryParams.length > 0 || op.body !== undefined) statuses.add(400);
  if (op.security.length > 0) statuses.add(401);
  // A record named by the path, or by the body's id (`PUT /pet`, D50), may not exist.
  if (op.pathParams.length > 0 || op.idIn === 'body') statuses.add(404);
  if (op.role === 'create') statuses.add(409);
  if (op.body !== undefined) {
    statuses.add(413);
    statuses.add(415);
  }
  if (sharedStore && op.resource !== undefined) statuses.add(503);
  return [...statuses].sort((a, b) => a - b);
}

/**
 * What the start-up log says about a spec: the model's notes (operations no resource holds), and for each
 * operation the statuses the mock may answer that the spec does not document (exactly, by range or by
 * `default`), so that a user knows which answers a strict client would not expect.
 */
export function startupNotes(api: ApiModel, sharedStore = false): string[] {
  const notes = [...api.notes, ...(api.details ?? [])];
  for (const op of api.operations) {
    const missing = answerableStatuses(op, sharedStore).filter((status) => !op.errors.documents(status));
    if (missing.length > 0) notes.push(`${op.operationId} (${op.method} ${op.path}) does not document ${missing.join(', ')}, which the mock may answer`);
  }
  // A list's query parameters the mock reads and checks but does not apply (D435): named, so no one takes the list for filtered.
  for (const op of api.operations) {
    if (op.role !== 'list' || op.resource === undefined) continue;
    const applied = appliedParameters(op, op.resource);
    const unapplied = op.queryParams.map((parameter) => parameter.name).filter((name) => !applied.has(name));
    if (unapplied.length > 0) notes.push(`${op.operationId} (${op.method} ${op.path}) does not apply its query parameters ${unapplied.join(', ')}: they are checked, and the list answered as if they were absent`);
    // …and the filters of a JSON filter map it applies in part (D604): `filters.dangling`.
    const unappliedFilters = unappliedJsonFilters(op, op.resource);
    if (unappliedFilters.length > 0) notes.push(`${op.operationId} (${op.method} ${op.path}) does not apply the filters ${unappliedFilters.join(', ')} its text lists: they name no member of the record, and the list is answered as if they were absent`);
  }
  return notes;
}

/**
 * The one start-up line for every status the mock may answer that the operations do not document (D84):
 * how many operations, the statuses by how many operations each, and where to see the list (`--log-level debug`,
 * the console's Health view). `undefined` when every operation documents all it may answer.
 */
export function undocumentedSummary(api: ApiModel, sharedStore = false): string | undefined {
  const byStatus = new Map<number, number>();
  let operations = 0;
  for (const op of api.operations) {
    const missing = answerableStatuses(op, sharedStore).filter((status) => !op.errors.documents(status));
    if (missing.length > 0) operations++;
    for (const status of missing) byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  }
  if (operations === 0) return undefined;
  const statuses = [...byStatus].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([status, count]) => `${status} on ${count}`);
  return `${operations} of ${api.operations.length} operations do not document statuses the mock may answer (${statuses.join(', ')}): --log-level debug lists them, as does the console's Health view`;
}

/**
 * The start-up counts of a spec (D84), one line: the stateful resources, the operations answered from the spec's
 * examples or samples, and those documenting `text/event-stream` answers, with where to see each list.
 */
export function countsLine(api: ApiModel): string {
  const unheld = api.operations.filter((op) => op.resource === undefined).length;
  const streams = api.operations.filter((op) => op.responses.some((r) => r.contents.some((c) => /^text\/event-stream\b/i.test(c.mediaType)))).length;
  const parts = [`${api.resources.length} stateful resource${api.resources.length === 1 ? '' : 's'}`, `${unheld} operation${unheld === 1 ? '' : 's'} answered from the spec's examples or samples`];
  if (streams > 0) parts.push(`${streams} documenting text/event-stream answers`);
  return `${api.operations.length} operations: ${parts.join(', ')} (--log-level debug lists them)`;
}
