import { isLosslessNumber } from 'lossless-json';
import { canonicalJson, parseExact, toView } from '../model/json.js';
import type { ContentModel, OperationModel } from '../model/model.js';
import { validAnswer } from '../model/samples.js';
import type { StreamModel } from '../model/streams.js';

/** Fewest events a generated stream carries, so that a client sees it arrive in pieces (D85). */
const MIN_EVENTS = 3;
/** Most events taken from the spec's examples or a list. */
const MAX_EVENTS = 50;


/**
 * Whether a request asks for the stream by its body (D86): the operation's stream member (`stream`) is `true`
 * in the validated body. `Accept` asks by itself through negotiation.
 */
export function bodyAsksStream(op: OperationModel, body: unknown): boolean {
  const member = op.streamMember;
  return member !== undefined && body !== null && typeof body === 'object' && !Array.isArray(body) && (body as Record<string, unknown>)[member] === true;
}

/**
 * The pieces of a streamed answer, each one event framed by its media type's rules (D85): SSE `event:` (when the
 * spec names events) and `data:` lines closed by a blank line, then the terminator the spec states
 * (`data: [DONE]`); one JSON value a line for JSON Lines; RS + JSON + LF for JSON text sequences.
 *
 * The events: the records of `produced` when the handler answered a list (an export streams its records), else the
 * spec's valid item examples, else a valid sample of the item schema, at least {@link MIN_EVENTS} of them. A
 * record the handler stored (a streamed create) lends each event the values of members both share (`id`,
 * `model`, `created`) where the event stays valid (D88), so the events name the record a client can read back.
 */
export function streamChunks(content: ContentModel & { stream: StreamModel }, produced: string | undefined): string[] {
  const stream = content.stream;
  const parsed = produced === undefined || produced === '' ? undefined : parseExact(produced);
  const value = parsed?.ok === true ? parsed.document.value : undefined;
  const events = eventsOf(stream, value);
  return [...events.map((event, index) => frame(stream, event, index, events.length)), ...(stream.terminator === undefined ? [] : [`data: ${stream.terminator}\n\n`])];
}

function eventsOf(stream: StreamModel, produced: unknown): unknown[] {
  const valid = (event: unknown): boolean => stream.validateItem === undefined || stream.validateItem(toView(event));
  const records = recordsOf(produced);
  if (records !== undefined && records.length > 0 && records.every(valid)) return records.slice(0, MAX_EVENTS);
  let events = stream.examples.filter(valid).slice(0, MAX_EVENTS);
  if (events.length === 0) {
    const sample = stream.item === undefined ? (stream.dataIsText ? 'event' : {}) : validAnswer(stream.item, stream.validateItem).value;
    events = [sample];
  }
  while (events.length < MIN_EVENTS) events.push(events[events.length - 1]);
  if (produced === null || typeof produced !== 'object' || Array.isArray(produced)) return events;
  const record = produced as Record<string, unknown>;
  return events.map((event) => lend(event, record, valid));
}

/** The list a handler answered: an array, or the array member of a wrapper (`{data: [...]}`). */
function recordsOf(produced: unknown): unknown[] | undefined {
  if (Array.isArray(produced)) return produced;
  if (produced === null || typeof produced !== 'object') return undefined;
  const arrays = Object.values(produced as Record<string, unknown>).filter(Array.isArray);
  return arrays.length === 1 ? arrays[0] : undefined;
}

/** `event` with each scalar member the record also has set to the record's value, one at a time, kept only while valid. */
function lend(event: unknown, record: Record<string, unknown>, valid: (event: unknown) => boolean): unknown {
  if (event === null || typeof event !== 'object' || Array.isArray(event)) return event;
  let current = { ...(event as Record<string, unknown>) };
  for (const [name, own] of Object.entries(current)) {
    const theirs = record[name];
    if (theirs === undefined || (typeof theirs === 'object' && theirs !== null && !isLosslessNumber(theirs)) || typeof own === 'object') continue;
    const next = { ...current, [name]: theirs };
    if (valid(next)) current = next;
  }
  return current;
}

function frame(stream: StreamModel, event: unknown, index: number, count: number): string {
  const text = stream.dataIsText && typeof event === 'string' ? event : canonicalJson(event);
  switch (stream.framing) {
    case 'jsonl':
      return `${text}\n`;
    case 'json-seq':
      return `\u001e${text}\n`;
    case 'sse': {
      const names = stream.eventNames;
      // Named events run from the first name to the last (`run.created` … `run.completed`), the middle ones between.
      const name = names.length === 0 ? undefined : names[count <= 1 ? 0 : Math.round((index * (names.length - 1)) / (count - 1))];
      const data = text.split(/\r\n|\r|\n/).map((line) => `data: ${line}\n`).join('');
      return `${name === undefined ? '' : `event: ${name}\n`}${data}\n`;
    }
  }
}
