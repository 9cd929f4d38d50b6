import fc from 'fast-check';
import type { NewPetRecord, PetRecord, PetStatus } from '../../spec/exact.js';
import { absentId, newPet, petStatus, type IntegerRange } from '../arbitraries/new-pet.js';
import { exactJson, toPet, Violation } from '../contract.js';
import { requests, type CheckContext } from '../context.js';
import { createPet, expectSamePet, isKnownId, listPets, show, type Check } from './check.js';

/**
 * The model of a run: only the pets this run created, as the target acknowledged them, so the suite works on
 * a target that already holds data. A pet created without status keeps the status its 201 gave, or none.
 */
interface Model {
  pets: PetRecord[];
}

type PetCommand = fc.AsyncCommand<Model, CheckContext>;

/** createPet: a 201 with the submitted fields and a new id (seed, Endpoints §2). */
class CreatePetCommand implements PetCommand {
  constructor(readonly pet: NewPetRecord) {}
  check = (): boolean => true;
  async run(model: Model, context: CheckContext): Promise<void> {
    model.pets.push((await createPet(context, this.pet))!);
  }
  toString = (): string => `createPet(${exactJson(this.pet)})`;
}

/** getPet of a pet this run created: 200 with the same fields (seed, Endpoints §3). */
class GetPetCommand implements PetCommand {
  constructor(readonly pick: number) {}
  check = (model: Readonly<Model>): boolean => model.pets.length > 0;
  async run(model: Model, context: CheckContext): Promise<void> {
    const pet = model.pets[this.pick % model.pets.length]!;
    const { exchange, body } = await context.call('getPet', requests.getPet(String(pet.id)), [200]);
    expectSamePet(pet, toPet(body), exchange, 'getPet');
  }
  toString = (): string => `getPet(created #${this.pick})`;
}

/** getPet of an id no pet has: 404 (seed, Endpoints §3). */
class GetAbsentPetCommand implements PetCommand {
  constructor(readonly id: bigint) {}
  check = (): boolean => true;
  async run(_model: Model, context: CheckContext): Promise<void> {
    if (isKnownId(context, this.id)) return;
    await context.call('getPet', requests.getPet(String(this.id)), [404]);
  }
  toString = (): string => `getPet(${this.id}, absent)`;
}

/**
 * listPets: rules 1-3 (seed, Endpoints §1), each listed pet this run created has its fields, and a page shorter
 * than its limit is complete: it holds every pet of the run that matches the filter.
 */
class ListPetsCommand implements PetCommand {
  constructor(
    readonly limit: number | undefined,
    readonly status: PetStatus | undefined,
  ) {}
  check = (): boolean => true;
  async run(model: Model, context: CheckContext): Promise<void> {
    const query = [this.limit === undefined ? '' : `limit=${this.limit}`, this.status === undefined ? '' : `status=${this.status}`].filter(Boolean).join('&');
    const { exchange, pets } = await listPets(context, query);
    const bound = this.limit ?? 20;
    if (pets.length > bound) throw new Violation(`the page holds ${pets.length} pets, more than limit ${bound}`, exchange);
    if (this.status !== undefined && pets.some((pet) => pet.status !== this.status)) throw new Violation(`a pet of another status than ${this.status} is listed`, exchange);
    const listed = new Map(pets.map((pet) => [pet.id, pet]));
    for (const pet of model.pets) {
      const seen = listed.get(pet.id);
      if (seen !== undefined) expectSamePet(pet, seen, exchange, 'listPets');
      else if (pets.length < bound && (this.status === undefined || pet.status === this.status)) {
        throw new Violation(`the page holds ${pets.length} pets, fewer than limit ${bound}, so it is the whole list, yet it lacks pet ${show(pet)} created earlier in this run`, exchange);
      }
    }
  }
  toString = (): string => `listPets(limit=${this.limit ?? '-'}, status=${this.status ?? '-'})`;
}

/** The commands, one per operation (STYLE 6), with their arbitraries. */
const commands = (integers: IntegerRange) => [
  newPet({ integers }).map((pet) => new CreatePetCommand(pet)),
  fc.nat().map((pick) => new GetPetCommand(pick)),
  absentId(integers).map((id) => new GetAbsentPetCommand(id)),
  fc
    .tuple(fc.option(fc.oneof(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 100 })), { nil: undefined }), fc.option(petStatus, { nil: undefined }))
    .map(([limit, status]) => new ListPetsCommand(limit, status)),
];

/** Stateful, model-based: random sequences of the three operations against a model of what the run created. */
export const statefulModel: Check = {
  id: 'stateful.model',
  writes: true,
  run: (context) =>
    context.forAll(fc.commands(commands(context.target.integers), { maxCommands: 40, size: '+1' }), (sequence) => fc.asyncModelRun(() => ({ model: { pets: [] }, real: context }), sequence), {
      runs: Math.min(context.target.runs, 25),
    }),
};
