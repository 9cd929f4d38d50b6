import { $, el } from './dom.js';
import { admin } from './session.js';

// The Explain view: what the mock and the suite read in the description, each reading with its reason and
// decision: the JSON of `GET /__admin/explain`, the same `openapi-harness explain --json` writes.

function card(title, ...content) {
  return el('section', { className: 'card' }, el('h2', {}, title), ...content);
}

function why(line) {
  return el('span', { className: 'muted' }, ` ${line.reason} (${line.decision})`);
}

function listOf(items, render) {
  return items.length === 0 ? el('p', { className: 'muted' }, 'None.') : el('ul', {}, items.map((item) => el('li', {}, render(item))));
}

function queryOf(list) {
  const rows = [
    ...list.applied.map((f) => ['filter', f]),
    ...list.paging.map((f) => ['paging', f]),
    ...list.ignored.map((f) => ['ignored', f]),
  ];
  if (rows.length === 0) return null;
  return el('div', {}, el('p', {}, 'Query of ', el('code', {}, list.operationId)), el('ul', {}, rows.map(([kind, f]) => el('li', {}, `${kind} `, el('code', {}, f.parameter), f.property ? ` → ${f.property}` : '', why(f)))));
}

export async function loadExplain() {
  const explanation = JSON.parse(await admin('/explain'));
  const checks = new Map((explanation.checks ?? []).map((group) => [group.operationId ?? '', group.checks]));
  const checkList = (operationId) => {
    const found = checks.get(operationId) ?? [];
    return found.length === 0 ? null : el('ul', { className: 'muted' }, found.map((check) => el('li', {}, el('code', {}, check.id), ` ${check.rule}`)));
  };
  $('explain').replaceChildren(
    card(`${explanation.title} ${explanation.version}`, el('p', { className: 'muted' }, explanation.overlays.length === 0 ? 'Read without overlays.' : `Read with the overlays ${explanation.overlays.join(', ')}.`)),
    ...explanation.resources.map((resource) =>
      card(`Resource ${resource.name}`,
        el('p', {}, el('code', {}, resource.collectionPath), resource.itemPath ? ', item ' : '', resource.itemPath ? el('code', {}, resource.itemPath) : ''),
        listOf(resource.operations, (op) => [el('strong', {}, op.part), ' ', el('code', {}, `${op.method} ${op.path}`), ` ${op.operationId}`, why(op), checkList(op.operationId)]),
        el('p', {}, el('strong', {}, 'Key '), why(resource.key)),
        resource.parent ? el('p', {}, el('strong', {}, 'Parent '), `${resource.parent.resource} by {${resource.parent.parameter}}`, why(resource.parent)) : null,
        ...resource.lists.map(queryOf),
      )),
    card(`Answered from the description (${explanation.answered.length})`,
      listOf(explanation.answered, (op) => [el('code', {}, `${op.method} ${op.path}`), ` ${op.operationId}: ${op.status} from ${op.from === 'empty' ? 'no body' : `its ${op.from}`}, ${op.source}; no resource holds it:`, why(op), op.list ? queryOf(op.list) : null, checkList(op.operationId)])),
    card('Identity',
      listOf(explanation.identity.schemes, (scheme) => [el('code', {}, scheme.name), ` (${scheme.kind}, in ${scheme.carried}) for ${scheme.operations.length} operations:`, why(scheme)]),
      explanation.identity.open.length > 0 ? el('p', {}, `No credentials: ${explanation.identity.open.join(', ')}`) : null,
      el('p', {}, 'Credentials issued: ', explanation.identity.flows.issuers.length === 0 ? 'none.' : explanation.identity.flows.issuers.join(', '), why(explanation.identity.flows))),
    card('Checks of the whole API', explanation.checks === undefined ? el('p', { className: 'muted' }, 'The suite\'s catalogue is not at hand in this process (run openapi-harness explain).') : checkList('') ?? el('p', { className: 'muted' }, 'None.')),
    explanation.notes.length > 0 ? card('Notes', el('ul', { className: 'muted' }, explanation.notes.map((note) => el('li', {}, note)))) : null,
  );
}
