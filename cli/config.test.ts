import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { serveCommand } from '../mock/cli-options.js';
import { startMock, type StartedMock } from '../mock/index.js';
import { PACKAGE_ROOT } from '../model/loader.js';
import { ensureBuilt } from '../test/built-cli.js';
import { adoptSpecArgument, ConfigError, readConfigInto, type ConfigSection } from './config.js';
import { COMMANDS } from './product.js';

/** openapi-harness.config.json (docs/configuration.md): what flags hold, below flags and the environment, above defaults. */

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'openapi-harness-config-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());

/** Writes `config` (a string as it is, anything else as JSON) into a new file of the temporary folder; returns its path. */
function configFile(config: unknown): string {
  const path = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, typeof config === 'string' ? config : JSON.stringify(config));
  return path;
}

/** Parses `args` as the mock (or proxy) would, then reads the config file `config` beside it. */
function parse(section: Extract<ConfigSection, 'mock' | 'proxy'>, args: string[], config: unknown, environment: NodeJS.ProcessEnv = {}) {
  const command = serveCommand(COMMANDS[section], 'test').exitOverride();
  command.parse(args, { from: 'user' });
  readConfigInto(command, section, { OPENAPI_HARNESS_CONFIG: configFile(config), ...environment }, dir);
  return command;
}

