import type { ListShape, OperationModel } from '../model/model.js';
import { servedListOf } from '../model/served-lists.js';

/**
 * Where a list answer holds its records, for the judge (spec/DECISIONS.md › D940): the JSON pointer (RFC 6901) of
 * the array of records in the success body of `op`, `''` for a bare array, `/data` or `/_embedded/pets` in a
 * wrapper; `undefined` when `op` is no list. A list is the list or a view of a resource, or a list served from the
 * description (a GET no resource holds whose answer has a list's shape and whose query sizes its page,
 * model/served-lists.ts `servedListOf`): a GET that only reads one thing is no list, even with an array inside.
 * Read once per operation. Never throws.
 */
export function listRecordsPointer(op: OperationModel): string | undefined {
  if (known.has(op)) return known.get(op);
  const pointer = pointerOf(shapeOf(op));
  known.set(op, pointer);
  return pointer;
}

const known = new WeakMap<OperationModel, string | undefined>();

function shapeOf(op: OperationModel): ListShape | undefined {
  const resource = op.resource;
  if (resource !== undefined) {
    if (resource.list?.operation === op) return resource.list.shape;
    return resource.views.find((view) => view.operation === op)?.shape;
  }
  return servedListOf(op)?.list.shape;
}

function pointerOf(shape: ListShape | undefined): string | undefined {
  if (shape === undefined) return undefined;
  if (shape.kind === 'array') return '';
  return shape.itemsPath.map((name) => `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/**
 * Whether a schema issue of a success answer of `op` is a list's count of records below the `minItems` its array
 * asks (D940): every list reaches fewer records than that (nothing made yet, a filter no record matches, a page past
 * the end), so no server that lists what it holds can keep that count, and the judge does not hold it. `keyword` and
 * `pointer` are those of the issue (a validator's `issues`, model/schema.ts). Every other keyword of the array, and every
 * keyword of its records, still holds.
 */
export function isShortList(op: OperationModel, issue: { keyword: string; pointer: string }): boolean {
  return issue.keyword === 'minItems' && listRecordsPointer(op) === issue.pointer;
}
