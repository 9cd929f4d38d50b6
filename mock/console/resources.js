import { $, el, Exact, bodyOf, cellText, parseExact, pretty, propertyField } from './dom.js';
import { admin, Refused, state } from './session.js';

// The Resources view: a resource's records as the mock lists them, its form, fill, reset, import and export.

// ---------- resources ----------

function currentResource() {
  return state.model?.resources.find((r) => r.name === state.resource);
}

export function setupResources() {
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

/** Loads the page of records the filters and offset name; re-renders only when it changed (polling). */
export async function loadPage(quiet = false) {
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

