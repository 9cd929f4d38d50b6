import type { OperationModel, ParameterModel } from '../../model/model.js';
import { objectShape, type Schema } from '../../model/schema.js';
import { ordinaryBody } from '../arbitraries/body.js';
import type { CheckContext } from '../check-context.js';
import { requestOf } from '../context.js';
import { idKey } from './check.js';
import { TargetRefusing } from '../client.js';
import { failingExchange } from '../report/results.js';
import { successStatuses } from './records.js';
import { documentedStatuses } from '../../judge/documented.js';
import { linksFeeding, valueAt } from '../../model/links.js';
import { singular } from '../../model/words.js';

// Path parameters fed from what other operations return (spec/DECISIONS.md › D93): an operation under a record no
// resource of the model holds (`GET /passes/{passId}/qr`) is called with a record that exists, found by creating
// one through the operation whose success answer carries that parameter (by its name, or `id` on the collection
// the parameter is named after: `plantId` from `POST /plant`; a declared link first, D118), so its success answer
// is judged, not only its 404.

/** The top-level members of a success answer's schema (with `allOf` parts). */
function answerMembers(op: OperationModel): Record<string, Schema> {
  const success = op.responses.find((response) => Number(response.status) >= 200 && Number(response.status) < 300 && response.schema !== undefined);
  return success?.schema === undefined ? {} : objectShape(success.schema).properties;
}

/** The singular of a path segment, compared loosely (`plants` and `plant` both give `plant`). */
function stem(text: string): string {
  return singular(text.toLowerCase().replace(/[_-]/g, ''));
}

/** The member of `producer`'s answer that carries `parameter`: the same name, or `id` on the collection it names. */
function producedMember(producer: OperationModel, parameter: ParameterModel): string | undefined {
  const members = answerMembers(producer);
  if (members[parameter.name] !== undefined) return parameter.name;
  const collection = producer.path.split('/').filter((segment) => segment !== '' && !segment.startsWith('{')).at(-1);
  const named = /^(.*?)[_-]?id$/i.exec(parameter.name)?.[1];
  return named !== undefined && named !== '' && collection !== undefined && stem(collection) === stem(named) && members['id'] !== undefined ? 'id' : undefined;
}

/** Where a producer's answer carries a parameter's value: a member of its body (as pointer steps) or a header. */
type Carrier = { pointer: string[] } | { header: string };

/**
 * The operations whose answer can feed a path parameter of `op`: creates (POST on a path without parameters).
 * A declared link (D118) that leads from a create's success to `op` and says where the parameter comes from wins
 * over names: when any create declares one, only the declared ones are used.
 */
function producersOf(operations: readonly OperationModel[], op: OperationModel, parameter: ParameterModel): { producer: OperationModel; carrier: Carrier }[] {
  const creates = operations.filter((producer) => producer !== op && producer.method === 'POST' && producer.pathParams.length === 0);
  const linked = creates.flatMap((producer) =>
    linksFeeding(producer, op, parameter.name, operations).flatMap(({ source }) => {
      if (source?.from !== 'response') return [];
      return [{ producer, carrier: source.part === 'body' ? { pointer: source.pointer } : { header: source.name } }];
    }),
  );
  if (linked.length > 0) return linked;
  const named = creates.flatMap((producer) => {
    const member = producedMember(producer, parameter);
    return member === undefined ? [] : [{ producer, carrier: { pointer: [member] } }];
  });
  // The create at the path the parameter stands under (`POST /conversations/group` for
  // `/conversations/group/{convId}/participants`) makes the record that path names; another collection's create whose
  // answer carries a member of the same name (`POST /conversations/community`) makes a record of that other one (D822).
  const under = op.path.slice(0, Math.max(0, op.path.indexOf(`/{${parameter.name}}`)));
  return [...named.filter(({ producer }) => producer.path === under), ...named.filter(({ producer }) => producer.path !== under)];
}

/** The value an answer carries for a parameter: at the body's pointer, or a header's (a `Location`'s last segment). */
function carried(carrier: Carrier, answer: unknown, headers: Record<string, string>): unknown {
  if ('pointer' in carrier) return valueAt(answer, carrier.pointer);
  const header = headers[carrier.header];
  if (header === undefined) return undefined;
  return carrier.header === 'location' ? decodeURIComponent(header.split('?')[0]!.replace(/\/+$/, '').split('/').at(-1) ?? '') : header;
}

/** Whether a path value's text reads as the parameter's scalar type (any text for a string or an unsaid type). */
function fitsType(parameter: ParameterModel, text: string): boolean {
  if (parameter.type === 'integer') return /^-?\d+$/.test(text);
  if (parameter.type === 'number') return text.trim() !== '' && Number.isFinite(Number(text));
  if (parameter.type === 'boolean') return text === 'true' || text === 'false';
  return true;
}

/** Seeds of the further required-only bodies a refused producer is tried with (D188). */
const RETRY_SEEDS = [4, 5, 6, 7];

