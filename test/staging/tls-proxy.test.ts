import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type StartedMock } from '../../mock/index.js';
import type { Target } from '../../conformance/target.js';
import { ensureBuilt } from '../built-cli.js';
import { failingChecks, runConformance } from './run-cli.js';
import { forwardProxy, frontDoor, makePki, type FrontDoor, type Pki } from './servers.js';

/**
 * A staging behind TLS with a private CA (made here, thrown away after), one that requires a client
 * certificate, and one reachable only through a forward proxy that alone resolves its host name. Verdicts
 * are taken in this process with the suite's `runCheck`; the CLI is run where its exit code and message are
 * what is tested (it stops at its first probe there, before any check).
 */

const QUICK = ['auth.listPets', 'createPet.echo', 'getPet.found'];
const PROBE = ['--api-key', 'k', '--runs', '5', '--check', 'auth.listPets'];

let mock: StartedMock;
let pki: Pki;
let https: FrontDoor;
let httpsBroken: FrontDoor;
let wrongHost: FrontDoor;
let mutual: FrontDoor;
let mutualBroken: FrontDoor;
let plain: FrontDoor;
let plainBroken: FrontDoor;
let proxy: Awaited<ReturnType<typeof forwardProxy>>;
beforeAll(async () => {
  ensureBuilt();
  pki = makePki(['petstore.test']);
  mock = await startMock({ port: 0, apiKeys: ['k'], pets: [] });
  const tls = { key: pki.serverKey, cert: pki.serverCert };
  https = await frontDoor({ upstream: mock.origin, tls });
  httpsBroken = await frontDoor({ upstream: mock.origin, tls, skipAuthWithKey: 'k' });
  wrongHost = await frontDoor({ upstream: mock.origin, tls: { key: pki.wrongHostKey, cert: pki.wrongHostCert } });
  mutual = await frontDoor({ upstream: mock.origin, tls: { ...tls, clientCa: pki.caCert } });
  mutualBroken = await frontDoor({ upstream: mock.origin, tls: { ...tls, clientCa: pki.caCert }, skipAuthWithKey: 'k' });
  plain = await frontDoor({ upstream: mock.origin });
  plainBroken = await frontDoor({ upstream: mock.origin, skipAuthWithKey: 'k' });
  proxy = await forwardProxy(new Set(['petstore.test']));
});
afterAll(async () => {
  for (const server of [https, httpsBroken, wrongHost, mutual, mutualBroken, plain, plainBroken]) await server?.close();
  await proxy?.close();
  await mock?.close();
  pki?.remove();
});

const PROXY_VARIABLES = ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY', 'no_proxy', 'NO_PROXY'];
afterEach(() => {
  for (const name of PROXY_VARIABLES) delete process.env[name];
});

/** The base URL of `door` under the host name only the proxy knows. */
const viaName = (door: FrontDoor): string => door.baseUrl.replace('127.0.0.1', 'petstore.test');
const target = (door: FrontDoor | string, extra: Partial<Target> = {}): Target => ({ baseUrl: typeof door === 'string' ? door : door.baseUrl, apiKey: 'k', runs: 5, ...extra });

