import { defineIndependentCase, type KilledFault } from '../independent-case.js';
import { startBoardsServer, type BoardsFault } from './boards-server.js';

// The boards service (spec/wild/boards-links-3.0.yaml) implemented from its text alone. Every fault sits behind a
// board that exists, and only the create's declared links say that its `key` is the cards' `boardRef`: a suite
// that matched names alone would call the cards with a drawn key, get the documented 404, and pass each of them.
const FAULTS: readonly KilledFault<BoardsFault>[] = [
  { fault: 'cards-as-text', killedBy: 'listBoardCards.documented' },
  { fault: 'cards-wrapped', killedBy: 'listBoardCards.documented' },
  { fault: 'add-card-500', killedBy: 'addCard.documented' },
  { fault: 'archive-500', killedBy: 'archiveBoard.documented' },
];

defineIndependentCase('boards-links-3.0.yaml', (fault) => startBoardsServer(fault), FAULTS);
