import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type StartedMock } from '../../mock/index.js';
import { ClientState, send } from '../../conformance/client.js';
import { resolveTarget } from '../../conformance/target.js';
import { decodeBody } from '../../conformance/transport/dispatcher.js';
import { failingChecks } from './run-cli.js';
import { frontDoor, type FrontDoor } from './servers.js';

/** Compressed answers, `Connection: close` on every answer, and a gateway's path prefix before `/v1`. */

const QUICK = ['auth.listPets', 'createPet.echo', 'getPet.found'];

let mock: StartedMock;
const doors: Record<'gzip' | 'gzipBroken' | 'br' | 'deflate' | 'gateway' | 'gatewayBroken' | 'droppingReads' | 'droppingWrites' | 'droppingEveryWrite', FrontDoor> = {} as never;
beforeAll(async () => {
  mock = await startMock({ port: 0, apiKeys: ['k'], pets: [] });
  doors.gzip = await frontDoor({ upstream: mock.origin, compress: 'gzip' });
  doors.gzipBroken = await frontDoor({ upstream: mock.origin, compress: 'gzip', skipAuthWithKey: 'k' });
  doors.br = await frontDoor({ upstream: mock.origin, compress: 'br' });
  doors.deflate = await frontDoor({ upstream: mock.origin, compress: 'deflate' });
  doors.gateway = await frontDoor({ upstream: mock.origin, prefix: '/api/petstore', connectionClose: true });
  doors.gatewayBroken = await frontDoor({ upstream: mock.origin, prefix: '/api/petstore', connectionClose: true, skipAuthWithKey: 'k' });
  doors.droppingReads = await frontDoor({ upstream: mock.origin, dropEvery: { n: 5, methods: ['GET'] } });
  doors.droppingWrites = await frontDoor({ upstream: mock.origin, dropEvery: { n: 3, methods: ['POST'] } });
  doors.droppingEveryWrite = await frontDoor({ upstream: mock.origin, dropEvery: { n: 1, methods: ['POST'] } });
});
afterAll(async () => {
  for (const door of Object.values(doors)) await door.close();
  await mock.close();
});

describe('compressed answers', () => {
  it.each(['gzip', 'br', 'deflate'] as const)('%s: send() asks for it and hands the checks the decoded text', async (coding) => {
    const target = resolveTarget({ baseUrl: doors[coding].baseUrl, apiKey: 'k' });
    const created = await send(new ClientState(), target, { method: 'POST', path: '/pets', headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body: '{"name":"Zip","categoryId":9223372036854775807}' });
    expect(created.response.headers['content-encoding']).toBe(coding);
    expect(created.response.status).toBe(201);
    expect(created.response.text).toMatch(/^\{.*"name":"Zip".*"categoryId":9223372036854775807.*\}$/);
  });

  it('decodeBody: identity, chained codings, and a corrupt body named by its coding', () => {
    expect(decodeBody(Buffer.from('{"a":1}'), undefined)).toBe('{"a":1}');
    expect(decodeBody(Buffer.from('{"a":1}'), 'identity')).toBe('{"a":1}');
    expect(() => decodeBody(Buffer.from('not gzip'), 'gzip')).toThrow(/cannot decode a gzip body/);
  });

  it('gzip: the correct server passes, the broken one is rejected', async () => {
    expect(await failingChecks({ baseUrl: doors.gzip.baseUrl, apiKey: 'k', runs: 5 }, QUICK)).toEqual(new Map());
    const broken = await failingChecks({ baseUrl: doors.gzipBroken.baseUrl, apiKey: 'k', runs: 5 }, QUICK);
    expect([...broken.keys()]).toEqual(['auth.listPets']);
  });
});

describe('a gateway with a path prefix that closes every connection', () => {
  it('the correct server passes at http://host/api/petstore/v1, with concurrency 4; the broken one fails', async () => {
    expect(doors.gateway.baseUrl).toMatch(/\/api\/petstore\/v1$/);
    expect(await failingChecks({ baseUrl: doors.gateway.baseUrl, apiKey: 'k', runs: 5, concurrency: 4 }, QUICK)).toEqual(new Map());
    const broken = await failingChecks({ baseUrl: doors.gatewayBroken.baseUrl, apiKey: 'k', runs: 5, concurrency: 4 }, QUICK);
    expect([...broken.keys()]).toEqual(['auth.listPets']);
    expect(broken.get('auth.listPets')).toMatch(/replay: {4}npm run conformance -- .*--base-url http:\/\/127\.0\.0\.1:\d+\/api\/petstore\/v1 /);
  });
});

describe('connections closed under a request', () => {
  it('a read is sent once more on a fresh connection; the verdict is unchanged', async () => {
    expect(await failingChecks({ baseUrl: doors.droppingReads.baseUrl, apiKey: 'k', runs: 10 }, ['getPet.not-found', 'auth.getPet'])).toEqual(new Map());
    expect(doors.droppingReads.counts.dropped).toBeGreaterThan(1);
  });

  it('a write dropped unread on a pooled connection is sent once more on a connection of its own (D860)', async () => {
    expect(await failingChecks({ baseUrl: doors.droppingWrites.baseUrl, apiKey: 'k', runs: 10 }, ['createPet.echo'])).toEqual(new Map());
    expect(doors.droppingWrites.counts.dropped).toBeGreaterThan(1);
  });

  it('a server dropping every write fails the check, naming the dropped connection: a write is sent at most twice', async () => {
    const failed = await failingChecks({ baseUrl: doors.droppingEveryWrite.baseUrl, apiKey: 'k', runs: 10 }, ['createPet.echo']);
    expect(failed.get('createPet.echo')).toMatch(/cannot reach POST \S+\/pets: .*(UND_ERR_SOCKET|ECONNRESET|EPIPE)/);
    expect(doors.droppingEveryWrite.counts.dropped).toBeLessThanOrEqual(2);
  });
});
