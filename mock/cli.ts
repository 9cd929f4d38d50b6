#!/usr/bin/env node
import { Command, InvalidArgumentError, Option } from 'commander';
import { readPetsFile } from './data.js';
import { DEFAULT_API_KEY, loadApi, startMock } from './index.js';

/**
 * `npm start` / `petstore-mock`: serves the stateful mock of spec/openapi.yaml.
 * Every flag has an environment variable and a default, listed by `--help`.
 */
const program = new Command('petstore-mock')
  .description('Stateful mock of the Pet Store Animals interface (spec/openapi.yaml).')
  .addOption(new Option('--port <number>', 'TCP port to listen on (0 picks a free one)').env('PORT').default(4010).argParser(port))
  .addOption(new Option('--host <address>', 'interface to listen on').env('HOST').default('127.0.0.1'))
  .addOption(new Option('--api-key <key...>', 'API key(s) accepted as "Authorization: Bearer <key>"').env('PETSTORE_API_KEY').default([DEFAULT_API_KEY]))
  .addOption(new Option('--data <file>', 'JSON file of starting pets (an array of Pet)').env('PETSTORE_DATA'))
  .addOption(new Option('--empty', 'start with no pets').env('PETSTORE_EMPTY'))
  .addOption(new Option('--max-pets <number>', 'most pets held; createPet answers 409 STORE_FULL beyond').env('PETSTORE_MAX_PETS').default(1_000_000).argParser(positive))
  .addOption(new Option('--max-body-bytes <number>', 'largest request body accepted (413 beyond)').env('PETSTORE_MAX_BODY_BYTES').default(1024 * 1024).argParser(positive))
  .showHelpAfterError();

program.parse();
const options = program.opts<{ port: number; host: string; apiKey: string[] | string; data?: string; empty?: boolean; maxPets: number; maxBodyBytes: number }>();
const apiKeys = (Array.isArray(options.apiKey) ? options.apiKey : options.apiKey.split(',')).map((key) => key.trim()).filter(Boolean);

try {
  const api = await loadApi();
  const pets = options.empty === true ? [] : options.data === undefined ? undefined : readPetsFile(api, options.data);
  const mock = await startMock({ api, apiKeys, pets, maxPets: options.maxPets, port: options.port, host: options.host, maxBodyBytes: options.maxBodyBytes });
  process.stdout.write(
    `Pet Store mock ${api.version} serving ${mock.baseUrl} with ${mock.store.size} pets\n` +
      `API key: ${apiKeys.join(', ')}\n` +
      `Try: curl -H 'Authorization: Bearer ${apiKeys[0]}' ${mock.baseUrl}/pets\n`,
  );
  const stop = (): void => {
    void mock.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  process.stderr.write(`petstore-mock: ${(error as Error).message}\n`);
  process.exit(1);
}

function port(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new InvalidArgumentError('must be an integer from 0 to 65535');
  return value;
}

function positive(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new InvalidArgumentError('must be a positive integer');
  return value;
}
