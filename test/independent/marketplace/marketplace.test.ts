import { defineIndependentCase, INDEPENDENT_KEY } from '../independent-case.js';
import { startMarketServer } from './marketplace-server.js';
import { MARKET_FAULTS } from './faults.js';

defineIndependentCase('marketplace-3.1.yaml', (fault) => startMarketServer(INDEPENDENT_KEY, fault), MARKET_FAULTS);
