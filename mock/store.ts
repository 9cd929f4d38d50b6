import { PET_STATUSES, type NewPetRecord, type PetRecord, type PetStatus } from '../spec/exact.js';
import { INT64_MAX } from './json.js';

export { PET_STATUSES, type NewPetRecord, type PetRecord, type PetStatus } from '../spec/exact.js';

/**
 * Serializes a pet to its JSON text, int64 fields written as exact integer literals.
 * Field order: `id`, `name`, `categoryId`, `status` (absent when the pet has none).
 */
export function petJson(pet: PetRecord): string {
  const status = pet.status === undefined ? '' : `,"status":"${pet.status}"`;
  // `join` writes one flat string; a template literal would keep a rope of its pieces (about 280 bytes per pet
  // instead of 90), and 1,000,000 pets as ropes would not fit in 300 MB (issue 6, bench/RESULTS.md).
  return ['{"id":', String(pet.id), ',"name":', JSON.stringify(pet.name), ',"categoryId":', String(pet.categoryId), status, '}'].join('');
}

/** Largest `limit` whose page {@link PetStore.list} keeps written between two changes (the API's maximum). */
const MAX_CACHED_LIMIT = 100;

/** Why {@link PetStore.create} refused a pet: the store is at `maxPets`, or no int64 id is left. */
export type CreateRefusal = 'full' | 'ids-exhausted';

/**
 * The mock's state: the animals created so far, in memory (seed, What the service does: list, add, get).
 *
 * Pets never change once created (the seed shows no update, delete or transition), so each is kept as its
 * JSON text, and listing is a slice of append-only indexes: `list` costs O(limit) whatever the store size.
 * Order of `list`: newest first, by creation (spec/DECISIONS.md › Ordering).
 * Ids are assigned from a counter that starts above the largest id loaded, so they never repeat.
 */
export class PetStore {
  private rows: string[] = [];
  private rowById = new Map<number | string, number>();
  private rowsByStatus = new Map<PetStatus, number[]>();
  /** Pages already written, by status filter (the three statuses, then none) and limit; emptied by every change. */
  private pages: (string | undefined)[][] = [[], [], [], []];
  private pagesCached = false;
  private nextId = 1n;

  /** @param maxPets most pets held at once; `create` refuses with `'full'` beyond it. */
  constructor(
    readonly maxPets = 1_000_000,
    initial: readonly PetRecord[] = [],
  ) {
    this.replace(initial);
  }

  /** Number of pets held. */
  get size(): number {
    return this.rows.length;
  }

  /** Drops every pet and loads `pets` (ids kept as given; later ids continue above the largest). */
  replace(pets: readonly PetRecord[]): void {
    this.rows = [];
    this.forgetPages();
    this.rowById.clear();
    for (const status of PET_STATUSES) this.rowsByStatus.set(status, []);
    this.nextId = 1n;
    for (const pet of pets) this.insert(pet);
  }

  /** Adds a pet with a new id (seed, createPet rule 2). Returns its JSON text, or why it was refused. */
  create(pet: NewPetRecord): { ok: true; id: bigint; json: string } | { ok: false; reason: CreateRefusal } {
    if (this.rows.length >= this.maxPets) return { ok: false, reason: 'full' };
    if (this.nextId > INT64_MAX) return { ok: false, reason: 'ids-exhausted' };
    const record: PetRecord = { id: this.nextId, ...pet };
    return { ok: true, id: record.id, json: this.insert(record) };
  }

  /** The JSON text of the pet with this id, or `undefined` (seed, getPet: 404 when absent). */
  get(id: bigint): string | undefined {
    const row = this.rowById.get(idKey(id));
    return row === undefined ? undefined : this.rows[row];
  }

  /**
   * The JSON text of a `Pets` array: at most `limit` pets, newest first, only those of `status` when given
   * (seed, listPets rules 1-3). O(limit); a page asked again before any change is answered from a cache.
   */
  list(limit: number, status?: PetStatus): string {
    const cache = limit <= MAX_CACHED_LIMIT ? this.pages[status === undefined ? 3 : PET_STATUSES.indexOf(status)] : undefined;
    const cached = cache?.[limit];
    if (cached !== undefined) return cached;
    const index = status === undefined ? undefined : this.rowsByStatus.get(status);
    const count = index === undefined ? this.rows.length : index.length;
    const parts: string[] = [];
    for (let i = count - 1; i >= 0 && parts.length < limit; i--) {
      parts.push(this.rows[index === undefined ? i : index[i]!]!);
    }
    const page = `[${parts.join(',')}]`;
    if (cache !== undefined) {
      cache[limit] = page;
      this.pagesCached = true;
    }
    return page;
  }

  /** Every pet's JSON text, oldest first (for snapshots and the admin API). */
  all(): readonly string[] {
    return this.rows;
  }

  private forgetPages(): void {
    this.pages = [[], [], [], []];
    this.pagesCached = false;
  }

  private insert(pet: PetRecord): string {
    const json = petJson(pet);
    const row = this.rows.length;
    const previous = this.rowById.get(idKey(pet.id));
    if (previous !== undefined) throw new Error(`duplicate pet id ${pet.id}`);
    this.rows.push(json);
    if (this.pagesCached) this.forgetPages();
    this.rowById.set(idKey(pet.id), row);
    if (pet.status !== undefined) this.rowsByStatus.get(pet.status)!.push(row);
    if (pet.id >= this.nextId) this.nextId = pet.id + 1n;
    return json;
  }
}

/** Map key of an id: a plain number when exact (no allocation for small ids), its decimal text otherwise. */
function idKey(id: bigint): number | string {
  return id >= -9007199254740991n && id <= 9007199254740991n ? Number(id) : id.toString();
}
