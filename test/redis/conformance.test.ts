import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listCheckIds, runCheck } from '../../conformance/run-suite.js';
import { startMock, type StartedRedisMock } from '../../mock/index.js';
import { startRedis, type TestRedis } from './redis-server.js';

/**
 * The whole conformance suite against two mock replicas on one redis-server, behind a round-robin balancer:
 * every request goes to the next replica, so a pet created through one is read and listed through the other,
 * as behind a load balancer (README › Several replicas). Every check must pass.
 */
const KEY = 'conformance-replicas-key';

let redis: TestRedis;
let replicas: StartedRedisMock[] = [];
let balancer: Server;
let baseUrl = '';
let served = [0, 0];

beforeAll(async () => {
  redis = await startRedis();
  const store = { url: redis.url, prefix: 'conformance' };
  replicas = [await startMock({ port: 0, apiKeys: [KEY], store }), await startMock({ port: 0, apiKeys: [KEY], store })];
  let next = 0;
  balancer = createServer((incoming, outgoing) => {
    const index = next++ % replicas.length;
    served[index]!++;
    const target = new URL(replicas[index]!.origin);
    const proxied = forward({ host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    proxied.on('error', () => outgoing.destroy());
    incoming.pipe(proxied);
  });
  await new Promise<void>((resolve) => balancer.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(balancer.address() as AddressInfo).port}/v1`;
  served = [0, 0];
});

afterAll(async () => {
  await new Promise<void>((resolve) => (balancer === undefined ? resolve() : balancer.close(() => resolve())));
  for (const replica of replicas) await replica.close();
  await redis?.dispose();
});

describe('conformance of two Redis-backed replicas behind a round-robin balancer', async () => {
  const ids = await listCheckIds({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: KEY });
  it('derives the seed spec checks', () => {
    expect(ids.length).toBeGreaterThanOrEqual(16);
  });
  for (const id of ids) {
    it(id, async () => {
      const outcome = await runCheck(id, { baseUrl, apiKey: KEY, runs: 25 });
      if (!outcome.ok) throw new Error(outcome.report);
    });
  }
  it('sent requests to both replicas', () => {
    expect(served[0]).toBeGreaterThan(100);
    expect(served[1]).toBeGreaterThan(100);
  });
});
