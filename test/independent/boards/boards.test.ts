import { defineIndependentCase } from '../independent-case.js';
import { startBoardsServer } from './boards-server.js';
import { BOARDS_FAULTS } from './faults.js';

defineIndependentCase('boards-links-3.0.yaml', (fault) => startBoardsServer(fault), BOARDS_FAULTS);
