import type { ApiModel, OperationModel, ResourceModel } from '../model/model.js';
import { bodyForm } from './arbitraries/body.js';
import { isolated, isolatedAll } from './isolation.js';
import { integerText } from './arbitraries/query-strings.js';
import { authCheck } from './checks/auth.js';
import type { Check } from './checks/check.js';
import { concurrencyCheck } from './checks/concurrency.js';
import { absentInvalidCheck, echoCheck, int64Check, int64Properties, invalidBodyCheck, judgesEitherFirst, requiredFieldsCheck } from './checks/create.js';
import { defaultLimitCheck, filterCheck, invalidQueryCheck, limitCheck } from './checks/list.js';
import { foundCheck, notFoundCheck } from './checks/read.js';
import { responsesCheck, unmappedCheck } from './checks/responses.js';
import { statefulCheck } from './checks/stateful.js';
import { streamCheck, streamedContents } from './checks/streams.js';
import { goneCheck, persistedCheck } from './checks/write.js';
import { clientChoosesId, clientIdCheck } from './checks/identity.js';
import { pages, pagesCheck } from './checks/pages.js';
import { rangeChecks } from './checks/range.js';
import { servedListChecks, servedLists } from './checks/served-lists.js';
import { servedWindowCheck } from './checks/served-window.js';
import { purchaseEchoChecks } from './checks/purchase-echo.js';
import { numericRangeChecks, servedRangeChecks } from './checks/numeric-range.js';
import { viewChecks } from './checks/views.js';
import { fieldWriteCheck } from './checks/field-writes.js';
import { parentScopeCheck } from './checks/parent-scope.js';
import { expectReadBack } from './checks/read.js';
import { absentStatuses, createRecord } from './checks/records.js';
import { absentParentCheck, referenceCheck } from './checks/references.js';
import { referencesOf } from '../model/references.js';
import { createsOrUpdates } from '../model/resources.js';
import { secondCreateTakesPlace } from '../model/singleton-create.js';

/**
 * The seed's rules in the seed's words, for the seed's spec (spec/openapi.yaml as written from the seed): the
 * ids the self-test's mutants name. On any other spec the rule text is generated from the model.
 */
const SEED_RULES: Record<string, string> = {
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
};

/** The shape of the seed's spec: its operations, record, required create fields, filter and limits. */
const SEED_SHAPE = '["GET /pets listPets","POST /pets createPet","GET /pets/{petId} getPet"]|pets:categoryId,id,name,status|categoryId,name|status=available,pending,sold|limit 1..100 (20)';

/** Whether a model has the seed's shape, so that the seed's own rule texts apply to its checks. */
export function isSeedShaped(model: ApiModel): boolean {
  const ops = JSON.stringify(model.operations.map((op) => `${op.method} ${op.path} ${op.operationId}`));
  const resource = model.resources.length === 1 ? model.resources[0]! : undefined;
  if (resource === undefined) return false;
  const create = resource.operations.create;
  const form = create === undefined ? undefined : bodyForm(create);
  const required = form?.kind === 'object' ? [...form.required].sort().join(',') : '';
  const filters = resource.filters.map((f) => `${f.parameter.name}=${(f.values ?? []).join(',')}`).join(';');
  const limit = resource.limit === undefined ? '' : `limit ${resource.limit.minimum}..${resource.limit.maximum} (${resource.limit.default})`;
  return `${ops}|${resource.name}:${Object.keys(resource.properties).sort().join(',')}|${required}|${filters}|${limit}` === SEED_SHAPE;
}

const where = (op: OperationModel): string => `${op.operationId} (${op.method} ${op.path})`;

