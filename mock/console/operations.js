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

export function setupOperations() {
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

