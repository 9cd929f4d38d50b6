import type { ApiModel, OperationModel } from '../../model/model.js';
import type { CheckRecord } from './results.js';

/**
 * What a run reached of each operation of the spec, computed in one place for every report (console, HTML, JUnit):
 * the statuses seen, the documented ones never seen and why when the run can tell, and each check of the operation
 * with its state and reason (spec/DECISIONS.md › D100-D104).
 */

/** A documented status (`200`, `4XX`) the run never saw for an operation, with why when the run can tell. */
export interface UnseenStatus {
  status: string;
  /** `never reached with an existing id`, `never called`, `not provoked: …`; absent when the run cannot tell. */
  reason?: string;
  /**
   * Whether a correct server is expected never to send it to the suite (a 5xx, a 429): shown, but no gap in what
   * the gate checked.
   */
  expected: boolean;
}

/**
 * One check as the reach of its operation shows it. `limited`: passed, but an advice says its judgement could not be
 * made in full (`not verifiable`, `could not`, `not fully tested`): never shown as a plain pass.
 */
export interface CheckReach {
  id: string;
  state: 'passed' | 'failed' | 'skipped' | 'limited';
  /** The skip reason, or the advice notes that limited the check. */
  reasons: string[];
  /** Every advice note of the check (the limiting ones included). */
  advice: string[];
}

/** The reach of one operation of the spec. Statuses are HTTP statuses; counts are final answers (after retries). */
export interface OperationReach {
  operationId: string;
  method: string;
  /** Path template as in the spec, e.g. `/pets/{petId}`. */
  path: string;
  /** The operation's first tag, by which the console and HTML group operations; `undefined` when it has none. */
  tag: string | undefined;
  deprecated: boolean;
  /** Response keys of the spec as written (`200`, `4XX`, `default`). */
  documented: string[];
  /** Final statuses seen with their counts, by status. */
  seen: [number, number][];
  /** Statuses seen that no documented key (exact, range or `default`) covers. */
  undocumented: [number, number][];
  unseen: UnseenStatus[];
  /** Why the operation was not reached as the spec allows: `never called`, `never reached with an existing id`, `no success seen (…)`. */
  gaps: string[];
  /** The checks whose id names this operation (`<operationId>.<kind>`, `auth.<operationId>`, `--from-har`'s `har.<operationId>`), in run order. */
  checks: CheckReach[];
  /** Advice of API-wide checks (`responses.conformance`, `stateful.model`) that names this operation, as `<check id>: <note>`. */
  notes: string[];
}

/** The whole reach of a run: per operation, then the checks that belong to no operation, and requests that matched none. */
export interface RunReach {
  operations: OperationReach[];
  /** API-wide checks (`responses.conformance`, `stateful.model`, `concurrency.create`) and any id naming no operation. */
  apiWide: CheckReach[];
  /** Requests (`METHOD path`) that matched no operation of the spec, with their statuses. */
  unmatched: [string, [number, number][]][];
}

/**
 * The words by which an advice note says that a check's judgement was not made in full. The checks write their
 * advice as sentences (conformance/checks/*.ts › `context.advise`); these are the phrasings they use for "this part
 * was not judged", as against advice that only notes an allowed answer ("answered 400 (allowed: …)").
 */
const LIMITING = /not verifiable|not fully tested|could not|cannot|could only|was not (?:exercised|tested|held)|were not (?:tested|held)|not held to|only called with drawn values|no operation was found/i;

/** Whether an advice note says that its check could not make part of its judgement (see {@link LIMITING}). */
export function isLimiting(note: string): boolean {
  return LIMITING.test(note);
}

/**
 * The reach of a run: for each operation of `model` (spec order), the statuses `statuses` recorded for it (keys
 * `METHOD path`, the path below the base path, query stripped, as `SummaryRecord.statuses`), the documented statuses
 * never seen with their reasons, and the checks of `checks` whose ids name it. A request path matching several
 * templates goes to the one with fewest parameters (`/pets/search` before `/pets/{petId}`), as routers do.
 */
export function reachOf(model: ApiModel, statuses: readonly (readonly [string, readonly (readonly [number, number])[]])[], checks: readonly CheckRecord[]): RunReach {
  const seen = new Map<OperationModel, Map<number, number>>();
  const unmatched = new Map<string, Map<number, number>>();
  for (const [key, counts] of statuses) {
    const space = key.indexOf(' ');
    const method = key.slice(0, space);
    const path = key.slice(space + 1);
    const operation = model.operations
      .filter((candidate) => candidate.method === method && candidate.pattern.test(path))
      .sort((a, b) => a.pathParams.length - b.pathParams.length)[0];
    const into = operation === undefined ? (unmatched.get(key) ?? new Map<number, number>()) : (seen.get(operation) ?? new Map<number, number>());
    if (operation === undefined) unmatched.set(key, into);
    else seen.set(operation, into);
    for (const [status, count] of counts) into.set(status, (into.get(status) ?? 0) + count);
  }

  // Longest operationId first, so that `pets.list.pages` goes to `pets.list`, not to a `pets` operation.
  const byLength = [...model.operations].sort((a, b) => b.operationId.length - a.operationId.length);
  const ownerOf = (id: string): OperationModel | undefined => byLength.find((op) => id === `auth.${op.operationId}` || id === `har.${op.operationId}` || id.startsWith(`${op.operationId}.`));
  const owned = new Map<OperationModel, CheckReach[]>();
  const apiWide: CheckReach[] = [];
  const notes = new Map<OperationModel, string[]>();
  for (const record of checks) {
    const reach = checkReach(record);
    const owner = ownerOf(record.id);
    if (owner === undefined) {
      apiWide.push(reach);
      // An API-wide check's advice that names an operation (`getTicketQr: no operation was found …`) belongs to it too.
      for (const note of record.advice) {
        for (const op of model.operations) {
          if (new RegExp(`(^|[^\\w.-])${escapeRegExp(op.operationId)}([^\\w-]|$)`).test(note)) notes.set(op, [...(notes.get(op) ?? []), `${record.id}: ${note}`]);
        }
      }
    } else owned.set(owner, [...(owned.get(owner) ?? []), reach]);
  }

  const operations = model.operations.map((op): OperationReach => {
    const counts = [...(seen.get(op) ?? new Map<number, number>())].sort(([a], [b]) => a - b);
    const opChecks = owned.get(op) ?? [];
    const { unseen, gaps } = unseenOf(op, counts, opChecks);
    return {
      operationId: op.operationId,
      method: op.method,
      path: op.path,
      tag: op.tags?.[0],
      deprecated: op.deprecated,
      documented: op.responses.map((response) => (response.status === 'DEFAULT' ? 'default' : response.status)),
      seen: counts,
      undocumented: counts.filter(([status]) => coveringKey(op, status) === undefined),
      unseen,
      gaps,
      checks: opChecks,
      notes: notes.get(op) ?? [],
    };
  });
  return { operations, apiWide, unmatched: [...unmatched].map(([key, counts]) => [key, [...counts].sort(([a], [b]) => a - b)]) };
}

