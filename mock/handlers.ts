import { STATUS_CODES } from 'node:http';
import { LosslessNumber } from 'lossless-json';
import { statusAnswers, successAnswer, type ContentAnswer } from './answers.js';
import { exactJson, parseExact } from '../model/json.js';
import { validSample } from '../model/samples.js';
import { arrayBodyItems, createsOrUpdates, envelopeBranch, recordIn, renameMember } from '../model/resources.js';
import { isJsonMediaType, mainType, objectShape } from '../model/schema.js';
import { concreteType } from '../model/media.js';
import { memberAt } from '../model/lists.js';
import { servedListOf } from '../model/served-lists.js';
import { echoedMembers } from '../model/echoes.js';
import type { OperationModel, ParentModel, ResourceModel, ResponseModel } from '../model/model.js';
import { referencesOf, shownIds, type ReferenceModel } from '../model/references.js';
import type { Handler, HandlerContext, OperationInput, OperationResult } from './handler.js';
import { decodeCursor, encodeCursor, fillServedPage, leavesOutEmpty, listHandler, pastEndNotFound, servedRangeFilter, setQuery } from './list-handler.js';
import { mergePatch, recordFromBody, singularCode, singularWord } from './record-bodies.js';
import { ERRORS } from './errors.js';
import { keepUploadFacts, uploadMembers } from './uploads.js';
import { listedStart } from './listed-start.js';
import { answerFit, listAlign } from './answer-fit.js';
import { answersArray, memberSourceOf, memberWriteHandler, memberWriteOf, type MemberSource } from './member-writes.js';
import { removeBelow } from './cascade.js';
import { pruneOf } from '../model/prune.js';
import { pruneHandler } from './prune.js';
import { alternateKeysOf, idByAlternateKey, namedKeysOf } from './alternate-keys.js';
import { nextNumber, numberedId, writeTwins } from './numbering.js';
import { applyDerivations, callerFill, derivationsOf } from './derived.js';
import { documentsNotFound } from './upsert.js';
import { resourceWindow, setWindowState, type TimeWindow } from '../model/time-window.js';
import { asStored } from './stored-record.js';
import { andThen, filterKey, isValidRecord, keyedUnderParent, ownKey, scopedId, storeView, withoutLink, type AnyRecordStore, type Maybe, type RecordId, type RecordValue } from './store/record-store.js';

/**
 * The handler of an operation, by the part it plays for its resource (README › Resources): list, create,
 * read, replace, update, delete; an operation no resource holds answers its documented success with the
 * spec's example or a schema-valid sample, as Prism does. A replace or update on the collection path finds the
 * record by the body's id (D50); a sub-resource's operations act under an existing parent only (D53).
 */
