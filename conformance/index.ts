/**
 * The conformance suite as a library, the package's main entry (`import { runSuite } from 'openapi-harness'`):
 * load a description with {@link modelOf}, run its checks against a target with {@link runSuite}, and render the
 * results with the same reporters the `openapi-harness test` command writes (console lines, JUnit XML, HTML,
 * markdown for a GitHub step summary). Needs no test runner; `openapi-harness/vitest` registers the same checks
 * as vitest tests for teams that want them among their own.
 *
 * ```ts
 * const model = await modelOf('openapi.yaml');
 * const target = { baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'key', spec: 'openapi.yaml' };
 * const result = await runSuite(model, target);
 * writeFileSync('junit.xml', renderJunit('my api', result.checks, reachOf(model, result.summary.statuses, result.checks)));
 * ```
 */
export { listCheckIds, READ_ONLY_REASON, RUN_BUDGET_REASON, runCheck, runSuite, startRun, type CheckId, type CheckOutcome, type RunOptions, type SuiteResult } from './run-suite.js';
export { modelOf } from './contract.js';
export type { RunState } from './run-state.js';
export type { Target, TargetTls } from './target.js';
export { renderJunit } from './report/junit.js';
export { renderHtml, renderMarkdown, type RunReport } from './report/html.js';
export { checkLines, closingLines, reachLines } from './report/text.js';
export { reachOf, type CheckReach, type OperationReach, type RunReach, type UnseenStatus } from './report/reach.js';
export { coverage, type OperationCoverage } from './report/coverage.js';
export { summaryLine, type CheckRecord, type SummaryRecord } from './report/results.js';
export { colours, type Colours } from './report/colours.js';
export type { ApiModel } from '../model/model.js';
export type { Exchange } from '../judge/verdict.js';
