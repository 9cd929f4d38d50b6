import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../model/loader.js';

/**
 * One evolved spec of the corpus (spec/corpus/README.md): `spec/openapi.yaml` with one edit. `name` is the file
 * name without `.yaml`; `edit` is what changed, as the file's first-line comment says.
 */
export interface CorpusCase {
  name: string;
  edit: string;
}

/** Every corpus case, in the order of spec/corpus/README.md. */
export const CORPUS: readonly CorpusCase[] = [
  { name: 'optional-field', edit: 'NewPet and Pet gain an optional `nickname` string' },
  { name: 'required-field', edit: 'NewPet and Pet gain a required `breed` string' },
  { name: 'new-enum-value', edit: 'PetStatus gains `reserved`' },
  { name: 'new-filter', edit: 'listPets gains a `categoryId` int64 query filter' },
  { name: 'boolean-filter', edit: 'an optional boolean `vaccinated` property and its listPets filter' },
  { name: 'limit-bounds', edit: 'listPets `limit` 1..50, default 10' },
  { name: 'delete', edit: 'DELETE /pets/{petId} (deletePet): 204, 404' },
  { name: 'put-update', edit: 'PUT /pets/{petId} (replacePet) with a NewPet: 200 Pet, 400, 404' },
  { name: 'patch-update', edit: 'PATCH /pets/{petId} (updatePet) with a PetPatch: 200 Pet, 400, 404' },
  { name: 'second-resource', edit: 'owners: /owners and /owners/{ownerId}, uuid ids, a `city` filter' },
  { name: 'v2-base-path', edit: 'servers end in /v2' },
  { name: 'openapi-3.0', edit: 'the interface in OpenAPI 3.0.3 with a `nullable` nickname' },
  { name: 'no-security', edit: 'no security scheme: no key asked, no 401' },
  { name: 'create-200', edit: 'createPet answers 200 instead of 201' },
  { name: 'problem-json-errors', edit: 'errors as application/problem+json `{type, title, status, detail}`' },
  { name: 'allof-pet', edit: 'Pet = allOf [NewPet, {id}]' },
  { name: 'nested-record', edit: 'a nested `microchip` object and a `tagIds` array, int64 inside both' },
  { name: 'unmapped-operation', edit: 'GET /store/inventory (getInventory), answered from its example' },
  { name: 'string-constraints', edit: '`name` with minLength 1, maxLength 40 and a pattern' },
  { name: 'server-assigned-field', edit: 'a required readOnly `createdAt` date-time on Pet' },
  { name: 'write-only-field', edit: 'a writeOnly `microchipPin`: accepted, never returned' },
  { name: 'closed-schema', edit: 'NewPet with `additionalProperties: false`' },
  { name: 'wrapper-list', edit: 'listPets answers `{items, total}`' },
  { name: 'api-key-header', edit: 'an apiKey scheme: `X-API-Key: <key>`' },
  { name: 'path-param-id', edit: 'the item path /pets/{id}' },
  { name: 'delete-200', edit: 'DELETE /pets/{petId} answering 200 with the removed Pet' },
];

/** The absolute path of a corpus spec, `spec/corpus/<name>.yaml`. */
export function corpusSpec(name: string): string {
  return join(PACKAGE_ROOT, 'spec', 'corpus', `${name}.yaml`);
}