export function compileHandler(op: OperationModel, context: HandlerContext = { basePath: '', resources: [] }): Handler {
  const resource = op.resource;
  // A write naming members of an item's sub-collection (D291) adds, sets or clears them under the parent.
  const members = memberWriteOf(op, context.resources);
  const membersScope = members === undefined ? undefined : parentScope(members.resource, context.resources);
  if (members !== undefined && membersScope !== undefined) return memberWriteHandler(op, members.resource, members.write, membersScope, memberSource(op, members.resource, context.resources));
  // A sub-path view of a collection (spec/DECISIONS.md › D48) lists that resource's records.
  if (resource !== undefined && op.role === undefined && resource.views.some((view) => view.operation === op)) return listHandler(op, resource, parentScope(resource, context.resources));
  // A field write (D116) is the resource's update with the query's fields as its body.
  if (resource !== undefined && op.role === undefined && resource.fieldWrites.includes(op)) {
    const update = compileHandler({ ...op, role: 'update', idIn: 'path' }, context);
    return (input) => update({ ...input, body: Object.fromEntries(Object.entries(input.query).filter(([, value]) => value !== undefined)) });
  }
  // An action on an item's record (D323) is that resource's update by the path's last id, with the body it takes.
  if (resource === undefined && op.acts !== undefined && op.pathParams.length > 0) return compileHandler({ ...op, resource: op.acts, role: 'update', idIn: 'path', acts: undefined }, context);
  // An action that deletes a collection's unused records (D702) deletes them from that collection's store.
  const prune = resource === undefined && op.role === undefined ? pruneOf(op, context.resources) : undefined;
  if (prune !== undefined) return pruneHandler(prune, op.successStatus, context);
  if (resource === undefined || op.role === undefined) return exampleHandler(op);
  const status = op.successStatus;
  // An operation that documents no 2xx (Swagger 2.0's `addPet`, only a 405) answers the record as JSON with 200
  // unless its `default` says the success has no body (D70): a client of such a spec reads the record back.
  const fallback = op.responses.some((r) => r.status.startsWith('2')) ? undefined : op.responses.find((r) => r.status === 'DEFAULT');
  const withBody = op.responses.some((r) => r.status === String(status) && r.schema !== undefined) || (!op.responses.some((r) => r.status.startsWith('2')) && (fallback === undefined || fallback.schema !== undefined));
  const idParameter = op.idIn === 'path' ? op.pathParams.at(-1)?.name : undefined;
  const notFound = (id: RecordId): OperationResult => ({
    error: 'RECORD_NOT_FOUND',
    code: `${singularCode(resource.name)}_NOT_FOUND`,
    detail: `No ${singularWord(resource.name)} has the ${idParameter ?? resource.idProperty} ${String(ownKey(id))}.`,
  });
  // An item addressed without its parent (`/repos/{o}/{r}/issues/comments/{comment_id}`, D141) is found by its own key alone.
  const scope = resource.parent !== undefined && resource.parent.byExample === undefined && !op.pathParams.some((p) => p.name === resource.parent!.parameter) ? undefined : parentScope(resource, context.resources);
  // A key unique under its parent only (D290) is held in the store joined to the parent's key.
  const underParent = scope !== undefined && keyedUnderParent(resource) ? scope : undefined;
  const storeId = (path: Record<string, unknown>, key: RecordId): RecordId => (underParent === undefined ? key : scopedId(underParent.parentId(path), key));
  // The id of the record under the path's parent (a singleton's, D53), found by the store's parent link; `undefined` when none.
  const singleOf = (path: Record<string, unknown>, store: AnyRecordStore): Maybe<RecordId | undefined> => {
    if (scope === undefined) return undefined;
    const keys = [...resource.filters.map(() => undefined), filterKey(scope.parentId(path))];
    return andThen(store.list({ keys, limit: 1 }), (page) => {
      const record = page.json === '[]' ? undefined : parseRecord(page.json.slice(1, -1));
      return record === undefined ? undefined : bodyId(resource, record[resource.idProperty]);
    });
  };
  const numbered = resource.numbering !== undefined;
  const alternates = scope === undefined && resource.idType !== 'string' ? alternateKeysOf(op, resource) : [];
  // A string id whose path text says "ID or name" finds the record by its name too (D605): the id first.
  const named = scope === undefined && !numbered ? namedKeysOf(op, resource) : [];
  // The member the store keys records by: the record's key, or its global id where the key is numbered per parent (D240).
  const keyed = storeView(resource);
  const wrap = envelopeWrap(op);
  // An answer whose own schema is not the record's (a create adding a one-time secret) is fit to it (D155).
  const fit = op.role === 'list' || op.role === 'delete' ? undefined : answerFit(op, resource);
  // A created record is stored as its list shows it where the list's items ask for more (D230). Found on the first
  // create: it compiles the list's item schema, which no request before a create needs.
  let listedFit: ReturnType<typeof listAlign> | null = null;
  const listed = (): ReturnType<typeof listAlign> => (listedFit === null ? (listedFit = op.role === 'create' ? listAlign(resource) : undefined) : listedFit);
  const answer = (json: string): string => (withBody ? (wrap === undefined ? (fit === undefined ? withoutLink(resource, json) : fit.answer(withoutLink(resource, json))) : wrap(withoutLink(resource, json))) : '');
  // The id a read, replace, update or delete names: the last path segment, the body's id property (`PUT /pet`), or
  // for a singleton the one record under the path's parent (found by the store's parent link, D53).
  const idOf = (path: Record<string, unknown>, body: unknown, store: AnyRecordStore): Maybe<RecordId | OperationResult> => {
    // A number counted per parent (D240) names a record under the path's parent: the store keys it by its global id.
    if (op.idIn === 'path' && numbered) {
      const number = pathId(resource, path[idParameter!]);
      return andThen(numberedId(resource, store, scope === undefined ? undefined : filterKey(scope.parentId(path)), number), (id) => id ?? notFound(number));
    }
    if (op.idIn === 'path') {
      const key = pathId(resource, path[idParameter!]);
      // Text where the id is an integer may be another key the path takes (an SSH key's fingerprint, D338).
      if (alternates.length > 0 && typeof key === 'string') return andThen(idByAlternateKey(store, resource, alternates, key), (id) => id ?? notFound(key));
      if (named.length > 0 && typeof key === 'string') return andThen(store.get(key), (held) => (held !== undefined ? key : andThen(idByAlternateKey(store, resource, named, key), (id) => id ?? notFound(key))));
      return storeId(path, key);
    }
    if (op.idIn === 'parent' && scope !== undefined) {
      return andThen(singleOf(path, store), (id): RecordId | OperationResult => id ?? { error: 'RECORD_NOT_FOUND', code: `${singularCode(resource.name)}_NOT_FOUND`, detail: `The ${scope.parent.parameter} ${String(path[scope.parent.parameter])} has no ${singularWord(resource.name)}.` });
    }
    const raw = body !== null && typeof body === 'object' ? (body as RecordValue)[resource.idProperty] : undefined;
    const id = raw === undefined ? undefined : bodyId(resource, raw);
    return id === undefined ? { error: 'INVALID_BODY', detail: `The body must name the ${singularWord(resource.name)} to change by its ${resource.idProperty}.` } : storeId(path, id);
  };
  // Under a parent, a record of another parent is not found; the link is set from the path whatever the body says.
  // The path's other segments that name a member of the record (`{owner}` of `/repos/{owner}/{repo}`) must name its value (D145).
  const addressed = op.idIn === 'path' ? addressCheck(resource, op, scope?.parent.parameter) : undefined;
  const owned = (json: string | undefined, path: Record<string, unknown>): string | undefined =>
    json === undefined || ((scope === undefined || scope.owns(json, path)) && (addressed === undefined || addressed(json, path))) ? json : undefined;
  const linked = (record: RecordValue, path: Record<string, unknown>): RecordValue => {
    if (scope !== undefined) record[scope.parent.property] = scope.parentId(path);
    return record;
  };
  const location = locationOf(op, resource, context.basePath, withBody);
  const renameTo = renameMember(op, resource);
  const refusesSecond = op.responses.some((response) => response.status === '409');
  const dangling = danglingReference(op, context.operations ?? []);
  // Members the examples spell from the record's other members or its parent's (D241), written on create and update.
  const parentResource = resource.parent === undefined ? undefined : context.resources.find((one) => one.name === resource.parent!.resource);
  const derivations = op.role === 'create' || op.role === 'update' || op.role === 'replace' ? derivationsOf(resource, parentResource) : [];
  const fromParent = scope !== undefined && derivations.some((one) => one.pieces.some((piece) => typeof piece !== 'string' && piece.parent));
  const derive = (record: RecordValue, sent: RecordValue, path: Record<string, unknown>, parentStore: AnyRecordStore | undefined): Maybe<void> => {
    if (derivations.length === 0) return undefined;
    if (!fromParent || parentStore === undefined || scope === undefined) return applyDerivations(resource, derivations, record, sent);
    return andThen(parentStore.get(scope.parentId(path)), (json) => applyDerivations(resource, derivations, record, sent, json === undefined ? undefined : parseRecord(json)));
  };
  const handler = ((): Handler => {
    switch (op.role) {
      case 'list':
        return listHandler(op, resource, scope);
      case 'create': {
        const uploads = uploadMembers(resource);
        // The caller's own record (`owner` of `POST /user/repos`, D242), then members spelled from others (D241).
        const fillCaller = callerFill(resource, context.operations ?? []);
        // A member the list filters on by default, left out, starts in that default, so the list shows the record (D841).
        const startListed = listedStart(resource);
        // The largest number this mock has given under each parent: a number freed by a delete is never given again
        // (a client's link to the deleted record must not find a new one, D245).
        const issued = new Map<string, bigint>();
        // A record keyed by another member (a repository by its `name`) whose schema also requires an integer `id` gets
        // one of its own, one more than the largest held, never the example's for every record (D246).
        const idSchema = resource.properties['id'];
        const counts = idSchema !== undefined && mainType(idSchema) === 'integer' && ['maximum', 'exclusiveMaximum', 'enum', 'const', 'multipleOf'].every((keyword) => idSchema[keyword] === undefined);
        const secondary = resource.idProperty !== 'id' && resource.numbering === undefined && resource.required.includes('id') && counts ? 'id' : undefined;
        let lastSecondary: bigint | undefined;
        const nextSecondary = (store: AnyRecordStore): Maybe<bigint> =>
          lastSecondary !== undefined
            ? (lastSecondary += 1n)
            : andThen(store.all(), (texts) => {
                let largest = 0n;
                for (const text of texts) {
                  const key = filterKey(parseRecord(text)?.['id']);
                  if (typeof key === 'bigint' && key > largest) largest = key;
                }
                return (lastSecondary = largest + 1n);
              });
        const upserts = createsOrUpdates(op, resource);
        const window = resourceWindow(resource);
        const refusesUnknown = documentsNotFound(op);
        // A body that is an array of records (D436) makes each of them, in order; the answer is the last one's.
        const many = arrayBodyItems(op) !== undefined;
        const single: Handler = ({ store, body, path, files, siblingStores, parentStore, storeOf }) => {
          // An optional body may be absent: the record is then made of defaults and samples (D35).
          const sentBody = (body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {}) as RecordValue;
          // What an uploaded file carries (its name, size, media type) is kept where the record names it (D151).
          const made = keepUploadFacts(uploads, recordFromBody(resource, sentBody), sentBody, files);
          fillCaller?.(made);
          startListed?.(made, sentBody);
          const aligned = fit === undefined ? made : fit.align(made);
          const fields = linked(listed()?.(aligned) ?? aligned, path);
          // A state that follows the record's own time window is the phase the window is in (D433).
          if (window !== undefined) setWindowState(window, fields);
          // An empty key names no item path (`/volumes/` has no segment): a key the client may choose sent empty is
          // not chosen, and is made as if left out (D603).
          const empty = resource.idSource === 'either' && sentBody[resource.idProperty] === '' && resource.itemPath !== undefined;
          if (empty) Reflect.deleteProperty(fields, resource.idProperty);
          const sent = resource.idSource === 'server' || empty ? undefined : sentBody[resource.idProperty];
          const given = sent === undefined ? undefined : bodyId(resource, sent);
          if (sent !== undefined && given === undefined) return { error: 'INVALID_BODY', detail: `The ${resource.idProperty} is not a valid ${singularWord(resource.name)} id.` };
          // A key only the client chooses (`x-resource: { idSource: client }` where the schema leaves it optional).
          if (sent === undefined && body !== undefined && resource.idSource === 'client') return { error: 'INVALID_BODY', detail: `The body must carry the ${singularWord(resource.name)}'s ${resource.idProperty}: the client chooses it.` };
          // Members spelled from others (D241) are written last, once the record's number is known (D240).
          const create = (): Maybe<OperationResult> =>
            andThen(andThen(derive(fields, sentBody, path, parentStore), () => store!.create(fields, given === undefined ? undefined : storeId(path, given))), (created): OperationResult => {
              if (created.ok) return { status, json: answer(created.json), ...(location === undefined ? {} : { headers: { location: location(path, numbered ? (bodyId(resource, fields[resource.idProperty]) ?? created.id) : ownKey(created.id)) } }) };
              if (created.reason === 'taken') return exists(op, resource, given!);
              return created.reason === 'full'
                ? { error: 'STORE_FULL', detail: `The mock holds its maximum of ${store!.maxRecords} ${resource.name}; restart it or reset its data to add more.` }
                : { error: 'STORE_FULL', detail: `Every int64 ${resource.idProperty} above the largest stored one is taken.` };
            });
          // The next number under the parent, counted with the siblings sharing the numbers (D240); a record that is
          // also a sibling's (a pull request, an issue too) makes its twin there (D244).
          const stored = (): Maybe<OperationResult> => {
            if (numbered) {
              const parentKey = scope === undefined ? undefined : filterKey(scope.parentId(path));
              return andThen(nextNumber(resource, [store!, ...(siblingStores?.values() ?? [])], parentKey), (free) => {
                const last = issued.get(String(parentKey));
                const number = last !== undefined && last >= free ? last + 1n : free;
                issued.set(String(parentKey), number);
                fields[resource.idProperty] = number;
                return andThen(create(), (result) => ('error' in result ? result : andThen(writeTwins(resource, context.resources, siblingStores, fields, parentKey, true), () => result)));
              });
            }
            // A singleton holds one record per parent: a second create is refused as a taken id is where the
            // operation documents 409 itself; else it takes the place of the first (a lint run again, D78).
            const placed = (): Maybe<OperationResult> =>
              resource.parent?.singleton !== true ? create() : andThen(singleOf(path, store!), (held) => (held === undefined ? create() : refusesSecond ? exists(op, resource, held) : andThen(store!.delete(held), create)));
            if (secondary === undefined || Object.hasOwn(sentBody, secondary)) return placed();
            return andThen(nextSecondary(store!), (id) => {
              fields[secondary] = new LosslessNumber(String(id));
              return placed();
            });
          };
          // A create that also updates (D432): a held key is replaced as sent, keeping its key; an unknown one is its 404.
          if (upserts && given !== undefined) {
            const key = storeId(path, given);
            return andThen(store!.get(key), (held) => {
              if (held === undefined) return refusesUnknown ? notFound(given) : andThen(dangling(sentBody, storeOf), (missing) => missing ?? stored());
              return andThen(derive(fields, sentBody, path, parentStore), () =>
                andThen(store!.replace(key, { ...fields, [resource.idProperty]: parseRecord(held)?.[resource.idProperty] ?? fields[resource.idProperty] }), (written): OperationResult => (written === undefined ? notFound(given) : { status, json: answer(written) })),
              );
            });
          }
          return andThen(dangling(sentBody, storeOf), (missing) => missing ?? stored());
        };
        if (!many) return single;
        return (input) => {
          if (!Array.isArray(input.body)) return single(input);
          const items = input.body as unknown[];
          const from = (i: number, last: Maybe<OperationResult>): Maybe<OperationResult> =>
            i >= items.length ? last : andThen(single({ ...input, body: items[i] }), (result) => ('error' in result ? result : from(i + 1, result)));
          return from(0, { status, json: '' });
        };
      }
      case 'read':
        return ({ store, path, body }) =>
          andThen(idOf(path, body, store!), (id) => {
            if (typeof id === 'object') return id;
            return andThen(store!.get(id), (json) => {
              const found = owned(json, path);
              return found === undefined ? notFound(id) : { status, json: answer(found) };
            });
          });
      case 'replace':
      case 'update': {
        const window = resourceWindow(resource);
        // RFC 9110 § 9.3.4: a PUT creates the resource its URL names when none exists. Read so where the records have
        // no create of their own, addressed by the path and not numbered (D503); the documented 201 says it was made.
        const putCreates = op.role === 'replace' && op.method === 'PUT' && op.idIn === 'path' && resource.operations.create === undefined && !numbered && resource.parent?.singleton !== true;
        const createdStatus = op.responses.some((response) => response.status === '201') ? 201 : status;
        return ({ store, path, body, siblingStores, parentStore }) =>
          andThen(idOf(path, body, store!), (id) => {
          // `PUT` sets a singleton that is not there yet (`PUT /users/{userId}/profile`); `PATCH` needs one.
          if (typeof id === 'object' && op.idIn === 'parent' && op.role === 'replace' && body !== undefined) {
            return andThen(store!.create(linked(recordFromBody(resource, body as RecordValue), path)), (created): OperationResult =>
              created.ok ? { status, json: answer(created.json) } : { error: 'STORE_FULL', detail: `The mock holds its maximum of ${store!.maxRecords} ${resource.name}.` });
          }
          if (typeof id === 'object') return id;
          return andThen(store!.get(id), (json) => {
            const previous = owned(json, path) === undefined ? undefined : parseRecord(json!);
            // Where no other operation creates the records, a PUT at an item path nothing holds creates it there (D503).
            if (previous === undefined && putCreates && body !== null && typeof body === 'object' && !Array.isArray(body)) {
              const made = linked(recordFromBody(resource, body as RecordValue), path);
              made[resource.idProperty] = ownKey(id);
              return andThen(derive(made, body as RecordValue, path, parentStore), (): Maybe<OperationResult> => {
                const invalid = recordProblem(resource, made);
                if (invalid !== undefined) return invalid;
                return andThen(store!.create(made, id), (created): OperationResult =>
                  created.ok ? { status: createdStatus, json: answer(created.json) } : created.reason === 'taken' ? exists(op, resource, ownKey(id)) : { error: 'STORE_FULL', detail: `The mock holds its maximum of ${store!.maxRecords} ${resource.name}.` });
              });
            }
            if (previous === undefined) return notFound(id);
            // An optional body left out changes nothing (D50): the record is answered as it is. A POST's JSON body
            // (D150) is no merge patch: a null there sets a member that admits null.
            const record = linked(body === undefined ? previous : op.role === 'replace' ? recordFromBody(resource, body as RecordValue, previous) : mergePatch(resource, previous, body as RecordValue, op.method === 'POST'), path);
            // A number counted per parent stays the record's (D240); the store keeps the global id.
            if (numbered) record[resource.idProperty] = previous[resource.idProperty];
            if (window !== undefined) setWindowState(window, record);
            const sentFields = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as RecordValue) : {};
            return andThen(derive(record, sentFields, path, parentStore), (): Maybe<OperationResult> => {
              const invalid = recordProblem(resource, { ...record, [keyed.idProperty]: ownKey(id) });
              if (invalid !== undefined) return invalid;
              // A rename (`new_name` beside the `name` key, D144): the record moves to its new key, the old one is free.
              const renamed = renameTo === undefined || body === null || typeof body !== 'object' ? undefined : bodyId(resource, (body as RecordValue)[renameTo]);
              if (renamed !== undefined && String(renamed) !== String(ownKey(id))) {
                return andThen(store!.create({ ...record, [resource.idProperty]: renamed }, storeId(path, renamed)), (created): Maybe<OperationResult> => {
                  if (!created.ok) return created.reason === 'taken' ? exists(op, resource, renamed) : { error: 'STORE_FULL', detail: `The mock holds its maximum of ${store!.maxRecords} ${resource.name}.` };
                  return andThen(store!.delete(id), () => ({ status, json: answer(created.json) }));
                });
              }
              // Another replica may delete the record between the read and the write: then it is not found.
              return andThen(store!.replace(id, record), (written): Maybe<OperationResult> => {
                if (written === undefined) return notFound(id);
                if (!numbered) return { status, json: answer(written) };
                // Its twin in a sibling resource takes the change too (D244).
                return andThen(writeTwins(resource, context.resources, siblingStores, record, scope === undefined ? undefined : filterKey(scope.parentId(path)), false), () => ({ status, json: answer(written) }));
              });
            });
          });
          });
      }
      case 'delete': {
        const deleted = deletionAnswer(op, resource, answer);
        const ends = ((window) => (window?.outlives === true ? window : undefined))(resourceWindow(resource));
        const remaining = scope === undefined || !answersArray(op) ? undefined : (path: Record<string, unknown>): unknown[] => [...resource.filters.map(() => undefined), filterKey(scope.parentId(path))];
        return ({ store, path, body, below }) =>
          andThen(idOf(path, body, store!), (id) => {
            if (typeof id === 'object') return id;
            // A delete documented to answer a list, under a parent, answers the parent's members left (D293).
            const answered = (json: string): Maybe<OperationResult> =>
              remaining === undefined ? { status, json: deleted(json) } : andThen(store!.list({ keys: remaining(path), limit: Infinity }), (page) => ({ status, json: withoutLink(resource, page.json) }));
            // What lived under the record goes with it (D292): a parent made again under its key starts empty.
            const gone = (json: string | undefined): Maybe<OperationResult> => (json === undefined ? notFound(id) : below === undefined || below.length === 0 ? answered(json) : andThen(removeBelow(resource, id, below), () => answered(json)));
            // A record that outlives its end (`expired`, D434) is ended, not removed: it stays listed in its new state.
            if (ends !== undefined) return andThen(store!.get(id), (json) => (owned(json, path) === undefined ? notFound(id) : andThen(store!.replace(id, ended(ends, parseRecord(json!)!)), (written) => (written === undefined ? notFound(id) : answered(written)))));
            if (scope === undefined && addressed === undefined) return andThen(store!.delete(id), gone);
            return andThen(store!.get(id), (json) => (owned(json, path) === undefined ? notFound(id) : andThen(store!.delete(id), gone)));
          });
      }
    }
  })();
  // A body that wraps the record (D73) is unwrapped once, before the part's logic: the store holds records.
  const member = op.bodyEnvelope;
  const unwrapped: Handler = member === undefined ? handler : (input) => handler({ ...input, body: recordIn(input.body, member) });
  return scope === undefined ? unwrapped : scope.guard(unwrapped);
}

