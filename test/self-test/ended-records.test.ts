import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { dump, load } from 'js-yaml';
import { runCheck } from '../../conformance/run-suite.js';
import { createMock, type MockRequest, type MockResponse } from '../../mock/index.js';
import { ALERTMANAGER_SPEC } from '../real/alertmanager.js';
import { serveHandler, type AsyncHandler } from './serve-handler.js';

/**
 * The suite on records a delete ends rather than removes (spec/DECISIONS.md › D434, D440) and on a create that
 * takes an array of records (D436, D441), against the mock of Alertmanager's description and one-fault versions of
 * it. The description is read with the create's optional `id` left out: a drawn key names no silence and is
 * refused with the documented 404 (D432), which would stop these checks before the rules they hold.
 */
type Handle = (request: MockRequest) => MockResponse | Promise<MockResponse>;

/** The description is read from ../shared/corpus: without it the tests skip, saying so, as the corpus's other tests do. */
const PRESENT = existsSync(ALERTMANAGER_SPEC);
const ABSENT = PRESENT ? '' : ` (skipped: ${ALERTMANAGER_SPEC} is not on this machine)`;

let dir = '';
let spec = '';
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  if (!PRESENT) return;
  dir = await mkdtemp(join(tmpdir(), 'ended-records-'));
  const document = load(await readFile(ALERTMANAGER_SPEC, 'utf8')) as { definitions: Record<string, { allOf?: { properties?: Record<string, unknown> }[] }> };
  delete document.definitions['postableSilence']!.allOf![0]!.properties!['id'];
  spec = join(dir, 'alertmanager-without-create-key.yaml');
  await writeFile(spec, dump(document));
});
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
  if (dir !== '') await rm(dir, { recursive: true, force: true });
});

/** The mock of the variant description, with `fault` (if any) in front of it, served on a free port. */
async function target(fault?: (request: MockRequest, inner: Handle) => MockResponse | Promise<MockResponse>): Promise<string> {
  const { handle } = await createMock({ spec });
  const inner: Handle = async (request) => (await handle(request))!;
  const handler: AsyncHandler = fault === undefined ? inner : (request) => fault(request, inner);
  const server = await serveHandler(handler, '/api/v2');
  closers.push(server.close);
  return server.baseUrl;
}

/** The description declares no security: the key is sent to no purpose. */
const NO_KEY = 'unused: the description declares no security';

const ok = (): MockResponse => ({ status: 200, headers: {}, body: '' });

describe.skipIf(!PRESENT)(`a delete that ends a record (D440)${ABSENT}`, () => {
  test('the mock, which expires a deleted silence and keeps listing it, passes deleteSilence.gone and stateful.model', async () => {
    const baseUrl = await target();
    for (const id of ['deleteSilence.gone', 'stateful.model'] as const) {
      const outcome = await runCheck(id, { baseUrl, apiKey: NO_KEY, spec, runs: 15, seed: 7 });
      expect(outcome.ok, outcome.ok ? id : outcome.report).toBe(true);
      if (outcome.ok) expect(outcome.skipped, id).toBeUndefined();
    }
  });

  test('a server whose delete answers 200 and leaves the silence as it was fails both', async () => {
    const baseUrl = await target((request, inner) => (request.method === 'DELETE' && request.url.includes('/silence/') ? ok() : inner(request)));
    for (const id of ['deleteSilence.gone', 'stateful.model'] as const) {
      const outcome = await runCheck(id, { baseUrl, apiKey: NO_KEY, spec, runs: 15, seed: 7 });
      expect(outcome.ok, `${id}: the delete that ends nothing escaped`).toBe(false);
      if (!outcome.ok) expect(outcome.report).toMatch(/yet a read still returns it/);
    }
  });
});

describe.skipIf(!PRESENT)(`a create that takes an array of records (D441)${ABSENT}`, () => {
  test('the mock passes postAlerts.echo: each posted alert is listed', async () => {
    const outcome = await runCheck('postAlerts.echo', { baseUrl: await target(), apiKey: NO_KEY, spec, runs: 15, seed: 7 });
    expect(outcome.ok, outcome.ok ? '' : outcome.report).toBe(true);
    if (outcome.ok) expect(outcome.skipped).toBeUndefined();
  });

  test('a server that makes only the first alert of a body fails postAlerts.echo', async () => {
    const baseUrl = await target((request, inner) => {
      if (request.method !== 'POST' || !request.url.endsWith('/alerts') || request.body === undefined) return inner(request);
      const items = JSON.parse(request.body.toString('utf8')) as unknown[];
      return inner({ ...request, body: Buffer.from(JSON.stringify(items.slice(0, 1))) });
    });
    const outcome = await runCheck('postAlerts.echo', { baseUrl, apiKey: NO_KEY, spec, runs: 15, seed: 7 });
    expect(outcome.ok, 'the dropped alerts escaped').toBe(false);
    if (!outcome.ok) expect(outcome.report).toMatch(/yet no listed alerts shows item #2/);
  });
});
