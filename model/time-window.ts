import type { ResourceModel } from './model.js';
import { mainType, objectShape, type Schema } from './schema.js';

/**
 * A record whose state follows its own time window (spec/DECISIONS.md › D433): a start and an end time, and a state
 * whose enum names the three phases (Alertmanager's silence: `startsAt`, `endsAt`, `status.state` of `pending`,
 * `active`, `expired`).
 */
export interface TimeWindow {
  /** The top-level `date-time` member that opens the window (`startsAt`, `start_date`, `validFrom`). */
  start: string;
  /** The top-level `date-time` member that closes it (`endsAt`, `end_date`, `validUntil`, `expiresAt`). */
  end: string;
  /** Where the state is: `['state']`, or `['status', 'state']` for a state inside a status object. */
  state: readonly string[];
  /** The enum's own spelling of each phase; `before` may be absent (no enum value for a window not yet open). */
  before: string | undefined;
  during: string;
  after: string;
  /** Whether the after-value says the record outlives its end (`expired`, `lapsed`): then a delete ends it instead of removing it (D434). */
  outlives: boolean;
}

const BEFORE = /^(pending|scheduled|planned|upcoming|future|notstarted|waiting)$/;
const DURING = /^(active|ongoing|running|live|current|inprogress|started)$/;
const AFTER = /^(expired|ended|finished|completed|past|lapsed|over|elapsed)$/;
const OUTLIVES = /^(expired|lapsed|elapsed)$/;
const START = /^(starts?(at|on|date|time)?|start_?(date|time)|valid_?from|begins?(at)?|begin_?(date|time))$/i;
const END = /^(ends?(at|on|date|time)?|end_?(date|time)|valid_?(to|until)|expires?(at|on)?|expir(y|ation)_?(date|time)?)$/i;

/** A phase word compared loosely: lower case, without `_`, `-` and spaces. */
const flat = (value: string): string => value.replace(/[_\-\s]/g, '').toLowerCase();

/**
 * The time window of a record schema, or `undefined` when it has none: one top-level `date-time` member named as a
 * start, one named as an end, and a string enum named `state` or `status` (at top level, or as the only enum member
 * of a top-level `status`/`state` object) holding a value of the running phase and one of the ended phase.
 */
export function timeWindowOf(record: Schema): TimeWindow | undefined {
  const { properties } = objectShape(record);
  const isTime = (name: string): boolean => mainType(properties[name]!) === 'string' && properties[name]!['format'] === 'date-time';
  const start = Object.keys(properties).find((name) => START.test(name) && isTime(name));
  const end = Object.keys(properties).find((name) => END.test(name) && isTime(name));
  if (start === undefined || end === undefined) return undefined;
  for (const holder of ['state', 'status']) {
    const schema = properties[holder];
    if (schema === undefined) continue;
    const phases = phasesOf(schema);
    if (phases !== undefined) return { start, end, state: [holder], ...phases };
    if (mainType(schema) !== 'object') continue;
    const inner = objectShape(schema).properties;
    const found = Object.entries(inner).filter(([, member]) => phasesOf(member) !== undefined);
    if (found.length === 1) return { start, end, state: [holder, found[0]![0]], ...phasesOf(found[0]![1])! };
  }
  return undefined;
}

function phasesOf(schema: Schema): Pick<TimeWindow, 'before' | 'during' | 'after' | 'outlives'> | undefined {
  const values = Array.isArray(schema['enum']) ? (schema['enum'] as unknown[]).filter((value): value is string => typeof value === 'string') : [];
  const during = values.find((value) => DURING.test(flat(value)));
  // `expired` names the end of a window most plainly; among other ended phases the enum's first wins.
  const after = values.find((value) => flat(value) === 'expired') ?? values.find((value) => AFTER.test(flat(value)));
  if (during === undefined || after === undefined) return undefined;
  return { before: values.find((value) => BEFORE.test(flat(value))), during, after, outlives: OUTLIVES.test(flat(after)) };
}

/**
 * Sets a record's state to the phase its window is in at `now` (milliseconds): before its start, between start and
 * end, or at or past its end. A record whose times do not parse, or whose phase has no enum value, is left as it is.
 */
export function setWindowState(window: TimeWindow, record: Record<string, unknown>, now: number = Date.now()): void {
  const start = Date.parse(String(record[window.start]));
  const end = Date.parse(String(record[window.end]));
  if (Number.isNaN(start) || Number.isNaN(end)) return;
  const phase = now >= end ? window.after : now < start ? window.before : window.during;
  if (phase === undefined) return;
  let holder: Record<string, unknown> = record;
  for (const name of window.state.slice(0, -1)) {
    const next = holder[name];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) holder[name] = {};
    holder = holder[name] as Record<string, unknown>;
  }
  holder[window.state.at(-1)!] = phase;
}

/** The time window of a resource's records (see {@link timeWindowOf}). */
export function resourceWindow(resource: ResourceModel): TimeWindow | undefined {
  return timeWindowOf(resource.recordSchema);
}