/**
 * How a record operation's answer wraps the record's JSON text when its schema is an envelope (spec/DECISIONS.md ›
 * D73): `{"droplet": <record>, ...}`, the envelope's other required members (`links`, `meta`) made once from valid
 * samples; `undefined` when the answer is the record itself (the seed: no work on its hot path).
 */
function envelopeWrap(op: OperationModel): ((json: string) => string) | undefined {
  const member = op.answerEnvelope;
  const schema = op.responses.find((r) => r.status.startsWith('2') && r.schema !== undefined)?.schema;
  if (member === undefined || schema === undefined) return undefined;
  // A `oneOf`/`anyOf` answer is written in the branch that holds the record (D73).
  const { properties, required } = objectShape(envelopeBranch(schema, (branch) => (objectShape(branch).properties[member] === undefined ? undefined : member))?.schema ?? schema);
  const others = required.filter((name) => name !== member && properties[name] !== undefined).map((name) => `${JSON.stringify(name)}:${exactJson(validSample(properties[name]!))}`);
  const prefix = `{${JSON.stringify(member)}:`;
  const suffix = others.length === 0 ? '}' : `,${others.join(',')}}`;
  return (json) => prefix + json + suffix;
}

/**
 * The check that a record is the one a path addresses beyond its key (spec/DECISIONS.md › D145): each other path
 * parameter (not the key, not the parent's, not named like the record's own key member) named like a member of the
 * record must name that member's value, or,
 * for an object member (`owner` of a repository), one of its scalar members' values (`owner.login`); compared
 * without case, as names in paths usually are. `undefined` when no such parameter exists.
 */
