import { PET_STATUSES, type PetRecord, type PetStatus } from '../../spec/exact.js';
import type { CheckId } from '../catalogue.js';
import type { Exchange } from '../client.js';
import { exactJson, toPet, Violation } from '../contract.js';
import { requests, type CheckContext } from '../context.js';

/**
 * One conformance check: a stable id from the catalogue, whether it must write (then `--read-only` skips it,
 * with that reason), and `run`, which resolves when the target conforms and throws a `Violation` or a
 * `PropertyFailure` otherwise.
 */
export interface Check {
  id: CheckId;
  writes: boolean;
  run(context: CheckContext): Promise<void>;
}

/**
 * What the suite has learnt about one target during this process: every id it has seen, its population, and
 * how many pets it is known to hold in all and per status (lower bounds; pets are never deleted in the seed).
 */
interface TargetMemory {
  /** Ids seen in any response, with the tick at which each was first seen. */
  knownIds: Map<bigint, number>;
  /** Ids carried by a 201 of this process: no two creates may share one. */
  createdIds: Set<bigint>;
  /** The id of the latest 201 (for the id-gap search of {@link expectNothingCreated}). */
  lastCreatedId: bigint | undefined;
  tick: number;
  population: Promise<void> | undefined;
  atLeast: Map<PetStatus | 'all', number>;
}
const memories = new Map<string, TargetMemory>();

/**
 * Forgets what was learnt about the target at `baseUrl` (ids, population). Call it when another server takes
 * over an address the suite already tested in this process, e.g. a test server restarted on the same port.
 */
export function forgetTarget(baseUrl: string): void {
  memories.delete(baseUrl.replace(/\/+$/, ''));
}

function memory(context: CheckContext): TargetMemory {
  let found = memories.get(context.target.baseUrl);
  if (found === undefined) memories.set(context.target.baseUrl, (found = { knownIds: new Map(), createdIds: new Set(), lastCreatedId: undefined, tick: 0, population: undefined, atLeast: new Map() }));
  return found;
}

/** Records ids seen in responses; a create sent later must get an id outside them (seed, createPet rule 2: "a new id"). */
export function rememberIds(context: CheckContext, pets: readonly PetRecord[]): void {
  const remembered = memory(context);
  remembered.tick += 1;
  for (const pet of pets) if (!remembered.knownIds.has(pet.id)) remembered.knownIds.set(pet.id, remembered.tick);
}

/** Whether an id was already seen on this target during this process. */
export function isKnownId(context: CheckContext, id: bigint): boolean {
  return memory(context).knownIds.has(id);
}

/**
 * Whether the id of a 201 is new (seed, createPet rule 2): no other 201 carried it, and no response seen before
 * the create was sent (`sentAt`, a tick of {@link rememberIds}) held it. A list answered while the create was in
 * flight may show the new pet first; that is not a repeat.
 */
function isNewId(context: CheckContext, id: bigint, sentAt: number): boolean {
  const remembered = memory(context);
  const seen = remembered.knownIds.get(id);
  return !remembered.createdIds.has(id) && (seen === undefined || seen > sentAt);
}

/** The number of pets (of a status, or in all) the target is known to hold at least. */
export function knownAtLeast(context: CheckContext, status: PetStatus | undefined): number {
  return memory(context).atLeast.get(status ?? 'all') ?? 0;
}

/**
 * A page shorter than its limit is the whole list (seed, Endpoints §1: a paginated list, `limit` its maximum
 * size), so it cannot be shorter than the number of matching pets the target is known to hold.
 */
export function expectCompletePage(context: CheckContext, pets: readonly PetRecord[], limit: number, status: PetStatus | undefined, exchange: Exchange): void {
  const held = knownAtLeast(context, status);
  if (pets.length < limit && pets.length < held) {
    throw new Violation(`the page holds ${pets.length} pets, fewer than limit ${limit}, yet the target holds at least ${held} pets${status === undefined ? '' : ` of status ${status}`}: the page is incomplete`, exchange);
  }
}

/** `GET /pets` with a query, checked against the contract (200 only); returns the pets, int64 exact. */
export async function listPets(context: CheckContext, query = ''): Promise<{ exchange: Exchange; pets: PetRecord[] }> {
  const { exchange, body } = await context.call('listPets', requests.listPets(query), [200]);
  const pets = (body as unknown[]).map(toPet);
  rememberIds(context, pets);
  return { exchange, pets };
}

/**
 * `POST /pets` with a valid NewPet; checks the 201 (seed, createPet rule 2) and returns the created pet.
 * When `mayRefuse` (a name at the corners of the seed's gaps), a 400 `Error` is accepted and `undefined` returned.
 */
export async function createPet(context: CheckContext, pet: Omit<PetRecord, 'id'>, mayRefuse = false): Promise<PetRecord | undefined> {
  const sentAt = memory(context).tick;
  const { exchange, body } = await context.call('createPet', requests.createPet(exactJson(pet)), mayRefuse && !context.target.strict ? [201, 400] : [201]);
  if (exchange.response.status === 400) {
    context.advise(`createPet refused a name at the corners of the seed's gaps with 400 (allowed: name constraints are not shown), e.g. ${JSON.stringify(pet.name.slice(0, 40))}`);
    return undefined;
  }
  const created = toPet(body);
  expectEcho(pet, created, exchange, context);
  if (!isNewId(context, created.id, sentAt)) throw new Violation(`the 201 carries id ${created.id}, which another pet already has (ids must be new)`, exchange);
  memory(context).createdIds.add(created.id);
  memory(context).lastCreatedId = created.id;
  rememberIds(context, [created]);
  return created;
}

