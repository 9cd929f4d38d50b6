/**
 * Edits of a stored record's JSON text at the record's own level, never inside its members: a client may send any
 * text in a nested member (a NUL, a member named like the mock's own), and what it sent must come back as sent.
 * The text is JSON as `JSON.stringify` writes it (no white space): one record (`{…}`) or a page of records (`[{…},…]`).
 */

/** What to edit in each record of a text: a member to drop, and a string member whose value loses its prefix up to a separator. */
export interface RecordTextEdit {
  /** A member the answer never shows (the mock's own link to a parent, D53), removed with its comma. */
  drop?: string;
  /** A string member whose value holds `prefix` + `separator` + own part (a key under its parent, D290): only the own part is kept. */
  scoped?: { member: string; separator: string };
}

/**
 * `json` with `edit` applied to the members of each record (depth 1 of a record's text, depth 2 of a page's), members
 * of nested objects left exactly as they were. Linear in the text's length; a text with nothing to edit comes back
 * unchanged (the same string).
 */
export function editRecordText(json: string, edit: RecordTextEdit): string {
  const recordDepth = json.startsWith('[') ? 2 : 1;
  const dropName = edit.drop === undefined ? undefined : JSON.stringify(edit.drop);
  const scopedName = edit.scoped === undefined ? undefined : JSON.stringify(edit.scoped.member);
  const separator = edit.scoped === undefined ? undefined : JSON.stringify(edit.scoped.separator).slice(1, -1);
  const parts: string[] = [];
  let copied = 0;
  let depth = 0;
  let i = 0;
  while (i < json.length) {
    const c = json[i]!;
    if (c === '{' || c === '[') {
      depth++;
      i++;
      continue;
    }
    if (c === '}' || c === ']') {
      depth--;
      i++;
      continue;
    }
    if (c !== '"') {
      i++;
      continue;
    }
    const end = stringEnd(json, i);
    const before = json[i - 1];
    const isName = depth === recordDepth && (before === '{' || before === ',') && json[end] === ':';
    if (!isName) {
      i = end;
      continue;
    }
    const name = json.slice(i, end);
    const valueStart = end + 1;
    const valueEnd = valueEndAt(json, valueStart);
    if (name === dropName) {
      // The member and one comma beside it: the one before it, else the one after it.
      const start = before === ',' ? i - 1 : i;
      const stop = before === ',' ? valueEnd : json[valueEnd] === ',' ? valueEnd + 1 : valueEnd;
      parts.push(json.slice(copied, start));
      copied = stop;
      i = valueEnd;
      continue;
    }
    if (name === scopedName && separator !== undefined && json[valueStart] === '"') {
      const at = escapedIndex(json, valueStart + 1, valueEnd - 1, separator);
      if (at !== -1) {
        parts.push(json.slice(copied, valueStart + 1));
        copied = at + separator.length;
      }
    }
    i = valueEnd;
  }
  if (copied === 0) return json;
  parts.push(json.slice(copied));
  return parts.join('');
}

/** The index just past the JSON string that opens at `start` (its closing quote included). */
function stringEnd(json: string, start: number): number {
  let i = start + 1;
  while (i < json.length) {
    const c = json[i]!;
    if (c === '\\') i += 2;
    else if (c === '"') return i + 1;
    else i++;
  }
  return json.length;
}

/** The index just past the JSON value that starts at `start` (a string, an object or array, or a scalar). */
function valueEndAt(json: string, start: number): number {
  const first = json[start];
  if (first === '"') return stringEnd(json, start);
  if (first === '{' || first === '[') {
    let depth = 0;
    let i = start;
    while (i < json.length) {
      const c = json[i]!;
      if (c === '"') {
        i = stringEnd(json, i);
        continue;
      }
      if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return json.length;
  }
  let i = start;
  while (i < json.length && json[i] !== ',' && json[i] !== '}' && json[i] !== ']') i++;
  return i;
}

/**
 * The index of the first `escaped` sequence (a JSON escape such as `\u0000`) in the string text from `from` to
 * `to` (between the quotes), read escape by escape so that an escaped backslash before `u0000` is never taken
 * for one; -1 when there is none.
 */
function escapedIndex(json: string, from: number, to: number, escaped: string): number {
  let i = from;
  while (i < to) {
    if (json.startsWith(escaped, i)) return i;
    i += json[i] === '\\' ? (json[i + 1] === 'u' ? 6 : 2) : 1;
  }
  return -1;
}
