import { jsonFilterParameters, type JsonFilterParameter } from './json-filters.js';
import type { OperationModel, ResourceModel } from './model.js';
import { mainType, objectShape, type Schema } from './schema.js';

/**
 * An action that deletes a collection's unused records (spec/DECISIONS.md › D702): `POST /volumes/prune`, "Delete
 * unused volumes", answering `{"VolumesDeleted": [...], "SpaceReclaimed": 0}`.
 */
export interface PruneModel {
  /** The collection whose records it deletes. */
  resource: ResourceModel;
  /** JSON filter maps its text lists (D604): only the records they keep are deleted. */
  filters: JsonFilterParameter[];
  /** The answer's array member of strings that lists the keys deleted (`VolumesDeleted`); `undefined` without a body. */
  deleted: string | undefined;
  /** The answer's integer members that count the records deleted ("Number of volumes deleted"). */
  counted: string[];
  /** The answer's other integer members (`SpaceReclaimed`, bytes): the mock holds no such measure, so 0. */
  zeroed: string[];
}

/** Text of an action that deletes what nothing uses: "Delete unused volumes", "removes all dangling images", "purge orphaned records". */
const DELETES_UNUSED = /\b(?:delete|deletes|remove|removes|prune|prunes|purge|purges|clean\s+up|cleans\s+up)\b[^.]{0,30}?\b(?:unused|unreferenced|dangling|orphan(?:ed|s)?)\b/i;

/** A member's name or text saying it lists what was deleted: `VolumesDeleted`, "Volumes that were deleted", `removed`. */
const SAYS_DELETED = /delet|remov|prun|purg/i;

/** A member's name or text saying it counts records: `deletedCount`, "Number of volumes deleted". */
const SAYS_COUNT = /count|\bnumber\s+of\b/i;

/**
 * The prune action `op` is, or `undefined` (spec/DECISIONS.md › D702). It is one where:
 * - the path is a collection's path (a top-level resource with a list) followed by one literal segment (`/prune`,
 *   `/purge`, `/cleanup`), taken by `POST` or `DELETE`, with no required body, and no role of its own;
 * - its summary or description says it deletes what is not used: "delete unused", "remove dangling", "purge
 *   orphaned" (not "Delete stopped containers", a state the text names, nor "Delete builder cache");
 * - its success has no body, or a JSON object with an array member of strings whose name or text says deleted.
 */
export function pruneOf(op: OperationModel, resources: readonly ResourceModel[]): PruneModel | undefined {
  if (op.resource !== undefined || op.role !== undefined || op.acts !== undefined) return undefined;
  if ((op.method !== 'POST' && op.method !== 'DELETE') || op.body?.required === true) return undefined;
  if (!DELETES_UNUSED.test(op.description ?? '')) return undefined;
  const cut = op.path.lastIndexOf('/');
  const segment = op.path.slice(cut + 1);
  if (cut <= 0 || segment === '' || segment.includes('{')) return undefined;
  const resource = resources.find((one) => one.collectionPath === op.path.slice(0, cut) && one.parent === undefined && one.numbering === undefined && one.list !== undefined);
  if (resource === undefined) return undefined;
  const success = op.responses.find((response) => response.status === String(op.successStatus));
  const schema = success?.schema;
  if (schema === undefined) return { resource, filters: jsonFilterParameters(op, resource), deleted: undefined, counted: [], zeroed: [] };
  if (mainType(schema) !== 'object') return undefined;
  const members = Object.entries(objectShape(schema).properties);
  const text = (name: string, member: Schema): string => `${name} ${typeof member['description'] === 'string' ? member['description'] : ''}`;
  const deleted = members.find(([name, member]) => {
    const items = member['items'];
    return mainType(member) === 'array' && typeof items === 'object' && items !== null && mainType(items as Schema) === 'string' && SAYS_DELETED.test(text(name, member));
  })?.[0];
  if (deleted === undefined) return undefined;
  const integers = members.filter(([, member]) => mainType(member) === 'integer');
  return {
    resource,
    filters: jsonFilterParameters(op, resource),
    deleted,
    counted: integers.filter(([name, member]) => SAYS_COUNT.test(text(name, member))).map(([name]) => name),
    zeroed: integers.filter(([name, member]) => !SAYS_COUNT.test(text(name, member))).map(([name]) => name),
  };
}
