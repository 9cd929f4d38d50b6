import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type StartedMock } from '../mock/index.js';
import { loadModel } from '../model/loader.js';
import type { ApiModel } from '../model/model.js';
import { forwardProxy, frontDoor, makePki, type FrontDoor, type Pki } from '../test/staging/servers.js';
import { startProxy, VIOLATIONS_HEADER, type StartedProxy } from './proxy.js';

/**
 * An https upstream behind a private CA that requires a client certificate, reached directly and through an
 * `HTTPS_PROXY` that alone knows its host name: the proxy uses the suite's transport (--proxy-ca, --proxy-cert,
 * --proxy-key; HTTPS_PROXY/NO_PROXY), and says so with a 502 in the error shape when the upstream refuses it.
 */

let model: ApiModel;
let upstream: StartedMock;
let pki: Pki;
let mutual: FrontDoor;
let forward: Awaited<ReturnType<typeof forwardProxy>>;
const started: StartedProxy[] = [];

beforeAll(async () => {
  model = await loadModel();
  pki = makePki(['petstore.test']);
  upstream = await startMock({ model, port: 0, apiKeys: ['k'] });
  mutual = await frontDoor({ upstream: upstream.origin, tls: { key: pki.serverKey, cert: pki.serverCert, clientCa: pki.caCert } });
  forward = await forwardProxy(new Set(['petstore.test']));
});

afterAll(async () => {
  await Promise.all(started.map((proxy) => proxy.close()));
  await Promise.all([mutual?.close(), forward?.close(), upstream?.close()]);
  pki?.remove();
});

async function list(proxy: StartedProxy): Promise<{ status: number; violations: string | undefined; body: string }> {
  const response = await request(`${proxy.baseUrl}/pets?limit=2`, { headers: { authorization: 'Bearer k' } });
  const header = response.headers[VIOLATIONS_HEADER];
  return { status: response.statusCode, violations: Array.isArray(header) ? header.join() : header, body: await response.body.text() };
}

describe('an https upstream with a private CA and mutual TLS', () => {
  it('is reached with --proxy-ca, --proxy-cert and --proxy-key, and judged', async () => {
    const proxy = await startProxy({ model, upstream: `${mutual.origin}/v1`, port: 0, tls: { ca: pki.files.caCert, cert: pki.files.clientCert, key: pki.files.clientKey } });
    started.push(proxy);
    const seen = await list(proxy);
    expect(seen.status).toBe(200);
    expect(seen.violations).toBeUndefined();
  });

  it('without the client certificate: a 502 in the error shape, not a crash', async () => {
    const proxy = await startProxy({ model, upstream: `${mutual.origin}/v1`, port: 0, tls: { ca: pki.files.caCert } });
    started.push(proxy);
    const seen = await list(proxy);
    expect(seen.status).toBe(502);
    expect(JSON.parse(seen.body)).toMatchObject({ status: 502 });
  });

  it('through HTTPS_PROXY, to a host name only the forward proxy knows', async () => {
    const saved = process.env['HTTPS_PROXY'];
    process.env['HTTPS_PROXY'] = forward.url;
    try {
      const port = new URL(mutual.origin).port;
      const proxy = await startProxy({ model, upstream: `https://petstore.test:${port}/v1`, port: 0, tls: { ca: pki.files.caCert, cert: pki.files.clientCert, key: pki.files.clientKey } });
      started.push(proxy);
      const seen = await list(proxy);
      expect(seen.status).toBe(200);
      expect(forward.counts.tunnels).toBeGreaterThan(0);
    } finally {
      if (saved === undefined) delete process.env['HTTPS_PROXY'];
      else process.env['HTTPS_PROXY'] = saved;
    }
  });
});
