import type { ApiModel, OperationModel } from '../model/model.js';

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
  const notes = [...api.notes];
  for (const op of api.operations) {
    const missing = answerableStatuses(op, sharedStore).filter((status) => !op.errors.documents(status));
    if (missing.length > 0) notes.push(`${op.operationId} (${op.method} ${op.path}) does not document ${missing.join(', ')}, which the mock may answer`);
  }
  return notes;
}
