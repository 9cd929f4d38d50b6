import type { ContentModel, OperationModel } from '../../model/model.js';
import type { StreamModel } from '../../model/streams.js';
import { essence } from '../../judge/exchange.js';
import { Violation } from '../contract.js';
import { judgeStream } from '../../judge/stream-judge.js';
import type { CheckContext, RequestSpec } from '../check-context.js';
import type { Check } from './check.js';
import { itemRequest } from './identity.js';
import { sampleRequests, writes } from './requests.js';
import { successStatuses } from './records.js';

/** The stream media types an operation's success response documents (D85), in the spec's order. */
export function streamedContents(op: OperationModel): (ContentModel & { stream: StreamModel })[] {
  const success = op.responses.find((response) => response.status === String(op.successStatus));
  return (success?.contents ?? []).filter((content): content is ContentModel & { stream: StreamModel } => content.stream !== undefined);
}

/** Requests per media type: streams are read whole, so a few runs say what many would. */
const STREAM_RUNS = 3;

/**
 * An operation that documents a stream (D85, D86): a valid request asking for it (`Accept` naming the stream's
 * media type, and the body's stream member `true` where the spec has one) gets a documented 2xx in that media type,
 * framed by its rules, with at least one event, each valid against the spec's schema of an event, the stated
 * terminator last; a record a streamed create stores is read back by the id its events carry (D88).
 */
export function streamCheck(op: OperationModel, id: string, rule: string): Check {
  return {
    id,
    rule,
    writes: writes(op),
    async run(context) {
      for (const content of streamedContents(op)) {
        const requests = await sampleRequests(context, op, 0);
        await context.forAll(requests, async ({ request }) => expectStream(context, op, content, asking(op, request, content.mediaType)), { runs: Math.min(context.target.runs, STREAM_RUNS) });
      }
    },
  };
}

/** `request` asking for the stream: `Accept` names its media type, and the body's stream member is `true`. */
function asking(op: OperationModel, request: RequestSpec, mediaType: string): RequestSpec {
  const headers = { ...request.headers, accept: mediaType };
  const member = op.streamMember;
  if (member === undefined || request.body === undefined) return { ...request, headers };
  try {
    const body = JSON.parse(request.body) as unknown;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return { ...request, headers };
    return { ...request, headers, body: JSON.stringify({ ...(body as Record<string, unknown>), [member]: true }) };
  } catch {
    return { ...request, headers };
  }
}

async function expectStream(context: CheckContext, op: OperationModel, content: ContentModel & { stream: StreamModel }, request: RequestSpec): Promise<void> {
  // The status, the documented media type, the framing and every event are judged by the contract (exchange.ts).
  const { exchange } = await context.call(op, request, successStatuses(op));
  const answered = essence(exchange.response.headers['content-type']);
  if (answered !== essence(content.mediaType)) throw new Violation(`asked for the stream (Accept: ${content.mediaType}${op.streamMember === undefined ? '' : `, "${op.streamMember}": true`}), got Content-Type ${JSON.stringify(answered || '(none)')}`, exchange);
  const verdict = judgeStream(content.stream, exchange.response.text);
  if (verdict.events.length === 0) throw new Violation(`the ${content.mediaType} stream carries no event`, exchange);
  const resource = op.resource;
  const read = resource?.operations.read;
  if (op.role !== 'create' || resource === undefined || read === undefined || resource.idParameter === undefined) return;
  const carried = verdict.events.map((event) => (event.data !== null && typeof event.data === 'object' ? (event.data as Record<string, unknown>)[resource.idProperty] : undefined)).find((value) => typeof value === 'string' || typeof value === 'number');
  if (carried === undefined) return;
  const found = await context.call(read, itemRequest(context, resource, read, String(carried)), [...successStatuses(read), 404]);
  if (found.exchange.response.status === 404) throw new Violation(`the streamed create's events name ${resource.idProperty} ${JSON.stringify(carried)}, but reading it back is a 404: the record was not stored`, found.exchange);
}
