import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../mock/journal.js';
import { loadModel } from '../../model/loader.js';
import { startProxy, type StartedProxy } from '../../proxy/proxy.js';
import { alertmanagerInstalled, ALERTMANAGER_SPEC, startAlertmanager, type RunningAlertmanager } from './alertmanager.js';
import { runAmtoolLife, type AmtoolOutcome } from './amtool-life.js';

/**
 * `proxy --shadow` in front of the real Alertmanager 0.25, with amtool's life run through it: the client gets the
 * real server's answers (every step holds), and the mock of the description Alertmanager publishes, replaying every
 * exchange, answers as the real server does (no difference). Where the server, amtool or the description is absent,
 * the test skips and says which.
 */
const INSTALLED = alertmanagerInstalled();
const reason = INSTALLED ? '' : ' (skipped: prometheus-alertmanager, amtool or ../shared/corpus/alertmanager/openapi.yaml is absent)';
const ADMIN = 'admin-token';

describe.skipIf(!INSTALLED)(`amtool's life through proxy --shadow in front of Alertmanager${reason}`, () => {
  let real: RunningAlertmanager;
  let proxy: StartedProxy;
  let outcomes: AmtoolOutcome[];
  let entries: JournalEntry[];
  beforeAll(async () => {
    real = await startAlertmanager();
    proxy = await startProxy({ model: await loadModel(ALERTMANAGER_SPEC), upstream: real.apiBase, port: 0, shadow: true, mock: { adminToken: ADMIN, journalSize: 1000 } });
    outcomes = await runAmtoolLife(proxy.origin);
    const response = await fetch(`${proxy.origin}/__admin/requests`, { headers: { authorization: `Bearer ${ADMIN}` } });
    entries = (await response.json()) as JournalEntry[];
  }, 120_000);
  afterAll(async () => {
    await Promise.all([proxy?.close(), real?.stop()]);
  });

  it('holds every step: the client gets the real server answers', () => {
    expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([]);
  });

  it('replays every exchange on the mock, which differs from the real server only where listed', () => {
    expect(entries.length).toBeGreaterThan(15);
    expect(entries.filter((entry) => entry.shadow === undefined).map((entry) => `${entry.method} ${entry.url}`)).toEqual([]);
    const found = new Set(entries.flatMap((entry) => entry.shadow!.differences.map((difference) => `${entry.method} ${entry.url.split('?')[0]} ${difference.kind} ${difference.pointer}: real ${difference.upstream}, mock ${difference.mock}`)));
    expect([...found].sort()).toEqual([...STILL_DIFFERENT].sort());
  });
});

/**
 * What the shadow still finds, each a genuine difference of the mock from the real server (a list to shrink, never
 * to grow): the mock samples what only the server's own state makes. `GET /status`: the real server, run without
 * gossip, has no cluster name and no peers; the mock answers the description's sample, a cluster named "string"
 * with one peer. `GET /alerts`: a fresh alert on the real server is silenced and inhibited by nothing; the mock
 * answers `silencedBy` and `inhibitedBy` of one placeholder id each.
 */
const STILL_DIFFERENT = [
  'GET /api/v2/status added /cluster/name: real absent, mock "string"',
  'GET /api/v2/status items /cluster/peers: real 0 items, mock 1 items',
  'GET /api/v2/alerts items /0/status/inhibitedBy: real 0 items, mock 1 items',
  'GET /api/v2/alerts items /0/status/silencedBy: real 0 items, mock 1 items',
];
