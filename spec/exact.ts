import type { components } from './openapi.js';

/** `PetStatus` of the spec: `available | pending | sold` (seed, Resources › PetStatus). */
export type PetStatus = components['schemas']['PetStatus'];

/** The three `PetStatus` values, in the spec's order. */
export const PET_STATUSES: readonly PetStatus[] = ['available', 'pending', 'sold'];

/**
 * A `Pet` of the spec with its int64 fields as `bigint`, so that every `id` and `categoryId` in
 * [-2^63, 2^63-1] is held exactly. (The generated wire type says `number`, which loses digits above 2^53.)
 */
export type PetRecord = Omit<components['schemas']['Pet'], 'id' | 'categoryId'> & { id: bigint; categoryId: bigint };

/** A `NewPet` of the spec with `categoryId` as `bigint` (seed, Resources › NewPet). */
export type NewPetRecord = Omit<PetRecord, 'id'>;

/** The seed's `Error` (seed, Resources › Error): `{ code, message, status }`. */
export type ApiError = components['schemas']['Error'];
