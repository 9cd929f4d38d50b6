import type { ExplainedList, Explanation } from '../mock/explain.js';

/** The explanation as text for a terminal: one line per reading, its reason and decision at the end. */
export function renderExplanation(explanation: Explanation): string {
  const lines: string[] = [];
  const why = (line: { reason: string; decision: string }): string => `${line.reason} (${line.decision})`;
  lines.push(`${explanation.title || 'API'} ${explanation.version}${explanation.source === undefined ? '' : ` (${explanation.source})`}${explanation.overlays.length === 0 ? '' : `, with overlays ${explanation.overlays.join(', ')}`}`, '');
  lines.push(`Resources (${explanation.resources.length})`);
  for (const resource of explanation.resources) {
    lines.push(`  ${resource.name}: ${resource.collectionPath}${resource.itemPath === undefined ? '' : `, item ${resource.itemPath}`}`);
    for (const op of resource.operations) lines.push(`    ${op.part.padEnd(11)} ${op.operationId} (${op.method} ${op.path}): ${why(op)}`);
    lines.push(`    key         ${why(resource.key)}`);
    if (resource.parent !== undefined) lines.push(`    parent      ${resource.parent.resource} by {${resource.parent.parameter}}: ${why(resource.parent)}`);
    for (const list of resource.lists) lines.push(...listLines(list, '    '));
  }
  lines.push('', `Answered from the description's examples or samples (${explanation.answered.length})`);
  for (const op of explanation.answered) {
    lines.push(`  ${op.operationId} (${op.method} ${op.path}): ${op.status} from ${op.from === 'empty' ? 'no body' : op.from === 'deleted' ? 'the records it deletes' : `its ${op.from}`}, ${op.source}; no resource holds it: ${why(op)}`);
    if (op.list !== undefined) lines.push(...listLines(op.list, '    '));
  }
  lines.push('', 'Identity');
  for (const scheme of explanation.identity.schemes) lines.push(`  ${scheme.name} (${scheme.kind}, in ${scheme.carried}) for ${scheme.operations.length} operation${scheme.operations.length === 1 ? '' : 's'}: ${why(scheme)}`);
  if (explanation.identity.open.length > 0) lines.push(`  no credentials: ${explanation.identity.open.join(', ')}`);
  lines.push(`  credentials issued: ${explanation.identity.flows.issuers.length === 0 ? 'none' : explanation.identity.flows.issuers.join(', ')}: ${why(explanation.identity.flows)}`);
  if (explanation.checks !== undefined) {
    lines.push('', `What the suite checks (${explanation.checks.reduce((sum, group) => sum + group.checks.length, 0)} checks; the rule of each: --json)`);
    for (const group of explanation.checks) lines.push(`  ${group.operationId ?? '(the whole API)'}: ${group.checks.map((check) => check.id).join(', ')}`);
  }
  if (explanation.notes.length > 0) lines.push('', 'Notes', ...explanation.notes.map((note) => `  ${note}`));
  return `${lines.join('\n')}\n`;
}

function listLines(list: ExplainedList, indent: string): string[] {
  const lines = [`${indent}query of ${list.operationId}:`];
  for (const filter of list.applied) lines.push(`${indent}  filter  ${filter.parameter} → ${filter.property}: ${filter.reason} (${filter.decision})`);
  for (const filter of list.paging) lines.push(`${indent}  paging  ${filter.parameter}: ${filter.reason} (${filter.decision})`);
  for (const filter of list.ignored) lines.push(`${indent}  ignored ${filter.parameter}: ${filter.reason} (${filter.decision})`);
  return lines.length === 1 ? [] : lines;
}
