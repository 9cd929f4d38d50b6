import { withoutNull } from './lenient-schema.js';
import { mainType, objectShape, type Schema, type Validator } from './schema.js';

/**
 * How a sequential media type frames its items (spec/DECISIONS.md › D85; OpenAPI 3.2 § Sequential Media Types):
 * - `sse`: Server-Sent Events (`text/event-stream`, WHATWG HTML § 9.2): `event:`/`id:`/`data:` lines, a blank line
 *   after each event;
 * - `jsonl`: one JSON value a line (`application/jsonl`, `application/x-ndjson`, `application/x-jsonlines`);
 * - `json-seq`: RFC 7464, each JSON value preceded by the record separator U+001E and followed by a line feed.
 */
export type StreamFraming = 'sse' | 'jsonl' | 'json-seq';

/**
 * A documented stream: its framing, the schema of each event's data (JSON unless `dataIsText`), the SSE event
 * names the spec lists, the examples of one item, and the terminator the spec states (`[DONE]`, sent as
 * `data: [DONE]` after the last event) when it states one.
 */
export interface StreamModel {
  framing: StreamFraming;
  /** The schema each event's data must satisfy (response view); `undefined`: the spec leaves it free. */
  item: Schema | undefined;
  validateItem: Validator | undefined;
  /** SSE only: the data is text (a `type: string` data member without `contentMediaType` JSON), not JSON. */
  dataIsText: boolean;
  /** SSE only: the `event:` names the spec allows (`const`/`enum`/`examples` of the item's `event`), empty when free. */
  eventNames: string[];
  /** Item values the spec gives as examples (of the media type, of `itemSchema`, of the data's schema), in its order. */
  examples: unknown[];
  /** SSE only: the data of the last event when the spec states one (`data: [DONE]` in a description). */
  terminator: string | undefined;
}

/** The framing of a media type (parameters ignored, case-insensitive), or `undefined` for a media type that is not sequential. */
export function framingOf(mediaType: string): StreamFraming | undefined {
  const type = mediaType.split(';')[0]!.trim().toLowerCase();
  if (type === 'text/event-stream') return 'sse';
  if (type === 'application/jsonl' || type === 'application/x-ndjson' || type === 'application/x-jsonlines' || type === 'application/jsonlines') return 'jsonl';
  if (type === 'application/json-seq') return 'json-seq';
  return undefined;
}

/** A media type object as the loader reads it (dereferenced): only the members a stream needs. */
interface MediaObject {
  schema?: unknown;
  itemSchema?: unknown;
  example?: unknown;
  examples?: Record<string, { value?: unknown; dataValue?: unknown }>;
  description?: unknown;
}

/** What reading a stream needs from the model's loader: the schema converter (OpenAPI → 2020-12, response view) and the compiler. */
export interface StreamReader {
  convert: (schema: unknown) => Schema;
  compile: (schema: Schema) => Validator;
}

/**
 * The stream a media type documents (D85), or `undefined` when `mediaType` is not sequential. Each item's schema is
 * 3.2's `itemSchema`, else the media's `schema` (as 3.1 specs document streams today: the schema of each event's
 * data; for JSON Lines an array schema is read as its `items`). For SSE, an `itemSchema` describing the event itself
 * (`{event, data, id}`), or a `schema` naming only SSE fields with `data` among them (D153), is read through its
 * `data` member: its `contentSchema` when the data is JSON text, else its own schema. `texts` are the descriptions around it (operation, response, request member) searched for a
 * terminator such as `data: [DONE]`.
 */
