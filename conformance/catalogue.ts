/**
 * The catalogue of conformance checks: one stable id per rule or family of rules the suite verifies, with the
 * seed section each comes from. Ids are used by `--check`, by the report, and by the self-test, where every
 * mutant (a deliberately broken server) names the checks that must reject it.
 */
export const CHECKS = {
  'listPets.status-filter': 'Endpoints §1 listPets, rule 1: when `status` is given, every returned animal has that status.',
  'listPets.default-limit': 'Endpoints §1 listPets, rule 2: when `limit` is omitted, at most 20 animals are returned.',
  'listPets.limit': 'Endpoints §1 listPets, rule 3: the response never holds more than `limit` animals (limit 1..100).',
  'listPets.invalid-query': 'Endpoints §1 listPets, Limits; Errors (other statuses not shown): an invalid or repeated `limit`/`status` is never a 5xx; a 200 still obeys rules 1-3.',
  'createPet.required-fields': 'Endpoints §2 createPet, rule 1: when `name` or `categoryId` is absent, the response is 400, and nothing is created.',
  'createPet.echo': 'Endpoints §2 createPet, rule 2: on 201 the returned Pet repeats the submitted fields and carries a new `id`.',
  'createPet.int64': 'Resources › NewPet, Pet: `categoryId` and `id` are int64; values round-trip exactly over the whole int64 range.',
  'createPet.invalid-body': 'Endpoints §2 createPet, Errors: a body with invalid values (wrong types, outside the enum or int64, not an object, not JSON, empty) is a 400 `Error`, and nothing is created.',
  'getPet.found': 'Endpoints §3 getPet: a created animal is returned by its id with the same fields; the deprecated operation keeps working.',
  'getPet.not-found': 'Endpoints §3 getPet, Errors: an id that names no animal is a 404 `Error`.',
  'auth.listPets': 'Authentication: listPets with a missing or invalid key is a 401 `Error`.',
  'auth.createPet': 'Authentication: createPet with a missing or invalid key is a 401 `Error`, and nothing is created.',
  'auth.getPet': 'Authentication: getPet with a missing or invalid key is a 401 `Error`.',
  'responses.conformance': 'Errors; Resources: every response has a documented status, `Content-Type: application/json`, a body valid against its schema, and `Error.status` equal to the HTTP status.',
  'stateful.model': 'Endpoints §1-3: random sequences of createPet, getPet and listPets agree with a model of what the run created (persistence, unique ids, complete short pages).',
  'concurrency.create': 'Endpoints §2 rule 2: creates in parallel each get a new, distinct id; lists during creates stay valid.',
} as const;

/** A stable check id of {@link CHECKS}, for example `listPets.status-filter`. */
export type CheckId = keyof typeof CHECKS;
