import fc from 'fast-check';
import type { ApiModel, OperationModel, ResourceModel } from '../../model/model.js';
import { bodyForm, bodyValues, ordinaryBody } from '../arbitraries/body.js';
import { missingRequiredBodies } from '../arbitraries/invalid-body.js';
import { pageSizeNear } from '../arbitraries/query-strings.js';
import { refusalStatuses } from './create.js';
import { requestOf } from '../context.js';
import type { CheckContext, RequestSpec } from '../check-context.js';
import { idOf, isKnownId, memory, rememberRecords, type Check, type ExactRecord } from './check.js';
import { itemRequest, withClientId } from './identity.js';
import { absentIds } from './read.js';
import { renameMember } from '../../model/resources.js';
import { absentStatuses, conflictStatuses, createRecord, listRecords, successStatuses } from './records.js';
import { sampleRequests, writes } from './requests.js';
import { callUnderProducedRecord } from './producers.js';
import { documentedStatuses } from '../../judge/documented.js';
import { reachableResources } from './parents.js';

/** One request of an operation with the statuses the spec gives it here, for `responses.conformance`. */
interface Probe {
  op: OperationModel;
  request: RequestSpec | (() => Promise<RequestSpec>);
  status: number[];
}

/** No credentials at all: the 401 every secured operation documents (seed, Authentication). */
const NO_CREDENTIALS = { kind: 'no credentials', headers: { authorization: null } };

/** The probes of one resource: each of its operations with each status a valid or plainly invalid request gets. */
async function resourceProbes(context: CheckContext, resource: ResourceModel): Promise<fc.Arbitrary<Probe>[]> {
  const probes: fc.Arbitrary<Probe>[] = [];
  const { list, create, read, replace, update, delete: remove } = resource.operations;
  const fresh = async (): Promise<ExactRecord> => (await createRecord(context, resource, ordinaryBody(context, create!, context.target.integers, 6)))!;
  let existing: string[] = [];
  if (list !== undefined) {
    const { records } = await listRecords(context, resource, resource.limit === undefined ? '' : `${encodeURIComponent(resource.limit.parameter)}=${pageSizeNear(resource.limit, 10)}`);
    existing = records.map((record) => idOf(resource, record));
    if (existing.length === 0 && !context.target.readOnly && create !== undefined) existing = [idOf(resource, await fresh())];
  }
  for (const op of [list, create, read, replace, update, remove]) {
    if (op === undefined || (context.target.readOnly && writes(op))) continue;
    if (op.security.length === 0) continue;
    const [sample] = fc.sample(await sampleRequests(context, op, 0), { numRuns: 1, seed: 1 });
    const request: RequestSpec = { ...sample!.request, credentials: NO_CREDENTIALS };
    probes.push(fc.constant<Probe>({ op, request, status: [401] }));
  }
  if (list !== undefined) probes.push((await sampleRequests(context, list, 0)).map(({ request }) => ({ op: list, request, status: successStatuses(list) })));
  if (read !== undefined) {
    // Only a read whose path names the record itself can be asked for an absent one: a singleton's read (one record
    // per parent, `/clusters/{cluster_id}/clusterlint`) names its parent, which exists, so whether it answers 200 or
    // 404 depends on what earlier requests of the run made under it.
    if (read.pathParams.some((parameter) => parameter.name === resource.idParameter)) probes.push(absentIds(context, resource).filter((id) => !isKnownId(context, resource, id)).map((id) => ({ op: read, request: itemRequest(context, resource, read, id), status: absentStatuses(read) })));
    if (existing.length > 0) probes.push(fc.constantFrom(...existing).map((id) => ({ op: read, request: itemRequest(context, resource, read, id), status: successStatuses(read) })));
  }
  if (context.target.readOnly || create === undefined) return probes;
  probes.push(bodyValues(context, create, { integers: context.target.integers, strings: 'ordinary' }).map((value) => ({ op: create, request: async () => requestOf(context, create, { value: withClientId(context, resource, value) }), status: [...successStatuses(create), ...conflictStatuses(create)] })));
  const missing = missingRequiredBodies(create, bodyForm(create), ordinaryBody(context, create, context.target.integers, 8), () => undefined).at(-1);
  if (missing !== undefined) probes.push(fc.constant({ op: create, request: requestOf(context, create, { body: missing.text, contentType: missing.contentType }), status: refusalStatuses(create) }));
  for (const op of [replace, update]) {
    if (op === undefined || (resource.idParameter === undefined && op.idIn !== 'body')) continue;
    // A rename (`new_name`, D144) would move the record away from the id the other checks remember it by: left out.
    const rename = renameMember(op, resource);
    const values = bodyValues(context, op, { integers: context.target.integers, strings: 'ordinary' }).map((value) => (rename === undefined ? value : Object.fromEntries(Object.entries(value).filter(([name]) => name !== rename))));
    probes.push(values.map((value) => ({ op, request: async () => itemRequest(context, resource, op, idOf(resource, await fresh()), value), status: successStatuses(op) })));
  }
  if (remove !== undefined && (resource.idParameter !== undefined || remove.idIn === 'body')) {
    probes.push(fc.constant({ op: remove, request: async () => {
      const id = idOf(resource, await fresh());
      // Deleted by this probe: no longer part of what the target must list.
      memory(context, resource).deletedIds.add(id);
      return itemRequest(context, resource, remove, id);
    }, status: successStatuses(remove) }));
  }
  return probes;
}

