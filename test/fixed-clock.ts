/**
 * A clock that always reads noon UTC of `day` (`YYYY-MM-DD`): a test whose servers or suite compute dates from
 * "today" runs on it, so its verdict is the same whatever the calendar says. Noon keeps every zone within a day of
 * UTC on the same date. Errors: throws when `day` names no calendar day.
 */
export function fixedClock(day: string): () => Date {
  const instant = new Date(`${day}T12:00:00Z`);
  if (Number.isNaN(instant.getTime()) || instant.toISOString().slice(0, 10) !== day) throw new Error(`${day} is not a calendar day`);
  return () => new Date(instant);
}

/** The day the date-computing tests run on unless they try several: a Saturday, on which a walk once failed. */
export const TEST_DAY = '2026-11-28';
