import type { OperationModel, PagingModel } from '../../model/model.js';

/**
 * The statuses besides a success with which a list may answer a page the suite asks only because the page before
 * was full (`afterFullPage`; spec/DECISIONS.md › D360): `[404]` for a list paged by page number or offset whose operation documents
 * 404, where a page past the last one may be "not found" rather than empty; `[]` otherwise (a cursor the server gave
 * names a page it says exists, and an undocumented 404 is still judged as one). The first page is never past the
 * end.
 */
export function pastEndStatuses(op: OperationModel, paging: PagingModel | undefined, afterFullPage: boolean): number[] {
  if (!afterFullPage || paging === undefined || paging.kind === 'cursor') return [];
  return op.responses.some((response) => response.status === '404') ? [404] : [];
}
