import type { Contents, ContentsManager } from '@jupyterlab/services';
import { refusedWith, runSteps, same, type LifeStep, type StepOutcome } from './life-steps.js';

/**
 * A fixed life of a notebook user's files driven through `@jupyterlab/services`' `ContentsManager` at its defaults,
 * as a list of steps run in order against any server of Jupyter Server's description (`services/api/api.yaml`) and
 * scored one by one: the root directory, a directory made untitled and renamed, a text file and a notebook saved
 * and read back, a listing, an untitled file, a checkpoint made, listed, restored and deleted, a copy, a rename, a
 * delete, and refusals. Each step passes when the answer is what the description and Jupyter's contents
 * documentation say: the documented status, every value written read back as written, a missing path a 404. The
 * client throws a `ResponseError` on any other status, and checks every contents model it is given
 * (`validateContentsModel`), so a step also fails when the answer lacks a member the client needs.
 */

/** What the steps of one life learn and hand on, created per life. */
export interface JupyterLifeState {
  contents: ContentsManager;
  folder?: string;
  untitled?: string;
  checkpoint?: string;
  copy?: string;
}

/** One step of this life (bench/life-steps.ts). */
export type JupyterLifeStep = LifeStep<JupyterLifeState>;

/** A value an earlier step was to learn; throws when that step did not get it, so the dependent step fails with a reason. */
function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`no ${what} from an earlier step`);
  return value;
}

/** The names of a directory model's items, sorted (its `content` is the list of items, each without content). */
function names(model: Contents.IModel): string[] {
  const items: unknown = model.content;
  if (!Array.isArray(items)) throw new Error(`the directory's content is ${JSON.stringify(items)?.slice(0, 120)}, not a list`);
  return (items as Contents.IModel[]).map((item) => item.name).sort();
}

const NOTEBOOK = { cells: [{ cell_type: 'markdown', metadata: {}, source: '# Results' }], metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } }, nbformat: 4, nbformat_minor: 5 };