describe('the config file', () => {
  it('fills what no flag gave, parsed as the flag would be, with the source "config"', () => {
    const command = parse('mock', [], { mock: { port: 0, 'api-key': ['a', 'b'], 'no-cors': true, 'max-records': '25', 'log-level': 'warn', empty: true } });
    expect(command.opts()).toMatchObject({ port: 0, apiKey: ['a', 'b'], cors: false, maxRecords: 25, logLevel: 'warn', empty: true });
    expect(command.getOptionValueSource('maxRecords')).toBe('config');
    expect(command.getOptionValueSource('host'), 'what the file leaves out keeps its default').toBe('default');
  });

  it('a flag wins over it, an environment variable wins over it, and both win over the defaults', () => {
    vi.stubEnv('OPENAPI_HARNESS_LOG_LEVEL', 'error');
    const command = parse('mock', ['--port', '4321'], { mock: { port: 0, 'log-level': 'debug', 'journal-size': 7 } });
    expect(command.opts()).toMatchObject({ port: 4321, logLevel: 'error', journalSize: 7 });
    expect([command.getOptionValueSource('port'), command.getOptionValueSource('logLevel'), command.getOptionValueSource('journalSize')]).toEqual(['cli', 'env', 'config']);
  });

  it('top-level spec and api-key apply to every command; each section only to its own', () => {
    const config = { spec: 'api.yaml', 'api-key': 'shared', mock: { port: 1 }, proxy: { upstream: 'http://127.0.0.1:9/v1', 'api-key': 'proxy-only' } };
    expect(parse('mock', [], config).opts()).toMatchObject({ spec: 'api.yaml', apiKey: ['shared'], port: 1 });
    const proxy = serveCommand(COMMANDS.proxy, 'test').exitOverride();
    proxy.option('--upstream <url>');
    proxy.parse([], { from: 'user' });
    readConfigInto(proxy, 'proxy', { OPENAPI_HARNESS_CONFIG: configFile(config) }, dir);
    expect(proxy.opts()).toMatchObject({ spec: 'api.yaml', apiKey: ['proxy-only'], upstream: 'http://127.0.0.1:9/v1', port: 4010 });
  });

  it('takes the description as the command\'s argument, as --spec, but not both', () => {
    const command = serveCommand(COMMANDS.mock, 'test').exitOverride();
    command.parse(['api.yaml', '--port', '1'], { from: 'user' });
    adoptSpecArgument(command);
    expect([command.opts()['spec'], command.getOptionValueSource('spec')]).toEqual(['api.yaml', 'cli']);
    const twice = serveCommand(COMMANDS.mock, 'test').exitOverride();
    twice.parse(['api.yaml', '--spec', 'other.yaml'], { from: 'user' });
    expect(() => adoptSpecArgument(twice)).toThrow('give the description once, as the argument (api.yaml) or with --spec, not both');
  });

  it('is optional: no file in the folder reads nothing; a file named by OPENAPI_HARNESS_CONFIG must exist', () => {
    const command = serveCommand(COMMANDS.mock, 'test');
    command.parse([], { from: 'user' });
    const empty = mkdtempSync(join(dir, 'empty-'));
    expect(readConfigInto(command, 'mock', {}, empty)).toBeUndefined();
    expect(() => readConfigInto(command, 'mock', { OPENAPI_HARNESS_CONFIG: 'missing.json' }, empty)).toThrow(/missing\.json: cannot read the config file \(ENOENT\)/);
  });

  it('takes overlays at the top (for every command) or in a section, one file or a list', () => {
    expect(parse('mock', [], { overlay: ['a.yaml', 'b.yaml'] }).opts()['overlay']).toEqual(['a.yaml', 'b.yaml']);
    expect(parse('mock', [], { overlay: 'a.yaml', mock: { overlay: 'c.yaml' } }).opts()['overlay']).toEqual(['c.yaml']);
    expect(parse('mock', ['--overlay', 'd.yaml'], { overlay: 'a.yaml' }).opts()['overlay']).toEqual(['d.yaml']);
  });

  it('refuses a bad file with a message naming the file and the key', () => {
    const cases: [unknown, RegExp][] = [
      ['{"mock": ', /config-\w+\.json: not valid JSON/],
      [[1], /must hold a JSON object/],
      [{ mocks: {} }, /config-\w+\.json: unknown key "mocks" \(known at the top: \$schema, spec, api-key, overlay, mock, test, proxy, explain\)/],
      [{ mock: 'fast' }, /config-\w+\.json › mock: must be an object of openapi-harness mock's flags/],
      [{ mock: { 'max-pet': 3 } }, /config-\w+\.json › mock: unknown key "max-pet" \(openapi-harness mock's flags without "--": spec, overlay, port, .*max-records/],
      [{ mock: { port: 70000 } }, /config-\w+\.json › mock: "port" must be an integer from 0 to 65535/],
      [{ mock: { 'log-level': 'loud' } }, /› mock: "log-level" Allowed choices are/],
      [{ mock: { empty: 'yes' } }, /› mock: "empty" must be true or false/],
      [{ mock: { port: [1, 2] } }, /› mock: "port" takes one value, not a list/],
      [{ mock: { 'api-key': [{}] } }, /› mock: "api-key" must be a string or a list of strings/],
      [{ mock: { proxy: 'http://x' } }, /› mock: "proxy" cannot be set here/],
    ];
    for (const [config, message] of cases) {
      expect(() => parse('mock', [], config), JSON.stringify(config)).toThrow(ConfigError);
      expect(() => parse('mock', [], config), JSON.stringify(config)).toThrow(message);
    }
  });
});

describe('the commands read it from their working folder', () => {
  let mock: StartedMock;
  beforeAll(async () => {
    ensureBuilt();
    mock = await startMock({ port: 0, apiKeys: ['config-key'], pets: [] });
  });
  afterAll(async () => mock?.close());

  /** Runs `openapi-harness <args>` (the built bin) in `cwd` with no OPENAPI_HARNESS_ or PETSTORE_ variable. */
  function run(args: string[], cwd: string): Promise<{ code: number; output: string }> {
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(OPENAPI_HARNESS|PETSTORE)_/.test(name)));
    return new Promise((resolve) => {
      execFile(process.execPath, [join(PACKAGE_ROOT, 'dist', 'cli', 'main.js'), ...args], { cwd, env, timeout: 60_000 }, (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, output: `${stdout}${stderr}` });
      });
    });
  }

  it('openapi-harness test takes its target from the "test" section, and exits 2 naming a bad key', async () => {
    const cwd = mkdtempSync(join(dir, 'suite-'));
    writeFileSync(join(cwd, 'openapi-harness.config.json'), JSON.stringify({ test: { 'base-url': mock.baseUrl, 'api-key': 'config-key', runs: 3, check: ['auth.listPets'] } }));
    const passed = await run(['test'], cwd);
    expect(passed.code, passed.output).toBe(0);
    expect(passed.output).toContain(`against ${mock.baseUrl}`);
    expect(passed.output).toMatch(/1 passed, 0 failed/);
    writeFileSync(join(cwd, 'openapi-harness.config.json'), JSON.stringify({ test: { 'base-url': mock.baseUrl, runs: 'many' } }));
    const refused = await run(['test'], cwd);
    expect(refused.code, refused.output).toBe(2);
    expect(refused.output).toContain(`openapi-harness test: ${join(cwd, 'openapi-harness.config.json')} › test: "runs" must be a positive number`);
  });
});