/**
 * Values for every path parameter of `op` that an existing record's create gives, made now (one create per
 * parameter: an ordinary body with only its required members first, then a full one, then required-only bodies
 * of other seeds while the create refuses them, D188); `undefined` when some parameter has no producer or none of
 * its creates succeeded.
 */
export async function fedPath(context: CheckContext, op: OperationModel): Promise<Record<string, string> | undefined> {
  if (op.pathParams.length === 0 || context.target.readOnly) return undefined;
  const path: Record<string, string> = {};
  for (const parameter of op.pathParams) {
    let value: string | undefined;
    for (const { producer, carrier } of producersOf(context.model.operations, op, parameter)) {
      // A create the prose constrains further (an event ticket "requires" an event id no schema marks) may refuse the
      // first ordinary bodies: a few more seeds draw other enum values and shapes before the parameter goes unfed.
      const attempts: [number, boolean][] = producer.body === undefined ? [[3, true]] : [[3, true], [3, false], ...RETRY_SEEDS.map((seed): [number, boolean] => [seed, true])];
      for (const [seed, requiredOnly] of attempts) {
        if (value !== undefined) break;
        const answered = await setupCall(context, producer, seed, requiredOnly);
        const found = answered === undefined ? undefined : carried(carrier, answered.answer, answered.headers);
        // Only a scalar names a record in a path: an object member named like the parameter (`owner: {login}`) does not.
        // A member named like the parameter but of another type (a `string` id where the path takes an integer) names no record there.
        if ((typeof found === 'string' ? found !== '' && !found.includes('/') : typeof found === 'number' || typeof found === 'bigint') && fitsType(parameter, idKey(found))) value = idKey(found);
      }
    }
    if (value === undefined) return undefined;
    path[parameter.name] = value;
  }
  return path;
}

/**
 * Calls `op` under records made for it (see {@link fedPath}) and judges its answer: a GET must succeed (a
 * documented 2xx, in its media type and schema); any other operation gets one of its documented statuses.
 * Advises when no record could be made, so the success answer stays unjudged.
 */
export async function callUnderProducedRecord(context: CheckContext, op: OperationModel, query: string): Promise<void> {
  // A write without path parameters has nothing to produce, but its body with only its required members is still
  // sent first: drawn bodies may all carry an optional member the target refuses (a reference to no record), and
  // its success answer must be judged on every run, not on a lucky draw.
  const path = op.pathParams.length === 0 && op.body !== undefined && !context.target.readOnly ? {} : await fedPath(context, op);
  if (path === undefined) {
    if (op.pathParams.length > 0 && !context.target.readOnly) context.advise(`${op.operationId}: no operation was found that makes a record for ${op.pathParams.map((p) => `\`${p.name}\``).join(', ')}, so it was only called with drawn values`);
    return;
  }
  const body = op.body === undefined ? undefined : ordinaryBody(context, op, context.target.integers, 3, true);
  const statuses = op.method === 'GET' ? successStatuses(op) : documentedStatuses(op);
  // An action on a record under a parent (`…/threads/{thread_id}/runs/{run_id}/submit_tool_outputs`) gets each path
  // value from its own producer, so the record may live under another parent than the one named: a server that
  // looks the record up there answers HTTP's 404, documented or not (D251, D267).
  const unpaired = op.acts !== undefined && op.pathParams.length > 1 && !context.target.strict && !statuses.includes(404);
  const { exchange } = await context.call(op, requestOf(context, op, { path, query, ...(body === undefined ? {} : { value: body }) }), unpaired ? [...statuses, 404] : statuses);
  if (unpaired && exchange.response.status === 404) context.advise(`${op.operationId} answered 404 to path values made one at a time (${Object.keys(path).join(', ')}), which need not belong together: its success answer stays unjudged here`);
}

/**
 * One create of `producer` made as a check's set-up (D162): its answer when it succeeded; `undefined` when it could
 * not be drawn, was refused, or answered what the contract does not allow (the producer's own checks judge that).
 * Errors: the failure itself when the target answered with a 5xx (the target's failure), and `TargetRefusing`.
 */
async function setupCall(context: CheckContext, producer: OperationModel, seed: number, requiredOnly: boolean): Promise<{ answer: unknown; headers: Record<string, string> } | undefined> {
  try {
    const body = producer.body === undefined ? undefined : ordinaryBody(context, producer, context.target.integers, seed, requiredOnly);
    const { exchange, body: answer } = await context.call(producer, requestOf(context, producer, body === undefined ? {} : { value: body }), documentedStatuses(producer));
    return exchange.response.status < 300 ? { answer, headers: exchange.response.headers } : undefined;
  } catch (failure) {
    if (failure instanceof TargetRefusing || !(failure instanceof Error)) throw failure;
    const status = failingExchange(failure)?.response.status;
    if (status !== undefined && status >= 500) throw failure;
    return undefined;
  }
}
