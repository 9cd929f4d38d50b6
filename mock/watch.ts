import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { loadModel } from '../model/loader.js';
import type { Mock } from './index.js';

/** What a spec watcher reports: a reload done (with its changes) or refused (with why the old spec is kept). */
export type WatchEvent = { ok: true; changes: string[]; dropped: number } | { ok: false; message: string };

/**
 * Reloads the spec into `mock` whenever its file changes (`--watch`, README › Watching the spec): changes are
 * debounced (`debounceMs`, default 150 ms, as editors write a file in several steps), the new spec is loaded
 * and compiled, and on success `mock.reload` serves it, keeping every record still valid; when the new spec
 * cannot be loaded, the previous one keeps being served and `onEvent` says why. The folder is watched, not
 * the file, so that an editor's write-and-rename is seen. `overlays` are applied on every reload as at the start. Returns a function that stops watching.
 */
export function watchSpec(specPath: string, mock: Pick<Mock, 'reload'>, onEvent: (event: WatchEvent) => void, debounceMs = 150, overlays: readonly string[] = []): () => void {
  let timer: NodeJS.Timeout | undefined;
  let loading = Promise.resolve();
  const name = basename(specPath);
  const reload = (): void => {
    loading = loading.then(async () => {
      try {
        const model = await loadModel(specPath, { overlays });
        onEvent({ ok: true, ...mock.reload(model) });
      } catch (error) {
        onEvent({ ok: false, message: (error as Error).message });
      }
    });
  };
  const watcher: FSWatcher = watch(dirname(specPath), (_event, file) => {
    if (file !== null && file !== name) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(reload, debounceMs);
  });
  watcher.unref();
  return () => {
    if (timer !== undefined) clearTimeout(timer);
    watcher.close();
  };
}
