// The mock's console (README › Console). Plain ES module, no build step, no dependency: it reads and changes the
// mock only through the admin API and the spec's own operations, so a script can do whatever it does. Every datum
// reaches the page through textContent (never innerHTML), and the page's CSP allows no inline script or style.


import { $, el, parseExact } from './dom.js';
import { loadExplain } from './explain.js';
import { loadHealth } from './health.js';
import { setupOperations } from './operations.js';
import { addRequests, loadRequests } from './requests.js';
import { loadPage, setupResources } from './resources.js';
import { admin, hooks, KEY, Refused, state, TOKEN } from './session.js';

const POLL_MS = 3000;

// ---------- sign in ----------

function showSignedIn(signedIn) {
  $('sign-in').hidden = signedIn;
  $('nav').hidden = !signedIn;
  $('session').hidden = !signedIn;
  for (const view of document.querySelectorAll('.view')) view.hidden = !signedIn || view.id !== `view-${state.view}`;
}

function signOut(message) {
  sessionStorage.removeItem(TOKEN);
  sessionStorage.removeItem(KEY);
  state.token = '';
  state.model = undefined;
  state.stream?.abort();
  state.stream = undefined;
  clearState();
  showSignedIn(false);
  $('spec-title').textContent = 'Sign in to see the mock';
  const error = $('sign-in-error');
  error.hidden = message === undefined;
  error.textContent = message ?? '';
  $('token').value = '';
  $('token').focus();
}

/** Drops whatever the page shows of the mock's state (on sign-out or a refused token). */
function clearState() {
  for (const id of ['filters', 'requests', 'operations', 'operation-fields', 'health', 'explain', 'resource', 'request-operation']) {
    const node = $(id);
    if (id === 'request-operation') node.replaceChildren(el('option', { value: '' }, 'All operations'));
    else node.replaceChildren();
  }
  $('records').tHead.replaceChildren();
  $('records').tBodies[0].replaceChildren();
  state.requests = [];
  state.lastPage = '';
  $('answer').hidden = true;
  $('requests-count').textContent = '';
}

async function signIn(token, key) {
  state.token = token;
  state.key = key;
  const text = await admin('/model');
  sessionStorage.setItem(TOKEN, token);
  sessionStorage.setItem(KEY, key);
  state.model = parseExact(text);
  $('spec-title').textContent = `${state.model.title} · ${state.model.version}`;
  document.title = `Console · ${state.model.title}`;
  showSignedIn(true);
  setupResources();
  setupOperations();
  await Promise.all([loadRequests(), loadHealth()]);
  openStream();
}

$('sign-in-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const token = $('token').value.trim();
  const key = $('api-key').value.trim();
  $('sign-in-error').hidden = true;
  signIn(token, key).catch((error) => {
    if (!(error instanceof Refused && error.status === 401)) signOut(`The mock did not answer: ${error.message}`);
  });
});
$('sign-out').addEventListener('click', () => signOut());
hooks.refused = signOut;

// ---------- tabs ----------

const TABS = ['resources', 'requests', 'operations', 'health', 'explain'];

function select(view, focus = false) {
  state.view = view;
  for (const name of TABS) {
    const tab = $(`tab-${name}`);
    tab.setAttribute('aria-selected', String(name === view));
    tab.tabIndex = name === view ? 0 : -1;
    $(`view-${name}`).hidden = name !== view;
  }
  if (focus) $(`tab-${view}`).focus();
  if (view === 'health') loadHealth().catch(() => {});
  if (view === 'explain') loadExplain().catch(() => {});
  if (view === 'resources') loadPage().catch(() => {});
}

for (const name of TABS) $(`tab-${name}`).addEventListener('click', () => select(name));
$('tabs').addEventListener('keydown', (event) => {
  const at = TABS.indexOf(state.view);
  const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: TABS.length - 1 }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  select(TABS[(to + TABS.length) % TABS.length], true);
});

// ---------- live: the journal's Server-Sent Events, read with fetch (an EventSource cannot send the token) ----------

let refreshTimer;
function refreshSoon() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => {
    loadPage(true).catch(() => {});
    if (state.view === 'health') loadHealth().catch(() => {});
  }, 100);
}

function onEvent(name, data) {
  if (name === 'requests') {
    const batch = parseExact(data);
    addRequests(batch.entries, batch.skipped);
    if (batch.entries.some((e) => !['GET', 'HEAD', 'OPTIONS'].includes(e.method) && e.status < 300)) refreshSoon();
  } else if (name === 'change') {
    refreshSoon();
    loadRequests().catch(() => {});
  }
}

async function openStream() {
  state.stream?.abort();
  const controller = new AbortController();
  state.stream = controller;
  const live = $('live');
  try {
    const response = await fetch('/__admin/requests/stream', { headers: { authorization: `Bearer ${state.token}` }, signal: controller.signal });
    if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
    live.textContent = 'live';
    live.classList.add('on');
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let name = 'message';
        const data = [];
        for (const line of block.split('\n')) {
          if (line.startsWith('event:')) name = line.slice(6).trim();
          else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
        }
        if (data.length > 0) onEvent(name, data.join('\n'));
      }
    }
  } catch {
    // The stream ended (the mock restarted, the network dropped): try again below while signed in.
  }
  live.textContent = 'reconnecting…';
  live.classList.remove('on');
  if (state.stream === controller && state.token !== '') setTimeout(() => state.stream === controller && openStream(), 1000);
}

// Another replica on the same Redis writes where this process cannot see: the visible page is re-read every 3 s.
// The store's state (a Redis going away and coming back) is re-read as often while the Health view is shown.
setInterval(() => {
  if (state.token === '' || document.visibilityState !== 'visible') return;
  if (state.view === 'resources' && !$('record-dialog').open) loadPage(true).catch(() => {});
  if (state.view === 'health') loadHealth().catch(() => {});
}, POLL_MS);

// ---------- start ----------

if (state.token !== '') {
  $('token').value = '';
  signIn(state.token, state.key).catch(() => {});
} else {
  showSignedIn(false);
  $('token').focus();
}