/** The checks of one resource, by phase: refusals, reads of absent records, list rules, writes. */
function resourceChecks(resource: ResourceModel): { refusals: Check[]; absent: Check[]; lists: Check[]; writes: Check[] } {
  const { list, create, read, replace, update, delete: remove } = resource.operations;
  const refusals: Check[] = [];
  const absent: Check[] = [];
  const lists: Check[] = [];
  const writes: Check[] = [];
  const form = create === undefined ? undefined : bodyForm(create);
  if (create !== undefined && form?.kind === 'object' && form.required.length > 0) {
    refusals.push(isolated(`${create.operationId}.required-fields`, () => requiredFieldsCheck(resource, `${create.operationId}.required-fields`, `${where(create)}: when ${form.required.map((n) => `\`${n}\``).join(' or ')} is absent, the response is 400 in the documented error shape, and nothing is created.`)));
  }
  if (create?.body !== undefined) {
    refusals.push(isolated(`${create.operationId}.invalid-body`, () => invalidBodyCheck(resource, `${create.operationId}.invalid-body`, `${where(create)}: a body with invalid values (wrong types, null, outside the enum, bounds, lengths, patterns, formats or int64, forbidden properties, not an object, not JSON, empty) is a 400 in the documented error shape, and nothing is created.`)));
  }
  // A singleton's read names its parent, not the record (D53): no id can name an absent one.
  if (read !== undefined && resource.idParameter !== undefined) absent.push(isolated(`${read.operationId}.not-found`, () => notFoundCheck(resource, `${read.operationId}.not-found`, `${where(read)}: an \`${resource.idParameter}\` that names no record is a 404 in the documented error shape${absentStatuses(read).length > 1 ? ' (or its documented 2xx: it documents no 404, D540)' : ''}; a malformed one a 4xx, never a 5xx.`)));
  if (list !== undefined) {
    const limit = resource.limit;
    if (limit !== undefined || resource.filters.length > 0) {
      const params = [limit?.parameter, ...resource.filters.map((f) => f.parameter.name)].filter(Boolean).map((n) => `\`${n}\``).join('/');
      lists.push(isolated(`${list.operationId}.invalid-query`, () => invalidQueryCheck(resource, `${list.operationId}.invalid-query`, `${where(list)}: an invalid or repeated ${params} is never a 5xx; a 4xx is in the documented error shape; a 200 still obeys the page and filter rules.`)));
    }
    if (pages(resource)) {
      const paging = resource.list!.paging!;
      lists.push(isolated(`${list.operationId}.pages`, () => pagesCheck(resource, `${list.operationId}.pages`, `${where(list)}: for any page size, the pages (by \`${paging.parameter}\`, ${paging.kind === 'page' ? 'a page number' : paging.kind === 'offset' ? 'an offset' : 'the cursor each page gives'}) partition the list while nothing writes: no record twice, none left out, every created record on one.`)));
    }
    lists.push(...isolatedAll(`${list.operationId}.ranges`, () => [...rangeChecks(resource, where(list)), ...numericRangeChecks(resource, where(list))]));
    for (const filter of resource.filters) {
      lists.push(isolated(`${list.operationId}.${filter.parameter.name}-filter`, () => filterCheck(resource, filter, `${list.operationId}.${filter.parameter.name}-filter`, `${where(list)}: when \`${filter.parameter.name}\` is given, every returned record has \`${filter.property}\` equal to it.`)));
    }
    if (limit !== undefined) {
      const max = limit.maximum ?? limit.default;
      // A required page size is never omitted, so no page shows its default (D622).
      if (limit.default !== undefined && limit.required !== true) lists.push(isolated(`${list.operationId}.default-limit`, () => defaultLimitCheck(resource, `${list.operationId}.default-limit`, `${where(list)}: when \`${limit.parameter}\` is omitted, at most ${integerText(limit.default!)} records are returned; a shorter page is complete.`)));
      lists.push(isolated(`${list.operationId}.limit`, () => limitCheck(resource, `${list.operationId}.limit`, `${where(list)}: the response never holds more than \`${limit.parameter}\` records (${integerText(limit.minimum)}..${max === undefined ? 'unbounded' : integerText(max)}), no id twice; a shorter page is complete.`)));
    }
  }
  lists.push(...isolatedAll(`${resource.name}.views`, () => viewChecks(resource, (view) => where(view.operation))));
  if (create !== undefined) {
    writes.push(isolated(`${create.operationId}.echo`, () => echoCheck(resource, `${create.operationId}.echo`, `${where(create)}: on ${create.successStatus} the returned record repeats every submitted field exactly and carries a new \`${resource.idProperty}\`.`)));
    if (clientChoosesId(resource)) {
      writes.push(isolated(`${create.operationId}.client-id`, () => clientIdCheck(resource, `${create.operationId}.client-id`, `${where(create)}: the spec lets the client choose \`${resource.idProperty}\`: a create naming a new one keeps it (the answer and a read show it); ${createsOrUpdates(create, resource) ? 'the create also updates (D432), so a second create naming it is not a duplicate' : secondCreateTakesPlace(create, resource) ? 'one record per parent, whose second create takes the place of the first (D78, D930), so a second create naming it is not a duplicate' : 'a second create naming it is refused (409, or the documented 400/422) and changes nothing'}.`, { create: createRecord, readBack: expectReadBack })));
    }
    const int64 = form === undefined ? [] : int64Properties(form);
    if (int64.length > 0) writes.push(isolated(`${create.operationId}.int64`, () => int64Check(resource, `${create.operationId}.int64`, `${where(create)}: the int64 properties ${int64.map((n) => `\`${n}\``).join(', ')} round-trip exactly over the whole int64 range.`)));
  }
  if (read !== undefined && (create !== undefined || list !== undefined)) {
    writes.push(isolated(`${read.operationId}.found`, () => foundCheck(resource, `${read.operationId}.found`, `${where(read)}: a created record is returned by its \`${resource.idParameter ?? resource.parent?.parameter ?? resource.idProperty}\`${resource.idParameter === undefined && resource.parent !== undefined ? ' (its parent\'s)' : ''} with every field as created${read.deprecated ? '; the deprecated operation keeps working' : ''}.`)));
  }
  if (create !== undefined) {
    for (const [role, op] of [['replace', replace], ['update', update]] as const) {
      if (op === undefined) continue;
      writes.push(isolated(`${op.operationId}.persisted`, () => persistedCheck(resource, role, `${op.operationId}.persisted`, `${where(op)}: after a ${role === 'replace' ? 'replace' : 'partial update'} answered with a documented 2xx, the answer, a read and the list show the new values${role === 'update' ? ' and keep the others' : ''}; a write to an absent id is a 404, when documented.`)));
      if (op.body === undefined || resource.idParameter === undefined) continue;
      const opForm = bodyForm(op);
      if (opForm.kind === 'object' && opForm.required.length > 0) {
        refusals.push(isolated(`${op.operationId}.required-fields`, () => requiredFieldsCheck(resource, `${op.operationId}.required-fields`, `${where(op)}: when ${opForm.required.map((n) => `\`${n}\``).join(' or ')} is absent, the response is 400 in the documented error shape, and the record is unchanged.`, role)));
      }
      if (judgesEitherFirst(op)) refusals.push(isolated(`${op.operationId}.absent-invalid`, () => absentInvalidCheck(resource, `${op.operationId}.absent-invalid`, `${where(op)}: an invalid body for an \`${resource.idParameter}\` no record has is the documented 404 or the documented refusal (a server may judge either first), never a success, a 5xx or another status.`, role)));
      refusals.push(isolated(`${op.operationId}.invalid-body`, () => invalidBodyCheck(resource, `${op.operationId}.invalid-body`, `${where(op)}: a body with invalid values (each keyword of each member: type, null, enum, bounds, lengths, items, patterns, formats, forbidden properties; not an object, not JSON) is a 400 in the documented error shape, and the record is unchanged.`, role)));
    }
    if (list !== undefined && resource.parent !== undefined && !resource.parent.singleton && resource.parent.byExample === undefined) {
      writes.push(isolated(`${list.operationId}.parent-scope`, () => parentScopeCheck(resource, `${list.operationId}.parent-scope`, `${where(list)}: a record created under one \`${resource.parent!.parameter}\` is listed under it and under no other.`)));
    }
    if (read !== undefined) {
      for (const op of resource.fieldWrites) {
        const names = op.queryParams.map((parameter) => `\`${parameter.name}\``).join(', ');
        writes.push(isolated(`${op.operationId}.persisted`, () => fieldWriteCheck(resource, op, `${op.operationId}.persisted`, `${where(op)}: the fields ${names} sent in the query and answered with a documented 2xx are what a read of the record then shows.`)));
      }
    }
    if (remove !== undefined) writes.push(isolated(`${remove.operationId}.gone`, () => goneCheck(resource, `${remove.operationId}.gone`, `${where(remove)}: after a delete answered with a documented 2xx, a read is a 404 and no list shows the record; deleting it again is a 404 when documented.`)));
  }
  return { refusals, absent, lists, writes };
}

