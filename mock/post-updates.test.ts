import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModel, PACKAGE_ROOT } from '../model/loader.js';
import { fixtureMock } from '../test/in-process.js';

/**
 * Updates by `POST` on an item path (spec/DECISIONS.md D150) and uploads that keep what their file part carries
 * (D151), served from mock/fixtures/post-updates.openapi.yaml.
 */
const FIXTURE = 'post-updates.openapi.yaml';
const { send, post, get } = await fixtureMock(FIXTURE);

/** A multipart/form-data body of text fields and one file part with its name and media type. */
function multipart(fields: Record<string, string>, file: { field: string; filename: string; type: string; content: Buffer }): { headers: Record<string, string>; body: Buffer } {
  const boundary = '----uploads-test-boundary';
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`), file.content, Buffer.from('\r\n'));
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body: Buffer.concat(chunks) };
}

describe('a POST on an item path whose body is a part of the record is an update (D150)', () => {
  it('the model: by the words of its id or summary with at least one of the record\'s members, or by all of its members being the record\'s; not with a 201 or other names', async () => {
    const model = await loadModel(join(PACKAGE_ROOT, 'mock', 'fixtures', FIXTURE));
    const role = (operationId: string): string | undefined => model.operations.find((op) => op.operationId === operationId)?.role;
    expect([role('modifyNote'), role('postTag'), role('updateBoardCopy'), role('updateJobLimits')]).toEqual(['update', 'update', undefined, undefined]);
  });

  it('is kept and read back; a member the record does not show is taken and not stored; other members stay', () => {
    const created = post('/notes', { title: 'Draft', body: 'first' });
    expect(created).toMatchObject({ status: 200, json: { title: 'Draft', body: 'first' } });
    const id = created.json.id as string;
    const updated = post(`/notes/${id}`, { title: 'Final', effort: 'high' });
    expect(updated).toMatchObject({ status: 200, json: { id, title: 'Final', body: 'first' } });
    expect(updated.json).not.toHaveProperty('effort');
    expect(get(`/notes/${id}`).json).toEqual(updated.json);
    expect(get('/notes').json.data).toEqual([updated.json]);
  });

  it('a null sent for a member whose schema admits null sets it to null (no merge-patch deletion)', () => {
    const id = post('/notes', { title: 'Draft', body: 'text' }).json.id as string;
    expect(post(`/notes/${id}`, { body: null })).toMatchObject({ status: 200, json: { id, title: 'Draft', body: null } });
    expect(get(`/notes/${id}`).json).toMatchObject({ body: null });
  });

  it('an update of an absent record is a 404, and a body outside its schema a 400, in the error shape', () => {
    expect(post('/notes/nope', { title: 'x' })).toMatchObject({ status: 404, json: { code: expect.any(String), message: expect.any(String) } });
    const id = post('/notes', { title: 'Draft' }).json.id as string;
    expect(post(`/notes/${id}`, { title: 3 })).toMatchObject({ status: 400, json: { code: expect.any(String) } });
    expect(get(`/notes/${id}`).json).toMatchObject({ title: 'Draft' });
  });

  it('a body of only the record\'s members updates without any word saying so', () => {
    const id = post('/tags', { label: 'red-ish', color: 'red' }).json.id as string;
    expect(post(`/tags/${id}`, { color: 'crimson' })).toMatchObject({ status: 200, json: { id, label: 'red-ish', color: 'crimson' } });
    expect(get(`/tags/${id}`).json).toEqual({ id, label: 'red-ish', color: 'crimson' });
  });
});

describe('a required member that admits null, left out of a create that could send it (D156)', () => {
  it('is null, not a made-up sample, and a later update sets it', () => {
    const created = post('/notes', { title: 'Untitled' });
    expect(created).toMatchObject({ status: 200, json: { title: 'Untitled', body: null } });
    expect(post(`/notes/${created.json.id as string}`, { body: 'now written' }).json).toMatchObject({ title: 'Untitled', body: 'now written' });
  });
});

describe('an upload keeps what its file part carries where the record names it (D151)', () => {
  it('file name, size in bytes and media type are the part\'s; a field the client sends is its own', () => {
    const content = Buffer.from('{"prompt":"a"}\n{"prompt":"b"}\n');
    const form = multipart({ purpose: 'batch' }, { field: 'file', filename: 'input.jsonl', type: 'application/jsonl', content });
    const created = send({ method: 'POST', url: '/api/uploads', headers: form.headers, body: form.body });
    expect(created).toMatchObject({ status: 200, json: { filename: 'input.jsonl', size: content.length, mime_type: 'application/jsonl', purpose: 'batch' } });
    expect(get(`/uploads/${created.json.id as string}`).json).toEqual(created.json);
    const named = multipart({ purpose: 'batch', filename: 'chosen.txt' }, { field: 'file', filename: 'x.bin', type: 'application/octet-stream', content: Buffer.alloc(3) });
    expect(send({ method: 'POST', url: '/api/uploads', headers: named.headers, body: named.body }).json).toMatchObject({ filename: 'chosen.txt', size: 3, mime_type: 'application/octet-stream' });
  });
});
