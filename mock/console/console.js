// The mock's console (README › Console). Plain ES module, no build step, no dependency: it reads and changes the
// mock only through the admin API and the spec's own operations, so a script can do whatever it does. Every datum
// reaches the page through textContent (never innerHTML), and the page's CSP allows no inline script or style.

const TOKEN = 'petstore-console-token';
const KEY = 'petstore-console-key';
const POLL_MS = 3000;

const $ = (id) => document.getElementById(id);

/** An element with attributes and children (strings become text nodes). */
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'className') node.className = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) if (child !== undefined && child !== null) node.append(child instanceof Node ? child : String(child));
  return node;
}

// ---------- exact JSON: int64 values shown and sent digit for digit ----------

/** A number whose JSON literal a double cannot hold (an int64 beyond 2^53): kept as its text. */
class Exact {
  constructor(text) {
    this.text = text;
  }
  toString() {
    return this.text;
  }
}

function parseExact(text) {
  return JSON.parse(text, (_key, value, context) => {
    if (typeof value === 'number' && context && typeof context.source === 'string' && /^-?\d+$/.test(context.source) && !Number.isSafeInteger(value)) return new Exact(context.source);
    return value;
  });
}

function stringifyExact(value, indent = 0, depth = 0) {
  if (value instanceof Exact) return value.text;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((item) => stringifyExact(item, indent, depth + 1));
    return indent === 0 ? `[${items.join(',')}]` : `[\n${items.map((i) => ' '.repeat(indent * (depth + 1)) + i).join(',\n')}\n${' '.repeat(indent * depth)}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    const items = entries.map(([k, v]) => `${JSON.stringify(k)}:${indent === 0 ? '' : ' '}${stringifyExact(v, indent, depth + 1)}`);
    return indent === 0 ? `{${items.join(',')}}` : `{\n${items.map((i) => ' '.repeat(indent * (depth + 1)) + i).join(',\n')}\n${' '.repeat(indent * depth)}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function pretty(text) {
  try {
    return stringifyExact(parseExact(text), 2);
  } catch {
    return text;
  }
}

// ---------- the admin API ----------

const state = {
  token: sessionStorage.getItem(TOKEN) ?? '',
  key: sessionStorage.getItem(KEY) ?? '',
  model: undefined,
  resource: undefined,
  offset: 0,
  lastPage: '',
  requests: [],
  view: 'resources',
  stream: undefined,
  operation: undefined,
};

class Refused extends Error {
  constructor(status, body) {
    super(body && typeof body.message === 'string' ? body.message : `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

async function admin(path, init = {}) {
  // With --isolate-by-key the admin API acts on the data of the key named in X-Petstore-Key: the one typed at sign-in.
  const keyHeader = state.key === '' ? {} : { 'x-petstore-key': state.key };
  const response = await fetch(`/__admin${path}`, { ...init, headers: { authorization: `Bearer ${state.token}`, ...keyHeader, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers } });
  const text = await response.text();
  if (response.status === 401) {
    signOut('The admin token was refused. Sign in again.');
    throw new Refused(401, undefined);
  }
  if (!response.ok) {
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    throw new Refused(response.status, body);
  }
  return text;
}

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
  for (const id of ['filters', 'requests', 'operations', 'operation-fields', 'health', 'resource', 'request-operation']) {
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

// ---------- tabs ----------

const TABS = ['resources', 'requests', 'operations', 'health'];

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

// ---------- resources ----------

function currentResource() {
  return state.model?.resources.find((r) => r.name === state.resource);
}

function setupResources() {
  const choice = $('resource');
  choice.replaceChildren(...state.model.resources.map((r) => el('option', { value: r.name }, r.name)));
  state.resource = state.model.resources[0]?.name;
  $('new-record').disabled = state.resource === undefined;
  renderFilters();
  loadPage().catch(() => {});
}

$('resource').addEventListener('change', () => {
  state.resource = $('resource').value;
  state.offset = 0;
  renderFilters();
  loadPage().catch(() => {});
});
$('page-size').addEventListener('change', () => {
  state.offset = 0;
  loadPage().catch(() => {});
});

function renderFilters() {
  const resource = currentResource();
  const fields = (resource?.filters ?? []).map((filter) => {
    const id = `filter-${filter.parameter}`;
    const values = filter.values ?? (filter.schema.type === 'boolean' ? [true, false] : undefined);
    const input = values
      ? el('select', { id, 'data-filter': filter.parameter }, el('option', { value: '' }, 'any'), values.map((v) => el('option', { value: String(v) }, String(v))))
      : el('input', { id, 'data-filter': filter.parameter, placeholder: 'any', size: 10, spellcheck: 'false' });
    input.addEventListener('change', () => {
      state.offset = 0;
      loadPage().catch(() => {});
    });
    return el('div', { className: 'field' }, el('label', { for: id }, filter.parameter), input);
  });
  $('filters').replaceChildren(...fields);
}

function columnsOf(resource) {
  const properties = Object.keys(resource.recordSchema.properties ?? {});
  return [resource.idProperty, ...properties.filter((p) => p !== resource.idProperty)];
}

function cellText(value) {
  if (value === undefined) return '';
  if (value === null) return 'null';
  if (value instanceof Exact) return value.text;
  if (typeof value === 'object') return stringifyExact(value);
  return String(value);
}

/** Loads the page of records the filters and offset name; re-renders only when it changed (polling). */
async function loadPage(quiet = false) {
  const resource = currentResource();
  if (resource === undefined || state.token === '') return;
  const query = new URLSearchParams({ offset: String(state.offset), limit: $('page-size').value });
  for (const input of $('filters').querySelectorAll('[data-filter]')) if (input.value !== '') query.set(input.dataset.filter, input.value);
  let text;
  try {
    text = await admin(`/${encodeURIComponent(resource.name)}/page?${query}`);
  } catch (error) {
    if (!quiet && error instanceof Refused && error.status !== 401) message(error.message, true);
    return;
  }
  if (text === state.lastPage) return;
  state.lastPage = text;
  const page = parseExact(text);
  if (page.records.length === 0 && state.offset > 0 && page.total > 0) {
    state.offset = Math.max(0, Math.floor((page.total - 1) / page.limit) * page.limit);
    return loadPage(quiet);
  }
  renderRecords(resource, page);
}

function renderRecords(resource, page) {
  const columns = columnsOf(resource);
  const table = $('records');
  $('records-caption').textContent = `${resource.name}, newest first`;
  table.tHead.replaceChildren(el('tr', {}, columns.map((c) => el('th', { scope: 'col' }, c)), el('th', { scope: 'col' }, el('span', { className: 'visually-hidden' }, 'Actions'))));
  const rows = page.records.map((record) => {
    const id = cellText(record[resource.idProperty]);
    return el(
      'tr',
      { 'data-id': id },
      columns.map((c) => {
        const value = record[c];
        if (c === resource.idProperty) return el('th', { scope: 'row' }, cellText(value));
        if (value === undefined) return el('td', { className: 'absent' }, el('span', { 'aria-label': 'absent' }, '—'));
        return el('td', { className: typeof value === 'object' && value !== null && !(value instanceof Exact) ? 'json' : '' }, cellText(value));
      }),
      el(
        'td',
        { className: 'row-actions' },
        el('button', { type: 'button', className: 'small', 'aria-label': `Edit ${resource.singular} ${id}`, onclick: () => openRecordForm(resource, record) }, 'Edit'),
        el('button', { type: 'button', className: 'small danger', 'aria-label': `Delete ${resource.singular} ${id}`, onclick: () => deleteRecord(resource, id) }, 'Delete'),
      ),
    );
  });
  table.tBodies[0].replaceChildren(...rows);
  $('records-empty').hidden = rows.length > 0;
  const last = Math.min(page.offset + page.records.length, page.total);
  $('page-info').textContent = page.total === 0 ? '0 records' : `${page.offset + 1}–${last} of ${page.total}`;
  $('prev').disabled = page.offset === 0;
  $('next').disabled = last >= page.total;
}

$('prev').addEventListener('click', () => {
  state.offset = Math.max(0, state.offset - Number($('page-size').value));
  loadPage().catch(() => {});
});
$('next').addEventListener('click', () => {
  state.offset += Number($('page-size').value);
  loadPage().catch(() => {});
});

function message(text, isError = false) {
  const node = $('resource-message');
  node.textContent = text;
  node.classList.toggle('error', isError);
}

async function deleteRecord(resource, id) {
  if (!window.confirm(`Delete ${resource.singular} ${id}?`)) return;
  try {
    await admin(`/${encodeURIComponent(resource.name)}/${encodeURIComponent(id)}`, { method: 'DELETE' });
    message(`Deleted ${resource.singular} ${id}.`);
  } catch (error) {
    message(error.message, true);
  }
  await loadPage();
  $('new-record').focus();
}

$('fill').addEventListener('click', async () => {
  const resource = currentResource();
  const count = $('fill-count').value;
  try {
    const made = JSON.parse(await admin(`/${encodeURIComponent(resource.name)}/generate?count=${encodeURIComponent(count)}`, { method: 'POST' }));
    message(`Added ${made.created} generated ${resource.name}.`);
  } catch (error) {
    message(error.message, true);
  }
  await loadPage();
});

$('reset').addEventListener('click', async () => {
  if (!window.confirm('Reset every resource to its starting data?')) return;
  try {
    await admin('/reset', { method: 'POST' });
    message('Back to the starting data.');
  } catch (error) {
    message(error.message, true);
  }
  state.offset = 0;
  await loadPage();
});

$('export').addEventListener('click', async () => {
  try {
    const text = await admin('/data');
    const url = URL.createObjectURL(new Blob([pretty(text)], { type: 'application/json' }));
    const link = el('a', { href: url, download: `${state.model.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-data.json` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    message('Exported the data file (the format --data reads).');
  } catch (error) {
    message(error.message, true);
  }
});

$('import').addEventListener('change', async () => {
  const file = $('import').files?.[0];
  if (file === undefined) return;
  const text = await file.text();
  $('import').value = '';
  try {
    const array = text.trimStart().startsWith('[');
    const sizes = JSON.parse(await admin(array ? `/${encodeURIComponent(state.resource)}` : '/data', { method: 'PUT', body: text }));
    message(`Imported ${Object.entries(sizes).map(([name, n]) => `${n} ${name}`).join(', ')}.`);
  } catch (error) {
    message(error.message, true);
  }
  state.offset = 0;
  await loadPage();
});

// ---------- record form, generated from the record schema ----------

function typeOf(schema) {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type) return type;
  if (schema.enum) return typeof schema.enum[0];
  if (schema.properties) return 'object';
  return 'json';
}

/** One labelled control per property; its value is read back as JSON text (numbers digit for digit). */
function propertyField(name, schema, value, required, prefix) {
  const id = `${prefix}-${name}`;
  const type = typeOf(schema);
  const label = el('label', { for: id }, name, required ? el('span', { className: 'required', 'aria-hidden': 'true' }, ' *') : null, el('span', { className: 'type' }, ` ${schema.format ?? type}`));
  let input;
  if (Array.isArray(schema.enum) || type === 'boolean') {
    const values = schema.enum ?? [true, false];
    input = el('select', { id, name }, el('option', { value: '' }, required ? 'choose…' : '(none)'), values.map((v) => el('option', { value: JSON.stringify(v) }, String(v))));
    if (value !== undefined) input.value = JSON.stringify(value);
    input.dataset.kind = 'json';
  } else if (type === 'integer' || type === 'number') {
    input = el('input', { id, name, inputmode: 'numeric', spellcheck: 'false', value: value === undefined ? '' : cellText(value) });
    input.dataset.kind = 'number';
  } else if (type === 'string') {
    input = el('input', { id, name, spellcheck: 'false', value: value === undefined ? '' : value });
    input.dataset.kind = 'string';
  } else {
    input = el('textarea', { id, name, rows: 3, spellcheck: 'false' });
    input.value = value === undefined ? '' : stringifyExact(value, 2);
    input.dataset.kind = 'json';
  }
  if (required) input.setAttribute('aria-required', 'true');
  return el('div', { className: 'field' }, label, input);
}

/** The body text of a form: a number field's digits as they are (so int64 is exact), other text as JSON strings. */
function bodyOf(container) {
  const parts = [];
  for (const input of container.querySelectorAll('[name]')) {
    const raw = input.value;
    if (raw === '') continue;
    let json;
    if (input.dataset.kind === 'number') json = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(raw.trim()) ? raw.trim() : JSON.stringify(raw);
    else if (input.dataset.kind === 'string') json = JSON.stringify(raw);
    else json = raw;
    parts.push(`${JSON.stringify(input.name)}:${json}`);
  }
  return `{${parts.join(',')}}`;
}

function openRecordForm(resource, record) {
  const dialog = $('record-dialog');
  const editing = record !== undefined;
  $('record-title').textContent = editing ? `Edit ${resource.singular} ${cellText(record[resource.idProperty])}` : `New ${resource.singular}`;
  const schema = editing ? resource.recordSchema : (resource.createSchema ?? resource.recordSchema);
  const required = new Set(schema.required ?? []);
  const fields = Object.entries(schema.properties ?? {})
    .filter(([name, property]) => name !== resource.idProperty && !(property.readOnly && !editing))
    .map(([name, property]) => {
      const field = propertyField(name, property, record?.[name], required.has(name), 'record');
      if (property.readOnly) field.querySelector('[name]').disabled = true;
      return field;
    });
  $('record-fields').replaceChildren(...fields);
  $('record-error').hidden = true;
  dialog.dataset.id = editing ? cellText(record[resource.idProperty]) : '';
  dialog.showModal();
  dialog.querySelector('[name]:not([disabled])')?.focus();
}

$('new-record').addEventListener('click', () => {
  const resource = currentResource();
  if (resource) openRecordForm(resource);
});
$('record-cancel').addEventListener('click', () => $('record-dialog').close());
$('record-dialog').addEventListener('close', () => $('new-record').focus());
$('record-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const resource = currentResource();
  const id = $('record-dialog').dataset.id;
  const body = bodyOf($('record-fields'));
  try {
    const text = id === ''
      ? await admin(`/${encodeURIComponent(resource.name)}`, { method: 'POST', body })
      : await admin(`/${encodeURIComponent(resource.name)}/${encodeURIComponent(id)}`, { method: 'PUT', body });
    const saved = parseExact(text);
    $('record-dialog').close();
    message(`${id === '' ? 'Created' : 'Saved'} ${resource.singular} ${cellText(saved[resource.idProperty])}.`);
    if (id === '') state.offset = 0;
    await loadPage();
  } catch (error) {
    const node = $('record-error');
    node.textContent = error.body ? `${error.body.code}: ${error.message}` : error.message;
    node.hidden = false;
  }
});

// ---------- requests ----------

function statusClass(status) {
  return status >= 500 ? 's5' : status >= 400 ? 's4' : status >= 300 ? 's3' : 's2';
}

function requestMatches(entry) {
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

/** The details of a journal entry, built when first opened (a flood of requests only renders their summary lines). */
function requestDetails(entry, id) {
  return el('div', { className: 'details', id },
    entry.validation?.outcome === 'refused' ? el('p', { className: 'error' }, entry.validation.message) : null,
    el('h4', {}, 'Request'),
    el('pre', { className: 'code small' }, Object.entries(entry.headers).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : v}`).join('\n')),
    entry.body !== undefined ? el('pre', { className: 'code' }, pretty(entry.body) + (entry.bodyTruncated ? '\n… (cut)' : '')) : null,
    el('h4', {}, `Answer ${entry.status}`),
    el('pre', { className: 'code small' }, Object.entries(entry.response.headers).map(([k, v]) => `${k}: ${v}`).join('\n')),
    entry.response.body !== '' ? el('pre', { className: 'code' }, pretty(entry.response.body) + (entry.response.bodyTruncated ? '\n… (cut)' : '')) : null,
    el('h4', {}, 'Replay'),
    el('div', { className: 'curl' }, el('code', {}, entry.curl), el('button', { type: 'button', className: 'small', onclick: (event) => copy(entry.curl, event.currentTarget) }, 'Copy')),
  );
}

function requestItem(entry) {
  const detailsId = `request-${entry.seq}`;
  const summary = el('button', { type: 'button', className: 'request', 'aria-expanded': 'false', 'aria-controls': detailsId },
    el('span', { className: `status ${statusClass(entry.status)}` }, String(entry.status)),
    el('span', { className: 'method' }, entry.method),
    el('span', { className: 'path' }, entry.url),
    el('span', { className: 'operation' }, entry.operationId ?? '—'),
    el('span', { className: `validation ${entry.validation?.outcome ?? 'valid'}` }, validationText(entry.validation)),
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

function renderRequests() {
  const shown = state.requests.filter(requestMatches);
  $('requests').replaceChildren(...shown.map(requestItem));
  $('requests-empty').hidden = shown.length > 0;
  $('requests-count').textContent = state.requests.length === 0 ? '' : String(state.requests.length);
}

function addRequests(entries, skipped = 0) {
  const list = $('requests');
  // How many entries the stream delivered (and left out under a flood): shown on the list for tests and benchmarks.
  list.dataset.received = String(Number(list.dataset.received ?? 0) + entries.length);
  list.dataset.skipped = String(Number(list.dataset.skipped ?? 0) + skipped);
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

async function loadRequests() {
  state.requests = parseExact(await admin('/requests?limit=200'));
  renderRequests();
}

$('request-operation').addEventListener('change', renderRequests);
$('request-status').addEventListener('input', renderRequests);
$('clear-requests').addEventListener('click', async () => {
  await admin('/requests', { method: 'DELETE' });
  state.requests = [];
  renderRequests();
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
setInterval(() => {
  if (state.token !== '' && state.view === 'resources' && document.visibilityState === 'visible' && !$('record-dialog').open) loadPage(true).catch(() => {});
}, POLL_MS);

// ---------- operations ----------

function sampleOf(schema, depth = 0) {
  if (!schema || depth > 6) return null;
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const branch = schema.oneOf?.[0] ?? schema.anyOf?.[0];
  if (branch) return sampleOf(branch, depth + 1);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s) => sampleOf(s, depth + 1)));
  switch (typeOf(schema)) {
    case 'object': {
      const out = {};
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        if (property.readOnly) continue;
        out[name] = sampleOf(property, depth + 1);
      }
      return out;
    }
    case 'array':
      return [sampleOf(schema.items ?? {}, depth + 1)];
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1.5;
    case 'boolean':
      return true;
    case 'string':
      return schema.format === 'date-time' ? new Date().toISOString() : schema.format === 'date' ? new Date().toISOString().slice(0, 10) : schema.format === 'uuid' ? crypto.randomUUID() : 'example';
    default:
      return null;
  }
}

function setupOperations() {
  const list = $('operations');
  list.replaceChildren(
    ...state.model.operations.map((op) =>
      el('li', {}, el('button', { type: 'button', className: 'operation', 'data-operation': op.operationId, onclick: () => showOperation(op) },
        el('span', { className: `method m-${op.method.toLowerCase()}` }, op.method),
        el('span', { className: 'path' }, op.path),
        el('span', { className: 'muted' }, op.operationId + (op.deprecated ? ' (deprecated)' : '')))),
    ),
  );
  $('request-operation').replaceChildren(el('option', { value: '' }, 'All operations'), ...state.model.operations.map((op) => el('option', { value: op.operationId }, op.operationId)));
  $('operation-key').value = state.key;
  if (state.model.operations[0]) showOperation(state.model.operations[0], false);
}

function showOperation(op, focus = true) {
  state.operation = op;
  for (const button of $('operations').querySelectorAll('button')) button.setAttribute('aria-current', String(button.dataset.operation === op.operationId));
  $('operation-title').textContent = `${op.method} ${state.model.basePath}${op.path}`;
  $('operation-summary').textContent = `${op.operationId}${op.deprecated ? ` · deprecated${op.sunset ? `, removed on ${op.sunset}` : ''}` : ''}${op.resource ? ` · ${op.role} of ${op.resource}` : ''} · documented: ${op.responses.map((r) => r.status).join(', ')}`;
  const fields = op.parameters.map((p) => {
    const example = p.schema.example ?? p.schema.default ?? (p.in === 'path' ? firstId(op) : undefined);
    const field = propertyField(p.name, p.schema, p.in === 'path' || p.required ? example : undefined, p.required, `param-${p.in}`);
    field.querySelector('[name]').dataset.in = p.in;
    field.querySelector('label').append(el('span', { className: 'type' }, ` in ${p.in}`));
    return field;
  });
  if (op.body) {
    const example = op.body.example ?? sampleOf(op.body.schema);
    const area = el('textarea', { id: 'operation-body', rows: 8, spellcheck: 'false' });
    area.value = stringifyExact(example, 2);
    fields.push(el('div', { className: 'field' }, el('label', { for: 'operation-body' }, `Body (${op.body.mediaTypes[0]})`), area));
  }
  $('operation-fields').replaceChildren(...fields);
  const statuses = [...new Set(op.responses.map((r) => r.status).filter((s) => /^\d{3}$/.test(s)))];
  $('prefer-code').replaceChildren(el('option', { value: '' }, 'as the mock decides'), ...statuses.map((s) => el('option', { value: s }, s)));
  $('prefer-example').value = '';
  $('prefer-delay').value = '';
  $('operation-form').hidden = false;
  $('answer').hidden = true;
  if (focus) $('operation-fields').querySelector('input, select, textarea')?.focus();
}

/** An id from the records page shown, so that a read's form starts on a record that exists. */
function firstId(op) {
  const row = $('records').tBodies[0].rows[0];
  return op.resource === state.resource && row ? row.dataset.id : undefined;
}

$('operation-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const op = state.operation;
  let path = op.path;
  const query = new URLSearchParams();
  const headers = {};
  for (const input of $('operation-fields').querySelectorAll('[data-in]')) {
    if (input.value === '') continue;
    let value = input.value;
    if (input.tagName === 'SELECT') value = String(JSON.parse(value));
    if (input.dataset.in === 'path') path = path.replace(`{${input.name}}`, encodeURIComponent(value));
    else if (input.dataset.in === 'query') query.append(input.name, value);
    else if (input.dataset.in === 'header') headers[input.name] = value;
  }
  const key = $('operation-key').value;
  const scheme = op.security[0];
  if (key !== '' && scheme) {
    if (scheme.kind === 'apiKey' && scheme.in === 'header') headers[scheme.parameter] = key;
    else if (scheme.kind === 'apiKey' && scheme.in === 'query') query.set(scheme.parameter, key);
    else if (scheme.kind === 'basic') headers.authorization = `Basic ${btoa(`user:${key}`)}`;
    else if (scheme.kind !== 'apiKey') headers.authorization = `Bearer ${key}`;
  }
  const prefer = [];
  if ($('prefer-code').value !== '') prefer.push(`code=${$('prefer-code').value}`);
  if ($('prefer-example').value.trim() !== '') prefer.push(`example=${$('prefer-example').value.trim()}`);
  if ($('prefer-delay').value !== '') prefer.push(`delay=${$('prefer-delay').value}`);
  if (prefer.length > 0) headers.prefer = prefer.join(', ');
  const init = { method: op.method, headers };
  if (op.body && $('operation-body').value.trim() !== '') {
    headers['content-type'] = op.body.mediaTypes[0];
    init.body = $('operation-body').value;
  }
  const url = `${state.model.basePath}${path}${query.size > 0 ? `?${query}` : ''}`;
  const started = performance.now();
  $('send').disabled = true;
  try {
    const response = await fetch(url, init);
    const text = await response.text();
    $('answer-status').textContent = `${response.status} ${response.statusText}`;
    $('answer-status').className = `status ${statusClass(response.status)}`;
    $('answer-time').textContent = `${Math.round(performance.now() - started)} ms · ${op.method} ${url}`;
    $('answer-headers').textContent = [...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n');
    $('answer-body').textContent = text === '' ? '(no body)' : pretty(text);
  } catch (error) {
    $('answer-status').textContent = 'no answer';
    $('answer-body').textContent = String(error);
  } finally {
    $('send').disabled = false;
  }
  $('answer').hidden = false;
});

// ---------- health ----------

function card(title, ...content) {
  return el('section', { className: 'card' }, el('h2', {}, title), ...content);
}

function definitions(pairs) {
  return el('dl', {}, pairs.flatMap(([term, value]) => [el('dt', {}, term), el('dd', {}, value)]));
}

async function loadHealth() {
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

// ---------- start ----------

if (state.token !== '') {
  $('token').value = '';
  signIn(state.token, state.key).catch(() => {});
} else {
  showSignedIn(false);
  $('token').focus();
}
