import type { KilledFault } from '../independent-target.js';
import type { MarketFault } from './marketplace-server.js';

/**
 * The suite against a marketplace backend written from spec/wild/marketplace-3.1.yaml alone (marketplace-server.ts): numeric
 * range filters in three naming styles (one bound exclusive, one pair on int64 serial numbers, a reversed price
 * range refused with 400) and served shipping profiles bounded by cost. The correct server passes every check;
 * each one-fault version is rejected by the range check its fault breaks.
 */
export const MARKET_FAULTS: readonly KilledFault<MarketFault>[] = [
  { fault: 'min-price-ignored', killedBy: 'get-listings.price-range' },
  { fault: 'max-price-exclusive', killedBy: 'get-listings.price-range' },
  { fault: 'min-price-exclusive', killedBy: 'get-listings.price-range' },
  { fault: 'reversed-price-500', killedBy: 'get-listings.price-range' },
  { fault: 'reversed-price-empty', killedBy: 'get-listings.price-range' },
  { fault: 'weight-lower-exclusive', killedBy: 'get-listings.weight_grams-range' },
  { fault: 'weight-upper-inclusive', killedBy: 'get-listings.weight_grams-range' },
  { fault: 'weight-bounds-on-price', killedBy: 'get-listings.weight_grams-range' },
  { fault: 'serial-bounds-as-doubles', killedBy: 'get-listings.serial_number-range' },
  { fault: 'shipping-min-cost-ignored', killedBy: 'get-shipping-profiles.cost-range' },
  { fault: 'shipping-max-cost-exclusive', killedBy: 'get-shipping-profiles.cost-range' },
];
