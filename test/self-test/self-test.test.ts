import { afterAll, describe, expect, test } from 'vitest';
import { createMock, startMock } from '../../mock/index.js';
import { listCheckIds, runCheck, type CheckId } from '../../conformance/run-suite.js';
import type { Target } from '../../conformance/target.js';
import { parse } from 'lossless-json';
import { startAltServer, type AltOptions } from './alt-server.js';
import { MUTANT_KEY, MUTANTS } from './mutants.js';
import { PROBES, sender } from './probes.js';
import { serveHandler } from './serve-handler.js';
import { VARIANT_KEY, VARIANTS } from './variants.js';

/**
 * The conformance suite's self-test (a check no broken server fails could pass anything):
 * (a) each mutant shows its fault on a direct request, and the real mock does not;
 * (b) every check id is named by some mutant;
 * (c) each mutant is rejected by every check of its `caughtBy`;
 * (d) each variant (a correct server that chose differently on the seed's gaps) shows on direct requests the choices
 *     it claims, and every variant and the real mock (empty, strict, with its demo pets) pass every check.
 * Servers run in-process on port 0 and stay open until the end, so that no port (and so no base URL the suite
 * remembers ids for) is reused by another server.
 */

/** fast-check runs per property: modest, so that the whole file stays well under 90 s on two cores. */
const RUNS = Number(process.env['SELF_TEST_RUNS'] ?? 25);

/** The ids of the seed spec's checks, in run order: the sixteen the mutants name. */
const CHECK_IDS = await listCheckIds({ baseUrl: 'http://127.0.0.1', apiKey: '' });

const api = (await createMock({ pets: [], apiKeys: [MUTANT_KEY] })).api;
const freshMock = async () => (await createMock({ api, pets: [], apiKeys: [MUTANT_KEY] })).handle;
const closers: (() => Promise<void>)[] = [];
afterAll(() => Promise.all(closers.map((close) => close())));

/**
 * Holes of the suite as it stands, found by this self-test (measure with `npm run measure:escapes`): the check that
 * should reject the mutant, and why it does not always. A listed pair that escapes is printed as a
 * warning instead of failing the test; delete the entry once the property is fixed, and the pair is enforced.
 */
const KNOWN_ESCAPES: Record<string, Partial<Record<CheckId, string>>> = {
  // None at present: short stateful runs, sampled invalid bodies, credentials and corner strings, limits above
  // the maximum and out-of-int64 ids each have fixed cases that run before the random ones.
};

/**
 * False rejections of correct servers by the suite as it stands (a check failing a variant on a point the seed
 * leaves open, or by a flaw of the property): printed as a warning instead of failing; delete once fixed.
 */
const KNOWN_FALSE_REJECTIONS: Record<string, Partial<Record<CheckId, string>>> = {
  // None at present: absent ids are drawn without bias and skip known ids; invalid limits exclude valid ones.
};

/** A check whose outcome was not the one wanted: a line saying it passed, or the suite's failure report. */
interface Surprise {
  id: CheckId;
  text: string;
}

/** Runs the checks in order on one target; returns those whose outcome (`ok`) is not `wanted`. */
async function unexpected(ids: readonly CheckId[], target: Target, wanted: boolean): Promise<Surprise[]> {
  const surprises: Surprise[] = [];
  for (const id of ids) {
    const outcome = await runCheck(id, target);
    if (outcome.ok === wanted) continue;
    surprises.push({ id, text: outcome.ok ? `${id} passed it (advice: ${outcome.advice.join(' | ') || 'none'})` : outcome.report });
  }
  return surprises;
}

/** Splits surprises into those a table of known holes excuses (printed as warnings) and the rest (returned as text). */
function enforce(surprises: Surprise[], known: Partial<Record<CheckId, string>>, what: string): string[] {
  for (const { id, text } of surprises.filter(({ id }) => known[id] !== undefined)) console.warn(`${what}: ${known[id]}\n${text}`);
  return surprises.filter(({ id }) => known[id] === undefined).map(({ text }) => text);
}

describe('mutants', () => {
  test('every check id is named by at least one mutant', () => {
    const named = new Set(MUTANTS.flatMap((mutant) => mutant.caughtBy));
    expect(CHECK_IDS.filter((id) => !named.has(id))).toEqual([]);
    expect(MUTANTS.flatMap((mutant) => mutant.caughtBy).filter((id) => !CHECK_IDS.includes(id))).toEqual([]);
    expect(CHECK_IDS).toHaveLength(16);
  });

  test('mutant names are unique and each has a probe', () => {
    const names = MUTANTS.map((mutant) => mutant.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.filter((name) => PROBES[name] === undefined)).toEqual([]);
  });

  test.each(MUTANTS.map((mutant) => [mutant.name, mutant] as const))('%s shows its fault on a direct request, the mock does not', async (name, mutant) => {
    const probe = PROBES[name]!;
    expect(await probe(sender(await freshMock()))).toBe(false);
    expect(await probe(sender(mutant.wrap(await freshMock())))).toBe(true);
  });

  test.concurrent.each(MUTANTS.map((mutant) => [mutant.name, mutant] as const))('%s is rejected by each check of its caughtBy', async (_name, mutant) => {
    const server = await serveHandler(mutant.wrap(await freshMock()));
    closers.push(server.close);
    const surprises = await unexpected(mutant.caughtBy, { baseUrl: server.baseUrl, apiKey: MUTANT_KEY, runs: RUNS }, false);
    const escapes = enforce(surprises, KNOWN_ESCAPES[mutant.name] ?? {}, `known escape of mutant ${mutant.name}`);
    expect(escapes, `mutant ${mutant.name} (${mutant.fault}) escaped`).toEqual([]);
  });
});

