import type { ResourceModel } from '../../model/model.js';
import { resourceWindow } from '../../model/time-window.js';
import type { ExactRecord } from './check.js';

/**
 * Whether `record`, read back after a delete, shows that the delete ended it rather than removed it
 * (spec/DECISIONS.md › D434, D440): its resource's records follow a time window whose ended phase says they outlive
 * their end (`expired`, `lapsed`), and the record's state (at the window's state path, `status.state` on
 * Alertmanager's silence) is that ended phase. `false` for any other resource, and for a record in another phase
 * (a delete that left it `active` removed nothing and ended nothing).
 */
export function endedByDelete(resource: ResourceModel, record: ExactRecord): boolean {
  const window = resourceWindow(resource);
  if (window === undefined || !window.outlives) return false;
  let value: unknown = record;
  for (const name of window.state) value = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[name] : undefined;
  return value === window.after;
}

/** The state `record` shows at its resource's window state path, as text for a message (`absent` when none). */
export function stateShown(resource: ResourceModel, record: ExactRecord): string {
  const window = resourceWindow(resource);
  if (window === undefined) return 'absent';
  let value: unknown = record;
  for (const name of window.state) value = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[name] : undefined;
  return value === undefined ? 'absent' : JSON.stringify(value);
}