function addressCheck(resource: ResourceModel, op: OperationModel, parentParameter: string | undefined): ((json: string, path: Record<string, unknown>) => boolean) | undefined {
  const key = op.pathParams.at(-1)?.name;
  // The record's own key member names the record, never an ancestor the path names by the same word (`{id}` of
  // `/organisations/{id}/…/plans/{planId}` beside a plan's `id`, D932).
  const names = op.pathParams.map((p) => p.name).filter((name) => name !== key && name !== parentParameter && name !== resource.idProperty && resource.properties[name] !== undefined);
  if (names.length === 0) return undefined;
  const fits = (value: unknown, asked: string): boolean => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return Object.values(value).some((member) => (typeof member === 'string' || typeof member === 'number') && String(member).toLowerCase() === asked);
    return value === undefined || value === null || String(value).toLowerCase() === asked;
  };
  return (json, path) => {
    const record = parseRecord(json);
    return record === undefined || names.every((name) => fits(record[name], String(path[name]).toLowerCase()));
  };
}

/** A path value as the store's id: a path parameter declared as a string still names an integer id by its digits. */
function pathId(resource: ResourceModel, raw: unknown): RecordId {
  if (resource.idType === 'string') return String(raw);
  if (typeof raw === 'bigint') return raw;
  if (typeof raw === 'number' && Number.isSafeInteger(raw)) return BigInt(raw);
  return typeof raw === 'string' && /^-?\d{1,19}$/.test(raw) ? BigInt(raw) : String(raw);
}

