import { canonicalJson } from '../../model/json.js';
import type { OperationModel } from '../../model/model.js';
import { echoedMembers } from '../../model/echoes.js';
import type { Schema } from '../../model/schema.js';
import { documentedStatuses } from '../../judge/documented.js';
import { bodyValues, ordinaryBody } from '../arbitraries/body.js';
import type { CheckContext } from '../check-context.js';
import { requestOf } from '../context.js';
import { Violation } from '../contract.js';
import type { Check } from './check.js';
import { show } from './records.js';

// A write no resource holds (`POST /tickets`: a purchase with no read beside it) is still held to what its answer
// says of the request (spec/DECISIONS.md › D280): where the request body and the success answer are both made of
// one and the same object description (a `Ticket` in both `allOf`s), the answer describes what was sent, and each
// required scalar member of that shared part comes back as sent. Anything less shared (a `model` member an answer
// may name more precisely than the request did) is no verdict.

/** Fixed bodies sent on every run before the draws (D170), so a member answered otherwise shows whatever is drawn. */
const FIXED_BODIES = 4;

/** Whether an answered value is the value sent: the same JSON; an instant the same instant; a UUID or an e-mail in any case. */
function sameValue(sent: unknown, got: unknown, schema: Schema): boolean {
  if (canonicalJson(sent) === canonicalJson(got)) return true;
  if (typeof sent !== 'string' || typeof got !== 'string') return false;
  const format = schema['format'];
  if (format === 'date-time') return !Number.isNaN(Date.parse(sent)) && Date.parse(sent) === Date.parse(got);
  if (format === 'uuid' || format === 'email') return sent.toLowerCase() === got.toLowerCase();
  return false;
}

/**
 * The echo check of a write no resource holds (D280): for fixed ordinary bodies and drawn ones, a success answer
 * holds each member of {@link echoedMembers} that was sent, as sent. A documented refusal (a combination of members
 * a rule of the text refuses) is no verdict; every success is judged. Built only where such members exist.
 */
export function purchaseEchoChecks(op: OperationModel, where: string): Check[] {
  const members = echoedMembers(op);
  if (members.length === 0) return [];
  const names = members.map((member) => `\`${member.name}\``).join(', ');
  return [
    {
      id: `${op.operationId}.echo`,
      rule: `${where}: its request and its success answer share one object description, so a success answer holds ${names} as sent.`,
      writes: true,
      async run(context) {
        let judged = 0;
        const expected = documentedStatuses(op).filter((status) => status < 500);
        const send = async (value: Record<string, unknown>): Promise<void> => {
          const { exchange, body } = await context.call(op, requestOf(context, op, { value }), expected.length === 0 ? [op.successStatus] : expected);
          if (exchange.response.status < 200 || exchange.response.status > 299 || body === null || typeof body !== 'object' || Array.isArray(body)) return;
          judged++;
          const answer = body as Record<string, unknown>;
          for (const { name, schema } of members) {
            if (value[name] === undefined || answer[name] === undefined) continue;
            if (!sameValue(value[name], answer[name], schema)) throw new Violation(`${op.operationId} was sent ${name} ${show(value[name])} and answered ${name} ${show(answer[name])}: the answer describes what was sent`, exchange);
          }
        };
        for (let index = 0; index < FIXED_BODIES; index++) await send(ordinaryBody(context, op, context.target.integers, 60 + index));
        await context.forAll(bodyValues(context, op, { integers: context.target.integers, strings: 'ordinary' }), send, { runs: Math.min(context.target.runs, 20) });
        if (judged === 0) adviseNone(context, op);
      },
    },
  ];
}

/** Advice when no body the check sent was taken: nothing was judged. */
function adviseNone(context: CheckContext, op: OperationModel): void {
  context.advise(`${op.operationId} took none of the bodies sent (each refused as documented), so what its answer echoes was not judged`);
}
