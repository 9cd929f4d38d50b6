import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checksFor } from '../../conformance/catalogue.js';
import { listCheckIds } from '../../conformance/run-suite.js';
import { explain } from '../../mock/explain.js';
import { startMock, type StartedMock } from '../../mock/index.js';
import { loadModel, PACKAGE_ROOT } from '../../model/loader.js';
import type { ApiModel } from '../../model/model.js';
import { ensureBuilt } from '../built-cli.js';
import { absentReason, SHARED_CORPUS, sharedCorpusFile } from '../shared-corpus.js';

/**
 * An overlay changes one reading of a real description, and the mock and the suite both follow it: Alertmanager's
 * `DELETE /silence/{silenceID}` expires a silence (it stays, in the state `expired`), so the overlay
 * test/overlays/alertmanager-delete-expires.yaml gives the operation `x-resource: {role: none}`. Read without it, the
 * operation deletes a record of a resource (whichever resource holds `/silence/{silenceID}`); read with it, no
 * resource holds it: the mock answers it from the description, whatever the id, and the suite checks it as an
 * operation answered from the description (`deleteSilence.documented`), not as a delete. The worked example of
 * docs/specs.md (what `explain` prints before and after) is run here as it is written there.
 */
const FILE = 'alertmanager/openapi.yaml';
const SPEC = sharedCorpusFile(FILE);
const OVERLAY = join(PACKAGE_ROOT, 'test', 'overlays', 'alertmanager-delete-expires.yaml');
const ABSENT = '/api/v2/silence/0b1e0d5c-2a3f-4c55-9a4e-0e1d2c3b4a59';

/** Runs the built `openapi-harness` with `args` in the shared corpus folder, as docs/specs.md shows it; resolves with what it printed. */
function cli(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [join(PACKAGE_ROOT, 'dist', 'cli', 'main.js'), ...args], { cwd: SHARED_CORPUS, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => (error === null ? resolve(stdout) : reject(new Error(stderr))));
  });
}

/**
 * The shell sessions of docs/specs.md's worked example: each command (its `$ openapi-harness …` line, the overlay
 * named by its path in this tree) and the lines it shows, `…` standing for lines left out.
 */
function workedExample(): { args: string[]; lines: string[] }[] {
  const docs = readFileSync(join(PACKAGE_ROOT, 'docs', 'specs.md'), 'utf8');
  const section = docs.slice(docs.indexOf('**A worked example'), docs.indexOf('## ', docs.indexOf('**A worked example')));
  return [...section.matchAll(/```\n\$ openapi-harness (.+)\n([\s\S]*?)```/g)].map((match) => ({
    args: match[1]!.split(' ').map((arg) => (arg === 'alertmanager-delete-expires.yaml' ? OVERLAY : arg)),
    lines: match[2]!.split('\n').filter((line) => line !== '' && line !== '…'),
  }));
}

describe.skipIf(SPEC === undefined)(`an overlay on Alertmanager's description${SPEC === undefined ? ` (${absentReason(FILE)})` : ''}`, () => {
  let plain: ApiModel;
  let overlaid: ApiModel;
  let mocks: { plain: StartedMock; overlaid: StartedMock };
  beforeAll(async () => {
    [plain, overlaid] = await Promise.all([loadModel(SPEC!), loadModel(SPEC!, { overlays: [OVERLAY] })]);
    mocks = { plain: await startMock({ model: plain, port: 0 }), overlaid: await startMock({ model: overlaid, port: 0, overlays: [OVERLAY] }) };
  }, 120_000);
  afterAll(async () => {
    await Promise.all([mocks?.plain.close(), mocks?.overlaid.close()]);
  });

  test('the model: deleteSilence is a delete without the overlay, answered from the description with it, and explain says why', () => {
    const before = plain.operations.find((op) => op.operationId === 'deleteSilence')!;
    const after = overlaid.operations.find((op) => op.operationId === 'deleteSilence')!;
    expect(before.role).toBe('delete');
    expect(after.resource).toBeUndefined();
    expect(after.role).toBeUndefined();
    const shown = explain(overlaid, undefined, [OVERLAY]);
    expect(shown.overlays).toEqual([OVERLAY]);
    expect(shown.answered.find((op) => op.operationId === 'deleteSilence')).toMatchObject({ status: 200, from: 'empty', reason: 'its x-resource says role: none, so no resource holds it', decision: 'D32' });
    expect(explain(plain).resources.flatMap((resource) => resource.operations).find((op) => op.operationId === 'deleteSilence')).toMatchObject({ part: 'delete' });
  });

  test('the mock follows it: a silence no one made is a 404 to delete without the overlay, a 200 with it', async () => {
    expect((await fetch(`${mocks.plain.origin}${ABSENT}`, { method: 'DELETE' })).status).toBe(404);
    expect((await fetch(`${mocks.overlaid.origin}${ABSENT}`, { method: 'DELETE' })).status).toBe(200);
  });

  test('the mock follows it: a silence it holds is expired by the delete without the overlay (D434), left as it was with it', async () => {
    const silence = { matchers: [{ name: 'alertname', value: 'Overlaid', isRegex: false }], startsAt: '2026-01-01T00:00:00Z', endsAt: '2099-01-01T00:00:00Z', createdBy: 'overlay test', comment: 'kept or expired' };
    const states: Record<string, string> = {};
    for (const [name, mock] of Object.entries(mocks)) {
      const created = await fetch(`${mock.baseUrl}/silences`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(silence) });
      const { silenceID } = (await created.json()) as { silenceID: string };
      expect((await fetch(`${mock.baseUrl}/silence/${silenceID}`, { method: 'DELETE' })).status).toBe(200);
      const read = await fetch(`${mock.baseUrl}/silence/${silenceID}`);
      expect(read.status).toBe(200);
      states[name] = ((await read.json()) as { status: { state: string } }).status.state;
    }
    expect(states).toEqual({ plain: 'expired', overlaid: 'active' });
  });

  test("docs/specs.md's worked example: each line it shows is a line explain prints, before the overlay and after", async () => {
    ensureBuilt();
    const sessions = workedExample();
    expect(sessions.map((session) => session.args.includes(OVERLAY))).toEqual([false, true]);
    for (const session of sessions) {
      const printed = (await cli(session.args)).split('\n');
      expect(session.lines.length).toBeGreaterThan(1);
      for (const line of session.lines) expect(printed, `${session.args.join(' ')}`).toContain(line);
    }
  }, 120_000);

  test('the suite follows it: deleteSilence is checked as an operation answered from the description, through the target\'s overlays too', async () => {
    const ids = (model: ApiModel): string[] => checksFor(model).map((check) => check.id).filter((id) => id.startsWith('deleteSilence.'));
    expect(ids(plain)).not.toContain('deleteSilence.documented');
    expect(ids(overlaid)).toEqual(['deleteSilence.documented']);
    // A run reads the description as the target names it, overlays included.
    const listed = await listCheckIds({ baseUrl: mocks.overlaid.baseUrl, apiKey: '', spec: SPEC!, overlays: [OVERLAY] });
    expect(listed).toContain('deleteSilence.documented');
    expect(await listCheckIds({ baseUrl: mocks.plain.baseUrl, apiKey: '', spec: SPEC! })).not.toContain('deleteSilence.documented');
  });
});