/** A body's id value as the store's id (the schema validated it already): an integer exactly, or a string; else `undefined`. */
function bodyId(resource: ResourceModel, raw: unknown): RecordId | undefined {
  if (resource.idType === 'string') return typeof raw === 'string' ? raw : undefined;
  const key = filterKey(raw);
  return typeof key === 'bigint' ? key : undefined;
}

function parseRecord(json: string): RecordValue | undefined {
  const parsed = parseExact(json);
  return parsed.ok ? (parsed.document.value as RecordValue) : undefined;
}

/**
 * The refusal of a create whose body names a record that does not exist (D95, D252): the documented 404, as a
 * server holding its records answers. For a referenced list that is served data (no resource of the mock holds
 * it, so its examples are all it serves), an id none of them shows; for a list of a resource the mock holds, an id
 * its store does not hold (looked up in `storeOf`), where the list's records carry their id in the store's key.
 * Only where the create documents 404; `undefined` when every reference names a held record or is absent (the
 * body's validation speaks of absent members).
 */
function danglingReference(op: OperationModel, operations: readonly OperationModel[]): (body: RecordValue, storeOf: ((resource: string) => AnyRecordStore | undefined) | undefined) => Maybe<OperationResult | undefined> {
  if (!op.errors.documents(404)) return () => undefined;
  const references = referencesOf(op, operations);
  // A served list's ids are those its examples show, with those of the sample served in place of an invalid example
  // (D233); a list the spec shows no record of refuses nothing (its sample's made-up ids are no inventory).
  const served = references
    .filter((reference) => reference.list.resource === undefined)
    .map((reference) => ({ reference, shown: shownIds(reference) }))
    .filter(({ shown }) => shown.length > 0)
    .map(({ reference, shown }) => ({ reference, ids: new Set([...shown, ...servedIds(reference)].map((id) => String(id))) }));
  const held = references.flatMap((reference) => {
    const resource = reference.list.resource;
    return resource !== undefined && resource !== op.resource && reference.list.role === 'list' && resource.parent === undefined && reference.idMember === resource.idProperty ? [{ reference, resource }] : [];
  });
  const refusal = (reference: ReferenceModel, value: unknown): OperationResult => {
    const noun = reference.list.path.split('/').filter(Boolean).at(-1) ?? 'record';
    return { error: 'RECORD_NOT_FOUND', code: `${singularCode(noun)}_NOT_FOUND`, detail: `No ${singularWord(noun)} has the id ${String(value)} (${reference.member}).` };
  };
  return (body, storeOf) => {
    for (const { reference, ids } of served) {
      const value = body[reference.member];
      if (value === undefined || value === null || ids.has(String(value))) continue;
      return refusal(reference, value);
    }
    // Each held reference in turn: the first that names no record is the refusal.
    const next = (index: number): Maybe<OperationResult | undefined> => {
      for (let i = index; i < held.length; i++) {
        const { reference, resource } = held[i]!;
        // A number arrives as its exact literal (int64 digits kept): its value is the key looked up (D820).
        const value = filterKey(body[reference.member]);
        const store = storeOf?.(resource.name);
        if (store === undefined || (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'bigint')) continue;
        return andThen(store.get(pathId(resource, value)), (json) => (json === undefined ? refusal(reference, value) : next(i + 1)));
      }
      return undefined;
    };
    return next(0);
  };
}

/**
 * The ids the mock's own answer to a served list holds for `reference` (spec/DECISIONS.md › D233): where the list's
 * example is not valid for its schema the mock serves a valid sample instead, whose ids are not the example's
 * (`GET /user/teams` served with team 42, its invalid example showing team 1). A client that takes an id from what
 * the list answers must find it accepted. Empty when the answer holds no records where the reference says.
 */
function servedIds(reference: ReferenceModel): unknown[] {
  const success = reference.list.responses.find((response) => response.status.startsWith('2') && response.schema !== undefined);
  if (success === undefined) return [];
  const ids: unknown[] = [];
  for (const answer of statusAnswers(success).byContent.values()) {
    if (answer.failed !== undefined || !isJsonMediaType(answer.mediaType) || answer.payload.text === undefined) continue;
    const parsed = parseExact(answer.payload.text);
    const records = parsed.ok ? (reference.itemsPath.length === 0 ? parsed.document.value : memberAt(parsed.document.value, reference.itemsPath)) : undefined;
    if (!Array.isArray(records)) continue;
    for (const record of records) {
      const id = record !== null && typeof record === 'object' ? (record as Record<string, unknown>)[reference.idMember] : undefined;
      if (id !== undefined && id !== null) ids.push(id);
    }
  }
  return ids;
}

/**
 * The refusal of a create naming an id already held (D50): 409 when the operation documents it, else 400 when it
 * documents that, else 409; the body's code names the resource (`USER_EXISTS`).
 */
function exists(op: OperationModel, resource: ResourceModel, id: RecordId): OperationResult {
  const error = op.errors.documents(409) || !op.errors.documents(400) ? 'RECORD_EXISTS' : 'RECORD_EXISTS_INVALID';
  return { error, code: `${singularCode(resource.name)}_EXISTS`, detail: `A ${singularWord(resource.name)} with the ${resource.idProperty} ${String(id)} exists already.` };
}

/**
 * The `Location` of a created record (D52): the item path with its id (and, under a parent, the parent's id),
 * below the base path, on a create answered without a body (else the client could not learn the id the server
 * chose); `undefined` when the resource has no item path, or when the answer carries the record (D52).
 */
function locationOf(op: OperationModel, resource: ResourceModel, basePath: string, withBody: boolean): ((path: Record<string, unknown>, id: RecordId) => string) | undefined {
  const item = resource.itemPath;
  if (op.role !== 'create' || withBody || item === undefined) return undefined;
  // Split once: literal text around each template segment, so that a create only joins strings.
  const pieces = item.split(/\{([^}/]+)\}/);
  const names = pieces.filter((_, i) => i % 2 === 1);
  const texts = [`${basePath}${pieces[0]}`, ...pieces.filter((_, i) => i % 2 === 0).slice(1)];
  return (path, id) => {
    let location = texts[0]!;
    for (let i = 0; i < names.length; i++) {
      const value = i === names.length - 1 ? id : path[names[i]!];
      location += (typeof value === 'bigint' ? String(value) : encodeURIComponent(String(value))) + texts[i + 1]!;
    }
    return location;
  };
}

