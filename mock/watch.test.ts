import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadModel } from '../model/loader.js';
import { call } from '../test/in-process.js';
import { createMock } from './index.js';
import { watchSpec, type WatchEvent } from './watch.js';

/** `--watch` (README › Watching the spec): a changed spec is served at once, records that still fit kept. */
const dir = mkdtempSync(join(tmpdir(), 'petstore-watch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The next event the watcher reports, or a failure after `ms`. */
function nextEvent(events: WatchEvent[], ms = 5_000): Promise<WatchEvent> {
  const start = events.length;
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + ms;
    const poll = setInterval(() => {
      if (events.length > start) {
        clearInterval(poll);
        resolve(events[start]!);
      } else if (Date.now() > deadline) {
        clearInterval(poll);
        reject(new Error('no reload event'));
      }
    }, 20);
  });
}

describe('watchSpec', () => {
  it('reloads a valid edit (a new property, a removed resource), keeps the valid records, and keeps serving on an invalid edit', async () => {
    const path = join(dir, 'shop.json');
    copyFileSync(join(import.meta.dirname, 'fixtures', 'shop.openapi.json'), path);
    const mock = await createMock({ model: await loadModel(path), apiKeys: ['k'] });
    const post = (url: string, body: string) => call(mock.handle, { method: 'POST', url, headers: { 'x-api-key': 'k', 'content-type': 'application/json' }, body });
    post('/v2/toys', '{"label":"kept","color":"red"}');
    post('/v2/toys', '{"label":"kept too"}');
    const owner = post('/v2/owners', '{"name":"Ann"}').json as { id: string };
    const events: WatchEvent[] = [];
    const stop = watchSpec(path, mock, (event) => events.push(event), 50);
    try {
      // A valid edit: Toy gains a required `size`, so only toys that have one would stay; owners lose their paths.
      const spec = JSON.parse(readFileSync(path, 'utf8')) as { paths: Record<string, unknown>; components: { schemas: Record<string, { properties: Record<string, unknown>; required: string[] }> } };
      spec.components.schemas['Toy']!.properties['size'] = { type: 'integer', default: 1 };
      delete spec.paths['/owners'];
      delete spec.paths['/owners/{ownerId}'];
      writeFileSync(path, JSON.stringify(spec));
      const reloaded = await nextEvent(events);
      expect(reloaded.ok).toBe(true);
      if (!reloaded.ok) return;
      expect(reloaded.changes).toEqual(expect.arrayContaining(['toys: property added: size', 'resource removed: owners (/owners)', 'operation removed: GET /owners (listOwners)']));
      expect(reloaded.dropped).toBe(1);
      expect(call(mock.handle, { url: '/v2/toys' }).json.map((toy: { label: string }) => toy.label)).toEqual(['kept too', 'kept']);
      expect(call(mock.handle, { url: `/v2/owners/${owner.id}`, headers: { 'x-api-key': 'k' } }).status).toBe(404);
      expect(post('/v2/toys', '{"label":"new"}').json).toEqual({ id: 3, label: 'new', size: 1 });

      // An invalid edit: the previous spec keeps being served, and the event says why.
      writeFileSync(path, '{"openapi":"3.1.0","paths":');
      const refused = await nextEvent(events);
      expect(refused.ok).toBe(false);
      expect(call(mock.handle, { url: '/v2/toys' }).json).toHaveLength(3);
    } finally {
      stop();
    }
  });
});
