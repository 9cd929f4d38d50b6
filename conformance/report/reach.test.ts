import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModel, PACKAGE_ROOT } from '../../model/loader.js';
import { colours } from './colours.js';
import { renderHtml, renderMarkdown } from './html.js';
import { renderJunit } from './junit.js';
import { isFullyReached, isLimiting, reachOf, type OperationReach } from './reach.js';
import type { CheckRecord } from './results.js';
import { reachLines } from './text.js';

/** The reach of a run computed from its statuses and checks (no target), and each renderer of it. */

const seed = await loadModel();
const shelf = await loadModel(join(PACKAGE_ROOT, 'test', 'suite-specs', 'reach.yaml'));
const plain = colours({ isTTY: false }, {});

const record = (id: string, state: CheckRecord['state'], extra: Partial<CheckRecord> = {}): CheckRecord => ({ type: 'check', id, rule: `rule of ${id}`, state, durationMs: 5, advice: [], ...extra });

describe('reachOf', () => {
  it('an operation under an id answered only 404 (and 401) was never reached with an existing id', () => {
    const reach = reachOf(seed, [['GET /pets/123', [[404, 30]]], ['GET /pets/9', [[401, 4]]]], [record('getPet.not-found', 'passed'), record('auth.getPet', 'passed')]);
    const getPet = reach.operations.find((operation) => operation.operationId === 'getPet')!;
    expect(getPet.seen).toEqual([[401, 4], [404, 30]]);
    expect(getPet.gaps).toEqual(['never reached with an existing id']);
    expect(getPet.unseen.find((status) => status.status === '200')).toEqual({ status: '200', reason: 'never reached with an existing id', expected: false });
    expect(getPet.checks.map((check) => check.id)).toEqual(['getPet.not-found', 'auth.getPet']);
    expect(reachOf(seed, [], [record('har.getPet', 'passed')]).operations.find((operation) => operation.operationId === 'getPet')!.checks.map((check) => check.id)).toEqual(['har.getPet']);
    expect(isFullyReached(getPet)).toBe(false);
  });

  it('an operation never called says so, with its checks not run and their reasons', () => {
    const reach = reachOf(seed, [['GET /pets', [[200, 3]]]], [record('createPet.echo', 'skipped', { skipped: 'read-only: this check must create pets' })]);
    const createPet = reach.operations.find((operation) => operation.operationId === 'createPet')!;
    expect(createPet.seen).toEqual([]);
    expect(createPet.gaps).toEqual(['never called: its checks were not run']);
    expect(createPet.unseen.map((status) => status.reason)).toContain('never called: its checks were not run');
    expect(createPet.checks).toEqual([{ id: 'createPet.echo', state: 'skipped', reasons: ['read-only: this check must create pets'], advice: [] }]);
    expect(reach.operations.find((operation) => operation.operationId === 'getPet')!.gaps).toEqual(['never called']);
  });

  it('a success seen alongside errors is no gap; a status no key covers is undocumented; `default` covers the rest and is never "unseen"', () => {
    const reach = reachOf(shelf, [['GET /things', [[200, 2], [400, 1]]], ['GET /things/1', [[200, 1]]], ['GET /things/x', [[404, 2], [500, 1]]]], []);
    const [listThings, getThing] = reach.operations;
    expect(listThings!.undocumented).toEqual([]);
    expect(listThings!.unseen).toEqual([]);
    expect(getThing!.gaps).toEqual([]);
    expect(getThing!.undocumented).toEqual([[500, 1]]);
    expect(getThing!.unseen).toEqual([{ status: '503', reason: 'not provoked: a correct server does not send it to valid requests at this rate', expected: true }]);
    expect(isFullyReached(listThings!)).toBe(true);
    expect(isFullyReached(getThing!)).toBe(false);
  });

  it('a check passed with advice that says part of it was not judged is "not fully tested", never a plain pass', () => {
    const notVerifiable = '3 created pets hold no value in the range listPets\'s window bounds, so no parameter brings them into view: their membership was not verifiable';
    const reach = reachOf(seed, [['GET /pets', [[200, 3]]]], [
      record('listPets.limit', 'passed', { advice: ['listPets answered 400 to an invalid query (allowed: handling of invalid query parameters is not shown)', notVerifiable] }),
      record('listPets.status-filter', 'passed', { advice: ['not fully tested: no value could be drawn'] }),
    ]);
    const listPets = reach.operations.find((operation) => operation.operationId === 'listPets')!;
    expect(listPets.checks.map((check) => [check.state, check.reasons])).toEqual([['limited', [notVerifiable]], ['limited', ['not fully tested: no value could be drawn']]]);
    expect(isLimiting('getPet answered 400 (allowed: a default the spec does not show)')).toBe(false);
  });

  it('tells the checks\' advice that limits a judgement from advice that notes an allowed answer (the phrasings of conformance/checks/)', () => {
    const limiting = [
      'listPets.status-filter: the target lists no pets with a status, so the filter could not be exercised',
      '?status=sold returned no records, so the filter was not exercised for that value',
      'getTicketQr: no operation was found that makes a record for `ticketId`, so it was only called with drawn values',
      'listPets leaves out `status`, whose default a server may apply, so the pages were not held to every created record',
      'pets 7 no longer holds a value in listPets\'s window range, so its membership was not verifiable',
      'createPet cannot send bornAt = ["2026-01-01"], so the range filters were not tested',
      'the target holds fewer than 30 pets (or fewer than 5 of a filter value), so some limit rules could only be tested in part',
      'could not confirm that a refused request created nothing: the target holds more pets than one page shows, and their order is not shown',
      'read-only: the target lists no pets, so getPet could not be checked on an existing record',
      'no resource offers a request to probe, so no response was judged here (operations no resource holds have their own check): not fully tested',
    ];
    const allowed = [
      'listPets answered 400 to an invalid query (allowed: handling of invalid query parameters is not shown), e.g. ?limit=0',
      'createPet ignored a read-only member sent in the body (allowed: OpenAPI says it SHOULD NOT be sent, not that it is refused; --strict expects 400)',
      'createPet refused a value at the corners of an unconstrained string with 400 (allowed: its constraints are not shown), e.g. ""',
      'getPet is deprecated but its responses carry no Deprecation or Sunset header',
      'createPet without status answered status "available" (allowed: a default the spec does not show)',
    ];
    expect(limiting.filter((note) => !isLimiting(note))).toEqual([]);
    expect(allowed.filter(isLimiting)).toEqual([]);
  });

  it('files API-wide checks apart, and their advice under each operation it names', () => {
    const reach = reachOf(shelf, [['GET /stickers/ABC', [[404, 2]]], ['DELETE /things/1', [[405, 1]]]], [
      record('responses.conformance', 'passed', { advice: ['getSticker: no operation was found that makes a record for `stickerCode`, so it was only called with drawn values'] }),
    ]);
    expect(reach.apiWide.map((check) => [check.id, check.state])).toEqual([['responses.conformance', 'limited']]);
    expect(reach.operations.find((operation) => operation.operationId === 'getSticker')!.notes).toEqual(['responses.conformance: getSticker: no operation was found that makes a record for `stickerCode`, so it was only called with drawn values']);
    expect(reach.operations.find((operation) => operation.operationId === 'getThing')!.notes).toEqual([]);
    expect(reach.unmatched).toEqual([['DELETE /things/1', [[405, 1]]]]);
  });
});