/** How a sub-resource's handlers stay under their parent (D53). */
interface ParentScope {
  parent: NonNullable<ResourceModel['parent']>;
  /** The parent's id named by the path, as the parent's store keys it. */
  parentId: (path: Record<string, unknown>) => RecordId;
  /** Whether a record's JSON text links it to the parent the path names. */
  owns: (json: string, path: Record<string, unknown>) => boolean;
  /** The handler, run only when the parent (and its own parent, if any) exists as the path names it; else a 404. */
  guard: (handler: Handler) => Handler;
}

function parentScope(resource: ResourceModel, resources: readonly ResourceModel[]): ParentScope | undefined {
  const parent = resource.parent;
  if (parent?.byExample !== undefined) return exampleParentScope(parent, parent.byExample);
  const parentResource = parent === undefined ? undefined : resources.find((r) => r.name === parent.resource);
  if (parent === undefined || parentResource === undefined) return undefined;
  // A numbered parent's children link to its store key, its global id (D240); a key unique under its own parent
  // only is held joined to that parent's key (D290).
  const parentKeyed = storeView(parentResource);
  const parentId = (path: Record<string, unknown>): RecordId => storeKeyAt(parentKeyed, parent.parameter, path, resources);
  const same = (value: unknown, id: RecordId): boolean => value !== undefined && String(filterKey(value) ?? value) === String(id);
  const grand = parentResource.parent;
  const grandResource = grand === undefined ? undefined : resources.find((r) => r.name === grand.resource);
  // The parent as its own path addresses it (`{owner}` beside `{repo}`, D145), not by its key alone.
  const parentItemOp = Object.values(parentResource.operations).find((other) => other !== undefined && other.path === parentResource.itemPath);
  const parentAddressed = parentItemOp === undefined ? undefined : addressCheck(parentResource, parentItemOp, grand?.parameter);
  const missing = (path: Record<string, unknown>): OperationResult => ({
    error: 'RECORD_NOT_FOUND',
    code: `${singularCode(parentResource.name)}_NOT_FOUND`,
    detail: `No ${singularWord(parentResource.name)} has the ${parent.parameter} ${String(path[parent.parameter])}.`,
  });
  // Runs the handler when the parent the path names exists (and lies where the path says); else a 404.
  const guarded = (handler: Handler, input: OperationInput, parentStore: AnyRecordStore): Maybe<OperationResult> => {
    const { path } = input;
    return andThen(parentStore.get(parentId(path)), (json): Maybe<OperationResult> => {
      if (json === undefined || (parentAddressed !== undefined && !parentAddressed(json, path))) return missing(path);
      // The parent itself under its own parent (`/a/{a}/b/{b}/c`): the path must name that one too.
      if (grand?.byExample !== undefined && !same(parseRecord(json)?.[grand.property], exampleParentKey(grand.byExample, path))) return missing(path);
      // Only where the path names it: a comment read at `/issues/comments/{comment_id}` is under no issue number (D238).
      if (grand === undefined || grandResource === undefined || path[grand.parameter] === undefined) return handler(input);
      const link = parseRecord(json)?.[grand.property];
      // A grandparent numbered under its own parent (a review's pull, D240) is linked by its global id: the path's
      // number is read in that id's place (D303).
      const grandStore = grandResource.numbering === undefined ? undefined : input.storeOf?.(grandResource.name);
      if (grandStore === undefined) return same(link, storeKeyAt(grandResource, grand.parameter, path, resources)) ? handler(input) : missing(path);
      const great = grandResource.parent;
      const greatResource = great === undefined ? undefined : resources.find((r) => r.name === great.resource);
      const greatKey = great?.byExample !== undefined ? exampleParentKey(great.byExample, path) : greatResource === undefined || path[great!.parameter] === undefined ? undefined : filterKey(storeKeyAt(greatResource, great!.parameter, path, resources));
      return andThen(numberedId(grandResource, grandStore, greatKey, path[grand.parameter]), (id) => (id !== undefined && same(link, id) ? handler(input) : missing(path)));
    });
  };
  return {
    parent,
    parentId,
    owns: (json, path) => same(parseRecord(json)?.[parent.property], parentId(path)),
    guard: (handler) => (input) => {
      const { parentStore, path } = input;
      if (parentStore === undefined) return missing(path);
      // A parent numbered under its own parent (an issue's number, D240) is found there; its children link to its
      // global id, the store's key, which the handler then reads in the path's place.
      if (parentResource.numbering !== undefined) {
        const grandKey = grand?.byExample !== undefined ? exampleParentKey(grand.byExample, path) : grandResource === undefined || path[grand!.parameter] === undefined ? undefined : filterKey(storeKeyAt(grandResource, grand!.parameter, path, resources));
        return andThen(numberedId(parentResource, parentStore, grandKey, path[parent.parameter]), (id) => (id === undefined ? missing(path) : guarded(handler, { ...input, path: { ...path, [parent.parameter]: id } }, parentStore)));
      }
      return guarded(handler, input, parentStore);
    },
  };
}

/**
 * The store id of the record of `resource` that the path names by its parameter `parameter`: the path's value as
 * the store keys it, joined to its own parent's key when its key is unique under that parent only (D290), so that
 * a sub-resource's link names its parent as the parent's store holds it.
 */
function storeKeyAt(resource: ResourceModel, parameter: string, path: Record<string, unknown>, resources: readonly ResourceModel[]): RecordId {
  const own = pathId(resource, path[parameter]);
  const above = resource.parent;
  if (above === undefined || !keyedUnderParent(resource) || path[above.parameter] === undefined) return own;
  if (above.byExample !== undefined) return scopedId(exampleParentKey(above.byExample, path), own);
  const aboveResource = resources.find((r) => r.name === above.resource);
  return aboveResource === undefined ? own : scopedId(storeKeyAt(aboveResource, above.parameter, path, resources), own);
}

/** The collection a member write copies from (D294), with the store id of its parent for a path; `undefined` when none. */
function memberSource(op: OperationModel, resource: ResourceModel, resources: readonly ResourceModel[]): MemberSource | undefined {
  const source = memberSourceOf(op, resource, resources);
  const above = source?.parent;
  const aboveResource = above === undefined ? undefined : resources.find((one) => one.name === above.resource);
  return source === undefined || above === undefined || aboveResource === undefined ? undefined : { resource: source, parentKey: (path) => storeKeyAt(aboveResource, above.parameter, path, resources) };
}

/** The link a record keeps to a parent known by its examples (D72): the path's values of its parameters, joined by `/`. */
function exampleParentKey(known: NonNullable<ParentModel['byExample']>, path: Record<string, unknown>): string {
  return known.parameters.map((name) => String(path[name])).join('/');
}

/**
 * The scope of a sub-resource whose parent no resource holds (D72): the parent exists when the examples of its
 * read name each of its path values; records are linked to, and found under, those values.
 */
