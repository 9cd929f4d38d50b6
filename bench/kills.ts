import { appendFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCheck } from '../conformance/run-suite.js';
import type { Target } from '../conformance/target.js';
import { independentCases, type FaultVersion, type IndependentCase } from '../test/independent/cases.js';
import { independentTarget, INDEPENDENT_RUNS, specLabel, specPath } from '../test/independent/independent-target.js';

/**
 * `npm run bench:kills`: every fault of the independent servers (test/independent/<name>/faults.ts) met by its
 * killing check many times in a row, each time with another fast-check seed, at the runs per property the tests
 * use ({@link INDEPENDENT_RUNS}). A fault escapes a run when its check passes; every fault must be killed in every
 * run, because CI runs each once with a seed of its own. With each seed the correct server of each case is also
 * held to its killing checks, which it must pass: a kill that a correct server would also get is a false alarm.
 * Prints one line per fault (kills out of runs, and the seeds it escaped, to replay with `--seed`) and per correct
 * server, and appends the tables to bench/RESULTS.md unless `--only` narrows it (then only with `--record`).
 *
 * Options: `--runs N` (default 20), `--seed S` (the first seed; run k uses S + k; default from the clock),
 * `--only TEXT[,TEXT…]` (faults whose spec, name or check contains one of the TEXTs), `--record` (append the tables
 * even when `--only` narrows the run). Exit status 1 when a fault escaped or a correct
 * server failed a killing check.
 */
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');

