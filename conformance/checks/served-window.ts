import fc from 'fast-check';
import { windowOf, type ListWindow, type WindowParameter } from '../../model/windows.js';
import { nameWords } from '../../model/words.js';
import { limitRange } from '../arbitraries/query-strings.js';
import { Violation } from '../contract.js';
import type { Check } from './check.js';
import { baseQuery, NothingToJudge, readPage, type ServedList } from './served-lists.js';

// A list computed for the window it is asked (opening hours for every day from `startDate` on) is judged within that
// window (spec/DECISIONS.md › D276): whatever else it computes, no record it lists lies wholly outside the range the
// suite asked. The suite cannot write its records, so the windows are placed around the run's own day.

const DAY_MS = 86_400_000;
/** Days around the first day held the drawn windows start in, and the longest span a drawn window covers. */
const DRAWN_FROM = -30;
const DRAWN_TO = 60;
const LONGEST_SPAN = 14;
/** Windows asked with drawn bounds on each run, after the fixed ones. */
const DRAWN_WINDOWS = 5;

/** A ranged value (a date, or an instant) as milliseconds; `undefined` for anything else. */
function timeOf(value: unknown): number | undefined {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? Date.parse(value) : undefined;
}

/** `day` (midnight UTC, ms) moved by `days`, written in a window parameter's format. */
function dayText(day: number, days: number, format: WindowParameter['format']): string {
  const iso = new Date(day + days * DAY_MS).toISOString();
  return format === 'date' ? iso.slice(0, 10) : `${iso.slice(0, 19)}Z`;
}

/**
 * Whether every window parameter names the ranged member: a word of the member's name is in the parameter's
 * name or description (`startDate` and `date`; "last updated after" and `updated_at`). A window over a member the
 * parameter does not name may bound another value the record does not show, so no verdict is drawn on it.
 */
function namesMember(window: ListWindow): boolean {
  // Words of three letters or more (`ticketDate`: ticket, date; `created_at`: created).
  const words = nameWords(window.property ?? '').filter((word) => word.length >= 3);
  return words.length > 0 && window.parameters.every(({ parameter }) => {
    const text = `${parameter.name} ${parameter.description ?? ''} ${String(parameter.schema['description'] ?? '')}`.toLowerCase();
    return words.some((word) => text.includes(word));
  });
}

/**
 * The window check of a served list (D276): built for a list no resource holds whose window parameters range over
 * the one member of their format that its records hold, and name it. On the first day the list holds as first
 * asked (D186), for a window of that day alone (both ends on it, or the one end the list has), the day after, and
 * windows drawn around it, the first page asked with the largest size lists no record whose ranged values all lie
 * outside the window asked (a day named as the end is part of it, D91). Errors: {@link NothingToJudge} when the
 * first read holds no record with a ranged value.
 */
export function servedWindowCheck(served: ServedList): Check[] {
  const { op, list } = served;
  const window = windowOf(op);
  if (window?.property === undefined || list.limit === undefined || !namesMember(window)) return [];
  const property = window.property;
  const lower = window.parameters.find((one) => one.bound === 'lower');
  const upper = window.parameters.find((one) => one.bound === 'upper');
  const names = window.parameters.map((one) => `\`${one.parameter.name}\``).join('/');
  return [
    {
      id: `${op.operationId}.window`,
      rule: `${op.operationId} (${op.method} ${op.path}), records the suite cannot create: asked with ${names} (on the first day it holds, the day after, and windows drawn around it), no listed record has \`${property}\` wholly outside the window asked; a day named as the end is part of it.`,
      writes: false,
      async run(context) {
        const base = await baseQuery(context, served);
        const [, max] = limitRange(list.limit!);
        const timesIn = (record: unknown): number[] => {
          const value = record !== null && typeof record === 'object' && !Array.isArray(record) ? (record as Record<string, unknown>)[property] : undefined;
          return (Array.isArray(value) ? value : [value]).map(timeOf).filter((time): time is number => time !== undefined);
        };
        // The windows are placed on the first day the list holds as the suite first asks it (D186's window).
        const held = (await readPage(context, served, base, max, undefined)).records.flatMap(timesIn);
        if (held.length === 0) throw new NothingToJudge(`${op.operationId} holds no record with a \`${property}\` for the parameters the suite can build (?${base || 'none'}), so its window could not be judged`);
        const first = new Date(Math.min(...held));
        const day = Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), first.getUTCDate());
        const ask = async (from: number, span: number): Promise<void> => {
          const query = new URLSearchParams(base);
          if (lower !== undefined) query.set(lower.parameter.name, dayText(day, from, lower.format));
          if (upper !== undefined) query.set(upper.parameter.name, dayText(day, lower === undefined ? from : from + span, upper.format));
          const start = lower === undefined ? undefined : Date.parse(query.get(lower.parameter.name)!);
          const endText = upper === undefined ? undefined : query.get(upper.parameter.name)!;
          // A day named as the end includes that whole day (D91); an instant bound is the instant itself.
          const end = endText === undefined ? undefined : Date.parse(endText) + (upper!.format === 'date' ? DAY_MS - 1 : 0);
          const page = await readPage(context, served, query.toString(), max, undefined);
          const outside = page.records.find((record) => {
            const times = timesIn(record);
            return times.length > 0 && ((start !== undefined && Math.max(...times) < start) || (end !== undefined && Math.min(...times) > end));
          });
          const asked = window.parameters.map((one) => `${one.parameter.name}=${query.get(one.parameter.name)}`).join('&');
          if (outside !== undefined) throw new Violation(`${op.operationId}?${asked} lists ${JSON.stringify(outside)}, whose \`${property}\` lies wholly outside that window`, page.exchange);
        };
        // Fixed windows on every run before the draws (D170): one day on the first day held, and on the day after it,
        // so a start that takes in the day before (or an end the day after) lists a record outside on every run.
        await ask(0, 0);
        await ask(1, 0);
        if (upper !== undefined && lower === undefined) await ask(-1, 0);
        const windows = fc.record({ from: fc.integer({ min: DRAWN_FROM, max: DRAWN_TO }), span: fc.integer({ min: 0, max: LONGEST_SPAN }) });
        await context.forAll(windows, ({ from, span }) => ask(from, span), { runs: Math.min(context.target.runs, DRAWN_WINDOWS) });
      },
    },
  ];
}
