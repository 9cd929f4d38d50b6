import { expect, test } from 'vitest';
import { listCheckIds } from '../../../conformance/index.js';
import { fixedClock, TEST_DAY } from '../../fixed-clock.js';
import { failureText, INDEPENDENT_KEY, outcomes } from '../independent-case.js';
import { MUSEUM_ABSENT, MUSEUM_SPEC, museumTarget } from './museum-case.js';
import { startMuseumRivalServer } from './museum-rival-server.js';
import { startMuseumServer } from './museum-server.js';

/** A week of days (each weekday once, so each count of the rival's published weekdays), a year's last day and a leap day. */
const DAYS = [TEST_DAY, '2026-11-29', '2026-11-30', '2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-31', '2028-02-29'];

/** Days the first museum, whose hours never end and so never divide into pages, is also tried on. */
const EDGE_DAYS = new Set([TEST_DAY, '2028-02-29']);

/** The checks whose requests carry a date computed from "today": the hours and the events' window. */
const dated = (ids: readonly string[]): string[] => ids.filter((id) => id.startsWith('getMuseumHours.') || id.startsWith('listSpecialEvents.'));

// Both museums compute their answers from the day (hours from today on, events within a window from today), and so
// does the suite's first window (D186). A conforming server passes on every day: each server and the suite run on
// one fixed clock per day, over a week of weekdays (the rival's published weekdays number 85, 86 or 87 by the
// weekday, and a page size dividing them makes the walk ask the page past the last, D360), a year's end, a leap day.
test.skipIf(MUSEUM_SPEC === undefined)(`museum/openapi.yaml: the date-computing checks give both museums the same verdict on every day${MUSEUM_SPEC === undefined ? ` (${MUSEUM_ABSENT})` : ''}`, async () => {
  const failures: string[] = [];
  for (const day of DAYS) {
    const now = fixedClock(day);
    for (const start of EDGE_DAYS.has(day) ? [startMuseumServer, startMuseumRivalServer] : [startMuseumRivalServer]) {
      const server = await start({ user: INDEPENDENT_KEY, now });
      try {
        const target = museumTarget(MUSEUM_SPEC!, server.baseUrl, now);
        const text = failureText(await outcomes(target, dated(await listCheckIds(target))));
        if (text !== '') failures.push(`${day}, ${start.name}:\n${text}`);
      } finally {
        await server.close();
      }
    }
  }
  expect(failures.join('\n\n')).toBe('');
}, 300_000);
