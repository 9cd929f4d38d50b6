import { parseExact } from '../model/json.js';
import type { StreamModel } from '../model/streams.js';

/** One event of a stream as read from the wire: its data (parsed JSON, or text), the SSE event name, where it starts. */
export interface StreamEvent {
  data: unknown;
  /** The SSE `event:` field, when sent. */
  name: string | undefined;
  /** The 0-based index of the event among the stream's events (the terminator not counted). */
  index: number;
}

/** A broken rule of a stream: `framing` (the media type's rules), `event` (an event's data against its schema), `end` (the terminator). */
export interface StreamProblem {
  rule: 'stream.framing' | 'stream.event';
  /** JSON pointer into the stream: `/events/3`, `/events/3/data/choices/0`. */
  pointer: string;
  message: string;
}

/** What reading a stream found: its events in order, whether the stated terminator came, and the rules it broke. */
export interface StreamVerdict {
  events: StreamEvent[];
  terminated: boolean;
  problems: StreamProblem[];
}

/** Most problems reported per stream: the first few say what is wrong. */
const MAX_PROBLEMS = 5;

/**
 * Reads a whole streamed body by its media type's framing and judges it (spec/DECISIONS.md › D85):
 * - SSE (WHATWG HTML § 9.2.6): lines `field: value` with the fields `data`, `event`, `id`, `retry` or a comment
 *   (`:`), events separated by a blank line, the last one closed by one too; each event's data JSON (unless the
 *   spec makes it text) valid against the item schema; a name among those the spec lists; the stated terminator
 *   (`data: [DONE]`) last, nothing after it;
 * - JSON Lines: one JSON value a line, no blank line inside, each valid against the item schema;
 * - JSON text sequences (RFC 7464): each value after a record separator (U+001E) and ended by a line feed.
 * Written apart from the mock's framing: the judge shares no code with the server it judges. Never throws.
 */
export function judgeStream(stream: StreamModel, text: string): StreamVerdict {
  const problems: StreamProblem[] = [];
  const events: StreamEvent[] = [];
  const add = (rule: StreamProblem['rule'], pointer: string, message: string): void => {
    if (problems.length < MAX_PROBLEMS) problems.push({ rule, pointer, message });
  };
  const judgeData = (raw: string, index: number, name: string | undefined): void => {
    let data: unknown = raw;
    let view: unknown = raw;
    if (!stream.dataIsText) {
      const parsed = parseExact(raw);
      if (!parsed.ok) {
        add('stream.event', `/events/${index}/data`, `event ${index}'s data is not JSON: ${JSON.stringify(raw.slice(0, 60))}`);
        events.push({ data: raw, name, index });
        return;
      }
      data = parsed.document.value;
      view = parsed.document.view;
    }
    if (stream.validateItem !== undefined && !stream.validateItem(view)) {
      for (const issue of stream.validateItem.issues().slice(0, 3)) add('stream.event', `/events/${index}/data${issue.pointer}`, `event ${index} does not match the spec's schema of an event: ${issue.message}`);
    }
    if (name !== undefined && stream.eventNames.length > 0 && !stream.eventNames.includes(name)) add('stream.event', `/events/${index}/event`, `event ${index} is named ${JSON.stringify(name)}; the spec names ${stream.eventNames.join(', ')}`);
    events.push({ data, name, index });
  };

  let terminated = false;
  if (stream.framing === 'sse') {
    const normalised = text.replace(/\r\n?/g, '\n');
    if (normalised !== '' && !normalised.endsWith('\n\n')) add('stream.framing', '/end', 'the stream does not end with a blank line: its last event is never dispatched');
    const blocks = normalised.split('\n\n');
    for (const [at, block] of blocks.entries()) {
      if (block === '') continue;
      const data: string[] = [];
      let name: string | undefined;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') data.push(value);
        else if (field === 'event') name = value;
        else if (field !== 'id' && field !== 'retry') add('stream.framing', `/blocks/${at}`, `a line of block ${at} is no Server-Sent Events field (data, event, id, retry or a ":" comment): ${JSON.stringify(line.slice(0, 60))}`);
      }
      if (data.length === 0) continue;
      const joined = data.join('\n');
      if (terminated) {
        add('stream.framing', `/blocks/${at}`, `an event follows the terminator data: ${stream.terminator ?? ''}`);
        continue;
      }
      if (stream.terminator !== undefined && joined === stream.terminator) {
        terminated = true;
        continue;
      }
      judgeData(joined, events.length, name);
    }
    if (stream.terminator !== undefined && !terminated) add('stream.framing', '/end', `the stream does not end with "data: ${stream.terminator}", which the spec states`);
  } else if (stream.framing === 'jsonl') {
    const lines = text.split('\n');
    // A final line feed ends the last value; anything else after the last one is a value without its line end.
    if (lines.at(-1) === '') lines.pop();
    for (const [at, line] of lines.entries()) {
      const value = line.endsWith('\r') ? line.slice(0, -1) : line;
      if (value.trim() === '') {
        add('stream.framing', `/lines/${at}`, `line ${at} is blank: JSON Lines hold one JSON value a line`);
        continue;
      }
      judgeData(value, events.length, undefined);
    }
  } else {
    const records = text.split('\u001e');
    if (records[0] !== '') add('stream.framing', '/records/0', `the stream does not start with a record separator (U+001E): ${JSON.stringify(records[0]!.slice(0, 40))}`);
    for (const [at, record] of records.slice(1).entries()) {
      if (!record.endsWith('\n')) add('stream.framing', `/records/${at}`, `record ${at} does not end with a line feed (RFC 7464)`);
      judgeData(record.replace(/\n$/, ''), events.length, undefined);
    }
  }
  return { events, terminated, problems };
}
