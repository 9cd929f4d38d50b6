import type { ExchangeViolation } from '../judge/verdict.js';

/** `GET /__admin/violations`: the total, and counts by operation then rule, and by rule alone. */
export interface ViolationSummary {
  total: number;
  /** Exchanges judged since the start or the last `DELETE /__admin/violations`. */
  exchanges: number;
  byOperation: Record<string, Record<string, number>>;
  byRule: Record<string, number>;
}

/** Counts of the violations the proxy saw, by operation and rule (README › Proxy). */
export class ViolationCounts {
  private total = 0;
  private exchanges = 0;
  private readonly counts = new Map<string, Map<string, number>>();

  /** Counts the violations of one exchange (an empty list counts the exchange only). */
  add(violations: readonly ExchangeViolation[]): void {
    this.exchanges += 1;
    for (const violation of violations) {
      this.total += 1;
      let rules = this.counts.get(violation.operationId);
      if (rules === undefined) this.counts.set(violation.operationId, (rules = new Map()));
      rules.set(violation.rule, (rules.get(violation.rule) ?? 0) + 1);
    }
  }

  /** Forgets every count. */
  clear(): void {
    this.total = 0;
    this.exchanges = 0;
    this.counts.clear();
  }

  toJSON(): ViolationSummary {
    const byRule: Record<string, number> = {};
    const byOperation: Record<string, Record<string, number>> = {};
    for (const [operationId, rules] of this.counts) {
      byOperation[operationId] = Object.fromEntries(rules);
      for (const [rule, count] of rules) byRule[rule] = (byRule[rule] ?? 0) + count;
    }
    return { total: this.total, exchanges: this.exchanges, byOperation, byRule };
  }
}
