#!/usr/bin/env node
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { OpenAPIV3_1 } from 'openapi-types';
import { request } from 'undici';
import { startVitest } from 'vitest/node';
import { PACKAGE_ROOT, SPEC_PATH } from '../mock/operations.js';
import { CHECKS, type CheckId } from './catalogue.js';
import { targetToEnv, type Target } from './target.js';

/**
 * `npm run conformance -- --base-url URL --api-key KEY` / `petstore-conformance`: runs the conformance suite
 * (conformance/conformance.test.ts, by vitest) against any implementation of the seed.
 * Exit codes: 0 the target conforms; 1 violations (each with a report); 2 bad usage or target unreachable.
 */
const EXIT_USAGE = 2;

const program = new Command('petstore-conformance')
  .description('Checks an implementation of the Pet Store Animals interface against the seed, by property-based tests.')
  .addOption(new Option('--base-url <url>', 'base address of the target, ending with /v1').env('PETSTORE_BASE_URL'))
  .addOption(new Option('--target <name>', 'take the base address from the spec servers instead').choices(['production', 'staging', 'mock']))
  .addOption(new Option('--api-key <key>', 'a key the target accepts as "Authorization: Bearer <key>"').env('PETSTORE_API_KEY'))
  .addOption(new Option('--read-only', 'never create anything (checks that must write are skipped, with the reason)').default(false))
  .addOption(new Option('--strict', "hold the target to the schema as written on the seed's gaps").default(false))
  .addOption(new Option('--runs <n>', 'fast-check runs per property').default(50).argParser(positive))
  .addOption(new Option('--seed <n>', 'fast-check seed, to replay a printed failure').argParser(integer))
  .addOption(new Option('--path <path>', 'fast-check path of a printed counterexample (with --seed and one --check)'))
  .addOption(new Option('--check <id...>', `run only these checks: ${Object.keys(CHECKS).join(', ')}`))
  .addOption(new Option('--time-budget <seconds>', 'most seconds one property may run before it stops early').argParser(positive))
  .addOption(new Option('--max-rps <n>', 'most requests per second sent to the target').argParser(positive))
  .addOption(new Option('--reporter <name>', 'console, or junit (with --output)').choices(['console', 'junit']).default('console'))
  .addOption(new Option('--output <file>', 'where the junit reporter writes its XML'))
  .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : EXIT_USAGE))
  .showHelpAfterError();

interface CliOptions {
  baseUrl?: string;
  target?: 'production' | 'staging' | 'mock';
  apiKey?: string;
  readOnly: boolean;
  strict: boolean;
  runs: number;
  seed?: number;
  path?: string;
  check?: string[];
  timeBudget?: number;
  maxRps?: number;
  reporter: 'console' | 'junit';
  output?: string;
}

program.parse();
const options = program.opts<CliOptions>();

const baseUrl = options.baseUrl ?? (options.target === undefined ? undefined : await serverUrl(options.target));
if (baseUrl === undefined) usage('give --base-url URL (or PETSTORE_BASE_URL), or --target staging');
if (!/^https?:\/\/[^/]/.test(baseUrl)) usage(`--base-url must be an http(s) URL, got ${JSON.stringify(baseUrl)}`);
if (options.apiKey === undefined || options.apiKey === '') usage('give --api-key KEY (or PETSTORE_API_KEY): every operation needs a bearer key');
const unknown = (options.check ?? []).filter((id) => !(id in CHECKS));
if (unknown.length > 0) usage(`unknown check ${unknown.join(', ')}; known: ${Object.keys(CHECKS).join(', ')}`);
if (options.reporter === 'junit' && options.output === undefined) usage('--reporter junit needs --output FILE');

const target: Target = {
  baseUrl: baseUrl.replace(/\/+$/, ''),
  apiKey: options.apiKey,
  readOnly: options.readOnly,
  strict: options.strict,
  runs: options.runs,
  ...(options.seed === undefined ? {} : { seed: options.seed }),
  ...(options.path === undefined ? {} : { path: options.path }),
  ...(options.maxRps === undefined ? {} : { maxRps: options.maxRps }),
  ...(options.timeBudget === undefined ? {} : { timeBudgetMs: options.timeBudget * 1000 }),
};
await probe(target);
Object.assign(process.env, targetToEnv(target));

const checks = (options.check ?? []) as CheckId[];
const vitest = await startVitest('test', [join(PACKAGE_ROOT, 'conformance', 'conformance.test.ts')], {
  root: PACKAGE_ROOT,
  config: false,
  watch: false,
  pool: 'forks',
  testTimeout: 15 * 60_000,
  hookTimeout: 60_000,
  // verbose: every check is listed with ✓, × or ↓ (and why it was skipped), not only the failures.
  reporters: options.reporter === 'junit' ? ['verbose', 'junit'] : ['verbose'],
  ...(options.output === undefined ? {} : { outputFile: { junit: options.output } }),
  ...(checks.length === 0 ? {} : { testNamePattern: `(?:^| )(?:${checks.map((id) => id.replaceAll('.', '\\.')).join('|')}):` }),
});
const failed = vitest.state.getCountOfFailedTests() > 0 || (process.exitCode !== undefined && process.exitCode !== 0);
await vitest.close();
process.exit(failed ? 1 : 0);

/** Exits 2 with a message when the target cannot be reached or refuses the key (nothing else can be checked). */
async function probe(target: Target): Promise<void> {
  const url = `${target.baseUrl}/pets?limit=1`;
  let status: number;
  try {
    const response = await request(url, { headers: { authorization: `Bearer ${target.apiKey}` }, headersTimeout: 10_000, bodyTimeout: 10_000 });
    status = response.statusCode;
    await response.body.dump();
  } catch (error) {
    return usage(`target unreachable: GET ${url} failed (${(error as Error).message}). Is the server running, and the base URL right?`);
  }
  if (status === 401) usage(`the target refused the API key: GET ${url} answered 401. Check --api-key.`);
  if (status === 404) usage(`GET ${url} answered 404: the base URL should end with the version segment, e.g. http://host/v1.`);
}

/** The URL of a server entry of the spec, its variables filled with their defaults (seed, Versioning). */
async function serverUrl(name: 'production' | 'staging' | 'mock'): Promise<string> {
  const document = (await SwaggerParser.parse(SPEC_PATH)) as OpenAPIV3_1.Document;
  const server = document.servers?.find((entry) => (entry.description ?? '').toLowerCase().includes(name === 'mock' ? 'local' : name));
  if (server === undefined) return usage(`spec/openapi.yaml has no ${name} server`);
  return server.url.replace(/\{(\w+)\}/g, (_match, variable: string) => process.env[variable.toUpperCase()] ?? server.variables?.[variable]?.default ?? '');
}

function usage(message: string): never {
  process.stderr.write(`petstore-conformance: ${message}\n`);
  process.exit(EXIT_USAGE);
}

function positive(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new InvalidArgumentError('must be a positive number');
  return value;
}

function integer(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value)) throw new InvalidArgumentError('must be an integer');
  return value;
}
