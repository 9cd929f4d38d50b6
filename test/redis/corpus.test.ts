import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type StartedRedisMock } from '../../mock/index.js';
import { corpusTarget, failingChecks } from '../corpus/harness.js';
import { CORPUS_KEY } from '../corpus/probe-client.js';
import { corpusSpec } from '../corpus/corpus.js';
import { startRedis, type TestRedis } from './redis-server.js';

/**
 * Every resource role on the Redis store (README › Several replicas: "every resource works on both stores"):
 * the whole suite derived from corpus specs with PUT, PATCH, DELETE, a second resource, a wrapper list with a
 * total, a boolean filter, a non-enum filter, string ids, nested int64, writeOnly and server-assigned members and
 * problem+json errors, against a Redis-backed mock of each.
 */
const CASES = ['delete', 'put-update', 'patch-update', 'second-resource', 'wrapper-list', 'boolean-filter', 'new-filter', 'path-param-id', 'nested-record', 'write-only-field', 'server-assigned-field', 'problem-json-errors'];

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.dispose();
});

describe.each(CASES)('corpus spec %s on the Redis store', (name) => {
  let mock: StartedRedisMock;
  beforeAll(async () => {
    mock = await startMock({ spec: corpusSpec(name), port: 0, apiKeys: [CORPUS_KEY], pets: [], store: { url: redis.url, prefix: `corpus-${name}` } });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('passes every check of its spec', async () => {
    const failures = await failingChecks(corpusTarget(name, mock.baseUrl));
    expect(failures.map((failure) => `${failure.id}\n${failure.report}`)).toEqual([]);
  });
});
