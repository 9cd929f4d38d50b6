import { expect, test } from 'vitest';
import { MAX_WALK_RECORDS } from '../../../conformance/checks/served-lists.js';
import { INDEPENDENT_KEY, outcomes } from '../independent-case.js';
import { defineMuseumCase, MUSEUM_ABSENT, MUSEUM_SPEC, museumTarget, type MuseumFaultCase } from './museum-case.js';
import { startMuseumServer, type MuseumFault } from './museum-server.js';

// Redocly's Museum API (the shared corpus's museum/openapi.yaml) implemented from its text alone: opening hours
// computed for every day from `startDate` on (pages that never end), special events in a startDate..endDate window
// whose defaults only its prose states, page/limit paging, a ticket's QR code as image/png, problem+json errors.
// Each fault is one realistic bug, rejected by the check named beside it.
const FAULTS: readonly MuseumFaultCase<MuseumFault>[] = [
  { fault: 'deleted-event-still-listed', killedBy: 'deleteSpecialEvent.gone' },
  { fault: 'delete-keeps-event', killedBy: 'deleteSpecialEvent.gone' },
  { fault: 'qr-as-octet-stream', killedBy: 'getTicketCode.documented' },
  { fault: 'events-default-limit-ignored', killedBy: 'listSpecialEvents.default-limit' },
  { fault: 'hours-limit-ignored', killedBy: 'getMuseumHours.limit' },
  { fault: 'hours-page-repeats', killedBy: 'getMuseumHours.pages' },
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
];

defineMuseumCase((fault) => startMuseumServer({ user: INDEPENDENT_KEY, ...(fault === undefined ? {} : { fault }) }), FAULTS);

// Hours for every day from `startDate` on never end: the walk stops at its stated bound and says so (D185), asked
// from today rather than from 1970 (D186).
test.skipIf(MUSEUM_SPEC === undefined)(`museum/openapi.yaml: endless opening hours are walked to a stated bound${MUSEUM_SPEC === undefined ? ` (${MUSEUM_ABSENT})` : ''}`, async () => {
  const server = await startMuseumServer({ user: INDEPENDENT_KEY });
  try {
    const day = (): string => new Date().toISOString().slice(0, 10);
    const before = day();
    const [pages] = await outcomes(museumTarget(MUSEUM_SPEC!, server.baseUrl), ['getMuseumHours.pages']);
    expect(pages?.ok).toBe(true);
    const advice = pages?.ok === true ? pages.advice.join('\n') : '';
    expect(advice).toContain(`stopped at its bound of ${MAX_WALK_RECORDS} records`);
    // Today as the run saw it (the run may cross midnight UTC).
    expect([before, day()].some((today) => advice.includes(`startDate=${today}`))).toBe(true);
  } finally {
    await server.close();
  }
});
