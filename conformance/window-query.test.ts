import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadModel, PACKAGE_ROOT } from '../model/loader.js';
import { defaultSpanOf } from '../model/windows.js';
import { shows } from '../judge/record-rules.js';
import { narrowWindows, recordWindowQuery, windowOf } from './window-query.js';

// The windows the suite picks itself (spec/DECISIONS.md › D186) and calendars answered in time order (D189),
// on the gallery of spec/wild/ (opening hours from `startDate`, exhibitions in a startDate..endDate window).

const model = await loadModel(join(PACKAGE_ROOT, 'spec', 'wild', 'gallery-3.1.yaml'));
const operation = (id: string) => model.operations.find((op) => op.operationId === id)!;
const exhibitions = model.resources.find((resource) => resource.operations.list?.operationId === 'listExhibitions')!;
const today = new Date('2026-11-27T15:30:00Z');

describe('narrow windows of a list the suite cannot fill (D186)', () => {
  test('a two-sided window: a week from today, then a year either side', () => {
    expect(narrowWindows(operation('listExhibitions'), '', today)).toEqual(['startDate=2026-11-27&endDate=2026-12-04', 'startDate=2025-11-26&endDate=2027-11-28']);
  });
  test('a lower bound alone: today, then a year before', () => {
    expect(narrowWindows(operation('getOpeningHours'), 'limit=30', today)).toEqual(['startDate=2026-11-27', 'startDate=2025-11-26']);
  });
  test('none where the query names the window or the list has none', () => {
    expect(narrowWindows(operation('getOpeningHours'), 'startDate=2000-01-01', today)).toEqual([]);
    expect(narrowWindows(operation('getExhibition'), '', today)).toEqual([]);
  });
});

describe("a record's own window (D186)", () => {
  test('its first and last days bound the window, whatever their order', () => {
    expect(recordWindowQuery(exhibitions, { dates: ['2031-05-02', '1999-12-31', '2020-02-29'] })).toBe('startDate=1999-12-31&endDate=2031-05-02');
  });
  test('no window for a record that holds no day', () => {
    expect(recordWindowQuery(exhibitions, { dates: [] })).toBeUndefined();
    expect(recordWindowQuery(exhibitions, {})).toBeUndefined();
  });
});

describe('a calendar answered in time order shows the days sent (D189)', () => {
  test('days and instants in another order', () => {
    expect(shows(['2023-09-05', '2023-09-08'], ['2023-09-08', '2023-09-05'])).toBe(true);
    expect(shows(['2023-09-05T10:00:00+02:00', '2023-09-05T09:00:00Z'], ['2023-09-05T09:00:00Z', '2023-09-05T10:00:00+02:00'])).toBe(true);
  });
  test('a day lost, repeated or changed, and other arrays out of order, are still differences', () => {
    expect(shows(['2023-09-05'], ['2023-09-05', '2023-09-05'])).toBe(false);
    expect(shows(['2023-09-05', '2023-09-05'], ['2023-09-05', '2023-09-08'])).toBe(false);
    expect(shows(['2023-09-05', '2023-09-09'], ['2023-09-08', '2023-09-05'])).toBe(false);
    expect(shows(['b', 'a'], ['a', 'b'])).toBe(false);
    expect(shows(['2023-09-05T10:00:00', '2023-09-05T09:00:00'], ['2023-09-05T09:00:00', '2023-09-05T10:00:00'])).toBe(false);
  });
});

describe('a default end stated in prose (D187)', () => {
  test.each([
    ['End of a date range to retrieve special events for. Defaults to 7 days after `startDate`.', { days: 7, from: 'startDate' }],
    ['Defaults to two weeks after from', { days: 14, from: 'from' }],
    ['The last day. Default to 30 days from since.', { days: 30, from: 'since' }],
  ])('%s', (text, span) => {
    expect(defaultSpanOf(text)).toEqual(span);
  });
  test('no span where the text states none', () => {
    for (const text of ["Starting date to retrieve future operating hours from. Defaults to today's date.", 'Defaults to the end of the month.', undefined]) expect(defaultSpanOf(text)).toBeUndefined();
  });
  test('read into the window when the span starts at its lower bound', () => {
    const parameters = windowOf(operation('listExhibitions'))!.parameters;
    expect(parameters.map((one) => [one.parameter.name, one.defaultAfter])).toEqual([
      ['startDate', undefined],
      ['endDate', { days: 7, from: 'startDate' }],
    ]);
  });
});
