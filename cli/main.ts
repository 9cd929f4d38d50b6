#!/usr/bin/env node
import { PACKAGE_VERSION } from '../model/loader.js';
import { type COMMANDS, PRODUCT } from './product.js';

/**
 * `openapi-harness <command> [flags]`: the package's one command. `mock` serves a stateful mock of an OpenAPI
 * description, `test` runs the conformance suite against an implementation, `proxy` judges the traffic of one.
 * Each subcommand is its own entry (mock/cli.ts, conformance/cli.ts, proxy/cli.ts), loaded here with the rest of
 * the arguments, so `openapi-harness mock --help` lists the mock's flags. Exit codes are the subcommand's; 2 for an
 * unknown subcommand. `explain` shows what the others read in a description (explain/cli.ts); `mock` starts through
 * explain/mock.ts, which hands the suite's catalogue to the mock's console first.
 */
const ENTRIES: Record<keyof typeof COMMANDS, string> = {
  mock: '../explain/mock.js',
  test: '../conformance/cli.js',
  proxy: '../proxy/cli.js',
  explain: '../explain/cli.js',
};

const [subcommand, ...rest] = process.argv.slice(2);
if (subcommand === undefined || subcommand === '--help' || subcommand === '-h' || subcommand === 'help') {
  process.stdout.write(usage());
} else if (subcommand === '--version' || subcommand === '-V') {
  process.stdout.write(`${PACKAGE_VERSION}\n`);
} else if (Object.hasOwn(ENTRIES, subcommand)) {
  // The subcommand's entry parses process.argv as if it had been started alone.
  process.argv.splice(2, process.argv.length - 2, ...rest);
  await import(ENTRIES[subcommand as keyof typeof COMMANDS]);
} else {
  process.stderr.write(`${PRODUCT}: unknown command ${JSON.stringify(subcommand)}\n\n${usage()}`);
  process.exitCode = 2;
}

function usage(): string {
  return (
    `Usage: ${PRODUCT} <command> [flags]   (${PRODUCT} <command> --help lists a command's flags)\n\n` +
    `Commands:\n` +
    `  mock    serve a stateful mock of an OpenAPI description (default: the shipped Pet Store spec)\n` +
    `  test    run the conformance suite against an implementation (--base-url URL --api-key KEY)\n` +
    `  proxy   forward to an implementation and judge every exchange against the description (--upstream URL)\n` +
    `  explain show what the mock and the suite read in the description, each reading with its reason (--json)\n\n` +
    `Settings: flags, then OPENAPI_HARNESS_* variables, then ${PRODUCT}.config.json in this folder, then defaults.\n`
  );
}