export function streamOf(mediaType: string, media: MediaObject, reader: StreamReader, texts: readonly unknown[]): StreamModel | undefined {
  const framing = framingOf(mediaType);
  if (framing === undefined) return undefined;
  const declared = isObject(media.itemSchema) ? media.itemSchema : isObject(media.schema) ? media.schema : undefined;
  let raw: Record<string, unknown> | undefined = declared;
  let dataIsText = false;
  let eventNames: string[] = [];
  // A 3.1 `schema` shaped as the event itself (`{event, data: Chunk}`: only SSE field names, `data` among them) is read
  // as 3.2's `itemSchema` is: each event's `data:` line carries the payload, as clients read it (D153).
  if (framing === 'sse' && declared !== undefined && (media.itemSchema !== undefined || isEventShape(declared))) {
    const properties = (isObject(declared['properties']) ? declared['properties'] : {}) as Record<string, unknown>;
    const data = properties['data'];
    if (isObject(data)) {
      const content = data['contentSchema'];
      if (isObject(content)) raw = content;
      else if (data['type'] === 'string' && typeof data['contentMediaType'] === 'string' && /json/i.test(data['contentMediaType'])) raw = {};
      else {
        raw = data;
        dataIsText = data['type'] === 'string';
      }
    }
    eventNames = namesOf(properties['event']);
  } else if (framing !== 'sse' && declared !== undefined && declared['type'] === 'array' && media.itemSchema === undefined) {
    raw = isObject(declared['items']) ? declared['items'] : {};
  } else if (framing === 'sse' && declared !== undefined && declared['type'] === 'string') {
    // A 3.1 spec that calls the stream a string says nothing of its events: their data is free text.
    raw = undefined;
    dataIsText = true;
  }
  const item = raw === undefined ? undefined : reader.convert(raw);
  const examples: unknown[] = [];
  const addExample = (value: unknown): void => {
    if (Array.isArray(value) && framing !== 'sse' && mainType(item ?? {}) !== 'array') examples.push(...value);
    else if (typeof value === 'string' && framing === 'sse' && !dataIsText && value.includes('data:')) examples.push(...sseExampleData(value));
    else if (value !== undefined) examples.push(value);
  };
  addExample(media.example);
  for (const named of Object.values(media.examples ?? {})) if (isObject(named)) addExample(named.dataValue ?? named.value);
  for (const value of Array.isArray(item?.['examples']) ? (item['examples'] as unknown[]) : []) examples.push(value);
  return {
    framing,
    item,
    validateItem: item === undefined ? undefined : reader.compile(item),
    dataIsText,
    eventNames,
    examples,
    terminator: framing === 'sse' ? terminatorIn([media.description, ...texts]) : undefined,
  };
}

/** The data of each event of an SSE text given as an example (`data: {...}` lines), JSON-parsed where it parses. */
function sseExampleData(text: string): unknown[] {
  const values: unknown[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    const data = block.split(/\r?\n/).filter((line) => line.startsWith('data:')).map((line) => line.slice(5).replace(/^ /, '')).join('\n');
    if (data === '' || /^\[[A-Z_]+\]$/.test(data)) continue;
    try {
      values.push(JSON.parse(data) as unknown);
    } catch {
      values.push(data);
    }
  }
  return values;
}

/**
 * The terminator a description states, as AI APIs document it: `data: [DONE]` (an all-capital word in brackets after
 * `data:`), in any of `texts`; `undefined` when none does (D85: never assumed).
 */
export function terminatorIn(texts: readonly unknown[]): string | undefined {
  for (const text of texts) {
    if (typeof text !== 'string') continue;
    const found = /data:\s*(\[[A-Z][A-Z_]*\])/.exec(text);
    if (found !== null) return found[1];
  }
  return undefined;
}

/**
 * The member of a request body by which a client asks for the stream (D86): a boolean top-level property named
 * `stream` (or `streaming`, or any name holding `stream`) or whose description speaks of server-sent events or
 * streaming; `undefined` when the body has none. Read from the spec, never one API's name.
 */
export function streamMemberOf(bodySchema: Schema | undefined): string | undefined {
  if (bodySchema === undefined) return undefined;
  const { properties } = objectShape(bodySchema);
  // A nullable flag (`anyOf: [{type: boolean}, {type: null}]`) asks as a boolean does (D131).
  const booleans = Object.entries(properties).filter(([, schema]) => mainType(withoutNull(schema)) === 'boolean');
  const byName = booleans.find(([name]) => /stream/i.test(name));
  if (byName !== undefined) return byName[0];
  const byText = booleans.find(([, schema]) => typeof schema['description'] === 'string' && /server-sent events|event stream|\bstream(?:ed|ing)?\b/i.test(schema['description']));
  return byText?.[0];
}

/** The fields of a Server-Sent Event (WHATWG HTML § 9.2.6): a schema naming only these, `data` among them, describes the event, not its data. */
const SSE_FIELDS = new Set(['event', 'data', 'id', 'retry']);

/** Whether a stream's schema describes the event itself: an object whose properties are SSE fields, `data` among them. */
function isEventShape(schema: Record<string, unknown>): boolean {
  const properties = isObject(schema['properties']) ? Object.keys(schema['properties']) : [];
  return properties.includes('data') && properties.every((name) => SSE_FIELDS.has(name));
}

function namesOf(schema: unknown): string[] {
  if (!isObject(schema)) return [];
  if (typeof schema['const'] === 'string') return [schema['const']];
  if (Array.isArray(schema['enum'])) return schema['enum'].filter((name): name is string => typeof name === 'string');
  return [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
