import type { KilledFault } from '../independent-target.js';
import type { NurseryFault } from './nursery-server.js';

// The nursery (spec/wild/nursery-3.0.yaml, in the shape of the classic Swagger Petstore) implemented from its text
// alone: gardeners keyed by the username the client sends, errors under `default`, client-chosen int64 ids, JSON
// and form bodies, an api_key header beside the OAuth2 token. Each fault is one realistic bug.
export const NURSERY_FAULTS: readonly KilledFault<NurseryFault>[] = [
  { fault: 'status-filter-ignored', killedBy: 'findPlantsByStatus.filter' },
  { fault: 'tags-filter-ignored', killedBy: 'findPlantsByTags.item-filter' },
  { fault: 'tags-filter-first-only', killedBy: 'findPlantsByTags.item-filter' },
  { fault: 'form-update-ignored', killedBy: 'updatePlantWithForm.persisted' },
  { fault: 'form-update-reads-body', killedBy: 'updatePlantWithForm.persisted' },
  { fault: 'absent-invalid-500', killedBy: 'updateGardener.absent-invalid' },
  { fault: 'invalid-body-404', killedBy: 'updateGardener.invalid-body' },
  { fault: 'put-creates-missing', killedBy: 'updatePlant.persisted' },
  { fault: 'put-drops-status', killedBy: 'updatePlant.persisted' },
  { fault: 'delete-keeps-plant', killedBy: 'deletePlant.gone' },
  { fault: 'create-drops-tags', killedBy: 'addPlant.echo' },
  { fault: 'create-int64-rounded', killedBy: 'placeShopOrder.int64' },
  { fault: 'client-id-ignored', killedBy: 'addPlant.client-id' },
  { fault: 'duplicate-id-overwrites', killedBy: 'addPlant.client-id' },
  { fault: 'auth-not-enforced', killedBy: 'auth.addPlant' },
  { fault: 'api-key-refused', killedBy: 'getPlantById.found' },
  { fault: 'missing-plant-500', killedBy: 'getPlantById.not-found' },
  { fault: 'bad-id-500', killedBy: 'getPlantById.not-found' },
  { fault: 'gardener-update-lost', killedBy: 'updateGardener.persisted' },
  { fault: 'gardener-delete-keeps', killedBy: 'deleteGardener.gone' },
  { fault: 'order-missing-200', killedBy: 'getShopOrderById.not-found' },
  { fault: 'xml-answer-to-json', killedBy: 'getPlantById.found' },
];
