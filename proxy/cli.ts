#!/usr/bin/env node
import { randomBytes } from 'node:crypto';
import { Option } from 'commander';
import { corsSetting, given, list, serveCommand, unsetFalseEnvFlags, type ServeOptions } from '../mock/cli-options.js';
import { readDataFile } from '../mock/data.js';
import { createLogger, loadApi } from '../mock/index.js';
import { redactUrl } from '../mock/store/redis-options.js';
import { installShutdown } from '../mock/shutdown.js';
import { PACKAGE_VERSION } from '../model/loader.js';
import { adoptLegacyEnvironment, COMMANDS, envName } from '../cli/product.js';
import { applyConfigFile, overlaysOf } from '../cli/config.js';
import { OverlayError } from '../model/overlay.js';
import { startProxy } from './proxy.js';

/**
 * `openapi-harness proxy --upstream URL` (and `openapi-harness mock --proxy URL`, which hands over to it): the validating proxy in
 * front of a real implementation of an OpenAPI interface. Every exchange is judged against the spec (judge/), the
 * mock answers the operations it keeps and, with `--fallback`, what the upstream cannot (README › The validating
 * proxy). Exit codes: 0 after a graceful stop, 1 on bad usage or a spec that cannot be loaded.
 */
adoptLegacyEnvironment();
const program = serveCommand(COMMANDS.proxy, 'Validating proxy in front of an implementation of an OpenAPI interface (default: the shipped Pet Store Animals interface, spec/openapi.yaml): forwards every request, judges every exchange against the spec.')
  .addOption(new Option('--upstream <base-url>', 'forward every request to this upstream (its base URL, e.g. https://staging.example.com/v1) and judge each exchange against the spec').env(envName('UPSTREAM')))
  .addOption(new Option('--proxy <base-url>', 'the same as --upstream (the name openapi-harness mock --proxy uses)').env(envName('PROXY')))
  .addOption(new Option('--proxy-ca <file>', 'PEM file of a CA to trust for an https upstream, besides the system ones').env(envName('PROXY_CA')))
  .addOption(new Option('--proxy-cert <file>', 'PEM client certificate for the upstream (mutual TLS), with --proxy-key').env(envName('PROXY_CERT')))
  .addOption(new Option('--proxy-key <file>', 'PEM private key of --proxy-cert').env(envName('PROXY_KEY')))
  .addOption(new Option('--mock-operations <operationId...>', 'answer these operations from the mock, never from the upstream').env(envName('MOCK_OPERATIONS')))
  .addOption(new Option('--fallback', 'answer from the mock when the upstream lacks the route (404), answers 501, or cannot be reached').env(envName('FALLBACK')))
  .addOption(new Option('--shadow', "also answer every forwarded exchange from the mock (its store gets the same writes) and log where the two answers differ; the client gets the upstream's answer").env(envName('SHADOW')))
  .addOption(new Option('--errors', "refuse a request the spec does not allow with the spec's 400/401 instead of forwarding it").env(envName('ERRORS')))
  .addOption(new Option('--no-violation-header', 'leave out the X-OpenAPI-Harness-Violations response header (and its old name X-Petstore-Violations)').env(envName('NO_VIOLATION_HEADER')).default(true, 'header on'))
  .addOption(new Option('--record <dir>', 'write the exchanges (DIR/traffic.har) and the records seen (DIR/data.json, for --data) into this folder').env(envName('RECORD')));
// The mock's own store flags, refused here by name rather than as unknown options: the proxy's mock side keeps its
// records in this process, shared by every key.
for (const [flag, env] of [['--store <url>', envName('STORE')], ['--isolate-by-key', envName('ISOLATE_BY_KEY')], ['--watch', envName('WATCH')], ['--state-file <file>', envName('STATE_FILE')]] as const) {
  program.addOption(new Option(flag).env(env).hideHelp());
}

interface ProxyCliOptions extends ServeOptions {
  upstream?: string;
  proxy?: string;
  proxyCa?: string;
  proxyCert?: string;
  proxyKey?: string;
  mockOperations?: string[] | string;
  fallback?: boolean;
  errors?: boolean;
  shadow?: boolean;
  violationHeader: boolean;
  record?: string;
}

program.parse();
unsetFalseEnvFlags(program);
applyConfigFile(program, 'proxy');
const options = program.opts<ProxyCliOptions>();

