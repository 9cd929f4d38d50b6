import { $, el, parseExact, pretty, statusClass } from './dom.js';
import { admin, state } from './session.js';

// The Requests view: the journal, newest first, filtered by operation and status; an entry opens to its details.

// ---------- requests ----------

function requestMatches(entry) {
  if ($('request-differences').checked && !(entry.shadow?.differences.length > 0)) return false;
  const operation = $('request-operation').value;
  const status = $('request-status').value.trim().toLowerCase();
  if (operation !== '' && entry.operationId !== operation) return false;
  if (status === '') return true;
  if (/^[1-5]xx$/.test(status)) return Math.floor(entry.status / 100) === Number(status[0]);
  return String(entry.status) === status;
}

function validationText(validation) {
  if (!validation || validation.outcome === 'valid') return 'valid';
  if (validation.outcome === 'unrouted') return `no operation (${validation.code})`;
  return `${validation.code}${validation.pointer !== undefined ? ` at ${validation.pointer === '' ? '(body)' : validation.pointer}` : ''}`;
}

/** What `proxy --shadow` found of an exchange, on its summary line: how many differences, or that the mock agrees. */
function shadowText(shadow) {
  const count = shadow.differences.length;
  return count === 0 ? 'shadow: agrees' : `shadow: ${count} difference${count === 1 ? '' : 's'}`;
}

/**
 * Through `proxy --shadow` (DECISIONS D473): each difference of the mock's answer from the backend's (kind, where,
 * what each side has), then the mock's answer in full; the backend's is the entry's own answer, shown below it.
 */
function shadowDetails(shadow) {
  return [
    el('h4', {}, shadow.differences.length === 0 ? 'Shadow: the mock answers as the backend does' : 'Shadow: where the mock differs from the backend'),
    shadow.differences.length === 0 ? null : el('table', { className: 'differences' },
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Difference'), el('th', { scope: 'col' }, 'At'), el('th', { scope: 'col' }, 'Backend'), el('th', { scope: 'col' }, 'Mock'))),
      el('tbody', {}, shadow.differences.map((difference) => el('tr', {},
        el('td', {}, difference.kind),
        el('td', {}, el('code', {}, difference.pointer === '' ? '(answer)' : difference.pointer)),
        el('td', {}, el('code', {}, difference.upstream)),
        el('td', {}, el('code', {}, difference.mock)),
      ))),
    ),
    el('h4', {}, `Mock answer ${shadow.status}`),
    shadow.body !== '' ? el('pre', { className: 'code' }, pretty(shadow.body)) : null,
  ];
}

/** The details of a journal entry, built when first opened (a flood of requests only renders their summary lines). */
function requestDetails(entry, id) {
  return el('div', { className: 'details', id },
    entry.validation?.outcome === 'refused' ? el('p', { className: 'error' }, entry.validation.message) : null,
    el('h4', {}, 'Request'),
    el('pre', { className: 'code small' }, Object.entries(entry.headers).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : v}`).join('\n')),
    entry.body !== undefined ? el('pre', { className: 'code' }, pretty(entry.body) + (entry.bodyTruncated ? '\n… (cut)' : '')) : null,
    entry.shadow !== undefined ? shadowDetails(entry.shadow) : null,
    el('h4', {}, entry.shadow !== undefined ? `Backend answer ${entry.status}` : `Answer ${entry.status}`),
    el('pre', { className: 'code small' }, Object.entries(entry.response.headers).map(([k, v]) => `${k}: ${v}`).join('\n')),
    entry.response.body !== '' ? el('pre', { className: 'code' }, pretty(entry.response.body) + (entry.response.bodyTruncated ? '\n… (cut)' : '')) : null,
    el('h4', {}, 'Replay'),
    el('div', { className: 'curl' }, el('code', {}, entry.curl), el('button', { type: 'button', className: 'small', onclick: (event) => copy(entry.curl, event.currentTarget) }, 'Copy')),
  );
}

function requestItem(entry) {
  const detailsId = `request-${entry.seq}`;
  const summary = el('button', { type: 'button', className: entry.shadow !== undefined ? 'request shadowed' : 'request', 'aria-expanded': 'false', 'aria-controls': detailsId },
    el('span', { className: `status ${statusClass(entry.status)}` }, String(entry.status)),
    el('span', { className: 'method' }, entry.method),
    el('span', { className: 'path' }, entry.url),
    el('span', { className: 'operation' }, entry.operationId ?? '—'),
    el('span', { className: `validation ${entry.validation?.outcome ?? 'valid'}` }, validationText(entry.validation)),
    entry.shadow !== undefined ? el('span', { className: `shadow ${entry.shadow.differences.length === 0 ? 'agrees' : 'differs'}` }, shadowText(entry.shadow)) : null,
    el('span', { className: 'muted' }, `${entry.durationMs} ms`),
    el('time', { className: 'muted', datetime: entry.time }, new Date(entry.time).toLocaleTimeString()),
  );
  const item = el('li', { 'data-seq': entry.seq }, summary);
  let details;
  summary.addEventListener('click', () => {
    const open = summary.getAttribute('aria-expanded') === 'true';
    summary.setAttribute('aria-expanded', String(!open));
    if (details === undefined) {
      details = requestDetails(entry, detailsId);
      item.append(details);
    }
    details.hidden = open;
  });
  return item;
}

async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = 'Copied';
  } catch {
    button.textContent = 'Select and copy';
  }
  setTimeout(() => (button.textContent = 'Copy'), 1500);
}

/** The shadow filter is offered once an entry carries what `proxy --shadow` found (a plain mock never shows it). */
function offerShadowFilter(entries) {
  if (entries.some((entry) => entry.shadow !== undefined)) $('request-differences-field').hidden = false;
}

export function renderRequests() {
  offerShadowFilter(state.requests);
  const shown = state.requests.filter(requestMatches);
  $('requests').replaceChildren(...shown.map(requestItem));
  $('requests-empty').hidden = shown.length > 0;
  $('requests-count').textContent = state.requests.length === 0 ? '' : String(state.requests.length);
}

export function addRequests(entries, skipped = 0) {
  const list = $('requests');
  // How many entries the stream delivered (and left out under a flood): shown on the list for tests and benchmarks.
  list.dataset.received = String(Number(list.dataset.received ?? 0) + entries.length);
  list.dataset.skipped = String(Number(list.dataset.skipped ?? 0) + skipped);
  offerShadowFilter(entries);
  for (const entry of entries) {
    if (state.requests.some((known) => known.seq === entry.seq)) continue;
    state.requests.unshift(entry);
    if (requestMatches(entry)) list.prepend(requestItem(entry));
  }
  state.requests.length = Math.min(state.requests.length, 200);
  while (list.children.length > 200) list.lastElementChild.remove();
  $('requests-empty').hidden = list.children.length > 0;
  $('requests-count').textContent = String(state.requests.length);
}

export async function loadRequests() {
  state.requests = parseExact(await admin('/requests?limit=200'));
  renderRequests();
}

$('request-operation').addEventListener('change', renderRequests);
$('request-status').addEventListener('input', renderRequests);
$('request-differences').addEventListener('change', renderRequests);
$('clear-requests').addEventListener('click', async () => {
  await admin('/requests', { method: 'DELETE' });
  state.requests = [];
  renderRequests();
});

