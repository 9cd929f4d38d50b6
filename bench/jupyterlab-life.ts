import type { SettingManager, Workspace, WorkspaceManager } from '@jupyterlab/services';
import { refusedWith, runSteps, same, type LifeStep, type StepOutcome } from './life-steps.js';

/**
 * A fixed life of a JupyterLab user's saved layouts and settings, driven through `@jupyterlab/services`'
 * `WorkspaceManager` and `SettingManager` at their defaults (the clients JupyterLab itself uses) as a list of steps run
 * in order against any server of JupyterLab Server's description (`jupyterlab_server/rest-api.yml`), each scored
 * apart: the empty list of workspaces, two workspaces saved (`PUT`, 204) and read back with every value written, the
 * list of both, one overwritten and read back, one deleted (204) and then refused (404) and gone from the list, a
 * user setting saved (`PUT {raw}`, 204) and read back as written, and the list of settings. Each step passes when the
 * answer is what the description says (the documented status, the values written read back as written) or, for a
 * refusal the description leaves out, what the real server answers. The clients throw a `ResponseError` on any
 * other status.
 *
 * The description has no filter and no paging on either list (`GET /lab/api/workspaces/` and `/lab/api/settings/`
 * take no parameter), and no action: those parts of a resource's life are absent here because the API has none.
 */

/** The clients one life drives, made per life for one server. */
export interface JupyterLabClients {
  workspaces: WorkspaceManager;
  settings: SettingManager;
}

/** One step of this life (bench/life-steps.ts). */
export type JupyterLabLifeStep = LifeStep<JupyterLabClients>;

/** A workspace as JupyterLab writes it: the layout of its main area and side bars, and the notebooks open in it. */
const ANALYSIS: Workspace.IWorkspace = {
  data: {
    'layout-restorer:data': { main: { dock: { type: 'tab-area', currentIndex: 0, widgets: ['notebook:analysis.ipynb'] } }, left: { collapsed: false, visible: true, widgets: ['filebrowser'] } },
    'notebook:analysis.ipynb': { data: { path: 'analysis.ipynb', factory: 'Notebook' } },
  },
  metadata: { id: 'analysis' },
};
const REVIEW: Workspace.IWorkspace = { data: { 'layout-restorer:data': { main: { dock: null }, left: { collapsed: true, visible: true, widgets: [] } } }, metadata: { id: 'review' } };
const ANALYSIS_LATER: Workspace.IWorkspace = { data: { ...ANALYSIS.data, 'file-browser-filebrowser:cwd': { path: 'results' } }, metadata: { id: 'analysis' } };

/** A plugin whose schema the server knows (JupyterLab's unicode extension, one string `comment`), and a user's raw settings for it (JSON5, with a comment). */
const PLUGIN = '@jupyterlab/unicode-extension:plugin';
const RAW = '{\n  // written by the settings editor\n  "comment": "Ελληνικά, 日本語"\n}';

/** The ids and the data of a workspace list, in the order given. */
const listed = (list: { ids: string[]; values: Workspace.IWorkspace[] }): unknown => [list.ids, list.values.map((one) => [one.metadata.id, one.data])];

/** The life, in order. */
export const JUPYTERLAB_LIFE: JupyterLabLifeStep[] = [
  { name: 'GET /lab/api/workspaces/: 200, no workspace yet', run: async (c) => same(listed(await c.workspaces.list()), [[], []]) },
  { name: 'PUT /lab/api/workspaces/analysis: 204', run: async (c) => c.workspaces.save('analysis', ANALYSIS) },
  { name: 'GET /lab/api/workspaces/analysis: the data and id as written', run: async (c) => {
    const read = await c.workspaces.fetch('analysis');
    same([read.metadata.id, read.data], ['analysis', ANALYSIS.data]);
  } },
  { name: 'PUT /lab/api/workspaces/review: 204', run: async (c) => c.workspaces.save('review', REVIEW) },
  { name: 'GET /lab/api/workspaces/review: the data as written (a null and an empty list kept)', run: async (c) => same((await c.workspaces.fetch('review')).data, REVIEW.data) },
  { name: 'GET /lab/api/workspaces/: both, ids beside values, each as written', run: async (c) => {
    const list = await c.workspaces.list();
    const order = list.ids.map((id) => ({ id, value: list.values[list.ids.indexOf(id)] }));
    same(order.map((one) => [one.id, one.value?.metadata.id, one.value?.data]).sort(), [['analysis', 'analysis', ANALYSIS.data], ['review', 'review', REVIEW.data]]);
  } },
  { name: 'PUT /lab/api/workspaces/analysis again: 204, the new data reads back', run: async (c) => {
    await c.workspaces.save('analysis', ANALYSIS_LATER);
    same((await c.workspaces.fetch('analysis')).data, ANALYSIS_LATER.data);
  } },
  { name: 'DELETE /lab/api/workspaces/review: 204', run: async (c) => c.workspaces.remove('review') },
  { name: 'DELETE /lab/api/workspaces/review again: 404', run: async (c) => same(await refusedWith(c.workspaces.remove('review')), 404) },
  { name: 'GET /lab/api/workspaces/: only the overwritten one is left', run: async (c) => same(listed(await c.workspaces.list()), [['analysis'], [['analysis', ANALYSIS_LATER.data]]]) },
  { name: 'DELETE a workspace never saved: 404', run: async (c) => same(await refusedWith(c.workspaces.remove('never-saved')), 404) },
  { name: 'PUT /lab/api/settings/<plugin> {raw}: 204', run: async (c) => c.settings.save(PLUGIN, RAW) },
  { name: 'GET /lab/api/settings/<plugin>: its id and the raw text as written', run: async (c) => {
    const read = await c.settings.fetch(PLUGIN);
    same([read.id, read.raw], [PLUGIN, RAW]);
  } },
  { name: 'GET /lab/api/settings/: a list that holds the plugin with the raw text as written', run: async (c) => {
    const list = await c.settings.list();
    const at = list.ids.indexOf(PLUGIN);
    same([at >= 0, list.values[at]?.raw], [true, RAW]);
  } },
];

/** The outcome of one step (bench/life-steps.ts). */
export type JupyterLabStepOutcome = StepOutcome;

/** Runs every step in order with `clients`, each scored apart: a failed step does not stop the life. */
export async function runJupyterLabLife(clients: JupyterLabClients): Promise<JupyterLabStepOutcome[]> {
  return runSteps(JUPYTERLAB_LIFE, clients);
}

/**
 * The two clients at their defaults for the server at `baseUrl` (its origin), with `token` sent as
 * `Authorization: token …` and the application's URL `/lab`: in a browser the clients read it from the page JupyterLab
 * serves (`PageConfig`'s `appUrl`), which a client outside a page does not have.
 */
export async function jupyterLabClients(baseUrl: string, token: string): Promise<JupyterLabClients> {
  const services = await import('@jupyterlab/services');
  const serverSettings = services.ServerConnection.makeSettings({ baseUrl, token, appUrl: '/lab' });
  return { workspaces: new services.WorkspaceManager({ serverSettings }), settings: new services.SettingManager({ serverSettings }) };
}
