import type { Mutant } from './mutant-kit.js';
import { LIST_PETS_MUTANTS } from './mutants/list-pets.js';
import { CREATE_PET_REFUSALS_MUTANTS } from './mutants/create-pet-refusals.js';
import { CREATE_PET_ECHO_MUTANTS } from './mutants/create-pet-echo.js';
import { GET_PET_MUTANTS } from './mutants/get-pet.js';
import { AUTH_MUTANTS } from './mutants/auth.js';
import { RESPONSES_MUTANTS } from './mutants/responses.js';

export { MUTANT_KEY, operationOf, type Handler, type Mutant } from './mutant-kit.js';

/**
 * Every mutant: the real mock with exactly one fault each (see {@link Mutant}), at least one per check id of the
 * catalogue (the self-test verifies it). Grouped by the seed section they break, one file each under `mutants/`.
 */
export const MUTANTS: Mutant[] = [
  ...LIST_PETS_MUTANTS,
  ...CREATE_PET_REFUSALS_MUTANTS,
  ...CREATE_PET_ECHO_MUTANTS,
  ...GET_PET_MUTANTS,
  ...AUTH_MUTANTS,
  ...RESPONSES_MUTANTS,
];
