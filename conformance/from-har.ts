import { appendFileSync, writeFileSync } from 'node:fs';
import type { ApiModel } from '../model/model.js';
import type { Exchange, OutgoingRequest } from '../judge/verdict.js';
import type { ExchangeViolation } from '../judge/verdict.js';
import { colours } from './report/colours.js';
import { toHar } from '../judge/har.js';
import { renderHtml, renderMarkdown, type RunReport } from './report/html.js';
import { renderJunit } from './report/junit.js';
import { coverage } from './report/coverage.js';
import { reachOf } from './report/reach.js';
import { reachLines } from './report/text.js';
import type { CheckRecord } from './report/results.js';
import { readHar } from '../judge/har.js';
import { judgeTraffic, type JudgedExchange } from '../judge/traffic.js';
import { COMMANDS } from '../cli/product.js';

/** What `--from-har` was asked for. */
export interface FromHarOptions {
  file: string;
  model: ApiModel;
  specPath: string;
  /** OpenAPI Overlay files the model was read with (`--overlay`): the coverage report reads the description with them too. */
  overlays?: readonly string[] | undefined;
  strict: boolean;
  html?: string | undefined;
  junit?: string | undefined;
  /** Write the failing exchanges as HAR (`--har`). */
  har?: string | undefined;
  version: string;
}

/**
 * `openapi-harness test --from-har FILE`: judges every exchange and the sequence rules (conformance/traffic.ts),
 * prints one line per check (a check per operation seen, one for the sequence rules, one listing what the spec
 * does not describe) with the report of each failure, writes the JUnit, HTML, HAR and GitHub summary reports an
 * active run writes, and returns the exit code: 0 conforms, 1 violations. Request-side violations (the client's)
 * are advice unless `strict`; exchanges the spec does not describe are listed, failed only when `strict`.
 */
export async function runFromHar(options: FromHarOptions): Promise<number> {
  const started = performance.now();
  const { exchanges, outside } = readHar(options.file, options.model);
  const judged = judgeTraffic(options.model, exchanges, { strict: options.strict });
  const checks = checksOf(options.model, judged, outside, options.strict, performance.now() - started);
  const colour = colours(process.stdout);
  process.stdout.write(`${COMMANDS.test} --from-har ${options.file}: ${exchanges.length + outside.length} exchanges, ${judged.filter((j) => j.verdict.described).length} described by the spec\n`);
  for (const check of checks) {
    const mark = check.state === 'passed' ? colour.green('✓') : check.state === 'failed' ? colour.red('×') : colour.yellow('↓');
    process.stdout.write(` ${mark} ${check.id}: ${check.rule}${check.skipped === undefined ? '' : colour.dim(` [${check.skipped}]`)}\n`);
    for (const note of check.advice) process.stdout.write(colour.dim(`     advice: ${note}\n`));
  }
  const failed = checks.filter((check) => check.state === 'failed');
  for (const check of failed) process.stdout.write(`\n${colour.red(colour.bold(`FAIL ${check.id}`))}\n${check.report ?? ''}\n`);

  const statuses = new Map<string, Map<number, number>>();
  for (const { exchange } of exchanges) {
    const key = `${exchange.request.method} ${exchange.request.path.split('?')[0]}`;
    const counts = statuses.get(key) ?? new Map<number, number>();
    counts.set(exchange.response.status, (counts.get(exchange.response.status) ?? 0) + 1);
    statuses.set(key, counts);
  }
  // What the recorded traffic reached of each operation: the statuses it holds, the documented ones it never shows.
  const reach = reachOf(options.model, [...statuses].map(([key, counts]) => [key, [...counts]]), checks);
  process.stdout.write(reachLines(reach, colour));
  process.stdout.write(`\n${failed.length === 0 ? colour.green('conforms') : colour.red(`${failed.length} of ${checks.length} checks failed`)}: ${checks.filter((c) => c.state === 'passed').length} passed, ${checks.filter((c) => c.state === 'skipped').length} listed\n`);
  if (options.junit !== undefined) writeFileSync(options.junit, renderJunit(`${COMMANDS.test} --from-har ${options.file}`, checks, reach));
  if (options.har !== undefined) {
    const failing = judged.filter((j) => failures(j, options.strict).length > 0).map((j) => ({ exchange: asExchange(j), comment: failures(j, options.strict).map((v) => `${v.operationId} ${v.rule} ${v.pointer}`).join('; ') }));
    writeFileSync(options.har, `${JSON.stringify(toHar(failing, '', options.version), null, 2)}\n`);
  }
  const stepSummary = process.env['GITHUB_STEP_SUMMARY'];
  if (options.html !== undefined || (stepSummary !== undefined && stepSummary !== '')) {
    const { operations, unmatched } = await coverage(options.specPath, [...statuses].map(([key, counts]) => [key, [...counts]]), options.overlays);
    const report: RunReport = { baseUrl: `HAR ${options.file}`, finishedAt: new Date().toISOString(), checks, summary: undefined, operations, unmatched, reach };
    if (options.html !== undefined) writeFileSync(options.html, renderHtml(report));
    if (stepSummary !== undefined && stepSummary !== '') appendFileSync(stepSummary, renderMarkdown(report));
  }
  return failed.length === 0 ? 0 : 1;
}

