import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type StartedMock } from '../mock/index.js';
import { PACKAGE_ROOT } from '../model/loader.js';
import { ensureBuilt } from './built-cli.js';

/**
 * The GitHub Action (action.yml) run as the runner runs a composite action: each `run:` step by `bash --noprofile
 * --norc -eo pipefail` with its `env:`, the `${{ inputs.* }}`, `${{ github.action_path }}` and
 * `${{ steps.<id>.outputs.* }}` expressions filled in, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_ACTION_PATH and
 * RUNNER_TEMP set, a failed step skipping the later ones unless they say `always()`. `uses:` steps are not run
 * (they are GitHub's own actions); they must be pinned to a commit.
 */

interface Step {
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
  with?: Record<string, string>;
}
interface Action {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const action = load(readFileSync(join(PACKAGE_ROOT, 'action.yml'), 'utf8')) as Action;
let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'openapi-harness-action-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What one emulated run of the action leaves: each step's outcome and outputs, the action's outputs, the summary. */
interface ActionRun {
  steps: { id: string; outcome: 'success' | 'failure' | 'skipped'; outputs: Record<string, string>; log: string }[];
  outputs: Record<string, string>;
  summary: string;
  workspace: string;
}

/** Runs action.yml's `run:` steps with `given` inputs in a new workspace, as the runner would. */
async function runAction(given: Record<string, string>): Promise<ActionRun> {
  const workspace = mkdtempSync(join(dir, 'workspace-'));
  const temp = join(workspace, '.runner-temp');
  mkdirSync(temp);
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([name, input]) => [name, given[name] ?? input.default ?? '']));
  const outputsOf: Record<string, Record<string, string>> = {};
  const expression = (text: string): string =>
    text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_all, body: string) => {
      const input = /^inputs\.([\w-]+)$/.exec(body);
      if (input !== null) return inputs[input[1]!] ?? '';
      if (body === 'github.action_path') return PACKAGE_ROOT;
      if (body === 'runner.temp') return temp;
      const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(body);
      if (output !== null) return outputsOf[output[1]!]?.[output[2]!] ?? '';
      throw new Error(`action.yml: an expression this emulation does not know: ${body}`);
    });
  const steps: ActionRun['steps'] = [];
  const summaryFile = join(temp, 'step-summary.md');
  writeFileSync(summaryFile, '');
  let failed = false;
  for (const [index, step] of action.runs.steps.entries()) {
    const id = step.id ?? `step-${index}`;
    const condition = step.if ?? '';
    const always = /\balways\(\)/.test(condition);
    if (condition !== '' && !/^always\(\)( && inputs\.[\w-]+ != '')?$/.test(condition)) throw new Error(`action.yml: a condition this emulation does not know: ${condition}`);
    const artifactOff = /inputs\.([\w-]+) != ''/.exec(condition);
    if ((failed && !always) || step.run === undefined || (artifactOff !== null && inputs[artifactOff[1]!] === '')) {
      steps.push({ id, outcome: 'skipped', outputs: {}, log: '' });
      continue;
    }
    expect(step.shell, `${id} runs in bash`).toBe('bash');
    const outputFile = join(temp, `output-${index}`);
    writeFileSync(outputFile, '');
    const env = {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: workspace,
      GITHUB_ACTION_PATH: PACKAGE_ROOT,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      RUNNER_TEMP: temp,
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([name, value]) => [name, expression(String(value))])),
    };
    const script = join(temp, `step-${index}.sh`);
    writeFileSync(script, expression(step.run));
    const cwd = step['working-directory'] === undefined ? workspace : expression(step['working-directory']);
    const { code, log } = await new Promise<{ code: number; log: string }>((resolve) => {
      execFile('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd, env, timeout: 180_000 }, (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, log: `${stdout}${stderr}` });
      });
    });
    const outputs = Object.fromEntries(
      readFileSync(outputFile, 'utf8')
        .split('\n')
        .filter((line) => line.includes('='))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    outputsOf[id] = outputs;
    steps.push({ id, outcome: code === 0 ? 'success' : 'failure', outputs, log });
    if (code !== 0) failed = true;
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([name, output]) => [name, expression(output.value)]));
  return { steps, outputs, summary: readFileSync(summaryFile, 'utf8'), workspace };
}