/** A check's record as its operation's reach shows it. */
function checkReach(record: CheckRecord): CheckReach {
  if (record.state === 'skipped') return { id: record.id, state: 'skipped', reasons: [record.skipped ?? 'no reason given'], advice: record.advice };
  const limiting = record.advice.filter(isLimiting);
  if (record.state === 'passed' && limiting.length > 0) return { id: record.id, state: 'limited', reasons: limiting, advice: record.advice };
  return { id: record.id, state: record.state, reasons: [], advice: record.advice };
}

/** The response key of `op` that covers `status`: exact, its range (`4XX`), else `default` (OpenAPI's precedence). */
function coveringKey(op: OperationModel, status: number): string | undefined {
  const keys = op.responses.map((response) => response.status);
  return keys.find((key) => key === String(status)) ?? keys.find((key) => key === `${String(status)[0]}XX`) ?? keys.find((key) => key === 'DEFAULT');
}

/**
 * The documented statuses of `op` that `counts` lacks, each with the reason the run can give, and the operation's
 * gaps. A range is seen when a status it covers (and no exact key covers) was seen; `default` is never listed: it
 * names no status of its own.
 */
function unseenOf(op: OperationModel, counts: readonly [number, number][], checks: readonly CheckReach[]): { unseen: UnseenStatus[]; gaps: string[] } {
  const keysSeen = new Set(counts.map(([status]) => coveringKey(op, status)));
  const called = counts.length > 0;
  const successSeen = counts.some(([status]) => status >= 200 && status < 300);
  const documentsSuccess = op.responses.some((response) => /^2/.test(response.status));
  const skips = checks.filter((check) => check.state === 'skipped').flatMap((check) => check.reasons);
  // Every answer a 404 or another 4xx, under a path that names a record: the suite had no id the target holds.
  const noExistingId = called && !successSeen && op.pathParams.length > 0 && counts.every(([status]) => status >= 400 && status < 500) && counts.some(([status]) => status === 404);
  const gaps: string[] = [];
  if (!called) gaps.push(skips.length > 0 ? 'never called: its checks were not run' : 'never called');
  else if (documentsSuccess && !successSeen) {
    gaps.push(noExistingId ? 'never reached with an existing id' : skips.length > 0 ? 'no success seen: the checks that would reach it were not run' : `no success seen (only ${counts.map(([status]) => status).join(', ')})`);
  }
  const unseen = op.responses
    .map((response) => response.status)
    .filter((key) => key !== 'DEFAULT' && !keysSeen.has(key))
    .map((key): UnseenStatus => {
      const hundred = key[0];
      if (hundred === '5' || key === '429') return { status: key, reason: 'not provoked: a correct server does not send it to valid requests at this rate', expected: true };
      if (!called) return { status: key, reason: gaps[0]!, expected: false };
      if (hundred === '2' && gaps.length > 0) return { status: key, reason: gaps[0]!, expected: false };
      if ((key === '401' || key === '403') && op.security.length === 0) return { status: key, reason: 'the operation asks for no credentials, so none were sent wrong', expected: false };
      return { status: key, expected: false };
    });
  return { unseen, gaps };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether an operation's reach has nothing to show: every check passed in full, no gap, no unexpected status unseen. */
export function isFullyReached(operation: OperationReach): boolean {
  return (
    operation.gaps.length === 0 &&
    operation.checks.every((check) => check.state === 'passed') &&
    operation.unseen.every((status) => status.expected) &&
    operation.undocumented.length === 0 &&
    !operation.notes.some(isLimiting)
  );
}

/** `200×12 404×30`: statuses with their counts, in status order. */
export function statusCounts(counts: readonly (readonly [number, number])[]): string {
  return counts.map(([status, count]) => `${status}×${count}`).join(' ');
}

/** `4 passed, 1 failed, 1 not run, 1 limited`: the states of an operation's checks, the empty ones left out. */
export function checkCounts(checks: readonly CheckReach[]): string {
  const count = (state: CheckReach['state']): number => checks.filter((check) => check.state === state).length;
  const parts: [number, string][] = [[count('passed'), 'passed'], [count('failed'), 'failed'], [count('skipped'), 'not run'], [count('limited'), 'not fully tested']];
  const shown = parts.filter(([n]) => n > 0).map(([n, label]) => `${n} ${label}`);
  return shown.length === 0 ? 'no check of its own' : shown.join(', ');
}