try {
  const upstream = checkFlags();
  const api = await loadApi(options.spec, overlaysOf(options.overlay)).catch((error: unknown) => {
    // An overlay that cannot be applied is a usage error: its message names the overlay file and the action.
    if (error instanceof OverlayError) {
      process.stderr.write(`${COMMANDS.proxy}: ${error.message}\n`);
      process.exit(2);
    }
    throw new Error(`cannot load the spec ${options.spec}: ${(error as Error).message}`);
  });
  const data = options.empty === true ? new Map() : options.data === undefined ? undefined : readDataFile(api, options.data);
  const logger = createLogger({ level: options.logLevel, format: options.logFormat });
  // The admin API is never open to an API key alone: without --admin-token, a random token guards it.
  const adminToken = options.admin ? (options.adminToken ?? randomBytes(18).toString('base64url')) : undefined;
  const mocked = options.mockOperations === undefined ? [] : list(options.mockOperations);
  const proxy = await startProxy({
    model: api,
    upstream,
    tls: { ...(options.proxyCa === undefined ? {} : { ca: options.proxyCa }), ...(options.proxyCert === undefined ? {} : { cert: options.proxyCert }), ...(options.proxyKey === undefined ? {} : { key: options.proxyKey }) },
    mockOperations: mocked,
    fallback: options.fallback === true,
    errors: options.errors === true,
    shadow: options.shadow === true,
    violationHeader: options.violationHeader,
    record: options.record,
    version: PACKAGE_VERSION,
    logger,
    port: options.port,
    host: options.host,
    maxBodyBytes: options.maxBodyBytes,
    mock: {
      apiKeys: list(options.apiKey),
      ...(data === undefined ? {} : { data }),
      maxPets: options.maxRecords,
      corsOrigins: corsSetting(options),
      admin: options.admin,
      adminToken,
      journalSize: options.journalSize,
    },
  });
  const adminText = !options.admin ? 'off' : `${proxy.origin}/__admin (violations: GET ${proxy.origin}/__admin/violations${options.adminToken === undefined ? `; generated token: send "Authorization: Bearer ${adminToken}"` : '; token required'})`;
  process.stdout.write(
    `${api.title || 'API'} validating proxy ${api.version} serving ${proxy.baseUrl} in front of ${redactUrl(upstream)}\n` +
      `Mock side: ${mocked.length === 0 ? 'no operation' : mocked.join(', ')}${options.fallback === true ? '; fallback on 404 route, 501 or unreachable' : ''}${options.shadow === true ? '; shadow: every forwarded exchange also answered by the mock, differences logged' : ''}\n` +
      `Admin API: ${adminText}\n` +
      (options.record === undefined ? '' : `Recording into ${options.record} (traffic.har, data.json)\n`),
  );
  for (const note of proxy.mock.notes) logger.debug(note);
  const exit = (code: number): void => {
    logger.flush();
    setTimeout(() => process.exit(code), 100);
  };
  installShutdown(proxy.server, { graceMs: options.shutdownGrace, hooks: [() => proxy.flush(), () => void proxy.mock.dispose()], log: (message) => logger.info(message), exit });
} catch (error) {
  process.stderr.write(`${COMMANDS.proxy}: ${(error as Error).message}\n`);
  process.exit(1);
}

/** The upstream's base URL, after refusing flags that cannot go with the proxy. Errors: throws a usage sentence. */
function checkFlags(): string {
  const clashing = (['store', 'isolateByKey', 'watch', 'stateFile'] as const).filter((name) => given(program, name)).map((name) => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
  if (clashing.length > 0) throw new Error(`${clashing.join(', ')} cannot be used with the proxy (its mock side keeps its records in memory, shared by every key)`);
  const upstream = options.upstream ?? options.proxy;
  if (upstream === undefined) throw new Error('give --upstream BASE_URL (or OPENAPI_HARNESS_UPSTREAM): the implementation to forward to');
  if (!/^https?:\/\/[^/]/.test(upstream)) throw new Error(`--upstream must be an http(s) URL, got ${JSON.stringify(upstream)}`);
  if ((options.proxyCert === undefined) !== (options.proxyKey === undefined)) throw new Error('a client certificate for the upstream needs both --proxy-cert FILE and --proxy-key FILE');
  return upstream.replace(/\/+$/, '');
}
