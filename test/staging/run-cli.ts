import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCheck } from '../../conformance/run-suite.js';
import type { RunState } from '../../conformance/run-state.js';
import type { Target } from '../../conformance/target.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The compiled conformance CLI, as `npx petstore-conformance` runs it. */
export const CONFORMANCE_CLI = join(ROOT, 'dist', 'conformance', 'cli.js');

/** What a CLI run left: exit code, and stdout and stderr apart and together. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  output: string;
}

/**
 * Runs `petstore-conformance` with `args` to its end (at most `timeoutMs`), in an environment without any
 * target, proxy or colour setting of the calling shell, plus `env`.
 */
export function runConformance(args: readonly string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 120_000): Promise<CliRun> {
  const clean: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(PETSTORE_|CONFORMANCE_|HTTPS?_PROXY$|NO_PROXY$|FORCE_COLOR$|NO_COLOR$|GITHUB_STEP_SUMMARY$|VITEST)/i.test(name)) continue;
    clean[name] = value;
  }
  return new Promise((resolve) => {
    execFile(process.execPath, [CONFORMANCE_CLI, ...args], { env: { ...clean, ...env }, timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr, output: `${stdout}${stderr}` });
    });
  });
}

/** The `replay:` and `counterexample:` lines of a failure report, to compare two runs. */
export function replayLines(output: string): string[] {
  return output.split('\n').filter((line) => /^\s*(replay|counterexample):/.test(line)).map((line) => line.trim());
}

/**
 * Runs checks in this process, one after another, with the suite's own entry point (`runCheck`), and returns
 * the ids that failed with their reports. Cheaper than a CLI run (no vitest start-up) where exit codes and the
 * CLI's messages are not what is tested. `run`: the run the checks share (its figures read after); default one each.
 */
export async function failingChecks(target: Target, ids: readonly string[], run?: RunState): Promise<Map<string, string>> {
  const failed = new Map<string, string>();
  for (const id of ids) {
    const outcome = await runCheck(id, target, run);
    if (!outcome.ok) failed.set(id, outcome.report);
  }
  return failed;
}