/**
 * Every operation of every resource, every status a plain request gets (seed, Endpoints; Errors; What the service
 * does): each response must have exactly that status, the documented media type, a body valid against the
 * spec, and an error's status field equal to the HTTP status.
 */
export function responsesCheck(model: ApiModel, id: string, rule: string): Check {
  return {
    id,
    rule,
    writes: false,
    async run(context) {
      const probes: fc.Arbitrary<Probe>[] = [];
      for (const resource of reachableResources(context, model)) probes.push(...(await resourceProbes(context, resource)));
      if (probes.length === 0) return context.advise('no resource offers a request to probe, so no response was judged here (operations no resource holds have their own check): not fully tested');
      await context.forAll(fc.oneof(...probes), async ({ op, request, status }) => {
        const sent = typeof request === 'function' ? await request() : request;
        const { exchange, body } = await context.call(op, sent, status);
        if (op.resource !== undefined && op.role === 'create' && exchange.response.status < 300 && body !== null && typeof body === 'object') rememberRecords(context, op.resource, [body as ExactRecord]);
      });
    },
  };
}

/**
 * An operation no resource holds (answered from the spec's examples by the mock): valid requests get a
 * documented status, the documented media type and a schema-valid body; never a 5xx.
 */
export function unmappedCheck(op: OperationModel, id: string, rule: string): Check {
  // An operation whose only success is `101 Switching Protocols` (a WebSocket) succeeds only on an upgrade, which
  // the suite's plain requests never ask for: what a server answers them instead is not in the spec (D348).
  const switching = op.responses.some((response) => response.status === '101') && !op.responses.some((response) => /^[23]/.test(response.status));
  return {
    id,
    rule,
    ...(switching ? { skip: `${op.operationId} succeeds only by switching protocols (101), which plain HTTP requests cannot ask for` } : {}),
    writes: writes(op),
    async run(context) {
      // Under a record made for it first (D93), so that its success answer is judged and not only its 404.
      await callUnderProducedRecord(context, op, op.queryParams.filter((p) => p.required && p.schema['example'] !== undefined).map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(p.schema['example']))}`).join('&'));
      const requests = await sampleRequests(context, op, 0);
      const documented = documentedStatuses(op);
      const statuses = documented.length === 0 ? [op.successStatus] : documented;
      // Drawn path values name nothing the target was seen to hold: HTTP's 404 is its answer there, listed or not (D251, D267).
      const absent = op.pathParams.length > 0 && !context.target.strict && !statuses.includes(404);
      await context.forAll(requests, async ({ request }) => {
        const { exchange } = await context.call(op, request, absent ? [...statuses, 404] : statuses);
        if (absent && exchange.response.status === 404) context.advise(`${op.operationId} answered 404, which it does not document, to a path naming nothing the suite made (allowed: HTTP's answer for an absent record)`);
      }, { runs: Math.min(context.target.runs, 10) });
    },
  };
}
