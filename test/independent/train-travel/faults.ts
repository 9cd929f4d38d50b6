import type { IndependentSpec } from '../independent-target.js';

// One-fault versions of the Train Travel server: each is a bug a backend engineer could plausibly ship, and each
// names the conformance check that must reject it (that same check passes the correct server).

/** The description the server implements: a file of the shared corpus, absent from a clone outside this workspace. */
export const TRAIN_TRAVEL_CORPUS_SPEC: IndependentSpec = { corpus: 'train-travel/openapi.yaml' };

/** The name of one fault of the server (see {@link TRAIN_FAULTS}). */
export type TrainFault =
  | 'stations-page-two-repeats-page-one'
  | 'stations-limit-ignored'
  | 'stations-bad-limit-500'
  | 'stations-default-limit-20'
  | 'stations-country-filter-ignored'
  | 'trips-page-skips-one'
  | 'trips-bicycles-filter-ignored'
  | 'trips-dogs-filter-ignored'
  | 'bookings-limit-plus-one'
  | 'bookings-limit-maximum-not-enforced'
  | 'booking-trip-not-checked'
  | 'booking-conflict-always'
  | 'create-answers-200'
  | 'create-drops-has-dog'
  | 'ids-not-uuid'
  | 'delete-keeps-record'
  | 'delete-answers-200'
  | 'create-without-auth'
  | 'list-without-auth'
  | 'errors-as-plain-json'
  | 'bad-uuid-500'
  | 'payment-echoes-cvc'
  | 'payment-amount-zero-accepted'
  | 'payment-currency-not-checked';

/** A fault, what it breaks, and the id of the check that must fail on it. */
export interface TrainFaultCase {
  fault: TrainFault;
  description: string;
  killedBy: string;
}

/** Every fault with its killing check. */
export const TRAIN_FAULTS: readonly TrainFaultCase[] = [
  { fault: 'stations-page-two-repeats-page-one', description: 'page 2 of the stations repeats page 1', killedBy: 'get-stations.pages' },
  { fault: 'stations-limit-ignored', description: 'the stations list ignores limit: every page holds up to 10 stations', killedBy: 'get-stations.limit' },
  { fault: 'stations-bad-limit-500', description: 'the stations list reads limit with Number() and fails on a non-numeric one (500)', killedBy: 'get-stations.invalid-query' },
  { fault: 'stations-default-limit-20', description: 'the stations list without limit holds 20 stations, not the default 10', killedBy: 'get-stations.default-limit' },
  { fault: 'stations-country-filter-ignored', description: 'the stations list ignores country', killedBy: 'get-stations.country-filter' },
  { fault: 'trips-page-skips-one', description: 'pages of trips after the first skip one trip', killedBy: 'get-trips.pages' },
  { fault: 'trips-bicycles-filter-ignored', description: 'bicycles=true still lists trips that do not allow bicycles', killedBy: 'get-trips.bicycles-filter' },
  { fault: 'trips-dogs-filter-ignored', description: 'dogs=true still lists trips that do not allow dogs', killedBy: 'get-trips.dogs-filter' },
  { fault: 'bookings-limit-plus-one', description: 'a page of bookings holds limit + 1 records', killedBy: 'get-bookings.limit' },
  { fault: 'bookings-limit-maximum-not-enforced', description: 'a limit above the maximum 100 is accepted', killedBy: 'get-bookings.invalid-query' },
  { fault: 'booking-trip-not-checked', description: 'a booking naming a trip that does not exist is created', killedBy: 'create-booking.reference' },
  { fault: 'booking-conflict-always', description: 'a seat counter that never resets refuses every booking with 409', killedBy: 'create-booking.echo' },
  { fault: 'create-answers-200', description: 'a create answers 200 instead of 201', killedBy: 'create-booking.echo' },
  { fault: 'create-drops-has-dog', description: 'has_dog is lost on the way to storage', killedBy: 'create-booking.echo' },
  { fault: 'ids-not-uuid', description: 'booking ids are counters, not the uuids the schema declares', killedBy: 'create-booking.echo' },
  { fault: 'delete-keeps-record', description: 'a delete answers 204 but the booking stays', killedBy: 'delete-booking.gone' },
  { fault: 'delete-answers-200', description: 'a delete answers an undocumented 200 with a body', killedBy: 'delete-booking.gone' },
  { fault: 'create-without-auth', description: 'bookings are created without a token', killedBy: 'auth.create-booking' },
  { fault: 'list-without-auth', description: 'the bookings list is served without a token', killedBy: 'auth.get-bookings' },
  { fault: 'errors-as-plain-json', description: 'errors are sent as application/json, not application/problem+json', killedBy: 'get-booking.not-found' },
  { fault: 'bad-uuid-500', description: 'a booking id that is not a uuid fails the store lookup (500)', killedBy: 'get-booking.not-found' },
  { fault: 'payment-echoes-cvc', description: 'a payment answer echoes the writeOnly cvc', killedBy: 'create-booking-payment.echo' },
  { fault: 'payment-amount-zero-accepted', description: 'a payment of amount 0 (exclusiveMinimum 0) is accepted', killedBy: 'create-booking-payment.invalid-body' },
  { fault: 'payment-currency-not-checked', description: 'a payment in a currency outside the enum is taken', killedBy: 'create-booking-payment.invalid-body' },
];
