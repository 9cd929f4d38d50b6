import { describe, expect, it } from 'vitest';
import { loadModel } from '../model/loader.js';
import { writeBoardsSpec } from '../test/boards-spec.js';
import { call } from '../test/in-process.js';
import { createMock } from './index.js';
import { keyedUnderParent } from './store/record-store.js';

/**
 * Keys unique under their parent only (spec/DECISIONS.md › D290), writes naming the members of an item's
 * sub-collection (D291, D294) and deletes that take what lived under the record along (D292), on the small spec of
 * test/boards-spec.ts: a card's tags are added, set, cleared and removed by name, each write answered with its tags.
 */
const written = writeBoardsSpec();
const model = await loadModel(written.file);
written.remove();
const mock = await createMock({ model, data: new Map() });
const JSON_TYPE = { 'content-type': 'application/json' };
const send = (method: string, url: string, body?: unknown): ReturnType<typeof call> => call(mock.handle, { method, url: `/api${url}`, ...(body === undefined ? {} : { headers: JSON_TYPE, body: JSON.stringify(body) }) });
const board = (title: string): number => (send('POST', '/boards', { title }).json as { id: number }).id;
const tagNames = (answer: ReturnType<typeof call>): string[] => (answer.json as { name: string }[]).map((tag) => tag.name).sort();

describe('keys unique under their parent (D290)', () => {
  it('holds the board tags and the card tags keyed under their parent, the boards not', () => {
    const keyed = model.resources.filter(keyedUnderParent).map((resource) => resource.collectionPath).sort();
    expect(keyed).toEqual(['/boards/{board_id}/cards/{card_id}/tags', '/boards/{board_id}/tags', '/spaces/{slug}/tags']);
    expect(model.resources.find((resource) => resource.collectionPath.endsWith('/notes'))?.parent?.resource).toBe(model.resources.find((resource) => resource.collectionPath === '/spaces/{slug}/tags')?.name);
  });

  it('a parent deleted takes what lived under it along (D292): made again under its key, it starts empty', () => {
    expect(send('POST', '/spaces', { slug: 'team' }).status).toBe(201);
    expect(send('POST', '/spaces/team/tags', { name: 'urgent', color: 'red' }).status).toBe(201);
    expect(send('POST', '/spaces/team/tags', { name: 'urgent' }).status).toBe(409);
    expect(send('DELETE', '/spaces/team').status).toBe(204);
    expect(send('GET', '/spaces/team/tags/urgent').status).toBe(404);
    expect(send('POST', '/spaces', { slug: 'team' }).status).toBe(201);
    expect(send('GET', '/spaces/team/tags').json).toEqual([]);
    expect(send('GET', '/spaces/team/tags/urgent').status).toBe(404);
    expect(send('POST', '/spaces/team/tags', { name: 'urgent' })).toMatchObject({ status: 201, json: { name: 'urgent', color: 'grey' } });
  });

  it('records under a record keyed under its parent live under that parent\'s record only, and go with it', () => {
    for (const slug of ['north', 'south']) {
      expect(send('POST', '/spaces', { slug }).status).toBe(201);
      expect(send('POST', `/spaces/${slug}/tags`, { name: 'urgent' }).status).toBe(201);
    }
    const note = send('POST', '/spaces/north/tags/urgent/notes', { text: 'Call back' });
    expect(note).toMatchObject({ status: 201, json: { text: 'Call back' } });
    const id = (note.json as { id: number }).id;
    expect(send('GET', `/spaces/north/tags/urgent/notes/${id}`)).toMatchObject({ status: 200, json: { id, text: 'Call back' } });
    expect(send('GET', '/spaces/north/tags/urgent/notes').json).toEqual([{ id, text: 'Call back' }]);
    expect(send('GET', '/spaces/south/tags/urgent/notes').json).toEqual([]);
    expect(send('GET', `/spaces/south/tags/urgent/notes/${id}`).status).toBe(404);
    expect(send('GET', '/spaces/north/tags/absent/notes').status).toBe(404);
    const notes = model.resources.find((resource) => resource.collectionPath.endsWith('/notes'))!;
    const before = mock.stores.sharedData.get(notes.name)!.size;
    expect(send('DELETE', '/spaces/north').status).toBe(204);
    expect(mock.stores.sharedData.get(notes.name)!.size).toBe(before - 1);
  });

  it('a card deleted with its board takes its tags along, and the tags of the board too', () => {
    const a = board('Gone');
    send('POST', `/boards/${a}/tags`, { name: 'urgent' });
    const card = (send('POST', `/boards/${a}/cards`, { text: 'Old' }).json as { id: number }).id;
    send('POST', `/boards/${a}/cards/${card}/tags`, { tags: ['urgent'] });
    const sizes = (): number[] => ['/boards/{board_id}/tags', '/boards/{board_id}/cards/{card_id}/tags', '/boards/{board_id}/cards'].map((path) => mock.stores.sharedData.get(model.resources.find((resource) => resource.collectionPath === path)!.name)!.size);
    const before = sizes();
    expect(before.every((size) => size > 0)).toBe(true);
    expect(send('DELETE', `/boards/${a}`).status).toBe(204);
    expect(sizes()).toEqual([before[0]! - 1, before[1]! - 1, before[2]! - 1]);
  });

  it('a tag name taken in one board is free in another, and once its board is deleted it blocks nothing', () => {
    const [a, b] = [board('A'), board('B')];
    expect(send('POST', `/boards/${a}/tags`, { name: 'urgent', color: 'red' })).toMatchObject({ status: 201, json: { name: 'urgent', color: 'red' } });
    expect(send('POST', `/boards/${b}/tags`, { name: 'urgent', color: 'blue' })).toMatchObject({ status: 201, json: { name: 'urgent', color: 'blue' } });
    // Under one board the name is still unique: the documented 409.
    expect(send('POST', `/boards/${a}/tags`, { name: 'urgent' }).status).toBe(409);
    expect(send('GET', `/boards/${a}/tags/urgent`)).toMatchObject({ status: 200, json: { name: 'urgent', color: 'red' } });
    expect(send('GET', `/boards/${b}/tags/urgent`)).toMatchObject({ status: 200, json: { name: 'urgent', color: 'blue' } });
    expect(send('GET', `/boards/${a}/tags`).json).toEqual([{ name: 'urgent', color: 'red' }]);
    expect(send('DELETE', `/boards/${a}/tags/urgent`).status).toBe(204);
    expect(send('GET', `/boards/${a}/tags/urgent`).status).toBe(404);
    expect(send('GET', `/boards/${b}/tags/urgent`).status).toBe(200);
    expect(send('DELETE', `/boards/${b}`).status).toBe(204);
    const c = board('C');
    expect(send('POST', `/boards/${c}/tags`, { name: 'urgent' })).toMatchObject({ status: 201, json: { name: 'urgent' } });
    expect(send('GET', `/boards/${b}/tags/urgent`).status).toBe(404);
  });
});

