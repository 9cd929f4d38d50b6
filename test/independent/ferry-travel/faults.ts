// One-fault versions of the ferry-travel server: each is a bug a backend engineer could plausibly ship, and each
// names the conformance check that must reject it (that same check passes the correct server).

/** The name of one fault of the server (see {@link FERRY_FAULTS}). */
export type FerryFault =
  | 'page-two-repeats-page-one'
  | 'page-skips-one'
  | 'limit-ignored'
  | 'limit-plus-one'
  | 'limit-maximum-not-enforced'
  | 'default-limit-20'
  | 'reference-not-checked'
  | 'passenger-name-not-required'
  | 'create-answers-200'
  | 'create-drops-has-pet'
  | 'ids-not-uuid'
  | 'delete-keeps-record'
  | 'delete-answers-200'
  | 'create-without-auth'
  | 'list-without-auth'
  | 'errors-as-plain-json'
  | 'payment-echoes-cvc'
  | 'payment-amount-zero-accepted'
  | 'payment-parent-not-checked'
  | 'ports-page-two-repeats-page-one'
  | 'ports-limit-ignored'
  | 'ports-bad-limit-500'
  | 'crossings-page-skips-one'
  | 'crossings-default-limit-20'
  | 'ports-country-filter-ignored'
  | 'crossings-cars-filter-ignored';

/** A fault, what it breaks, and the id of the check that must fail on it. */
export interface FaultCase {
  fault: FerryFault;
  description: string;
  killedBy: string;
}

/** Every fault with its killing check. */
export const FERRY_FAULTS: readonly FaultCase[] = [
  { fault: 'page-two-repeats-page-one', description: 'page 2 of the reservations repeats page 1', killedBy: 'get-reservations.pages' },
  { fault: 'page-skips-one', description: 'pages after the first skip one record (off by one)', killedBy: 'get-reservations.pages' },
  { fault: 'limit-ignored', description: 'limit is ignored: every page holds 10 records', killedBy: 'get-reservations.limit' },
  { fault: 'limit-plus-one', description: 'a page holds limit + 1 records', killedBy: 'get-reservations.limit' },
  { fault: 'limit-maximum-not-enforced', description: 'a limit above the maximum 100 is accepted', killedBy: 'get-reservations.invalid-query' },
  { fault: 'default-limit-20', description: 'a list without limit holds 20 records, not the default 10', killedBy: 'get-reservations.default-limit' },
  { fault: 'reference-not-checked', description: 'a reservation naming a crossing that does not exist is created', killedBy: 'create-reservation.reference' },
  { fault: 'passenger-name-not-required', description: 'a reservation without passenger_name is created', killedBy: 'create-reservation.required-fields' },
  { fault: 'create-answers-200', description: 'a create answers 200 instead of 201', killedBy: 'create-reservation.echo' },
  { fault: 'create-drops-has-pet', description: 'has_pet is lost on the way to storage', killedBy: 'create-reservation.echo' },
  { fault: 'ids-not-uuid', description: 'reservation ids are counters, not the uuids the schema declares', killedBy: 'create-reservation.echo' },
  { fault: 'delete-keeps-record', description: 'a delete answers 204 but the reservation stays', killedBy: 'delete-reservation.gone' },
  { fault: 'delete-answers-200', description: 'a delete answers an undocumented 200 with a body', killedBy: 'delete-reservation.gone' },
  { fault: 'create-without-auth', description: 'writes are accepted without a token', killedBy: 'auth.create-reservation' },
  { fault: 'list-without-auth', description: 'the reservations list is served without a token', killedBy: 'auth.get-reservations' },
  { fault: 'errors-as-plain-json', description: 'errors are sent as application/json, not application/problem+json', killedBy: 'get-reservation.not-found' },
  { fault: 'payment-echoes-cvc', description: 'a payment answer echoes the writeOnly cvc', killedBy: 'create-reservation-payment.echo' },
  { fault: 'payment-amount-zero-accepted', description: 'a payment of amount 0 (exclusiveMinimum 0) is accepted', killedBy: 'create-reservation-payment.invalid-body' },
  { fault: 'ports-page-two-repeats-page-one', description: 'page 2 of the ports (served, never created) repeats page 1', killedBy: 'get-ports.pages' },
  { fault: 'ports-limit-ignored', description: 'the ports list ignores limit: every page holds up to 10 ports', killedBy: 'get-ports.limit' },
  { fault: 'ports-bad-limit-500', description: 'the ports list reads limit with Number() and fails on a non-numeric one (500)', killedBy: 'get-ports.invalid-query' },
  { fault: 'crossings-page-skips-one', description: 'pages of crossings after the first skip one crossing', killedBy: 'get-crossings.pages' },
  { fault: 'crossings-default-limit-20', description: 'the crossings list without limit holds 20 crossings, not the default 10', killedBy: 'get-crossings.default-limit' },
  { fault: 'ports-country-filter-ignored', description: 'the ports list ignores country', killedBy: 'get-ports.country-filter' },
  { fault: 'crossings-cars-filter-ignored', description: 'the crossings list ignores cars', killedBy: 'get-crossings.cars-filter' },
  { fault: 'payment-parent-not-checked', description: 'a payment for a reservation that does not exist is taken', killedBy: 'create-reservation-payment.absent-parent' },
];
