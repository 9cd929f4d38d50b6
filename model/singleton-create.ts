import type { OperationModel, ResourceModel } from './model.js';

/**
 * Whether a second create of a singleton sub-resource (one record per parent, spec/DECISIONS.md › D53) takes the
 * place of the first rather than being refused: the resource is a singleton and its create documents no `409` of
 * its own (D78: `POST /clusters/{id}/clusterlint` runs the linter again; a `409` reached only through `4XX` or
 * `default` does not count). The mock replaces the parent's one record then; the suite reads the same rule, so a
 * second create naming a key the client chose is no duplicate to refuse there (D930).
 */
export function secondCreateTakesPlace(create: OperationModel, resource: ResourceModel): boolean {
  return resource.parent?.singleton === true && !create.responses.some((response) => response.status === '409');
}
