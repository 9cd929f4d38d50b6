import type { OperationModel, ResourceModel } from '../model/model.js';

/** Words of an operation's text that say a create also updates: "Post a new silence or update an existing one", "Create or update a flow", "upsert". */
const CREATES_OR_UPDATES = /\b(?:creates?|adds?|posts?|inserts?|new)\b[^.]{0,60}?\bor\s+(?:updates?|replaces?|modif(?:y|ies))\b|\bupserts?\b/i;

/**
 * Whether a create also updates the record its body names (spec/DECISIONS.md › D432): the operation's summary or
 * description says it creates or updates ("Post a new silence or update an existing one", "Create or update a
 * flow", "upsert"), and the client may send the record's key in the body (the key is not the server's alone).
 * Such a create given a held key replaces that record; given a key no record holds, it answers its documented 404
 * where it documents one, and otherwise makes the record under that key.
 */
export function createsOrUpdates(op: OperationModel, resource: ResourceModel): boolean {
  return op.role === 'create' && resource.idSource !== 'server' && op.description !== undefined && CREATES_OR_UPDATES.test(op.description);
}

/** Whether the operation documents 404, the answer to a body naming a record no one holds. */
export function documentsNotFound(op: OperationModel): boolean {
  return op.responses.some((response) => response.status === '404');
}
