import { BOARDS_FAULTS } from './boards/faults.js';
import { startBoardsServer } from './boards/boards-server.js';
import { FERRY_FAULTS } from './ferry-travel/faults.js';
import { startFerryServer } from './ferry-travel/ferry-travel-server.js';
import { GALLERY_FAULTS } from './gallery/faults.js';
import { GITHUB_ISSUES_FAULTS, GITHUB_ISSUES_SPEC } from './github-issues/faults.js';
import { startGithubIssuesServer } from './github-issues/github-issues-server.js';
import { startGalleryServer } from './gallery/gallery-server.js';
import { INDEPENDENT_CLOCK, INDEPENDENT_KEY, type IndependentSpec, type KilledFault, type RunningIndependent, type StartServer } from './independent-target.js';
import { MUSEUM_CORPUS_SPEC, MUSEUM_FAULTS } from './museum/faults.js';
import { startMuseumServer } from './museum/museum-server.js';
import { MARKET_FAULTS } from './marketplace/faults.js';
import { startMarketServer } from './marketplace/marketplace-server.js';
import { NURSERY_FAULTS } from './nursery/faults.js';
import { startNurseryServer } from './nursery/nursery-server.js';
import { PETSTORE_FAULTS, PETSTORE_SPEC } from './swagger-petstore/faults.js';
import { QUIET_FAULTS } from './quiet-windows/faults.js';
import { startQuietServer } from './quiet-windows/quiet-windows-server.js';
import { startPetstoreServer } from './swagger-petstore/petstore-server.js';
import { TRAIN_FAULTS, TRAIN_TRAVEL_CORPUS_SPEC } from './train-travel/faults.js';
import { startTrainServer } from './train-travel/train-travel-server.js';

/**
 * One one-fault version of an independent server: its name, the check that must reject it (under `--strict` when
 * `strict`), and how to start it.
 */
export interface FaultVersion {
  fault: string;
  killedBy: string;
  strict: boolean;
  start(): Promise<RunningIndependent>;
}

/** An independent server's case: the description it implements, its correct server and its one-fault versions. */
export interface IndependentCase {
  spec: IndependentSpec;
  correct(): Promise<RunningIndependent>;
  faults: FaultVersion[];
}

/** A case whose faults are started by one function (its fault names typed by that server). */
function caseOf<F extends string>(spec: IndependentSpec, start: StartServer<F>, faults: readonly KilledFault<F>[]): IndependentCase {
  return { spec, correct: () => start(undefined), faults: faults.map(({ fault, killedBy, strict }) => ({ fault, killedBy, strict: strict === true, start: () => start(fault) })) };
}

/**
 * Every independent server's fault list, as its test registers it (test/independent/<name>/faults.ts): what the
 * kill benchmark (bench/kills.ts) runs many times over with different seeds.
 */
export function independentCases(): IndependentCase[] {
  return [
    caseOf('boards-links-3.0.yaml', (fault) => startBoardsServer(fault), BOARDS_FAULTS),
    caseOf('ferry-travel-3.1.yaml', (fault) => startFerryServer({ tokens: [INDEPENDENT_KEY], now: INDEPENDENT_CLOCK, ...(fault === undefined ? {} : { fault }) }), FERRY_FAULTS),
    caseOf('gallery-3.1.yaml', (fault) => startGalleryServer({ user: INDEPENDENT_KEY, now: INDEPENDENT_CLOCK, ...(fault === undefined ? {} : { fault }) }), GALLERY_FAULTS),
    caseOf(GITHUB_ISSUES_SPEC, (fault) => startGithubIssuesServer(fault === undefined ? {} : { fault }), GITHUB_ISSUES_FAULTS),
    caseOf('marketplace-3.1.yaml', (fault) => startMarketServer(INDEPENDENT_KEY, fault), MARKET_FAULTS),
    caseOf(MUSEUM_CORPUS_SPEC, (fault) => startMuseumServer({ user: INDEPENDENT_KEY, now: INDEPENDENT_CLOCK, ...(fault === undefined ? {} : { fault }) }), MUSEUM_FAULTS),
    caseOf('nursery-3.0.yaml', (fault) => startNurseryServer({ key: INDEPENDENT_KEY, ...(fault === undefined ? {} : { fault }) }), NURSERY_FAULTS),
    caseOf(PETSTORE_SPEC, (fault) => startPetstoreServer({ key: INDEPENDENT_KEY, ...(fault === undefined ? {} : { fault }) }), PETSTORE_FAULTS),
    caseOf('quiet-windows-3.0.yaml', (fault) => startQuietServer({ key: INDEPENDENT_KEY, fault }), QUIET_FAULTS),
    caseOf(TRAIN_TRAVEL_CORPUS_SPEC, (fault) => startTrainServer({ tokens: [INDEPENDENT_KEY], ...(fault === undefined ? {} : { fault }) }), TRAIN_FAULTS),
  ];
}
