import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../mock/journal.js';
import { loadModel } from '../../model/loader.js';
import { startProxy, type StartedProxy } from '../../proxy/proxy.js';
import { alertmanagerInstalled, ALERTMANAGER_SPEC, startAlertmanager, type RunningAlertmanager } from './alertmanager.js';
import { runAmtoolLife, type AmtoolOutcome } from './amtool-life.js';

/**
 * `proxy --shadow` in front of the real Alertmanager 0.25, with amtool's life run through it: the client gets the
 * real server's answers (every step holds), and the mock of the description Alertmanager publishes, replaying every
 * exchange, answers as the real server does (no difference; DECISIONS D530-D532). A mock of a description broken in
 * one member still shows that member as a difference. Where the server, amtool or the description is absent, the
 * test skips and says which.
 */
const INSTALLED = alertmanagerInstalled();
const reason = INSTALLED ? '' : ' (skipped: prometheus-alertmanager, amtool or ../shared/corpus/alertmanager/openapi.yaml is absent)';
const ADMIN = 'admin-token';

/** amtool's life through `proxy --shadow` on the description at `spec`: each step's outcome and the journal. */
async function lifeThroughShadow(spec: string): Promise<{ outcomes: AmtoolOutcome[]; entries: JournalEntry[] }> {
  const real: RunningAlertmanager = await startAlertmanager();
  let proxy: StartedProxy | undefined;
  try {
    proxy = await startProxy({ model: await loadModel(spec), upstream: real.apiBase, port: 0, shadow: true, mock: { adminToken: ADMIN, journalSize: 1000 } });
    const outcomes = await runAmtoolLife(proxy.origin);
    const response = await fetch(`${proxy.origin}/__admin/requests`, { headers: { authorization: `Bearer ${ADMIN}` } });
    return { outcomes, entries: (await response.json()) as JournalEntry[] };
  } finally {
    await Promise.all([proxy?.close(), real.stop()]);
  }
}

/** Each difference the journal holds, as one line with its request. */
function differenceLines(entries: readonly JournalEntry[]): string[] {
  const found = new Set(entries.flatMap((entry) => (entry.shadow?.differences ?? []).map((difference) => `${entry.method} ${entry.url.split('?')[0]} ${difference.kind} ${difference.pointer}: real ${difference.upstream}, mock ${difference.mock}`)));
  return [...found].sort();
}

describe.skipIf(!INSTALLED)(`amtool's life through proxy --shadow in front of Alertmanager${reason}`, () => {
  let outcomes: AmtoolOutcome[];
  let entries: JournalEntry[];
  beforeAll(async () => {
    ({ outcomes, entries } = await lifeThroughShadow(ALERTMANAGER_SPEC));
  }, 120_000);

  it('holds every step: the client gets the real server answers', () => {
    expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([]);
  });

  it('replays every exchange on the mock, which answers as the real server does', () => {
    expect(entries.length).toBeGreaterThan(15);
    expect(entries.filter((entry) => entry.shadow === undefined).map((entry) => `${entry.method} ${entry.url}`)).toEqual([]);
    expect(differenceLines(entries)).toEqual([]);
  });

  it("reports the mock's difference where its description is broken in one member", async () => {
    // The status's `uptime` renamed in the mock's copy of the description: the mock answers the status without it.
    const dir = await mkdtemp(join(tmpdir(), 'alertmanager-broken-'));
    try {
      const broken = join(dir, 'openapi.yaml');
      await writeFile(broken, (await readFile(ALERTMANAGER_SPEC, 'utf8')).replaceAll('uptime', 'upSince'));
      const life = await lifeThroughShadow(broken);
      expect(life.outcomes.filter((outcome) => !outcome.ok)).toEqual([]);
      expect(differenceLines(life.entries).map((line) => line.replace(/real "[0-9TZ:.-]+"/, 'real "<time>"').replace(/mock "[0-9TZ:.-]+"/, 'mock "<time>"'))).toEqual([
        'GET /api/v2/status added /upSince: real absent, mock "<time>"',
        'GET /api/v2/status missing /uptime: real "<time>", mock absent',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
