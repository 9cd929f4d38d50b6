// Building blocks of the console's page: DOM nodes from data (text only), exact JSON, form fields from schemas.

export const $ = (id) => document.getElementById(id);

/** An element with attributes and children (strings become text nodes). */
export function el(tag, attributes = {}, ...children) {
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
export class Exact {
  constructor(text) {
    this.text = text;
  }
  toString() {
    return this.text;
  }
}

export function parseExact(text) {
  return JSON.parse(text, (_key, value, context) => {
    if (typeof value === 'number' && context && typeof context.source === 'string' && /^-?\d+$/.test(context.source) && !Number.isSafeInteger(value)) return new Exact(context.source);
    return value;
  });
}

export function stringifyExact(value, indent = 0, depth = 0) {
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

export function pretty(text) {
  try {
    return stringifyExact(parseExact(text), 2);
  } catch {
    return text;
  }
}

export function cellText(value) {
  if (value === undefined) return '';
  if (value === null) return 'null';
  if (value instanceof Exact) return value.text;
  if (typeof value === 'object') return stringifyExact(value);
  return String(value);
}

// ---------- record form, generated from the record schema ----------

export function typeOf(schema) {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type) return type;
  if (schema.enum) return typeof schema.enum[0];
  if (schema.properties) return 'object';
  return 'json';
}

/** One labelled control per property; its value is read back as JSON text (numbers digit for digit). */
export function propertyField(name, schema, value, required, prefix) {
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
export function bodyOf(container) {
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

export function statusClass(status) {
  return status >= 500 ? 's5' : status >= 400 ? 's4' : status >= 300 ? 's3' : 's2';
}