describe('writes naming the members of an item\'s sub-collection (D291)', () => {
  it('adds are answered with the card\'s tags after the add, which its list shows; another card\'s are its own', () => {
    const a = board('Work');
    const card = (send('POST', `/boards/${a}/cards`, { text: 'Ship it' }).json as { id: number }).id;
    const other = (send('POST', `/boards/${a}/cards`, { text: 'Later' }).json as { id: number }).id;
    const added = send('POST', `/boards/${a}/cards/${card}/tags`, { tags: ['urgent', 'backend'] });
    expect(added.status).toBe(200);
    expect(tagNames(added)).toEqual(['backend', 'urgent']);
    // Each member is a whole record of the item schema: its defaults filled.
    expect(added.json).toContainEqual({ name: 'urgent', color: 'grey' });
    expect(tagNames(send('POST', `/boards/${a}/cards/${card}/tags`, { tags: ['urgent', 'docs'] }))).toEqual(['backend', 'docs', 'urgent']);
    expect(tagNames(send('GET', `/boards/${a}/cards/${card}/tags`))).toEqual(['backend', 'docs', 'urgent']);
    expect(tagNames(send('POST', `/boards/${a}/cards/${other}/tags`, { tags: ['urgent'] }))).toEqual(['urgent']);
    expect(tagNames(send('GET', `/boards/${a}/cards/${other}/tags`))).toEqual(['urgent']);
    // A card that does not exist has no tags to add to.
    expect(send('POST', `/boards/${a}/cards/987654/tags`, { tags: ['urgent'] }).status).toBe(404);
  });

  it('a member the board holds already is added to a card as the board has it (D294)', () => {
    const a = board('Shop');
    expect(send('POST', `/boards/${a}/tags`, { name: 'urgent', color: 'red' }).status).toBe(201);
    const card = (send('POST', `/boards/${a}/cards`, { text: 'Restock' }).json as { id: number }).id;
    const added = send('POST', `/boards/${a}/cards/${card}/tags`, { tags: ['urgent', 'new'] });
    expect(added.json).toContainEqual({ name: 'urgent', color: 'red' });
    expect(added.json).toContainEqual({ name: 'new', color: 'grey' });
    // Another board's tag of that name is not this board's.
    const b = board('Other');
    const elsewhere = (send('POST', `/boards/${b}/cards`, { text: 'Elsewhere' }).json as { id: number }).id;
    expect(send('POST', `/boards/${b}/cards/${elsewhere}/tags`, { tags: ['urgent'] }).json).toEqual([{ name: 'urgent', color: 'grey' }]);
  });

  it('a set leaves exactly the members it names, a remove one, a clear none', () => {
    const a = board('Home');
    const card = (send('POST', `/boards/${a}/cards`, { text: 'Paint' }).json as { id: number }).id;
    send('POST', `/boards/${a}/cards/${card}/tags`, { tags: ['one', 'two', 'three'] });
    const set = send('PUT', `/boards/${a}/cards/${card}/tags`, { tags: ['two', 'four'] });
    expect([set.status, tagNames(set)]).toEqual([200, ['four', 'two']]);
    expect(tagNames(send('GET', `/boards/${a}/cards/${card}/tags`))).toEqual(['four', 'two']);
    // The remove documents the card's tags as its answer: those left (D293).
    const removed = send('DELETE', `/boards/${a}/cards/${card}/tags/four`);
    expect([removed.status, tagNames(removed)]).toEqual([200, ['two']]);
    expect(tagNames(send('GET', `/boards/${a}/cards/${card}/tags`))).toEqual(['two']);
    expect(send('DELETE', `/boards/${a}/cards/${card}/tags/four`).status).toBe(404);
    expect(send('DELETE', `/boards/${a}/cards/${card}/tags`).status).toBe(204);
    expect(send('GET', `/boards/${a}/cards/${card}/tags`).json).toEqual([]);
  });
});