describe('TLS with a private CA', () => {
  it('an untrusted certificate is exit 2, naming the certificate problem', async () => {
    const run = await runConformance(['--base-url', https.baseUrl, ...PROBE]);
    expect(run.code, run.output).toBe(2);
    expect(run.stderr).toMatch(/certificate problem (UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|SELF_SIGNED_CERT_IN_CHAIN)/);
    expect(run.stderr).toContain('--ca FILE');
  });

  it('with the CA given, the correct server passes, and the broken one is still rejected', async () => {
    const tls = { ca: pki.files.caCert };
    expect(await failingChecks(target(https, { tls }), QUICK)).toEqual(new Map());
    expect([...(await failingChecks(target(httpsBroken, { tls }), QUICK)).keys()]).toEqual(['auth.listPets']);
  });

  it('a certificate for another host is exit 2 (hostname mismatch), even with the right CA', async () => {
    const run = await runConformance(['--base-url', wrongHost.baseUrl, '--ca', pki.files.caCert, ...PROBE]);
    expect(run.code, run.output).toBe(2);
    expect(run.stderr).toMatch(/ERR_TLS_CERT_ALTNAME_INVALID.*hostname mismatch/);
  });

  it('--insecure gets past an unverified certificate (the probe reaches the key check), with a loud warning', async () => {
    const run = await runConformance(['--base-url', https.baseUrl, '--insecure', '--api-key', 'not-the-key', '--check', 'auth.listPets']);
    expect(run.stderr).toMatch(/WARNING --insecure: the server certificate is NOT verified/);
    expect(run.code, run.output).toBe(2);
    expect(run.stderr).toContain('the target refused the API key');
    expect(await failingChecks(target(https, { tls: { insecure: true } }), ['auth.listPets'])).toEqual(new Map());
  });
});

describe('mutual TLS', () => {
  it('without a client certificate: exit 2 saying so; with one the correct server passes and the broken one fails', async () => {
    const refused = await runConformance(['--base-url', mutual.baseUrl, '--ca', pki.files.caCert, ...PROBE]);
    expect(refused.code, refused.output).toBe(2);
    expect(refused.stderr).toMatch(/requires a client certificate; give --cert FILE --key FILE|certificate problem ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED/);
    const tls = { ca: pki.files.caCert, cert: pki.files.clientCert, key: pki.files.clientKey };
    expect(await failingChecks(target(mutual, { tls }), QUICK)).toEqual(new Map());
    expect([...(await failingChecks(target(mutualBroken, { tls }), QUICK)).keys()]).toEqual(['auth.listPets']);
    const halfGiven = await runConformance(['--base-url', mutual.baseUrl, '--cert', pki.files.clientCert, ...PROBE]);
    expect(halfGiven.code).toBe(2);
    expect(halfGiven.stderr).toContain('needs both --cert FILE and --key FILE');
  });
});

describe('a forward proxy that alone resolves the host name', () => {
  it('HTTP_PROXY: the correct server passes through it, the broken one is rejected through it', async () => {
    process.env['HTTP_PROXY'] = proxy.url;
    const before = proxy.counts.forwarded + proxy.counts.tunnels;
    expect(await failingChecks(target(viaName(plain)), QUICK)).toEqual(new Map());
    expect(proxy.counts.forwarded + proxy.counts.tunnels).toBeGreaterThan(before);
    expect([...(await failingChecks(target(viaName(plainBroken)), QUICK)).keys()]).toEqual(['auth.listPets']);
  });

  it('HTTPS_PROXY with the private CA: tunnelled (CONNECT), verified against the proxied name', async () => {
    process.env['HTTPS_PROXY'] = proxy.url;
    const before = proxy.counts.tunnels;
    const tls = { ca: pki.files.caCert };
    expect(await failingChecks(target(viaName(https), { tls }), QUICK)).toEqual(new Map());
    expect(proxy.counts.tunnels).toBeGreaterThan(before);
    expect([...(await failingChecks(target(viaName(httpsBroken), { tls }), QUICK)).keys()]).toEqual(['auth.listPets']);
  });

  it('the CLI probes through the proxy too, and NO_PROXY sends a listed host direct', async () => {
    const before = proxy.counts.forwarded + proxy.counts.tunnels;
    const refused = await runConformance(['--base-url', viaName(plain), '--api-key', 'not-the-key'], { HTTP_PROXY: proxy.url });
    expect(refused.code, refused.output).toBe(2);
    expect(refused.stderr).toContain('the target refused the API key');
    expect(proxy.counts.forwarded + proxy.counts.tunnels).toBe(before + 1);
    process.env['HTTP_PROXY'] = proxy.url;
    process.env['NO_PROXY'] = '127.0.0.1';
    expect(await failingChecks(target(plain), ['auth.listPets'])).toEqual(new Map());
    expect(proxy.counts.forwarded + proxy.counts.tunnels).toBe(before + 1);
  });
});