/** The life, in order. Paths are POSIX paths from the server's root, as the client takes them. */
export const JUPYTER_LIFE: JupyterLifeStep[] = [
  { name: 'GET /api/contents (the root, an empty path): 200, a directory with no items', run: async (s) => {
    const root = await s.contents.get('');
    same([root.type, root.path, names(root)], ['directory', '', []]);
  } },
  { name: 'POST /api/contents {type: directory}: 201, a new untitled directory at the root', run: async (s) => {
    const made = await s.contents.newUntitled({ path: '', type: 'directory' });
    s.folder = made.path;
    same([made.type, made.path === made.name, made.name.length > 0], ['directory', true, true]);
  } },
  { name: 'GET the new directory: 200, a directory with no items', run: async (s) => {
    const read = await s.contents.get(need(s.folder, 'directory'));
    same([read.type, read.path, names(read)], ['directory', s.folder, []]);
  } },
  { name: 'PATCH {path: work}: 200, the directory renamed', run: async (s) => {
    const renamed = await s.contents.rename(need(s.folder, 'directory'), 'work');
    same([renamed.type, renamed.name, renamed.path], ['directory', 'work', 'work']);
  } },
  { name: 'the old directory path is 404', run: async (s) => same(await refusedWith(s.contents.get(need(s.folder, 'directory'))), 404) },
  { name: 'PUT work/notes.txt (a text file): 201, its name, path and type', run: async (s) => {
    const saved = await s.contents.save('work/notes.txt', { type: 'file', format: 'text', content: 'first line\n' });
    same([saved.type, saved.name, saved.path], ['file', 'notes.txt', 'work/notes.txt']);
  } },
  { name: 'GET work/notes.txt: the text as written, format text', run: async (s) => {
    const read = await s.contents.get('work/notes.txt');
    same([read.type, read.name, read.format, read.content], ['file', 'notes.txt', 'text', 'first line\n']);
  } },
  { name: 'PUT work/analysis.ipynb (a notebook): 201, type notebook', run: async (s) => {
    const saved = await s.contents.save('work/analysis.ipynb', { type: 'notebook', format: 'json', content: NOTEBOOK });
    same([saved.type, saved.name, saved.path], ['notebook', 'analysis.ipynb', 'work/analysis.ipynb']);
  } },
  { name: 'GET work/analysis.ipynb: the cells and metadata as written', run: async (s) => {
    const read = await s.contents.get('work/analysis.ipynb');
    const notebook = read.content as typeof NOTEBOOK;
    same([read.type, read.format, notebook.nbformat, notebook.cells.map((cell) => [cell.cell_type, cell.source]), notebook.metadata.kernelspec.name], ['notebook', 'json', 4, [['markdown', '# Results']], 'python3']);
  } },
  { name: 'GET work: the directory lists the two files', run: async (s) => same(names(await s.contents.get('work')), ['analysis.ipynb', 'notes.txt']) },
  { name: 'GET work/notes.txt?content=0: the model without its content', run: async (s) => {
    const read = await s.contents.get('work/notes.txt', { content: false });
    same([read.name, read.content], ['notes.txt', null]);
  } },
  { name: 'POST /api/contents/work {type: file, ext: .txt}: 201, an untitled file in work', run: async (s) => {
    const made = await s.contents.newUntitled({ path: 'work', type: 'file', ext: '.txt' });
    s.untitled = made.path;
    same([made.type, made.path.startsWith('work/'), made.name.endsWith('.txt')], ['file', true, true]);
  } },
  { name: 'PUT work/notes.txt again: 200, the new text reads back', run: async (s) => {
    await s.contents.save('work/notes.txt', { type: 'file', format: 'text', content: 'second line\n' });
    same((await s.contents.get('work/notes.txt')).content, 'second line\n');
  } },
  { name: 'POST work/notes.txt/checkpoints: 201, a checkpoint with an id', run: async (s) => {
    const checkpoint = await s.contents.createCheckpoint('work/notes.txt');
    s.checkpoint = checkpoint.id;
    same([typeof checkpoint.id, typeof checkpoint.last_modified], ['string', 'string']);
  } },
  { name: 'GET work/notes.txt/checkpoints: that one checkpoint', run: async (s) => same((await s.contents.listCheckpoints('work/notes.txt')).map((one) => one.id), [need(s.checkpoint, 'checkpoint')]) },
  { name: 'PUT new text, then POST the checkpoint (restore): 204, the checkpointed text reads back', run: async (s) => {
    await s.contents.save('work/notes.txt', { type: 'file', format: 'text', content: 'a mistake\n' });
    same((await s.contents.get('work/notes.txt')).content, 'a mistake\n');
    await s.contents.restoreCheckpoint('work/notes.txt', need(s.checkpoint, 'checkpoint'));
    same((await s.contents.get('work/notes.txt')).content, 'second line\n');
  } },
  { name: 'DELETE the checkpoint: 204, and the list is empty', run: async (s) => {
    await s.contents.deleteCheckpoint('work/notes.txt', need(s.checkpoint, 'checkpoint'));
    same(await s.contents.listCheckpoints('work/notes.txt'), []);
  } },
  { name: 'POST /api/contents/work {copy_from}: 201, a copy with its own name and the same text', run: async (s) => {
    const copy = await s.contents.copy('work/notes.txt', 'work');
    s.copy = copy.path;
    same([copy.type, copy.path.startsWith('work/'), copy.path !== 'work/notes.txt'], ['file', true, true]);
    same((await s.contents.get(copy.path)).content, 'second line\n');
  } },
  { name: 'PATCH work/notes.txt {path: work/renamed.txt}: 200, the text reads back at the new path, the old is 404', run: async (s) => {
    const renamed = await s.contents.rename('work/notes.txt', 'work/renamed.txt');
    same([renamed.name, renamed.path], ['renamed.txt', 'work/renamed.txt']);
    same((await s.contents.get('work/renamed.txt')).content, 'second line\n');
    same(await refusedWith(s.contents.get('work/notes.txt')), 404);
  } },
  { name: 'DELETE the untitled file: 204, then it is 404', run: async (s) => {
    const untitled = need(s.untitled, 'untitled file');
    await s.contents.delete(untitled);
    same(await refusedWith(s.contents.get(untitled)), 404);
  } },
  { name: 'GET a file never written is 404', run: async (s) => same(await refusedWith(s.contents.get('work/never-written.txt')), 404) },
  { name: 'GET work: the notebook, the copy and the renamed file, nothing else', run: async (s) => {
    const copy = need(s.copy, 'copy');
    same(names(await s.contents.get('work')), ['analysis.ipynb', copy.slice('work/'.length), 'renamed.txt'].sort());
  } },
];

/** The outcome of one step (bench/life-steps.ts). */
export type JupyterStepOutcome = StepOutcome;

/** Runs every step in order against `contents`, each scored apart: a failed step does not stop the life. */
export async function runJupyterLife(contents: ContentsManager): Promise<JupyterStepOutcome[]> {
  return runSteps(JUPYTER_LIFE, { contents });
}