describe('action.yml', () => {
  it('is a composite action whose other actions are pinned to a commit', () => {
    expect(action.runs.using).toBe('composite');
    const uses = action.runs.steps.flatMap((step) => (step.uses === undefined ? [] : [step.uses]));
    expect(uses.length).toBeGreaterThan(0);
    for (const ref of uses) expect(ref, ref).toMatch(/^[\w-]+\/[\w-]+@[0-9a-f]{40}$/);
  });

  it('with no base URL, starts the mock of the shipped description, passes it, and keeps JUnit, HTML and the step summary', async () => {
    const result = await runAction({ runs: '5' });
    expect(result.steps.map((step) => step.outcome), result.steps.map((step) => step.log).join('\n')).toEqual(['skipped', 'success', 'success', 'success', 'skipped', 'success']);
    expect(result.outputs['result']).toBe('passed');
    expect(result.outputs['base-url']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const junit = readFileSync(join(result.workspace, 'openapi-harness-reports', 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites name="openapi-harness" tests="\d+" failures="0"/);
    expect(readFileSync(join(result.workspace, 'openapi-harness-reports', 'report.html'), 'utf8')).toContain('Conforms');
    expect(result.summary).toContain(`### Conformance of \`${result.outputs['base-url']}\``);
    expect(result.summary).toMatch(/\*\*Conforms\*\*: \d+ checks/);
    expect(result.summary).toContain('| Check | Result | Time | Note |');
    // The last step stopped the mock it started.
    const stopped = await fetch(`${result.outputs['base-url']}/pets`).then(
      () => false,
      () => true,
    );
    expect(stopped, 'the mock is stopped by the last step').toBe(true);
  });

  it('examples/github-workflow.yml gives the action only inputs it has, and pins the other actions', () => {
    const workflow = load(readFileSync(join(PACKAGE_ROOT, 'examples', 'github-workflow.yml'), 'utf8')) as { jobs: Record<string, { steps: Step[] }> };
    const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
    const ours = steps.filter((step) => step.uses?.startsWith('OWNER/openapi-harness@'));
    expect(ours.length).toBeGreaterThan(0);
    for (const step of ours) for (const name of Object.keys(step.with ?? {})) expect(Object.keys(action.inputs), name).toContain(name);
    for (const step of steps.filter((candidate) => candidate.uses !== undefined && !ours.includes(candidate))) expect(step.uses, step.uses).toMatch(/^[\w-]+\/[\w-]+@[0-9a-f]{40}$/);
  });

  describe('with a base URL', () => {
    let target: StartedMock;
    beforeAll(async () => {
      target = await startMock({ port: 0, apiKeys: ['ci-key'], pets: [] });
    });
    afterAll(async () => target?.close());

    it('checks that server with the given key, and fails its last step when the key is refused, with a summary line', async () => {
      const passed = await runAction({ 'base-url': target.baseUrl, 'api-key': 'ci-key', runs: '3', args: '--check auth.listPets listPets.status-filter', artifact: '' });
      expect(passed.steps.map((step) => step.outcome), passed.steps.map((step) => step.log).join('\n')).toEqual(['skipped', 'success', 'success', 'success', 'skipped', 'success']);
      expect(passed.outputs).toEqual({ result: 'passed', 'base-url': target.baseUrl });
      expect(passed.steps.find((step) => step.id === 'suite')!.log).toMatch(/2 passed, 0 failed/);

      const refused = await runAction({ 'base-url': target.baseUrl, 'api-key': 'wrong-key', runs: '3' });
      expect(refused.outputs['result']).toBe('error');
      expect(refused.steps.at(-1)!.outcome).toBe('failure');
      expect(refused.steps.at(-1)!.log).toContain('::error::openapi-harness test: error (exit 2)');
      expect(refused.summary).toContain('no verdict against');
      expect(existsSync(join(refused.workspace, 'openapi-harness-reports'))).toBe(true);
    });
  });
});
