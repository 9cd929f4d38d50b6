import type { OperationModel } from '../model/model.js';

/** Whether the operation documents 404, the answer to a body naming a record no one holds. */
export function documentsNotFound(op: OperationModel): boolean {
  return op.responses.some((response) => response.status === '404');
}
