import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listCheckIds, runCheck } from '../../../conformance/run-suite.js';
import { PACKAGE_ROOT } from '../../../model/loader.js';
import { INDEPENDENT_CLOCK } from '../independent-case.js';
import { FERRY_FAULTS } from './faults.js';
import { startFerryServer, type FerryServer } from './ferry-travel-server.js';

/**
 * The suite against a ferry-travel backend written from the spec's text alone (ferry-travel-server.ts, no code shared with the
 * mock or the suite): every check passes the correct server, and each one-fault version is rejected by the check
 * its fault names, a check the correct server passes. The correct server enforces what the spec's prose says
 * (a reservation names a crossing it holds, crossings listed from today, two-letter country codes): a check that
 * fails it is a bug of the suite.
 */
const SPEC = join(PACKAGE_ROOT, 'spec', 'wild', 'ferry-travel-3.1.yaml');
const TOKEN = 'independent-ferry-token';
const RUNS = 10;

// The server and the suite share one fixed day: crossings are listed from "today".
const targetOf = (server: FerryServer) => ({ baseUrl: server.baseUrl, apiKey: TOKEN, spec: SPEC, runs: RUNS, now: INDEPENDENT_CLOCK });

describe('the ferry-travel server written from the spec', () => {
  let server: FerryServer;
  beforeAll(async () => {
    server = await startFerryServer({ tokens: [TOKEN], now: INDEPENDENT_CLOCK });
  });
  afterAll(async () => {
    await server?.close();
  });

  test('passes every check the suite derives from the spec, none skipped', async () => {
    const target = targetOf(server);
    const failures: string[] = [];
    const skipped: string[] = [];
    for (const id of await listCheckIds(target)) {
      const outcome = await runCheck(id, target);
      if (!outcome.ok) failures.push(outcome.report);
      else if (outcome.skipped !== undefined) skipped.push(`${id}: ${outcome.skipped}`);
    }
    expect(failures.join('\n\n')).toBe('');
    expect(skipped).toEqual([]);
  }, 60_000);

  test('a rule only a description states: its refusal is a warning, a failure only under --strict', async () => {
    const id = 'create-reservation-payment.echo';
    const loose = await runCheck(id, targetOf(server));
    expect(loose.ok).toBe(true);
    expect(loose.ok ? loose.advice.join('\n') : '').toMatch(/refused a value only the schema's looseness admits: source\.(?:address_country|cvc)/);
    const strict = await runCheck(id, { ...targetOf(server), strict: true });
    expect(strict.ok).toBe(false);
    expect(strict.ok ? '' : strict.report).toMatch(/looseness admits.*--strict/s);
  });

  test('the killing checks include the reference and absent-parent checks of its writes', async () => {
    const ids = await listCheckIds(targetOf(server));
    for (const { killedBy } of FERRY_FAULTS) expect(ids).toContain(killedBy);
  });
});

test('with an empty timetable no reservation can be made: the checks that need one are skipped with the reason, the others run', async () => {
  const empty = await startFerryServer({ tokens: [TOKEN], now: INDEPENDENT_CLOCK, crossings: [] });
  try {
    const target = targetOf(empty);
    const failures: string[] = [];
    const skipped = new Map<string, string>();
    const passed: string[] = [];
    for (const id of await listCheckIds(target)) {
      const outcome = await runCheck(id, target);
      if (!outcome.ok) failures.push(outcome.report);
      else if (outcome.skipped !== undefined) skipped.set(id, outcome.skipped);
      else passed.push(id);
    }
    expect(failures.join('\n\n')).toBe('');
    expect(skipped.get('create-reservation.echo')).toMatch(/^not verifiable: crossing_id names a record of GET \/crossings/);
    expect(passed).toEqual(expect.arrayContaining(['auth.create-reservation', 'auth.get-reservations', 'create-reservation.required-fields', 'create-reservation.reference', 'get-crossings.documented']));
  } finally {
    await empty.close();
  }
}, 60_000);

describe('one-fault versions of it', () => {
  test('at least fifteen faults, each named once', () => {
    expect(FERRY_FAULTS.length).toBeGreaterThanOrEqual(15);
    expect(new Set(FERRY_FAULTS.map((one) => one.fault)).size).toBe(FERRY_FAULTS.length);
  });

  for (const { fault, description, killedBy } of FERRY_FAULTS) {
    test(`${fault} (${description}) is rejected by ${killedBy}`, async () => {
      const broken = await startFerryServer({ tokens: [TOKEN], now: INDEPENDENT_CLOCK, fault });
      try {
        const outcome = await runCheck(killedBy, targetOf(broken));
        expect(outcome.ok, `${killedBy} passed a server where ${description}`).toBe(false);
      } finally {
        await broken.close();
      }
    });
  }
});
