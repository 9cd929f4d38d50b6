import { defineIndependentCase } from '../independent-case.js';
import { INDEPENDENT_KEY } from '../independent-target.js';
import { QUIET_FAULTS } from './faults.js';
import { startQuietServer } from './quiet-windows-server.js';

defineIndependentCase('quiet-windows-3.0.yaml', (fault) => startQuietServer({ key: INDEPENDENT_KEY, fault }), QUIET_FAULTS);
