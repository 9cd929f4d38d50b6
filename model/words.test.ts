import { describe, expect, it } from 'vitest';
import { singular } from './words.js';

describe('singular', () => {
  it('reads the plurals collections are named with', () => {
    const cases: [string, string][] = [
      ['pets', 'pet'],
      ['categories', 'category'],
      ['CATEGORIES', 'CATEGORY'],
      ['taxClasses', 'taxClass'],
      ['addresses', 'address'],
      ['boxes', 'box'],
      ['branches', 'branch'],
      ['pushes', 'push'],
      ['caches', 'cache'],
      ['issues', 'issue'],
      ['pulls', 'pull'],
      ['Pets', 'Pet'],
    ];
    expect(cases.map(([plural]) => [plural, singular(plural)])).toEqual(cases);
  });

  it('leaves a name that is no plural as written', () => {
    for (const name of ['address', 'class', 'data', 'people', 'pet', '']) expect(singular(name)).toBe(name);
  });
});
