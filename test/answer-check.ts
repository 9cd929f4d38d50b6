import type { MockResponse } from '../mock/index.js';
import { parseExact } from '../model/json.js';
import { mediaKind } from '../model/media.js';
import type { OperationModel, ResponseModel } from '../model/model.js';

/** The documented response a status falls under (exact, then its range, then `default`). */
export function documentedFor(op: OperationModel, status: number): ResponseModel | undefined {
  const find = (name: string) => op.responses.find((r) => r.status === name);
  return find(String(status)) ?? find(`${String(status)[0]}XX`) ?? find('DEFAULT');
}

/** Why an answer breaks its documented response, or `undefined` when it keeps it (or the status is undocumented: statuses.ts logs those). */
export function answerProblem(op: OperationModel | undefined, response: MockResponse): string | undefined {
  if (op === undefined) return undefined;
  // An undocumented error is held to the operation's first documented error, as the suite holds it (D39).
  const documented = documentedFor(op, response.status) ?? (response.status >= 400 ? op.responses.find((r) => /^[45]|^DEFAULT$/.test(r.status) && r.contents.length > 0) : undefined);
  if (documented === undefined) return undefined;
  // Every header the response declares required is sent (its value checked where the schema is a string's).
  for (const header of documented.headers) {
    const value = response.headers[header.name.toLowerCase()];
    if (header.required && value === undefined) return `${response.status}: the required header ${header.name} is missing`;
  }
  if (documented.contents.length === 0) return undefined;
  const hasBody = response.body !== '' || response.bytes !== undefined;
  if (!hasBody) return undefined;
  const type = (response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  // A documented range (`*/*`, `image/*`) admits any type within it.
  const within = (range: string): boolean => {
    const [t = '', sub = ''] = range.split(';')[0]!.trim().toLowerCase().split('/');
    const [sentType = '', sentSub = ''] = type.split('/');
    return (t === '*' || t === sentType) && (sub === '*' || sub === sentSub);
  };
  const content = documented.contents.find((c) => c.mediaType.toLowerCase() === type) ?? documented.contents.find((c) => within(c.mediaType));
  if (content === undefined) return `${response.status} sent as ${type || '(none)'}, documented: ${documented.contents.map((c) => c.mediaType).join(', ')}`;
  const kind = mediaKind(content.mediaType);
  if (kind === 'binary') return response.bytes !== undefined && response.bytes.length > 0 ? undefined : `${response.status} ${type}: no bytes`;
  if (content.validate === undefined || kind === 'xml') return undefined;
  let value: unknown = response.body;
  if (kind === 'json') {
    const parsed = parseExact(response.body);
    if (!parsed.ok) return `${response.status} ${type}: not JSON: ${response.body.slice(0, 80)}`;
    value = parsed.document.view;
  }
  return content.validate(value) ? undefined : `${response.status} ${type}: ${content.validate.errors()} in ${response.body.slice(0, 300)}`;
}

