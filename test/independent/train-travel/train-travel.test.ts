import { INDEPENDENT_KEY } from '../independent-case.js';
import { TRAIN_FAULTS } from './faults.js';
import { defineTrainTravelCase } from './train-travel-case.js';
import { startTrainServer } from './train-travel-server.js';

// The Train Travel description (shared corpus) implemented from its text alone: stations and trips it serves,
// bookings a user makes on them (a dog or a bicycle refused with the documented 409 where the trip takes none),
// payments whose card number is masked on read, problem+json errors. Each fault is one realistic bug.
defineTrainTravelCase('a server written from the description alone', (fault) => startTrainServer({ tokens: [INDEPENDENT_KEY], ...(fault === undefined ? {} : { fault }) }), TRAIN_FAULTS);
