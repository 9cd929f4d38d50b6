import { describe, expect, it } from 'vitest';
import { parseExact } from '../../model/json.js';
import { loadModel } from '../../model/loader.js';
import { createMock } from '../../mock/index.js';
import { call } from '../in-process.js';
import { CORPUS, corpusSpec } from './corpus.js';

/**
 * What the console reads and does, on every corpus spec (README › Console): the model, a page of each resource,
 * records generated from its schema (each valid), one created, edited and deleted through the admin API, the
 * health view. The page itself is driven in Chromium on the seed's spec, a second resource and Redis.
 */

describe.each(CORPUS.map((c) => c.name))('the console’s endpoints on %s', (name) => {
  it('model, pages, generated records, one record edited and deleted, health', async () => {
    const model = await loadModel(corpusSpec(name));
    const mock = await createMock({ model, adminToken: 'corpus-admin' });
    const admin = (method: string, url: string, body?: string) => call(mock.handle, { method, url, headers: { authorization: 'Bearer corpus-admin' }, body });

    const described = admin('GET', '/__admin/model').json;
    expect(described.resources.map((r: { name: string }) => r.name)).toEqual(model.resources.map((r) => r.name));
    expect(described.operations).toHaveLength(model.operations.length);
    expect(admin('GET', '/__admin/health').json).toMatchObject({ title: model.title, version: model.version, store: { status: 'ok' } });

    for (const resource of model.resources) {
      const generated = admin('POST', `/__admin/${resource.name}/generate?count=20`);
      expect(generated.status, generated.body).toBe(201);
      expect(generated.json.created).toBe(20);
      const page = admin('GET', `/__admin/${resource.name}/page?limit=50`);
      expect(page.status).toBe(200);
      expect(page.json.total).toBeGreaterThanOrEqual(20);
      const records = (parseExact(page.body) as { ok: true; document: { value: { records: unknown[] }; view: { records: unknown[] } } }).document;
      for (const record of records.view.records) expect(resource.validateRecord(record), `${JSON.stringify(record)}: ${resource.validateRecord.errors()}`).toBe(true);

      // A generated record's fields, created again through the console's create (the id assigned by the store).
      const first = page.body.slice(page.body.indexOf('"records":[') + 11);
      const one = parseExact(first.slice(0, matchingBrace(first) + 1));
      expect(one.ok).toBe(true);
      const created = admin('POST', `/__admin/${resource.name}`, first.slice(0, matchingBrace(first) + 1));
      expect(created.status, created.body).toBe(201);
      const id = String((created.json as Record<string, unknown>)[resource.idProperty]);
      const edited = admin('PUT', `/__admin/${resource.name}/${encodeURIComponent(id)}`, created.body);
      expect(edited.status, edited.body).toBe(200);
      expect(admin('DELETE', `/__admin/${resource.name}/${encodeURIComponent(id)}`).status).toBe(204);
      expect(admin('GET', `/__admin/${resource.name}/${encodeURIComponent(id)}`).status).toBe(404);
    }
  });
});

/** Index of the `}` closing the object that opens a JSON text (strings skipped). */
function matchingBrace(text: string): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}