/**
 * The returned Pet repeats the submitted fields exactly (seed, createPet rule 2). When `status` was omitted,
 * any PetStatus or none is accepted (seed, Gaps: default status not shown).
 */
export function expectEcho(sent: Omit<PetRecord, 'id'>, got: PetRecord, exchange: Exchange, context: CheckContext): void {
  if (got.name !== sent.name) throw new Violation(`name was sent as ${JSON.stringify(sent.name)} but came back as ${JSON.stringify(got.name)}`, exchange);
  if (got.categoryId !== sent.categoryId) throw new Violation(`categoryId was sent as ${sent.categoryId} but came back as ${got.categoryId}`, exchange);
  if (sent.status !== undefined && got.status !== sent.status) {
    throw new Violation(`status was sent as ${JSON.stringify(sent.status)} but came back as ${JSON.stringify(got.status)}`, exchange);
  }
  if (sent.status === undefined && got.status !== undefined) {
    context.advise(`createPet without status answered status ${JSON.stringify(got.status)} (allowed: the default status is not shown)`);
  }
}

/** Same fields as a pet seen before (persistence: seed, Endpoints §1-3). A status absent at creation may be filled. */
export function expectSamePet(expected: PetRecord, got: PetRecord, exchange: Exchange, where: string): void {
  const differs =
    got.id !== expected.id ||
    got.name !== expected.name ||
    got.categoryId !== expected.categoryId ||
    (expected.status !== undefined && got.status !== expected.status);
  if (differs) throw new Violation(`${where}: pet ${expected.id} is ${show(got)} but was created as ${show(expected)}`, exchange);
}

/** A pet as exact JSON, for messages. */
export function show(pet: PetRecord): string {
  return exactJson(pet);
}

/**
 * Makes sure the target holds enough pets for the limit rules to bite: at least 101 in all and 21 of each
 * status, and a few without status. Creates what is missing (once per target and process); in read-only mode
 * creates nothing and advises when the target is too small for the rules to be tested in full.
 */
export function ensurePopulation(context: CheckContext): Promise<void> {
  const remembered = memory(context);
  remembered.population ??= populate(context);
  return remembered.population;
}

async function populate(context: CheckContext): Promise<void> {
  const wanted: { status: PetStatus | undefined; count: number }[] = [];
  const atLeast = memory(context).atLeast;
  for (const status of PET_STATUSES) {
    const { pets } = await listPets(context, `status=${status}&limit=100`);
    wanted.push({ status, count: Math.max(0, 21 - pets.length) });
    atLeast.set(status, pets.length);
  }
  const { pets: all } = await listPets(context, 'limit=100');
  atLeast.set('all', all.length);
  const planned = wanted.reduce((sum, w) => sum + w.count, 0);
  wanted.push({ status: undefined, count: Math.max(3, 101 - all.length - planned) });
  if (context.target.readOnly) {
    if (wanted.some((w) => w.status !== undefined && w.count > 0) || all.length < 100) {
      context.advise('read-only: the target holds fewer than 101 pets (or fewer than 21 of a status), so some limit rules could only be tested in part');
    }
    return;
  }
  let serial = 0;
  for (const { status, count } of wanted) {
    for (let i = 0; i < count; i++) {
      serial += 1;
      await createPet(context, { name: `Population ${serial}`, categoryId: BigInt(serial), ...(status === undefined ? {} : { status }) });
    }
  }
  for (const status of PET_STATUSES) atLeast.set(status, 21);
  atLeast.set('all', 101);
}

/** The longest run of skipped ids the id-gap search reads one by one. */
const MAX_ID_GAP = 32n;

/**
 * After a refused write, no pet carrying the request's marker may exist (seed, Errors: a refused request
 * creates nothing). Looks at the first page of 100 pets. When that page is full and holds no marker (the
 * order is not shown, so a new pet may sit beyond it), searches the id gap instead: a valid create sent now
 * gets the next id; every id between the previous 201 and this one is read with getPet, and a pet there with
 * the marker is a violation. When neither can decide (ids not consecutive, no earlier 201), says so as advice.
 */
export async function expectNothingCreated(context: CheckContext, marker: { name: string } | { categoryId: bigint } | undefined, refused: Exchange): Promise<void> {
  if (marker === undefined) return;
  const carriesMarker = (pet: PetRecord): boolean => ('name' in marker ? pet.name === marker.name : pet.categoryId === marker.categoryId);
  const { pets } = await listPets(context, 'limit=100');
  const found = pets.find(carriesMarker);
  if (found !== undefined) throw new Violation(`the request was refused with ${refused.response.status}, but it created pet ${show(found)}`, refused);
  if (pets.length < 100) return;
  // The first time, there is no earlier 201 to bracket the gap: the probe made now brackets the next refusals.
  const before = memory(context).lastCreatedId;
  const after = (await createPet(context, { name: 'Id gap probe', categoryId: 5n }))!.id;
  if (before === undefined || after <= before || after - before > MAX_ID_GAP) {
    context.advise('could not confirm that a refused request created nothing: the target holds more than 100 pets, their order is not shown, and its ids are not consecutive');
    return;
  }
  for (let id = before + 1n; id < after; id++) {
    if (memory(context).createdIds.has(id)) continue;
    const { exchange, body } = await context.call('getPet', requests.getPet(String(id)), [200, 404]);
    const pet = exchange.response.status === 200 ? toPet(body) : undefined;
    if (pet !== undefined && carriesMarker(pet)) throw new Violation(`the request was refused with ${refused.response.status}, but it created pet ${show(pet)} (found by its id)`, refused);
  }
}
