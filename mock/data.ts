import { readFileSync } from 'node:fs';
import { LosslessNumber } from 'lossless-json';
import { exactInteger, parseJsonBody } from './json.js';
import { describe, PACKAGE_ROOT, type Api } from './operations.js';
import type { PetRecord, PetStatus } from './store.js';
import { join } from 'node:path';

/** The embedded demo pets served by `npm start` when no `--data` file or `--empty` is given. */
export const DEMO_DATA_PATH = join(PACKAGE_ROOT, 'mock', 'demo-pets.json');

/**
 * Reads starting pets from a JSON text: an array of `Pet` objects as the spec defines them, ids included.
 * int64 values are kept exactly. Errors: throws an `Error` naming `source` and the first bad entry
 * (`pets.json: entry 3 (/3): body/categoryId must be integer`), or a repeated id.
 */
export function parsePets(api: Api, text: string, source: string): PetRecord[] {
  const parsed = parseJsonBody(text);
  if (!parsed.ok) throw new Error(`${source}: ${parsed.message}`);
  const { value, view, overflows } = parsed.body;
  if (!Array.isArray(view) || !Array.isArray(value)) throw new Error(`${source}: expected a JSON array of Pet objects`);
  if (overflows.length > 0) throw new Error(`${source}: ${overflows[0]} must be an int64 integer`);
  const seen = new Set<bigint>();
  return value.map((entry: unknown, index) => {
    if (!api.validatePet(view[index])) {
      throw new Error(`${source}: entry ${index} is not a Pet: ${describe(api.validatePet.errors, `/${index}`)}`);
    }
    const { id, name, categoryId, status } = entry as { id: LosslessNumber; name: string; categoryId: LosslessNumber; status?: PetStatus };
    const pet: PetRecord = { id: exactInteger(id.value)!, name, categoryId: exactInteger(categoryId.value)!, ...(status === undefined ? {} : { status }) };
    if (seen.has(pet.id)) throw new Error(`${source}: entry ${index} repeats the id ${pet.id}`);
    seen.add(pet.id);
    return pet;
  });
}

/** Reads starting pets from a file; see {@link parsePets}. Errors name the file. */
export function readPetsFile(api: Api, path: string): PetRecord[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`${path}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return parsePets(api, text, path);
}
