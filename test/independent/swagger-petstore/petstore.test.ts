import { defineIndependentCase, INDEPENDENT_KEY } from '../independent-case.js';
import { PETSTORE_FAULTS, PETSTORE_SPEC } from './faults.js';
import { startPetstoreServer } from './petstore-server.js';

defineIndependentCase(PETSTORE_SPEC, (fault) => startPetstoreServer({ key: INDEPENDENT_KEY, ...(fault === undefined ? {} : { fault }) }), PETSTORE_FAULTS);