function exampleParentScope(parent: ParentModel, known: NonNullable<ParentModel['byExample']>): ParentScope {
  const values = new Set(known.values);
  const parentId = (path: Record<string, unknown>): RecordId => exampleParentKey(known, path);
  return {
    parent,
    parentId,
    owns: (json, path) => String(parseRecord(json)?.[parent.property]) === parentId(path),
    guard: (handler) => (input) => {
      if (known.parameters.every((name) => values.has(String(input.path[name])))) return handler(input);
      return { error: 'RECORD_NOT_FOUND', code: `${singularCode(parent.resource)}_NOT_FOUND`, detail: `No ${singularWord(parent.resource)} has the ${known.parameters.join('/')} ${String(parentId(input.path))}.` };
    },
  };
}

/**
 * A 400 when the record a replace or update makes breaks the record schema (a PATCH removing a required property),
 * judged as the store will hold it: a `writeOnly` member sent inside an object is kept from no answer (D900).
 */
function recordProblem(resource: ResourceModel, record: RecordValue): OperationResult | undefined {
  if (isValidRecord(resource, record) || isValidRecord(resource, asStored(resource, record))) return undefined;
  return { error: 'INVALID_BODY', detail: `The ${singularWord(resource.name)} would be invalid: ${resource.validateRecord.errors() || 'it does not match its schema'}.` };
}

/**
 * An operation no resource holds: its success status (or, documenting none, its 3xx or `default`: see
 * `successAnswer`) with the spec's first valid example, else a schema-valid sample (Prism's way, checked:
 * spec/DECISIONS.md › D55), in the media type the pipeline negotiated; the members an answer echoes of its request
 * (D280) as sent.
 */
function exampleHandler(op: OperationModel): Handler {
  const { status, response } = successAnswer(op);
  if (status === 204 || response === undefined || response.contents.length === 0) return () => ({ status, json: '' });
  // Made on first use (or by the start-up check, mock/answers.ts): a spec of hundreds of operations starts at once.
  let byType: Map<string, ContentAnswer> | undefined;
  const page = servedPager(op);
  const ranged = servedRangeFilter(op);
  const echoed = echoedMembers(op).map((member) => member.name);
  // An operation whose every outcome is an error (no 2xx documented: it answers its 404 or 410) answers it in its
  // error shape, whose status member says the status sent, not the example's placeholder (`"httpStatusCode": 0`);
  // the example's own words (`{"id": "gone"}`) stay where it is valid with that status.
  if (status >= 400 && op.errors.documents(status)) {
    const reason = STATUS_CODES[status] ?? 'Error';
    const written = op.errors.write({ status, code: reason.toUpperCase().replace(/[^A-Z0-9]+/g, '_'), message: response.description || reason });
    const json = exampleError(response, written.text, status) ?? written.text;
    return () => ({ status, json, mediaType: written.mediaType });
  }
  return ({ mediaType, query, url, host, body }) => {
    byType ??= new Map([...statusAnswers(response).byContent].map(([content, answer]) => [content.mediaType, answer]));
    const answer = (mediaType === undefined ? undefined : byType.get(mediaType)) ?? byType.get(response.mediaType ?? '') ?? [...byType.values()][0]!;
    if (answer.failed !== undefined) return { error: 'ANSWER_FAILED', detail: `${ERRORS.ANSWER_FAILED.message} (${op.operationId}: ${answer.failed})` };
    const payload = answer.payload;
    if (payload.bytes !== undefined) return { status, json: '', mediaType: answer.mediaType, bytes: payload.bytes };
    const filtered = ranged === undefined ? payload.text : ranged(payload.text, query);
    // A range (`*/*`, `application/*`) is answered as JSON: its list pages as a JSON one does.
    const json = isJsonMediaType(concreteType(answer.mediaType));
    if (echoed.length > 0 && json) return { status, json: withEchoes(filtered, body, echoed), mediaType: answer.mediaType };
    const paged = json ? page?.(filtered, query, { url: url ?? '', host }) : undefined;
    if (paged === undefined) return { status, json: filtered, mediaType: answer.mediaType };
    if (paged === PAST_END) return { error: 'RECORD_NOT_FOUND', code: 'PAGE_NOT_FOUND', detail: 'No page holds records from this position on: the list holds fewer.' };
    return paged.headers === undefined ? { status, json: paged.json, mediaType: answer.mediaType } : { status, json: paged.json, mediaType: answer.mediaType, headers: paged.headers };
  };
}

/**
 * An example answer holding the members the request sent where the answer describes what was sent (D280, model/
 * echoes.ts): each of `names` the request body holds replaces the example's value. The text unchanged when either
 * is no JSON object.
 */
function withEchoes(text: string, body: unknown, names: readonly string[]): string {
  const parsed = parseExact(text);
  if (!parsed.ok || body === null || typeof body !== 'object' || Array.isArray(body)) return text;
  const answer: unknown = parsed.document.value;
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) return text;
  const sent = body as Record<string, unknown>;
  for (const name of names) if (sent[name] !== undefined) (answer as Record<string, unknown>)[name] = sent[name];
  return exactJson(answer);
}

/**
 * The documented example of an error answer with its status members set to `status` (spec/DECISIONS.md › D349):
 * the first JSON example object of `response`, each member the written error (`written`, JSON text) holds the
 * status in taking it, when the result satisfies the response's schema; `undefined` otherwise.
 */
function exampleError(response: ResponseModel, written: string, status: number): string | undefined {
  const errorBody = parseExact(written);
  const example = response.examples[0]?.value ?? response.example;
  if (!errorBody.ok || example === null || typeof example !== 'object' || Array.isArray(example) || response.validate === undefined) return undefined;
  const made = errorBody.document.value;
  if (made === null || typeof made !== 'object' || Array.isArray(made)) return undefined;
  const merged: Record<string, unknown> = { ...(example as Record<string, unknown>) };
  for (const [name, value] of Object.entries(made as Record<string, unknown>)) if (String(value) === String(status) && Object.hasOwn(merged, name)) merged[name] = value;
  const text = exactJson(merged);
  const parsed = parseExact(text);
  return parsed.ok && response.validate(parsed.document.view) ? text : undefined;
}

/** What {@link servedPager} gives for a page past the end that is answered with the documented 404 (D555). */
const PAST_END = Symbol('past the end');

/**
 * The page a list no resource holds answers (spec/DECISIONS.md › D114): the records of its example (or sample)
 * that hold each filter value asked (D113), cut by its page size (the spec's default when absent) and page number or offset, as a list the mock fills
 * pages them; `undefined` for an operation that is no such list, or pages by a cursor without declaring the `Link`
 * header or a body member that gives the next one (with it, D305 and D354: the cursor names the next page's
 * position; a cursor the mock did not give names the page past the end).
 * A boolean filter asked with a value whose answer its description leaves open (D182's one-sided `false`) is no
 * constraint (D200); the page's members (links, totals) are this page's (D201). Takes the whole answer's JSON text,
 * the request's query, URL and host; returns the page's JSON text, or `undefined` when the answer holds no records
 * where the list's shape says, with the page's `Link` header for a cursor-paged list that has a next page; or
 * {@link PAST_END} for an empty page after the first where the list answers its documented 404 there instead (D555).
 */
