/**
 * The singular of a plural collection name, as descriptions name their collections and their ids
 * (`/pets/{petId}`, `/taxClasses/{taxClassId}`, `/branches/{branch}`): `pets` → `pet`, `categories` → `category`,
 * `taxClasses` → `taxClass`, `addresses` → `address`, `boxes` → `box`, `branches` → `branch`, `pushes` → `push`.
 * A name that is no plural is returned as written (`address`, `class`, `data`), except one ending in a single `s`
 * (`status` → `statu`), and the case is kept (`PETS` → `PET`). English's `-es` plurals after `ss`, `x`, `ch` and `sh` lose both letters (`caches`, a `-che`
 * word, only the `s`); every other `-s` loses the `s`; `-ies` becomes `-y`. No dictionary: irregular plurals
 * (`people`) are left as they are.
 */
export function singular(plural: string): string {
  if (/ies$/i.test(plural)) return `${plural.slice(0, -3)}${/[A-Z]$/.test(plural) ? 'Y' : 'y'}`;
  if (/(?:ss|x|sh|(?<!ca)ch)es$/i.test(plural)) return plural.slice(0, -2);
  return plural.replace(/(?<!s)s$/i, '');
}

/** The words of a member's name, in lower case: `DriverOpts` → `driver`, `opts`; `driver_opts` → the same. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase());
}
