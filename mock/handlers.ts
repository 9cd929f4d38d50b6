import { LosslessNumber } from 'lossless-json';
import type { ErrorCode } from './errors.js';
import { exactInteger } from './json.js';
import type { PetStatus, PetStore } from './store.js';

/**
 * What a handler receives once the request has been routed, authenticated and validated against the spec:
 * parameters already coerced (int64 as `bigint`, other integers as `number`), the body as parsed exactly.
 */
export interface OperationInput {
  store: PetStore;
  query: Record<string, unknown>;
  path: Record<string, unknown>;
  body: unknown;
}

/** A handler's answer: a status with a JSON text body, or a row of the error table. */
export type OperationResult = { status: number; json: string } | { error: ErrorCode; detail?: string };

/** The state logic of each operation, keyed by operationId. Validation has already happened. */
export const handlers: Record<string, (input: OperationInput) => OperationResult> = {
  /** Seed, Endpoints §1: at most `limit` (default 20) pets, only those of `status` when given. */
  listPets({ store, query }) {
    return { status: 200, json: store.list(query['limit'] as number, query['status'] as PetStatus | undefined) };
  },

  /** Seed, Endpoints §2: stores the submitted fields with a new id; the 201 repeats them. */
  createPet({ store, body }) {
    const { name, categoryId, status } = body as { name: string; categoryId: LosslessNumber; status?: PetStatus };
    const created = store.create({ name, categoryId: exactInteger(categoryId.value)!, ...(status === undefined ? {} : { status }) });
    if (created.ok) return { status: 201, json: created.json };
    return created.reason === 'full'
      ? { error: 'STORE_FULL', detail: `The mock holds its maximum of ${store.maxPets} animals; restart it or reset its data to add more.` }
      : { error: 'STORE_FULL', detail: 'Every int64 id above the largest stored id is taken.' };
  },

  /** Seed, Endpoints §3 (deprecated): the pet with this id, or 404. */
  getPet({ store, path }) {
    const id = path['petId'] as bigint;
    const json = store.get(id);
    return json === undefined ? { error: 'PET_NOT_FOUND', detail: `No animal has the id ${id}.` } : { status: 200, json };
  },
};
