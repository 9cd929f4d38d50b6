import type { KilledFault } from '../independent-target.js';
import type { BoardsFault } from './boards-server.js';

// The boards service (spec/wild/boards-links-3.0.yaml) implemented from its text alone. Every fault sits behind a
// board that exists, and only the create's declared links say that its `key` is the cards' `boardRef` (the cards
// are then a sub-resource of the boards, D118): a suite that matched names alone would call the cards with a
// drawn key, get the documented 404, and pass each of them.
export const BOARDS_FAULTS: readonly KilledFault<BoardsFault>[] = [
  { fault: 'cards-as-text', killedBy: 'stateful.model' },
  { fault: 'cards-wrapped', killedBy: 'stateful.model' },
  { fault: 'add-card-500', killedBy: 'addCard.echo' },
  { fault: 'archive-500', killedBy: 'archiveBoard.documented' },
  { fault: 'cards-ignore-parent', killedBy: 'listBoardCards.parent-scope' },
  { fault: 'card-added-to-first-board', killedBy: 'listBoardCards.parent-scope' },
];
