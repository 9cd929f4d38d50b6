import type { ResourceModel } from './model.js';
import { admittedTypes, isMarked, mainType } from './schema.js';

/**
 * Keys counted per parent (spec/DECISIONS.md › D240). A sub-resource whose path names its records by an integer
 * member other than the record's own `id` (`/repos/{owner}/{repo}/issues/{issue_number}` → `number`, D141), and
 * whose records also carry that `id` as the server's, is numbered under its parent: the first record of each
 * parent is 1, the next one more than the largest held under that parent; the stores key such records by the
 * global `id` (mock/store/record-store.ts storeView), and the path's number is looked up under the path's parent.
 *
 * Two such siblings (one parent, one key name) share one number space where each record names the other: a
 * member of one is the other's singular or starts with it and `_` (`pull_request` of an issue names `pulls`,
 * `issue_url` of a pull request names `issues`). A milestone, named by an issue's `milestone` but naming no issue
 * in turn (`open_issues` counts them), keeps its own numbers; so does a stack, whose `pull_requests` (an array)
 * holds pull requests rather than being one.
 */
export interface NumberingModel {
  /** The member counted per parent (`number`): the model's key, which the path names. */
  key: string;
  /** The record's member the stores key it by: its global id (`id`), which the server assigns. */
  storeKey: string;
  /** Names of the sibling resources whose records share this resource's numbers under one parent. */
  shared: string[];
  /**
   * A sharing sibling whose records each of this resource's records also is (spec/DECISIONS.md › D244): a pull
   * request is an issue, marked there by the object member `pull_request`. Named where the sibling's record
   * has an object member (not an array) named after this resource.
   */
  alsoIn?: { resource: string; member: string } | undefined;
  /** The converse of {@link alsoIn}: this resource's records whose `member` is set are also records of `resource`. */
  marks?: { resource: string; member: string } | undefined;
}

/** Sets `numbering` on each resource numbered per parent (see {@link NumberingModel}); `resources` have their parents set. */
export function numberPerParent(resources: readonly ResourceModel[]): void {
  const numbered = resources.filter(isNumbered);
  for (const resource of numbered) {
    const shared = numbered.filter((other) => other !== resource && other.parent!.resource === resource.parent!.resource && other.idProperty === resource.idProperty && names(resource, other) && names(other, resource));
    resource.numbering = { key: resource.idProperty, storeKey: 'id', shared: shared.map((other) => other.name) };
  }
  for (const resource of numbered) {
    for (const name of resource.numbering!.shared) {
      const other = numbered.find((candidate) => candidate.name === name)!;
      const member = objectMemberNaming(other, resource);
      if (member === undefined || objectMemberNaming(resource, other) !== undefined) continue;
      resource.numbering!.alsoIn = { resource: other.name, member };
      other.numbering!.marks = { resource: resource.name, member };
    }
  }
}

/** The object member (no array) of `resource`'s record named after `other` (`pull_request` of an issue for `pulls`), if any. */
function objectMemberNaming(resource: ResourceModel, other: ResourceModel): string | undefined {
  const singular = singularOf(other);
  return Object.entries(resource.properties).find(([name, schema]) => (name.toLowerCase() === singular || name.toLowerCase().startsWith(`${singular}_`)) && mainType(schema) === 'object' && !admittedTypes(schema).includes('array'))?.[0];
}

/** A resource's singular, from its collection path's last literal segment (`pulls` → `pull`, `issues` → `issue`). */
function singularOf(resource: ResourceModel): string {
  const plural = resource.collectionPath.split('/').filter((segment) => segment !== '' && !segment.startsWith('{')).at(-1) ?? '';
  return plural.replace(/ies$/i, 'y').replace(/(?<!s)s$/i, '').toLowerCase();
}

/** Whether a resource's key is an integer the server counts under its parent, beside a global `id` of the record. */
function isNumbered(resource: ResourceModel): boolean {
  const id = resource.properties['id'];
  if (resource.parent === undefined || resource.parent.singleton || resource.idProperty === 'id' || resource.idType !== 'integer' || resource.idSource !== 'server' || id === undefined) return false;
  if (resource.idParameter === undefined || resource.itemPath === undefined) return false;
  const type = mainType(id);
  return (type === 'integer' || type === 'string') && !admittedTypes(id).includes('object') && !isMarked(id, 'writeOnly');
}

/**
 * Whether one of `resource`'s members names one record of `other`: a member that is no array, named `other`'s
 * singular (`milestone`) or that and `_` (`pull_request`, `issue_url`).
 */
function names(resource: ResourceModel, other: ResourceModel): boolean {
  const singular = singularOf(other);
  // An array member lists many others (a stack's `pull_requests`): it holds them, it is not one of them.
  return singular !== '' && Object.entries(resource.properties).some(([name, schema]) => (name.toLowerCase() === singular || name.toLowerCase().startsWith(`${singular}_`)) && !admittedTypes(schema).includes('array'));
}