const argv = process.argv.slice(2);
const option = (name: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const RUNS = Number(option('--runs') ?? 20);
const FIRST_SEED = Number(option('--seed') ?? Date.now() % 1_000_000_000);
const ONLY = option('--only')?.split(',').filter((text) => text !== '');
const RECORD = ONLY === undefined || argv.includes('--record');
/** Whether a fault of spec `label` is among those `--only` asked for. */
const chosenFault = (label: string, version: FaultVersion): boolean => ONLY === undefined || ONLY.some((only) => [label, version.fault, version.killedBy].some((text) => text.includes(only)));

/** One fault's tally over the runs. */
interface Tally {
  spec: string;
  fault: string;
  killedBy: string;
  killed: number;
  escapedSeeds: number[];
  /** Runs that could not be judged (the server or the check threw): counted as escapes, with the message. */
  errors: string[];
  ms: number;
}

/** A killing check as its faults run it: its id, and whether under `--strict`. */
interface KillingCheck {
  id: string;
  strict: boolean;
}

/** The target of a check against a server at `baseUrl` with `seed`, under `--strict` when the kill needs it. */
function killTarget(spec: Parameters<typeof independentTarget>[0], baseUrl: string, seed: number, strict: boolean): Target {
  return { ...independentTarget(spec, baseUrl), seed, ...(strict ? { strict } : {}) };
}

/** The killing checks a correct server failed with `seed` (a fresh server), as `id: first line of the report`. */
async function falseAlarms(spec: Parameters<typeof independentTarget>[0], correct: IndependentCase, checks: readonly KillingCheck[], seed: number): Promise<string[]> {
  const server = await correct.correct();
  try {
    const alarms: string[] = [];
    for (const { id, strict } of checks) {
      const outcome = await runCheck(id, killTarget(spec, server.baseUrl, seed, strict));
      if (!outcome.ok) alarms.push(`${id}${strict ? ' (--strict)' : ''}: ${outcome.report.split('\n').find((line) => line.includes('problem:'))?.trim() ?? 'failed'}`);
    }
    return alarms;
  } finally {
    await server.close();
  }
}

/** Whether the fault's check rejects it with `seed` (a fresh server each run, so no run sees another's records). */
async function killed(spec: Parameters<typeof independentTarget>[0], version: FaultVersion, seed: number): Promise<boolean> {
  const server = await version.start();
  try {
    const outcome = await runCheck(version.killedBy, killTarget(spec, server.baseUrl, seed, version.strict));
    return !outcome.ok;
  } finally {
    await server.close();
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const load = loadavg()[0]!.toFixed(1);
  const tallies: Tally[] = [];
  const controls: { spec: string; passed: number; alarms: string[] }[] = [];
  for (const one of independentCases()) {
    const label = specLabel(one.spec);
    if (specPath(one.spec) === undefined) {
      console.log(`${label}: absent from this machine, its faults are not run`);
      continue;
    }
    const chosen = one.faults.filter((version) => chosenFault(label, version));
    const killing = [...new Map(chosen.map((version) => [`${version.killedBy} ${version.strict}`, { id: version.killedBy, strict: version.strict }])).values()];
    if (killing.length > 0) {
      const control = { spec: label, passed: 0, alarms: [] as string[] };
      for (let run = 0; run < RUNS; run++) {
        const alarms = await falseAlarms(one.spec, one, killing, FIRST_SEED + run).catch((error: unknown) => [error instanceof Error ? error.message : String(error)]);
        if (alarms.length === 0) control.passed++;
        else control.alarms.push(`seed ${FIRST_SEED + run}: ${alarms[0]}`);
      }
      controls.push(control);
      console.log(`${label} correct server, its ${killing.length} killing checks: passed ${control.passed}/${RUNS}${control.alarms.length === 0 ? '' : `  FALSE ALARM ${control.alarms[0]}`}`);
    }
    for (const version of one.faults) {
      if (!chosenFault(label, version)) continue;
      const tally: Tally = { spec: label, fault: version.fault, killedBy: version.strict ? `${version.killedBy} (--strict)` : version.killedBy, killed: 0, escapedSeeds: [], errors: [], ms: 0 };
      const from = Date.now();
      for (let run = 0; run < RUNS; run++) {
        const seed = FIRST_SEED + run;
        try {
          if (await killed(one.spec, version, seed)) tally.killed++;
          else tally.escapedSeeds.push(seed);
        } catch (error) {
          tally.escapedSeeds.push(seed);
          tally.errors.push(error instanceof Error ? error.message : String(error));
        }
      }
      tally.ms = Date.now() - from;
      tallies.push(tally);
      const escaped = tally.escapedSeeds.length === 0 ? '' : `  ESCAPED with seeds ${tally.escapedSeeds.join(', ')}${tally.errors.length === 0 ? '' : ` (${tally.errors[0]})`}`;
      console.log(`${label} ${version.fault} <- ${tally.killedBy}: ${tally.killed}/${RUNS} (${(tally.ms / 1000).toFixed(1)} s)${escaped}`);
    }
  }
  const escapes = tallies.filter((tally) => tally.killed < RUNS);
  const alarmed = controls.filter((control) => control.passed < RUNS);
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  const verdict = [escapes.length === 0 ? 'every fault killed in every run' : `${escapes.length} fault(s) escaped at least one run`, alarmed.length === 0 ? 'every correct server passed its killing checks in every run' : `${alarmed.length} correct server(s) failed a killing check`].join('; ');
  console.log(`\n${tallies.length} faults x ${RUNS} runs (seeds ${FIRST_SEED}..${FIRST_SEED + RUNS - 1}), ${minutes} min: ${verdict}`);
  if (RECORD) {
    const rows = tallies.map((tally) => `| ${tally.spec} | \`${tally.fault}\` | \`${tally.killedBy}\` | ${tally.killed}/${RUNS} | ${tally.escapedSeeds.join(', ')} |`);
    const section = [
      '',
      `## ${new Date().toISOString().slice(0, 10)}: every kill, every run (\`npm run bench:kills\`)`,
      '',
      `${ONLY === undefined ? 'Each fault of the independent servers' : `The faults of the independent servers matching \`--only ${ONLY.join(',')}\``} (test/independent/<name>/faults.ts) against its killing check, ${RUNS} runs`,
      `with seeds ${FIRST_SEED}..${FIRST_SEED + RUNS - 1} (run k: first seed + k), ${INDEPENDENT_RUNS} fast-check runs per property as in the tests;`,
      `${minutes} min on a shared machine (load average ${load} at start). Result: **${verdict}**.`,
      '',
      '| Spec | Fault | Killing check | Killed | Escaped with seeds |',
      '|---|---|---|---|---|',
      ...rows,
      '',
      'The correct server of each spec against its killing checks with the same seeds (a kill it also got would be a false alarm):',
      '',
      '| Spec | Passed every killing check | False alarms |',
      '|---|---|---|',
      ...controls.map((control) => `| ${control.spec} | ${control.passed}/${RUNS} | ${control.alarms.join('; ')} |`),
      '',
    ].join('\n');
    appendFileSync(join(ROOT, 'bench', 'RESULTS.md'), section);
  }
  process.exitCode = escapes.length === 0 && alarmed.length === 0 ? 0 : 1;
}

await main();
