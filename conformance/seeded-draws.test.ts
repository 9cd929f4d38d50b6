import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { drawFromSeed } from './property.js';

/** Every TypeScript source of conformance/, tests left out. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('values a check chooses outside its properties come from the seed (D275)', () => {
  test('the same seed draws the same value, and other seeds draw others', () => {
    const years = fc.integer({ min: 0, max: 699 });
    expect(drawFromSeed({ seed: 42 }, years)).toBe(drawFromSeed({ seed: 42 }, years));
    const drawn = new Set(Array.from({ length: 20 }, (_, seed) => drawFromSeed({ seed }, years)));
    expect(drawn.size).toBeGreaterThan(10);
    const salted = new Set([1, 2, 3, 4, 5].map((salt) => drawFromSeed({ seed: 42 }, years, salt)));
    expect(salted.size).toBeGreaterThan(1);
  });

  test('no module of the suite draws from Math.random, save the one that makes a seed', () => {
    const root = join(import.meta.dirname, '.');
    const drawing = sources(root).filter((path) => readFileSync(path, 'utf8').includes('Math.random'));
    expect(drawing.map((path) => path.slice(root.length + 1))).toEqual(['property.ts']);
  });
});
