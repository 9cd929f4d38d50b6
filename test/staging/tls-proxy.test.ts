import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type StartedMock } from '../../mock/index.js';
import { ensureCompiled, runConformance } from './run-cli.js';
import { forwardProxy, frontDoor, makePki, type FrontDoor, type Pki } from './servers.js';

/**
 * A staging behind TLS with a private CA (made here, thrown away after), one that requires a client
 * certificate, and one reachable only through a forward proxy that alone resolves its host name.
 */

const QUICK = ['--api-key', 'k', '--runs', '5', '--check', 'auth.listPets', 'createPet.echo', 'getPet.found'];
const AUTH_ONLY = ['--api-key', 'k', '--runs', '5', '--check', 'auth.listPets'];

let mock: StartedMock;
let pki: Pki;
let https: FrontDoor;
let httpsBroken: FrontDoor;
let wrongHost: FrontDoor;
let mutual: FrontDoor;
let plain: FrontDoor;
let plainBroken: FrontDoor;
let proxy: Awaited<ReturnType<typeof forwardProxy>>;
beforeAll(async () => {
  ensureCompiled();
  pki = makePki(['petstore.test']);
  mock = await startMock({ port: 0, apiKeys: ['k'], pets: [] });
  https = await frontDoor({ upstream: mock.origin, tls: { key: pki.serverKey, cert: pki.serverCert } });
  httpsBroken = await frontDoor({ upstream: mock.origin, tls: { key: pki.serverKey, cert: pki.serverCert }, skipAuthWithKey: 'k' });
  wrongHost = await frontDoor({ upstream: mock.origin, tls: { key: pki.wrongHostKey, cert: pki.wrongHostCert } });
  mutual = await frontDoor({ upstream: mock.origin, tls: { key: pki.serverKey, cert: pki.serverCert, clientCa: pki.caCert } });
  plain = await frontDoor({ upstream: mock.origin });
  plainBroken = await frontDoor({ upstream: mock.origin, skipAuthWithKey: 'k' });
  proxy = await forwardProxy(new Set(['petstore.test']));
});
afterAll(async () => {
  for (const server of [https, httpsBroken, wrongHost, mutual, plain, plainBroken]) await server?.close();
  await proxy?.close();
  await mock?.close();
  pki?.remove();
});

/** The base URL of `door` under the host name only the proxy knows. */
const viaName = (door: FrontDoor): string => door.baseUrl.replace('127.0.0.1', 'petstore.test');

describe('TLS with a private CA', () => {
  it('an untrusted certificate is exit 2, naming the certificate problem', async () => {
    const run = await runConformance(['--base-url', https.baseUrl, ...QUICK]);
    expect(run.code, run.output).toBe(2);
    expect(run.stderr).toMatch(/certificate problem (UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|SELF_SIGNED_CERT_IN_CHAIN)/);
    expect(run.stderr).toContain('--ca FILE');
  });

  it('with --ca the correct server passes, and the broken one is still rejected', async () => {
    const run = await runConformance(['--base-url', https.baseUrl, '--ca', pki.files.caCert, ...QUICK]);
    expect(run.code, run.output).toBe(0);
    const broken = await runConformance(['--base-url', httpsBroken.baseUrl, '--ca', pki.files.caCert, ...AUTH_ONLY]);
    expect(broken.code, broken.output).toBe(1);
    expect(broken.output).toContain('✗ auth.listPets');
  });

  it('a certificate for another host is exit 2 (hostname mismatch), even with the right CA', async () => {
    const run = await runConformance(['--base-url', wrongHost.baseUrl, '--ca', pki.files.caCert, ...QUICK]);
    expect(run.code, run.output).toBe(2);
    expect(run.stderr).toMatch(/ERR_TLS_CERT_ALTNAME_INVALID.*hostname mismatch/);
  });

  it('--insecure runs against an unverified certificate, with a loud warning on stderr', async () => {
    const run = await runConformance(['--base-url', https.baseUrl, '--insecure', ...AUTH_ONLY]);
    expect(run.code, run.output).toBe(0);
    expect(run.stderr).toMatch(/WARNING --insecure: the server certificate is NOT verified/);
  });
});

describe('mutual TLS', () => {
  it('without a client certificate: exit 2 with a TLS message; with --cert/--key: passes; broken auth still fails', async () => {
    const refused = await runConformance(['--base-url', mutual.baseUrl, '--ca', pki.files.caCert, ...QUICK]);
    expect(refused.code, refused.output).toBe(2);
    expect(refused.stderr).toMatch(/requires a client certificate; give --cert FILE --key FILE|certificate problem ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED/);
    const run = await runConformance(['--base-url', mutual.baseUrl, '--ca', pki.files.caCert, '--cert', pki.files.clientCert, '--key', pki.files.clientKey, ...QUICK]);
    expect(run.code, run.output).toBe(0);
    const halfGiven = await runConformance(['--base-url', mutual.baseUrl, '--cert', pki.files.clientCert, ...QUICK]);
    expect(halfGiven.code).toBe(2);
    expect(halfGiven.stderr).toContain('needs both --cert FILE and --key FILE');
  });
});

describe('a forward proxy that alone resolves the host name', () => {
  it('HTTP_PROXY: the correct server passes through it, the broken one is rejected through it', async () => {
    const before = proxy.counts.forwarded + proxy.counts.tunnels;
    const run = await runConformance(['--base-url', viaName(plain), ...QUICK], { HTTP_PROXY: proxy.url });
    expect(run.code, run.output).toBe(0);
    expect(proxy.counts.forwarded + proxy.counts.tunnels).toBeGreaterThan(before);
    const broken = await runConformance(['--base-url', viaName(plainBroken), ...AUTH_ONLY], { HTTP_PROXY: proxy.url });
    expect(broken.code, broken.output).toBe(1);
  });

  it('HTTPS_PROXY with the private CA: tunnelled (CONNECT), verified against the proxied name', async () => {
    const before = proxy.counts.tunnels;
    const run = await runConformance(['--base-url', viaName(https), '--ca', pki.files.caCert, ...QUICK], { HTTPS_PROXY: proxy.url });
    expect(run.code, run.output).toBe(0);
    expect(proxy.counts.tunnels).toBeGreaterThan(before);
    const broken = await runConformance(['--base-url', viaName(httpsBroken), '--ca', pki.files.caCert, ...AUTH_ONLY], { HTTPS_PROXY: proxy.url });
    expect(broken.code, broken.output).toBe(1);
  });

  it('NO_PROXY sends a listed host direct', async () => {
    const before = proxy.counts.forwarded + proxy.counts.tunnels;
    const run = await runConformance(['--base-url', plain.baseUrl, ...AUTH_ONLY], { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' });
    expect(run.code, run.output).toBe(0);
    expect(proxy.counts.forwarded + proxy.counts.tunnels).toBe(before);
  });
});
