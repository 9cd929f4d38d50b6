import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModel, PACKAGE_ROOT } from '../model/loader.js';
import { judgeTraffic, type TrafficExchange } from './traffic.js';

/**
 * The judge's sequence rules on records numbered per parent (spec/DECISIONS.md › D240): number 1 under one
 * repository and number 1 under another are two records, so reading the second after writing the first is no
 * read-back of that write.
 */
const model = await loadModel(join(PACKAGE_ROOT, 'mock', 'fixtures', 'numbered.openapi.yaml'));
const json = { 'content-type': 'application/json' };
const exchanges = (pairs: [string, string, string | undefined, number, string][]): TrafficExchange[] =>
  pairs.map(([method, path, body, status, text], index) => ({
    index,
    url: `http://127.0.0.1:1/api${path}`,
    sentAt: index * 10,
    answeredAt: index * 10 + 1,
    exchange: { request: { method, path, headers: body === undefined ? {} : json, body }, response: { status, headers: json, text } },
  }));
const rules = (traffic: TrafficExchange[]): string[] => judgeTraffic(model, traffic).flatMap((judged) => judged.sequence.map((violation) => `${violation.operationId} ${violation.rule}`));

describe('sequence rules on numbers counted per parent (D240)', () => {
  it('holds a read to the write of the same number under the same repository only', () => {
    const issue = (id: number, title: string): string => JSON.stringify({ id, number: 1, title, state: 'open' });
    const traffic = exchanges([
      ['POST', '/repos/mona/one/issues', '{"title":"One"}', 201, issue(10, 'One')],
      ['POST', '/repos/mona/two/issues', '{"title":"Two"}', 201, issue(11, 'Two')],
      ['GET', '/repos/mona/one/issues/1', undefined, 200, issue(10, 'One')],
      ['GET', '/repos/mona/two/issues/1', undefined, 200, issue(11, 'Two')],
      ['GET', '/repos/mona/two/issues', undefined, 200, `[${issue(11, 'Two')}]`],
    ]);
    expect(rules(traffic)).toEqual([]);
  });

  it('still flags a read that differs from the write of its own repository', () => {
    const traffic = exchanges([
      ['POST', '/repos/mona/one/issues', '{"title":"One"}', 201, JSON.stringify({ id: 10, number: 1, title: 'One', state: 'open' })],
      ['GET', '/repos/mona/one/issues/1', undefined, 200, JSON.stringify({ id: 10, number: 1, title: 'Other', state: 'open' })],
      ['GET', '/repos/mona/two/issues/1', undefined, 404, '{"message":"Not Found"}'],
    ]);
    expect(rules(traffic)).toEqual(['getIssue sequence.read-after-create']);
  });
});
