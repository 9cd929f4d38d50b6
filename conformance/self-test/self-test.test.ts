import { describe, expect, test } from 'vitest';
import { createMock } from '../../mock/index.js';
import { CHECKS, type CheckId } from '../catalogue.js';
import { MUTANT_KEY, MUTANTS } from './mutants.js';
import { PROBES, sender } from './probes.js';

const api = (await createMock({ pets: [], apiKeys: [MUTANT_KEY] })).api;
const freshMock = async () => (await createMock({ api, pets: [], apiKeys: [MUTANT_KEY] })).handle;

describe('mutants', () => {
  test('every check id is named by at least one mutant', () => {
    const named = new Set(MUTANTS.flatMap((mutant) => mutant.caughtBy));
    expect(Object.keys(CHECKS).filter((id) => !named.has(id as CheckId))).toEqual([]);
  });

  test('mutant names are unique and each has a probe', () => {
    const names = MUTANTS.map((mutant) => mutant.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.filter((name) => PROBES[name] === undefined)).toEqual([]);
  });

  test.each(MUTANTS.map((mutant) => [mutant.name, mutant] as const))('%s shows its fault on a direct request, the mock does not', async (name, mutant) => {
    const probe = PROBES[name]!;
    expect(await probe(sender(await freshMock()))).toBe(false);
    expect(await probe(sender(mutant.wrap(await freshMock())))).toBe(true);
  });
});