/** The checks of one resource (see {@link resourceChecks}); when even their grouping throws, one check that reports it. */
function isolatedGroup(resource: ResourceModel): ReturnType<typeof resourceChecks> {
  try {
    return resourceChecks(resource);
  } catch (error) {
    return { refusals: isolatedAll(`${resource.name}.checks`, () => { throw error; }), absent: [], lists: [], writes: [] };
  }
}

/**
 * The checks of writes that name other records (D95, D99): a create whose body member names a record of another
 * collection that does not exist (`create-reservation.reference`), and a create under a parent record that does
 * not exist (`create-reservation-payment.absent-parent`); each only where the create documents 404.
 */
function referenceChecks(model: ApiModel): Check[] {
  const checks: Check[] = [];
  for (const resource of model.resources) {
    const create = resource.operations.create;
    if (create === undefined || !create.responses.some((response) => response.status === '404')) continue;
    const references = referencesOf(create, model.operations);
    for (const reference of references) {
      // A create naming several other records has one check for each, each id naming its member: ids are unique.
      const id = references.length === 1 ? `${create.operationId}.reference` : `${create.operationId}.reference-${reference.member}`;
      checks.push(isolated(id, () => referenceCheck(resource, reference, id, `${where(create)}: a body whose \`${reference.member}\` names no record of ${reference.list.method} ${reference.list.path} is refused with the documented 404, and nothing is created.`)));
    }
    const parent = resource.parent === undefined || resource.parent.singleton || resource.parent.byExample !== undefined ? undefined : model.resources.find((candidate) => candidate.name === resource.parent!.resource);
    if (parent !== undefined && parent.operations.read !== undefined && parent.idParameter !== undefined) {
      checks.push(isolated(`${create.operationId}.absent-parent`, () => absentParentCheck(resource, parent, `${create.operationId}.absent-parent`, `${where(create)}: under a \`${resource.parent!.parameter}\` that names no ${parent.name} record, the create is the documented 404.`)));
    }
  }
  return checks;
}