describe('the renderers of the reach', () => {
  const reason = 'not verifiable: crossing_id names a record of GET /crossings that the target does not hold, so no create could be sent';
  const checks = [
    record('getThing.found', 'skipped', { skipped: reason }),
    record('getThing.not-found', 'passed'),
    record('getSticker.documented', 'failed', { report: '✗ getSticker.documented\n  problem: a 500' }),
    record('responses.conformance', 'skipped', { skipped: reason }),
  ];
  const reach = reachOf(shelf, [['GET /things', [[200, 2]]], ['GET /things/7', [[404, 3]]], ['GET /stickers/ABC', [[500, 1]]]], checks);

  it('the console: one line per operation not reached in full, a line per reason, long shared reasons once', () => {
    const text = reachLines(reach, plain);
    expect(text).toBe(
      [
        '',
        'Reach per operation: 1 of 3 reached in full (every check passed, every documented status seen)',
        'things: 1 of 2 in full',
        '  GET /things/{thingId} getThing  seen 404×3 · 1 passed, 1 not run · never seen: 200',
        '      ! never reached with an existing id',
        '      ↓ found not run: [1]',
        'stickers: 0 of 1 in full',
        '  GET /stickers/{stickerCode} getSticker  seen 500×1 · 1 failed · never seen: 200, 404 · undocumented: 500×1',
        '      ! no success seen (only 500)',
        'API-wide checks: 1 not run',
        '      ↓ responses.conformance not run: [1]',
        'Reasons:',
        `  [1] ${reason}`,
        '',
      ].join('\n'),
    );
  });

  it('the console on a large spec: past eight, operations lacking only some documented errors are counted on one line', () => {
    const operation = (n: number, unseen: string[]): OperationReach => ({
      operationId: `op${n}`, method: 'GET', path: `/r${n}`, tag: undefined, deprecated: false, documented: ['200', ...unseen], seen: [[200, 1]], undocumented: [],
      unseen: unseen.map((status) => ({ status, expected: false })), gaps: [], checks: [{ id: `op${n}.documented`, state: 'passed', reasons: [], advice: [] }], notes: [],
    });
    const many = { operations: [...Array.from({ length: 9 }, (_, n) => operation(n, n % 3 === 0 ? ['400', '409'] : ['400'])), { ...operation(9, []), gaps: ['never called'], seen: [] }], apiWide: [], unmatched: [] };
    const text = reachLines(many, plain);
    expect(text).toContain('  9 more operations reached, every check passed, some documented errors never seen (400 on 9, 409 on 3): the HTML and JUnit reports list them\n');
    expect(text).toContain('  GET /r9 op9  never called · 1 passed\n');
    expect(text).not.toContain('GET /r1 op1');
    expect(reachLines({ ...many, operations: many.operations.slice(1) }, plain)).toContain('  GET /r1 op1  seen 200×1 · 1 passed · never seen: 400\n');
  });

  it('the HTML: a row per operation, its statuses, the never seen with their reasons, its checks with state and reason', () => {
    const html = renderHtml({ baseUrl: 'http://x/v1', finishedAt: 'now', checks, summary: undefined, operations: [], unmatched: new Map(), reach });
    expect(html).toContain('<p>1 of 3 operations reached in full');
    expect(html).toContain('<tr class="tag"><th colspan="5">things: 1 of 2 reached in full</th></tr>');
    expect(html).toMatch(/<tr id="operation-getThing">.*<span class="badge" title="documented">404 ×3<\/span><br><span class="skipped">never reached with an existing id<\/span>/);
    expect(html).toMatch(/<tr id="operation-getThing">.*<code>getThing.found<\/code><\/a> <span class="skipped">not run<\/span><br><span class="muted">not verifiable: crossing_id/);
    expect(html).toMatch(/<tr id="operation-getSticker">.*<span class="badge undocumented" title="not documented">500 ×1<\/span>/);
    expect(html).toMatch(/<li class="muted"><span class="badge unseen">503<\/span> not provoked/);
  });

  it('the markdown step summary: the operations not reached in full, one row each', () => {
    const markdown = renderMarkdown({ baseUrl: 'http://x/v1', finishedAt: 'now', checks, summary: undefined, operations: [], unmatched: new Map(), reach });
    expect(markdown).toContain('**Reach**: 1 of 3 operations reached in full');
    expect(markdown).toContain('| `GET /things/{thingId}` getThing | 404×3 | 1 passed, 1 not run | never reached with an existing id; never seen: 200 |');
  });

  it('JUnit: a testsuite per operation with its reach as properties and system-out, the checks classed by operation', () => {
    const xml = renderJunit('conformance of http://x/v1', checks, reach);
    expect(xml).toContain('<testsuites name="openapi-harness" tests="4" failures="1" errors="0"');
    expect(xml).toContain('<testsuite name="getThing (GET /things/{thingId})" tests="2" failures="0" errors="0" skipped="1"');
    expect(xml).toContain('<property name="statuses.seen" value="404×3"/>');
    expect(xml).toContain('<property name="statuses.never-seen" value="200 (never reached with an existing id); 503 (not provoked: a correct server does not send it to valid requests at this rate)"/>');
    expect(xml).toContain('<property name="reach" value="never reached with an existing id; 1 passed, 1 not run"/>');
    expect(xml).toContain(`<testcase classname="getThing" name="getThing.found: rule of getThing.found" time="0.005">\n      <skipped message="${reason}"/>`);
    expect(xml).toContain('<property name="statuses.undocumented" value="500×1"/>');
    expect(xml).toMatch(/<testsuite name="API-wide" tests="1" failures="0" errors="0" skipped="1"[^>]*>\n    <testcase classname="API-wide" name="responses.conformance: /);
    expect(xml).toContain('<testsuite name="listThings (GET /things)" tests="0"');
  });

  it('JUnit without a reach keeps one testsuite of every check', () => {
    const xml = renderJunit('suite', checks);
    expect(xml.match(/<testsuite /g)).toHaveLength(1);
    expect(xml).toContain('<testcase classname="suite" name="getThing.not-found: rule of getThing.not-found" time="0.005"/>');
  });
});