/** The violations of an exchange that fail the run: the server's, the sequence's, and the client's too when strict. */
function failures(judged: JudgedExchange, strict: boolean): ExchangeViolation[] {
  if (!judged.verdict.described) return [];
  return [...judged.verdict.violations.filter((v) => strict || v.side === 'response'), ...judged.sequence];
}

/** The checks of a HAR run: one per operation seen, the sequence rules, and the exchanges the spec does not describe. */
function checksOf(model: ApiModel, judged: readonly JudgedExchange[], outside: readonly string[], strict: boolean, durationMs: number): CheckRecord[] {
  const checks: CheckRecord[] = [];
  for (const op of model.operations) {
    const mine = judged.filter((j) => j.verdict.op === op);
    if (mine.length === 0) continue;
    const failing = mine.filter((j) => failures(j, strict).some((v) => !v.rule.startsWith('sequence.')));
    const advice = strict ? [] : mine.flatMap((j) => j.verdict.violations.filter((v) => v.side === 'request').map((v) => `#${j.index} ${v.rule} ${v.pointer}: ${v.message} (the client's request; failed only with --strict)`));
    checks.push({
      type: 'check',
      id: `har.${op.operationId}`,
      rule: `every exchange of ${op.operationId} (${op.method} ${op.path}) obeys the spec: ${mine.length} exchange${mine.length === 1 ? '' : 's'}`,
      state: failing.length === 0 ? 'passed' : 'failed',
      durationMs,
      advice: advice.slice(0, 20),
      ...(failing.length === 0 ? {} : { report: reportOf(failing, strict, (v) => !v.rule.startsWith('sequence.')), exchange: asExchange(failing[0]!) }),
    });
  }
  const sequenced = judged.filter((j) => j.sequence.length > 0);
  checks.push({
    type: 'check',
    id: 'har.sequence',
    rule: 'read-after-create, delete then 404, pages of one list not overlapping, across the traffic in order',
    state: sequenced.length === 0 ? 'passed' : 'failed',
    durationMs,
    advice: [],
    ...(sequenced.length === 0 ? {} : { report: reportOf(sequenced, strict, (v) => v.rule.startsWith('sequence.')), exchange: asExchange(sequenced[0]!) }),
  });
  const undescribed = [...judged.filter((j) => !j.verdict.described).map((j) => `#${j.index} ${j.exchange.request.method} ${j.url} → ${j.exchange.response.status}`), ...outside];
  if (undescribed.length > 0) {
    const listing = `${undescribed.length} exchange${undescribed.length === 1 ? '' : 's'} the spec does not describe: ${undescribed.slice(0, 20).join('; ')}${undescribed.length > 20 ? '; …' : ''}`;
    checks.push({
      type: 'check',
      id: 'har.undescribed',
      rule: 'exchanges outside the spec (routes or methods it does not document)',
      state: strict ? 'failed' : 'skipped',
      durationMs,
      advice: [],
      ...(strict ? { report: `--strict: ${listing}` } : { skipped: `listed, not failed (--strict fails them): ${listing}` }),
    });
  }
  return checks;
}

/** The failure report of some exchanges: each violation with the exchange's number, request line, status and the rule. */
function reportOf(judged: readonly JudgedExchange[], strict: boolean, keep: (violation: ExchangeViolation) => boolean): string {
  const lines: string[] = [];
  for (const item of judged.slice(0, 50)) {
    const violations = failures(item, strict).filter(keep);
    lines.push(`#${item.index} ${item.exchange.request.method} ${item.url} → ${item.exchange.response.status}`);
    for (const v of violations) lines.push(`    ${v.operationId} ${v.rule} ${v.pointer || '/'} (${v.side}): ${v.message}; expected ${v.expected}, got ${v.got}`);
  }
  if (judged.length > 50) lines.push(`… and ${judged.length - 50} more exchanges`);
  return lines.join('\n');
}

/** A judged exchange as the reports' `Exchange` (HTML request and response, HAR). */
function asExchange(judged: JudgedExchange): Exchange {
  const { request, response } = judged.exchange;
  return {
    request: { method: request.method as OutgoingRequest['method'], path: request.path, url: judged.url, headers: { ...request.headers }, ...(request.body === undefined ? {} : { body: request.body }) },
    response: { status: response.status, headers: { ...response.headers }, text: response.text },
  };
}
