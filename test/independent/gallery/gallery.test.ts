import { defineIndependentCase, INDEPENDENT_CLOCK, INDEPENDENT_KEY } from '../independent-case.js';
import { startGalleryServer } from './gallery-server.js';
import { GALLERY_FAULTS } from './faults.js';

defineIndependentCase('gallery-3.1.yaml', (fault) => startGalleryServer({ user: INDEPENDENT_KEY, now: INDEPENDENT_CLOCK, ...(fault === undefined ? {} : { fault }) }), GALLERY_FAULTS);
