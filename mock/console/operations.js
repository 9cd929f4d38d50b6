import { $, el, pretty, propertyField, statusClass, stringifyExact, typeOf } from './dom.js';
import { state } from './session.js';

// The Operations view: each operation of the spec as a form, sent from the page as a client sends it.

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

/** Media types of streams the answer panel shows as they flow. */
const STREAM_TYPES = /^(?:text\/event-stream|application\/(?:jsonl|x-ndjson|x-jsonlines|jsonlines|json-seq))\b/i;

function operationItem(op, badges) {
  return el('li', {}, el('button', { type: 'button', className: 'operation', 'data-operation': op.operationId, onclick: () => showOperation(op) },
    el('span', { className: `method m-${op.method.toLowerCase()}` }, op.method),
    el('span', { className: 'path' }, op.path),
    el('span', { className: 'muted' }, op.operationId + (op.deprecated ? ' (deprecated)' : '') + (op.streams?.length ? ` · streams ${op.streams.join(', ')}` : '') + (badges.length ? ` · ${badges.join(', ')}` : ''))));
}

/**
 * The operations grouped by their tags (OpenAPI 3.2: a tag's `parent` nests it, `kind: nav` or no kind groups,
 * another kind such as `audience` or `badge` is shown beside the operation): each operation under its first
 * grouping tag, groups in the spec's order of tags, `Other` for the rest. Without tags, one flat list.
 */
function groupedOperations() {
  const tags = state.model.tags ?? [];
  const operations = state.model.operations;
  if (tags.length === 0 && !operations.some((op) => op.tags?.length)) return operations.map((op) => operationItem(op, []));
  const known = new Map(tags.map((tag) => [tag.name, tag]));
  const grouping = (name) => { const tag = known.get(name); return tag === undefined || tag.kind === undefined || tag.kind === 'nav'; };
  const badgesOf = (op) => (op.tags ?? []).filter((name) => !grouping(name)).map((name) => known.get(name)?.summary ?? name);
  const byGroup = new Map();
  for (const op of operations) {
    const group = (op.tags ?? []).find(grouping) ?? '';
    if (!byGroup.has(group)) byGroup.set(group, []);
    byGroup.get(group).push(op);
  }
  const children = (parent) => tags.filter((tag) => grouping(tag.name) && (tag.parent ?? '') === parent && tag.name !== parent);
  const render = (tag, depth) => {
    const inner = [...(byGroup.get(tag.name) ?? []).map((op) => operationItem(op, badgesOf(op))), ...children(tag.name).flatMap((child) => render(child, depth + 1))];
    if (inner.length === 0) return [];
    return [el('li', { className: 'operation-group' }, el('h3', { className: `group-title depth-${Math.min(depth, 3)}` }, tag.summary ?? tag.name), el('ul', { className: 'operation-list' }, ...inner))];
  };
  const top = children('');
  const listed = new Set(tags.map((tag) => tag.name));
  // Tags an operation names that the root's `tags` does not declare: groups of their own, after the declared ones.
  const undeclared = [...byGroup.keys()].filter((name) => name !== '' && !listed.has(name)).map((name) => ({ name }));
  const items = [...top, ...undeclared].flatMap((tag) => render(tag, 0));
  const rest = byGroup.get('') ?? [];
  if (rest.length > 0) items.push(el('li', { className: 'operation-group' }, el('h3', { className: 'group-title depth-0' }, 'Other'), el('ul', { className: 'operation-list' }, ...rest.map((op) => operationItem(op, badgesOf(op))))));
  return items;
}

export function setupOperations() {
  const list = $('operations');
  list.replaceChildren(...groupedOperations());
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
  const names = [...new Set(op.responses.flatMap((r) => r.examples ?? []))];
  $('prefer-examples').replaceChildren(...names.map((name) => el('option', { value: name })));
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
    $('answer-status').textContent = `${response.status} ${response.statusText}`;
    $('answer-status').className = `status ${statusClass(response.status)}`;
    $('answer-headers').textContent = [...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n');
    // A stream (Server-Sent Events, JSON Lines, JSON text sequences) is shown as it flows, piece by piece.
    if (STREAM_TYPES.test(response.headers.get('content-type') ?? '') && response.body) {
      $('answer').hidden = false;
      $('answer-body').textContent = '';
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let pieces = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        pieces += 1;
        $('answer-body').textContent += value.replace(/\u001e/g, '␞');
        $('answer-time').textContent = `${Math.round(performance.now() - started)} ms · ${op.method} ${url} · streaming, ${pieces} piece${pieces === 1 ? '' : 's'}`;
      }
      $('answer-time').textContent = `${Math.round(performance.now() - started)} ms · ${op.method} ${url} · stream ended after ${pieces} piece${pieces === 1 ? '' : 's'}`;
      return;
    }
    const text = await response.text();
    $('answer-time').textContent = `${Math.round(performance.now() - started)} ms · ${op.method} ${url}`;
    $('answer-body').textContent = text === '' ? '(no body)' : pretty(text);
  } catch (error) {
    $('answer-status').textContent = 'no answer';
    $('answer-body').textContent = String(error);
  } finally {
    $('send').disabled = false;
  }
  $('answer').hidden = false;
});