/**
 * The checks of a spec (its model), in the order they run: authentication and refusals first, while the target
 * holds few records and "nothing was created" can be seen; then absent records and every response; then the
 * list rules on a populated target; then writes, operations no resource holds, the stateful model and
 * concurrency. Ids derive from operationIds (`listPets.status-filter`, `deletePet.gone`, `auth.getPet`), so on
 * the seed's spec they are the seed suite's sixteen; the rule text is the seed's there, generated elsewhere.
 */
export function checksFor(model: ApiModel): Check[] {
  const auth = model.operations
    .filter((op) => op.security.length > 0)
    .map((op) => isolated(`auth.${op.operationId}`, () => ({ ...authCheck(op, `auth.${op.operationId}`, `Authentication: ${op.operationId} with missing or invalid credentials (${op.security[0]!.kind}) is a 401 in the documented error shape${['GET', 'HEAD', 'OPTIONS'].includes(op.method) ? '' : ', and nothing is written'}.`), ...openTwin(model, op) })));
  const groups = model.resources.map((resource) => isolatedGroup(resource));
  const withCreate = model.resources.filter((r) => r.operations.create !== undefined);
  const ops = model.resources.flatMap((r) => Object.values(r.operations).map((op) => op!.operationId)).join(', ');
  const checks: Check[] = [
    ...auth,
    ...groups.flatMap((g) => g.refusals),
    ...groups.flatMap((g) => g.absent),
    ...isolatedAll('references', () => referenceChecks(model)),
    isolated('responses.conformance', () => responsesCheck(model, 'responses.conformance', 'Every operation and documented status: the documented media type, a body valid against its schema, an error status field equal to the HTTP status, never a 5xx.')),
    ...groups.flatMap((g) => g.lists),
    ...isolatedAll('served-ranges', () => servedRangeChecks(model, where)),
    ...groups.flatMap((g) => g.writes),
    ...model.operations.filter((op) => op.resource === undefined).map((op) => isolated(`${op.operationId}.documented`, () => ({ ...unmappedCheck(op, `${op.operationId}.documented`, `${where(op)}, which no resource holds: a valid request gets a documented status, media type and schema-valid body, never a 5xx.`), ...earlierTwin(model, op) }))),
    ...model.operations.flatMap((op) => isolatedAll(`${op.operationId}.purchase-echo`, () => purchaseEchoChecks(op, where(op)))),
    ...isolatedAll('served-lists', () => servedListChecks(model)),
    ...servedLists(model).flatMap((served) => isolatedAll(`${served.op.operationId}.served-window`, () => servedWindowCheck(served))),
    ...model.operations.filter((op) => streamedContents(op).length > 0).map((op) => isolated(`${op.operationId}.stream`, () => streamCheck(op, `${op.operationId}.stream`, `${where(op)}: asked for its stream (${streamedContents(op).map((c) => c.mediaType).join(', ')}${op.streamMember === undefined ? '' : `, or \`${op.streamMember}: true\``}), a valid request gets it framed by the media type's rules, each event valid against the spec's schema of an event${streamedContents(op).some((c) => c.stream.terminator !== undefined) ? ', the stated terminator last' : ''}${op.role === 'create' && op.resource?.operations.read !== undefined ? '; the record it creates reads back' : ''}.`))),
  ];
  if (withCreate.length > 0) {
    checks.push(isolated('stateful.model', () => statefulCheck(model, 'stateful.model', `Random sequences of ${ops} agree with a model of what the run wrote (persistence, unique ids, complete short pages).`)));
    checks.push(isolated('concurrency.create', () => concurrencyCheck(model, 'concurrency.create', `${withCreate.map((r) => r.operations.create!.operationId).join(', ')}: creates in parallel each get a new, distinct id; lists during creates stay valid.`)));
  }
  const seed = isSeedShaped(model);
  const elsewhere = new Map(model.operations.filter((op) => op.servedElsewhere !== undefined).map((op) => [op.operationId, op.servedElsewhere!]));
  return checks.map((check) => ({
    ...check,
    ...skipElsewhere(check.id, elsewhere),
    ...(seed && SEED_RULES[check.id] !== undefined ? { rule: SEED_RULES[check.id]! } : {}),
    ...(check.writes ? { readOnlySkip: readOnlySkip(model, check.id) } : {}),
  }));
}

/**
 * The skip of a check of an operation served at its own server (D78: a presigned upload URL, another host): the
 * target at the API's base address does not serve it, so no verdict is drawn on it.
 */
/**
 * Why `auth.<op>` is not run when another operation of the same method has the same path template under other
 * parameter names and asks for no credentials (`/boards/{idBoard}/cards/{filter}` beside `…/{idCard}`, D591):
 * OpenAPI forbids such twins ("identical" paths), a server may route the URL to either, and one that routes it to
 * the open twin rightly answers it without credentials.
 */
function openTwin(model: ApiModel, op: OperationModel): { skip?: string } {
  const twin = openByShape(model).get(`${op.method} ${shapeOf(op.path)}`)?.find((other) => other.path !== op.path);
  return twin === undefined ? {} : { skip: `${op.method} ${op.path} has a twin, ${twin.operationId} (${twin.path}), with the same template and no security: a server may route the URL to either, so a request without credentials proves nothing (OpenAPI: such paths are identical and must not both exist)` };
}

/**
 * Why `<op>.documented` is not run when an operation written before it takes the same method and the same path
 * template under other parameter names (`GET /products/{param}` before `GET /products/{productId}`, D904): OpenAPI
 * calls such paths identical, a router that takes routes in order (our mock's) never reaches the later one, and its
 * URL is answered as the earlier one documents.
 */
function earlierTwin(model: ApiModel, op: OperationModel): { skip?: string } {
  const shape = shapeOf(op.path);
  const index = model.operations.indexOf(op);
  const twin = model.operations.find((other, at) => at < index && other.method === op.method && other.path !== op.path && shapeOf(other.path) === shape);
  return twin === undefined ? {} : { skip: `${op.method} ${op.path} has a twin written before it, ${twin.operationId} (${twin.path}), with the same template: a server routes the URL to that one, so no request reaches ${op.operationId} (OpenAPI: such paths are identical and must not both exist)` };
}

/** A path template with its parameter names left out: `/boards/{}/cards/{}`. */
const shapeOf = (path: string): string => path.replace(/\{[^}]*\}/g, '{}');

const openShapes = new WeakMap<ApiModel, Map<string, OperationModel[]>>();

/** The operations that ask for no credentials, by method and template shape, made once per model. */
function openByShape(model: ApiModel): Map<string, OperationModel[]> {
  let found = openShapes.get(model);
  if (found === undefined) {
    found = new Map();
    for (const op of model.operations) {
      if (op.security.length > 0) continue;
      const key = `${op.method} ${shapeOf(op.path)}`;
      found.set(key, [...(found.get(key) ?? []), op]);
    }
    openShapes.set(model, found);
  }
  return found;
}

function skipElsewhere(id: string, elsewhere: ReadonlyMap<string, string>): { skip?: string } {
  const operationId = id.startsWith('auth.') ? id.slice('auth.'.length) : id.slice(0, id.lastIndexOf('.'));
  const url = elsewhere.get(operationId);
  return url === undefined ? {} : { skip: `${operationId} is served at its own server (${url}), not at the API's base address` };
}

/** Why `--read-only` skips a check that writes: the records it must create, or the requests it must send. */
function readOnlySkip(model: ApiModel, id: string): string {
  const op = model.operations.find((candidate) => id === `auth.${candidate.operationId}` || id.startsWith(`${candidate.operationId}.`));
  if (op !== undefined && id.startsWith('auth.') && op.role !== 'create') return `read-only: this check must send ${op.method} requests`;
  const names = op?.resource !== undefined ? [op.resource.name] : model.resources.filter((r) => r.operations.create !== undefined).map((r) => r.name);
  return `read-only: this check must create ${names.join(' and ') || 'records'}`;
}
