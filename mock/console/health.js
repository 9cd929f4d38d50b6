import { $, el, parseExact } from './dom.js';
import { admin } from './session.js';

// The Health view: the spec, the store and its state, the last reload, the undocumented statuses.

// ---------- health ----------

function card(title, ...content) {
  return el('section', { className: 'card' }, el('h2', {}, title), ...content);
}

function definitions(pairs) {
  return el('dl', {}, pairs.flatMap(([term, value]) => [el('dt', {}, term), el('dd', {}, value)]));
}

export async function loadHealth() {
  const health = parseExact(await admin('/health'));
  const store = health.store ?? {};
  const reload = health.lastReload;
  $('health').replaceChildren(
    card('Spec', definitions([['Title', health.title], ['Version', health.version], ['Base path', health.basePath]])),
    card('Store', definitions([
      ['Kind', store.store ?? 'memory'],
      ['State', el('span', { className: `pill ${store.status === 'ok' ? 'ok' : 'bad'}` }, store.state ?? store.status ?? 'unknown')],
      ...(store.where ? [['Where', store.where]] : []),
      ...(store.prefix ? [['Prefix', store.prefix]] : []),
      ...(store.detail ? [['Detail', store.detail]] : []),
    ])),
    card('Last spec reload', reload
      ? el('div', {}, definitions([['When', new Date(reload.time).toLocaleString()], ['Outcome', reload.ok ? `reloaded, ${reload.dropped} records dropped` : `kept the previous spec: ${reload.message}`]]), reload.changes.length > 0 ? el('ul', {}, reload.changes.map((c) => el('li', {}, c))) : el('p', { className: 'muted' }, 'No operation or property changed.'))
      : el('p', { className: 'muted' }, 'No reload since start (start the mock with --watch to reload on save).')),
    card('Undocumented statuses', health.undocumented.length === 0
      ? el('p', { className: 'muted' }, 'Every status the mock may answer is documented by the spec.')
      : el('ul', {}, health.undocumented.map((u) => el('li', {}, el('code', {}, u.operationId), ` may answer ${u.statuses.join(', ')}`)))),
    card('Journal', definitions([['Requests kept', `${health.journal.size} of ${health.journal.capacity}`]]), health.notes.length > 0 ? el('ul', { className: 'muted' }, health.notes.map((n) => el('li', {}, n))) : null),
  );
}