/**
 * What a fresh alternative server shows of its gap choices on direct requests, in the vocabulary of
 * {@link AltOptions}, so that a variant is known to differ from the mock where it says it does.
 */
async function observedChoices(options: AltOptions): Promise<Partial<Record<keyof AltOptions, unknown>>> {
  const preloaded = await startAltServer(options);
  const preload = (parse(await (await fetch(`${preloaded.baseUrl}/pets?limit=100`, { headers: { authorization: `Bearer ${VARIANT_KEY}` } })).text()) as unknown[]).length;
  await preloaded.close();
  const server = await startAltServer({ ...options, preload: 0 });
  const call = async (path: string, body?: string, auth = `Bearer ${VARIANT_KEY}`) => {
    const response = await fetch(`${server.baseUrl}${path}`, { method: body === undefined ? 'GET' : 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body }) });
    return { status: response.status, type: response.headers.get('content-type'), json: parse(await response.text()) as Record<string, unknown> & unknown[] };
  };
  try {
    const first = (await call('/pets', '{"name":"Mia","categoryId":1}')).json;
    await call('/pets', '{"name":"Zed","categoryId":2}');
    await call('/pets', '{"name":"Abe","categoryId":3,"status":"sold"}');
    const names = (await call('/pets?limit=100')).json.map((pet) => (pet as { name: string }).name).filter((name) => ['Mia', 'Zed', 'Abe'].includes(name));
    const orders: Record<string, AltOptions['order']> = { 'Abe,Zed,Mia': 'newest-first', 'Mia,Zed,Abe': 'oldest-first', 'Abe,Mia,Zed': 'by-name' };
    const badQuery = await call('/pets?limit=0');
    const unauthorized = await call('/pets', undefined, 'Bearer wrong');
    const id = BigInt(String(first['id']));
    return {
      order: orders[names.join()] ?? names.join(),
      defaultStatus: first['status'],
      invalidQuery: badQuery.status === 200 ? (badQuery.json.length === 1 ? 'clamp' : 'ignore') : badQuery.status,
      badPetId: (await call('/pets/abc')).status,
      strictNames: (await call('/pets', '{"name":" ","categoryId":1}')).status === 400,
      unknownFields: (await call('/pets', '{"name":"Rex","categoryId":1,"colour":"red"}')).status === 400 ? 'reject' : 'ignore',
      codes: unauthorized.json['code'] === 'UNAUTHORIZED' ? 'UPPER_SNAKE' : unauthorized.json['code'] === 'unauthorized' ? 'kebab' : 'numeric',
      charset: unauthorized.type?.includes('charset=utf-8'),
      ids: options.ids === 'random' ? 'random' : id >= 2n ** 62n ? 'huge' : 'sequential',
      preload,
    };
  } finally {
    await server.close();
  }
}

describe('correct servers pass every check', () => {
  test.each(VARIANTS.map((variant) => [variant.name, variant] as const))('variant %s shows the gap choices it claims', async (_name, variant) => {
    const o = variant.options;
    const expected = {
      order: o.order ?? 'newest-first',
      defaultStatus: o.defaultStatus,
      invalidQuery: o.invalidQuery ?? 400,
      badPetId: o.badPetId ?? 404,
      strictNames: o.strictNames ?? false,
      unknownFields: o.unknownFields ?? 'ignore',
      codes: o.codes ?? 'UPPER_SNAKE',
      charset: o.charset ?? false,
      ids: o.ids ?? 'sequential',
      preload: Math.min(o.preload ?? 0, 100),
    };
    expect(await observedChoices(o)).toEqual(expected);
  });

  test.concurrent.each(VARIANTS.map((variant) => [variant.name, variant] as const))('variant %s', async (_name, variant) => {
    const server = await startAltServer(variant.options);
    closers.push(server.close);
    const surprises = await unexpected(CHECK_IDS, { baseUrl: server.baseUrl, apiKey: VARIANT_KEY, runs: RUNS }, true);
    const failures = enforce(surprises, KNOWN_FALSE_REJECTIONS[variant.name] ?? {}, `known false rejection of variant ${variant.name}`);
    expect(failures, `variant ${variant.name} (${variant.gaps}) was rejected:\n${failures.join('\n\n')}`).toEqual([]);
  });

  test.concurrent.each([
    ['default profile, empty', false, 'empty'],
    ['strict profile, empty', true, 'empty'],
    ['default profile, demo pets', false, 'demo'],
  ] as const)('the real mock, %s', async (_title, strict, data) => {
    const mock = await startMock({ port: 0, apiKeys: [MUTANT_KEY], ...(data === 'empty' ? { pets: [] } : {}) });
    closers.push(mock.close);
    const name = strict ? 'mock --strict' : 'mock';
    const failures = enforce(await unexpected(CHECK_IDS, { baseUrl: mock.baseUrl, apiKey: MUTANT_KEY, runs: RUNS, strict }, true), KNOWN_FALSE_REJECTIONS[name] ?? {}, `known false rejection of the ${name}`);
    expect(failures, `the mock was rejected:\n${failures.join('\n\n')}`).toEqual([]);
  });
});
