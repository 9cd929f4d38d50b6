import type { IndependentSpec, KilledFault } from '../independent-target.js';
import type { MuseumFault } from './museum-server.js';

// Redocly's Museum API (the shared corpus's museum/openapi.yaml) implemented from its text alone: opening hours
// computed for every day from `startDate` on (pages that never end), special events in a startDate..endDate window
// whose defaults only its prose states, page/limit paging, a ticket's QR code as image/png, problem+json errors.
// Each fault is one realistic bug, rejected by the check named beside it (`strict`: only under `--strict`).
/** The description the server implements: a file of the shared corpus, absent from a clone outside this workspace. */
export const MUSEUM_CORPUS_SPEC: IndependentSpec = { corpus: 'museum/openapi.yaml' };

/** Every fault of the museum server with its killing check. */
export const MUSEUM_FAULTS: readonly KilledFault<MuseumFault>[] = [
  { fault: 'deleted-event-still-listed', killedBy: 'deleteSpecialEvent.gone' },
  { fault: 'delete-keeps-event', killedBy: 'deleteSpecialEvent.gone' },
  { fault: 'qr-as-octet-stream', killedBy: 'getTicketCode.documented' },
  { fault: 'events-default-limit-ignored', killedBy: 'listSpecialEvents.default-limit' },
  { fault: 'hours-limit-ignored', killedBy: 'getMuseumHours.limit' },
  { fault: 'hours-page-repeats', killedBy: 'getMuseumHours.pages' },
  { fault: 'hours-later-pages-404', killedBy: 'getMuseumHours.pages' },
  { fault: 'events-limit-maximum-ignored', killedBy: 'listSpecialEvents.invalid-query' },
  { fault: 'events-page-ignored', killedBy: 'listSpecialEvents.pages' },
  { fault: 'dates-as-local-date-times', killedBy: 'createSpecialEvent.echo' },
  { fault: 'event-drops-description', killedBy: 'createSpecialEvent.echo' },
  { fault: 'price-as-string', killedBy: 'getSpecialEvent.found' },
  { fault: 'create-answers-200', killedBy: 'createSpecialEvent.echo' },
  { fault: 'patch-replaces-event', killedBy: 'updateSpecialEvent.persisted' },
  { fault: 'auth-not-enforced', killedBy: 'auth.getSpecialEvent' },
  { fault: 'errors-as-json', killedBy: 'getSpecialEvent.not-found' },
  { fault: 'bad-uuid-500', killedBy: 'getSpecialEvent.not-found' },
  { fault: 'end-date-exclusive', killedBy: 'listSpecialEvents.range' },
  { fault: 'start-date-ignored', killedBy: 'listSpecialEvents.range' },
  { fault: 'default-end-date-ignored', killedBy: 'listSpecialEvents.range', strict: true },
  { fault: 'reversed-range-500', killedBy: 'listSpecialEvents.range' },
  { fault: 'hours-twelve-hour-clock', killedBy: 'getMuseumHours.documented' },
  { fault: 'ticket-without-confirmation', killedBy: 'buyMuseumTickets.documented' },
  { fault: 'hours-start-day-before', killedBy: 'getMuseumHours.window' },
  { fault: 'events-start-day-before', killedBy: 'listSpecialEvents.range' },
  { fault: 'ticket-date-today', killedBy: 'buyMuseumTickets.echo' },
];
