/**
 * A typed client of the Pet Store Animals interface for front-end code (README › Typed client): the types
 * come from the spec (openapi-typescript, `npm run generate` → model/openapi.ts, exported from the package as
 * `openapi-harness/types`), the calls from openapi-fetch. Point `baseUrl` at the mock in
 * development (`npm start`: http://127.0.0.1:4010/v1) and at the real service later; nothing else changes.
 *
 * int64 and JavaScript numbers: `id` and `categoryId` are int64 (seed, Resources), but `response.json()`
 * (plain `JSON.parse`) turns every number into a double, so values above 2^53 (9007199254740992) silently
 * lose digits: 9007199254740993 reads as 9007199254740992. When ids can be that large, read the body as
 * text (`parseAs: 'text'`) and parse it with lossless-json, as {@link listPetsExact} does (large values come
 * back as `bigint`); to send one, pass a `bodySerializer` that writes the body with lossless-json's
 * `stringify`, which writes a `bigint` as its exact digits.
 */
import createClient, { type Client } from 'openapi-fetch';
import { parse, parseNumberAndBigInt } from 'lossless-json';
import type { components, paths } from '../model/openapi.js';

export type Pet = components['schemas']['Pet'];
export type NewPet = components['schemas']['NewPet'];
export type PetStatus = components['schemas']['PetStatus'];
export type PetstoreClient = Client<paths>;

/** A client whose every call carries `Authorization: Bearer <apiKey>` (seed, Authentication). */
export function petstoreClient(baseUrl = 'http://127.0.0.1:4010/v1', apiKey = 'openapi-harness-dev-key'): PetstoreClient {
  return createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` } });
}

/** `listPets` (seed, Endpoints §1): at most `limit` pets, only those of `status` when given. Errors: throws the `Error`'s code and message. */
export async function listPets(client: PetstoreClient, query: { limit?: number; status?: PetStatus } = {}): Promise<Pet[]> {
  const { data, error } = await client.GET('/pets', { params: { query } });
  if (error !== undefined) throw new Error(`${error.code}: ${error.message}`);
  return data;
}

/** `createPet` (seed, Endpoints §2): the new pet, with its `id`. Errors: throws the `Error`'s code and message (400 for a bad body). */
export async function createPet(client: PetstoreClient, pet: NewPet): Promise<Pet> {
  const { data, error } = await client.POST('/pets', { body: pet });
  if (error !== undefined) throw new Error(`${error.code}: ${error.message}`);
  return data;
}

/** A `Pet` read without losing digits: int64 values beyond 2^53 are `bigint`, the others `number`. */
export type ExactPet = Omit<Pet, 'id' | 'categoryId'> & { id: number | bigint; categoryId: number | bigint };

/** `listPets` read exactly: the body as text, parsed by lossless-json (see the note at the top of this file). */
export async function listPetsExact(client: PetstoreClient, query: { limit?: number; status?: PetStatus } = {}): Promise<ExactPet[]> {
  const { data, error } = await client.GET('/pets', { params: { query }, parseAs: 'text' });
  if (error !== undefined) throw new Error(String(error));
  return parse(data, null, parseNumberAndBigInt) as ExactPet[];
}
