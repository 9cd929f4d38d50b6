import type { KilledFault } from '../independent-target.js';
import type { GalleryFault } from './gallery-server.js';

// The gallery (spec/wild/gallery-3.1.yaml, in the shape of the Museum API) implemented from its text alone:
// "upcoming" exhibitions in a startDate..endDate window whose defaults only its prose states, page/limit paging,
// a pass's QR code as image/png under a pass a create returns, problem+json errors. Each fault is one realistic bug.
export const GALLERY_FAULTS: readonly KilledFault<GalleryFault>[] = [
  { fault: 'page-two-repeats-page-one', killedBy: 'listExhibitions.pages' },
  { fault: 'page-skip-off-by-one', killedBy: 'listExhibitions.pages' },
  { fault: 'limit-ignored', killedBy: 'listExhibitions.limit' },
  { fault: 'limit-plus-one', killedBy: 'listExhibitions.limit' },
  { fault: 'limit-maximum-not-enforced', killedBy: 'listExhibitions.invalid-query' },
  { fault: 'default-window-ignored-limit', killedBy: 'listExhibitions.default-limit' },
  { fault: 'start-date-ignored', killedBy: 'listExhibitions.range' },
  { fault: 'end-date-exclusive', killedBy: 'listExhibitions.range' },
  { fault: 'reversed-range-500', killedBy: 'listExhibitions.range' },
  { fault: 'reversed-range-ignored', killedBy: 'listExhibitions.range' },
  { fault: 'patch-replaces-record', killedBy: 'updateExhibition.persisted' },
  { fault: 'delete-keeps-record', killedBy: 'deleteExhibition.gone' },
  { fault: 'delete-answers-200', killedBy: 'deleteExhibition.gone' },
  { fault: 'create-drops-price', killedBy: 'createExhibition.echo' },
  { fault: 'create-answers-200', killedBy: 'createExhibition.echo' },
  { fault: 'client-id-ignored', killedBy: 'createExhibition.client-id' },
  { fault: 'auth-not-enforced', killedBy: 'auth.getExhibition' },
  { fault: 'errors-as-json', killedBy: 'getExhibition.not-found' },
  { fault: 'bad-date-accepted', killedBy: 'createExhibition.invalid-body' },
  { fault: 'bad-uuid-500', killedBy: 'getExhibition.not-found' },
  { fault: 'missing-answers-200-empty', killedBy: 'getExhibition.not-found' },
  { fault: 'qr-as-json', killedBy: 'getPassCode.documented' },
];