function servedPager(op: OperationModel): ((text: string, query: Record<string, unknown>, at: { url: string; host: string | undefined }) => { json: string; headers?: Record<string, string> } | typeof PAST_END | undefined) | undefined {
  const served = servedListOf(op);
  if (served === undefined) return undefined;
  const { list, filters } = served;
  const missing = pastEndNotFound(list);
  const { limit, paging } = list;
  // A cursor-paged list (D305) moves on by the `Link` header it declares, its cursor the position of the next page;
  // without such a header no page after the first could be reached, and the whole list is answered as before.
  const linked = list.headers.some((header) => header.holds === 'link');
  // …or by a member of its body naming the next page (D354).
  const named = list.members.some((member) => member.holds === 'next' || member.holds === 'nextLink');
  if (paging?.kind === 'cursor' && !linked && !named) return undefined;
  return (text, query, request) => {
    const parsed = parseExact(text);
    if (!parsed.ok) return undefined;
    const whole = parsed.document.value;
    const path = list.shape.kind === 'array' ? [] : list.shape.itemsPath;
    const items = path.length === 0 ? whole : memberAt(whole, path);
    if (!Array.isArray(items)) return undefined;
    const number = (name: string | undefined): number | undefined => {
      const value = name === undefined ? undefined : Number(query[name]);
      return value === undefined || !Number.isInteger(value) ? undefined : value;
    };
    // A filter asked keeps the records whose member holds the value (D113), compared as the query's text.
    const kept = items.filter((record: unknown) => filters.every((filter) => {
      const asked = query[filter.parameter.name];
      if (asked === undefined) return true;
      // `false` of "Only return trips where bicycles are known to be allowed" asks for no narrowing (D200).
      if (filter.parameter.type === 'boolean' && filter.values !== undefined && !filter.values.some((one) => String(one) === String(asked))) return true;
      const value = record !== null && typeof record === 'object' ? (record as Record<string, unknown>)[filter.property] : undefined;
      return value !== undefined && value !== null && String(value) === String(asked);
    }));
    const size = number(limit!.parameter) ?? limit!.default ?? kept.length;
    let start: number;
    let headers: Record<string, string> | undefined;
    const at = number(paging?.parameter);
    if (paging?.kind === 'cursor') {
      // A cursor names the position of the next page's first record, as this mock wrote it; any other cursor (the
      // example's own) names no page this mock gave: the page past the end, so following it never repeats records.
      const cursor = query[paging.parameter];
      start = cursor === undefined || cursor === '' ? 0 : Number(decodeCursor(String(cursor)) ?? kept.length);
      if (start + size < kept.length && size > 0 && linked) headers = { link: `<${setQuery(request.url, paging.parameter, encodeCursor(String(start + size)))}>; rel="next"` };
    } else start = paging === undefined || at === undefined ? 0 : paging.kind === 'page' ? (at - paging.first) * size : at - (paging.first ?? 0);
    const page = kept.slice(Math.max(0, start), Math.max(0, start) + size);
    // A page past the end whose array the schema forbids to be empty is the documented 404 (D555).
    if (missing && start > 0 && page.length === 0) return PAST_END;
    // A body member naming the next page holds the position after this page's last record.
    const last = paging?.kind === 'cursor' ? String(Math.max(0, start) + page.length) : undefined;
    const withHeaders = (json: string): { json: string; headers?: Record<string, string> } => (headers === undefined ? { json } : { json, headers });
    if (path.length === 0) return withHeaders(exactJson(page));
    if (whole !== null && typeof whole === 'object' && !Array.isArray(whole)) fillServedPage(list, whole as Record<string, unknown>, { returned: page.length, total: kept.length, ...(last === undefined ? {} : { last }) }, { url: request.url, limit: size, offset: Math.max(0, start), page: paging?.kind === 'page' ? (at ?? paging.first) : undefined, host: request.host });
    // The records' member is replaced in this parse's copy; the wrapper's other members stay as the example has them.
    let holder = whole as Record<string, unknown>;
    for (const name of path.slice(0, -1)) holder = holder[name] as Record<string, unknown>;
    holder[path.at(-1)!] = page;
    if (page.length === 0 && leavesOutEmpty(list)) Reflect.deleteProperty(holder, path.at(-1)!);
    return withHeaders(exactJson(whole));
  };
}

/** Boolean members a deletion status sets to `true` when its schema lets it (`{"id": …, "deleted": true}`). */
const DONE_FLAGS: ReadonlySet<string> = new Set(['deleted', 'removed', 'success', 'ok', 'done']);

/**
 * The body a delete answers (README › Resources): the deleted record where the documented success is the record
 * (`answer`, wrapped as the spec wraps it), or else a deletion status built from the success's schema
 * (`{"id": "…", "object": "model.deleted", "deleted": true}` in many APIs): a schema-valid sample whose members
 * that the record also holds take the record's values, and whose done flag is `true`, where the schema admits them.
 */
function deletionAnswer(op: OperationModel, resource: ResourceModel, answer: (json: string) => string): (json: string) => string {
  const success = op.responses.find((response) => response.status === String(op.successStatus));
  const validate = success?.validate;
  if (success?.schema === undefined || validate === undefined) return answer;
  const schema = success.schema;
  const properties = objectShape(schema).properties;
  const flags = Object.keys(properties).filter((name) => DONE_FLAGS.has(name) && properties[name]?.['type'] === 'boolean' && !Object.hasOwn(resource.properties, name));
  return (json) => {
    const whole = answer(json);
    const parsed = parseExact(whole);
    if (!parsed.ok) return whole;
    // The record answers for itself where it fits the status, unless the status names a done flag the record
    // lacks: `{"deleted": true}` is what a client reads, not a record without it (D227).
    const answered = parsed.document.value;
    const lacksFlag = answered !== null && typeof answered === 'object' && !Array.isArray(answered) && flags.some((name) => !Object.hasOwn(answered, name));
    if (validate(parsed.document.view) && !lacksFlag) return whole;
    const record = parseExact(json);
    const sample = validSample(schema);
    if (!record.ok || sample === null || typeof sample !== 'object' || Array.isArray(sample)) return exactJson(sample);
    const held = record.document.value as Record<string, unknown>;
    const status: Record<string, unknown> = { ...(sample as Record<string, unknown>) };
    for (const name of Object.keys(properties)) {
      const flag = DONE_FLAGS.has(name) && properties[name]?.['type'] === 'boolean';
      if (!flag && !Object.hasOwn(held, name)) continue;
      const candidate = { ...status, [name]: flag ? true : held[name] };
      const view = parseExact(exactJson(candidate));
      if (view.ok && validate(view.document.view)) status[name] = candidate[name];
    }
    return exactJson(status);
  };
}

/**
 * A record ended now (D434): its end time moved to now when it lay ahead, and its state the window's ended phase.
 * `updatedAt`-like members are left to the store's own rules.
 */
function ended(window: TimeWindow, record: RecordValue): RecordValue {
  const now = Date.now();
  const end = Date.parse(String(record[window.end]));
  const out: RecordValue = { ...record };
  if (Number.isNaN(end) || end > now) out[window.end] = new Date(now).toISOString();
  setWindowState(window, out, now);
  return out;
}
