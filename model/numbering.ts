import type { ResourceModel } from './model.js';
import { admittedTypes, isMarked, mainType } from './schema.js';
import { singular } from './words.js';

/** Sets `numbering` on each resource numbered per parent (see `NumberingModel` in model.ts); `resources` have their parents set. */
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
  return singular(plural).toLowerCase();
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
