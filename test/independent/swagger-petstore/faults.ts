import type { IndependentSpec, KilledFault } from '../independent-target.js';
import type { PetstoreFault } from './petstore-server.js';

// The Swagger Petstore 3 (the shared corpus's swagger-petstore/openapi.yaml) implemented from its text alone: pets
// behind an OAuth2 token (a read also behind the api_key header), open store and users, client-chosen int64 ids,
// errors without a body. Each fault is one realistic bug, rejected by the check named beside it.
/** The description the server implements: a file of the shared corpus, absent from a clone outside this workspace. */
export const PETSTORE_SPEC: IndependentSpec = { corpus: 'swagger-petstore/openapi.yaml' };

export const PETSTORE_FAULTS: readonly KilledFault<PetstoreFault>[] = [
  { fault: 'status-filter-ignored', killedBy: 'findPetsByStatus.filter' },
  { fault: 'status-default-ignored', killedBy: 'findPetsByStatus.filter' },
  { fault: 'tags-filter-ignored', killedBy: 'findPetsByTags.item-filter' },
  { fault: 'tags-filter-first-only', killedBy: 'findPetsByTags.item-filter' },
  { fault: 'order-drops-ship-date', killedBy: 'placeOrder.echo' },
  { fault: 'missing-user-500', killedBy: 'getUserByName.not-found' },
  { fault: 'form-update-ignored', killedBy: 'updatePetWithForm.persisted' },
  { fault: 'put-creates-missing', killedBy: 'updatePet.persisted' },
  { fault: 'put-drops-tags', killedBy: 'updatePet.persisted' },
  { fault: 'delete-keeps-pet', killedBy: 'deletePet.gone' },
  { fault: 'create-drops-category', killedBy: 'addPet.echo' },
  { fault: 'create-answers-201', killedBy: 'addPet.echo' },
  { fault: 'order-int64-rounded', killedBy: 'placeOrder.int64' },
  { fault: 'client-id-ignored', killedBy: 'addPet.client-id' },
  { fault: 'name-not-required', killedBy: 'addPet.required-fields' },
  { fault: 'auth-not-enforced', killedBy: 'auth.addPet' },
  { fault: 'api-key-refused', killedBy: 'getPetById.found' },
  { fault: 'missing-pet-500', killedBy: 'getPetById.not-found' },
  { fault: 'bad-id-500', killedBy: 'getPetById.not-found' },
  { fault: 'user-update-lost', killedBy: 'updateUser.persisted' },
  { fault: 'user-delete-keeps', killedBy: 'deleteUser.gone' },
  { fault: 'order-missing-200', killedBy: 'getOrderById.not-found' },
  { fault: 'order-delete-keeps', killedBy: 'deleteOrder.gone' },
  { fault: 'inventory-without-key', killedBy: 'auth.getInventory' },
];
