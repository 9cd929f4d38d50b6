import { describe, expect, test } from 'vitest';
import type { ResourceModel } from '../model/model.js';
import { echoProblems, keptAsSent, mayBeLeftOut, recordHolds, shows } from './record-rules.js';

/** A resource with just what the echo rules read: its members, which of them it requires, and its id. */
function resource(properties: Record<string, object>, required: string[] = []): ResourceModel {
  return { name: 'issues', properties, required, idProperty: 'id', operations: {}, listShape: undefined } as unknown as ResourceModel;
}

describe('what an answer must echo of a write', () => {
  const issue = resource({ id: { type: 'integer' }, title: { type: 'string' }, type: { type: 'object', nullable: true, properties: { name: { type: 'string' } } }, labels: { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'object', properties: { name: { type: 'string' } } }] } }, assignees: { type: 'array', items: { type: 'string' } } }, ['id', 'title']);

  test('nothing sent (null, an empty list) for a member the record need not hold may come back left out (D260)', () => {
    expect(mayBeLeftOut(issue, 'type', null)).toBe(true);
    expect(mayBeLeftOut(issue, 'assignees', [])).toBe(true);
    expect(mayBeLeftOut(issue, 'assignees', ['octocat'])).toBe(false);
    expect(mayBeLeftOut(issue, 'title', null)).toBe(false);
    expect(echoProblems(issue, { title: 'a', type: null, assignees: [] }, { id: 1, title: 'a' })).toEqual([]);
    expect(echoProblems(issue, { title: 'a', assignees: ['octocat'] }, { id: 1, title: 'a' }).map((problem) => problem.name)).toEqual(['assignees']);
  });

  test('a value the description says the server changes is its own form; another is expected as sent (D269)', () => {
    const repository = resource({ id: { type: 'integer' }, name: { type: 'string', description: 'The name of the repository. Spaces are replaced with hyphens.' }, title: { type: 'string', description: 'The name of the repository.' } });
    expect(keptAsSent(repository, 'name', 'a b')).toBe(false);
    expect(keptAsSent(repository, 'title', 'a b')).toBe(true);
    expect(echoProblems(repository, { name: 'a b' }, { id: 1, name: 'a-b' })).toEqual([]);
  });

  test('a member that is a name or the object it names may come back in the other form (D261)', () => {
    expect(keptAsSent(issue, 'labels', ['bug'])).toBe(false);
    expect(echoProblems(issue, { title: 'a', labels: ['bug'] }, { id: 1, title: 'a', labels: [{ name: 'bug' }] })).toEqual([]);
    expect(keptAsSent(issue, 'assignees', ['octocat'])).toBe(true);
    expect(keptAsSent(issue, 'title', 'a')).toBe(true);
  });
});

describe('hexadecimal digits have no case (D495)', () => {
  const labels = resource({ id: { type: 'integer' }, color: { type: 'string', description: '6-character hex code, without the leading #, identifying the color' }, tint: { type: 'string', pattern: '^[0-9a-fA-F]{6}$' }, name: { type: 'string' } }, ['id']);

  test('a hex colour or a hex pattern may come back in the other case; other text, or a colour with a # added, may not', () => {
    expect(echoProblems(labels, { color: 'FFAA0B', tint: 'ABCDEF' }, { id: 1, color: 'ffaa0b', tint: 'abcdef' })).toEqual([]);
    expect(echoProblems(labels, { name: 'ABC' }, { id: 1, name: 'abc' }).map((problem) => problem.name)).toEqual(['name']);
    expect(echoProblems(labels, { color: 'ffaa0b' }, { id: 1, color: '#ffaa0b' }).map((problem) => problem.name)).toEqual(['color']);
  });
});

describe('nothing sent inside an object may come back left out (D722)', () => {
  const address = { type: 'object', required: ['country'], properties: { country: { type: 'string' }, locality: { type: 'string' }, post_office_box_number: { type: 'string', nullable: true }, lines: { type: 'array', items: { type: 'string' } } } };
  const accounts = resource({ id: { type: 'string' }, name: { type: 'string' }, address }, ['id']);

  test('a null or empty list sent for a member its object does not require may be answered absent; a required one, or a value, may not', () => {
    expect(shows({ country: 'AA', locality: '' }, { country: 'AA', locality: '', post_office_box_number: null, lines: [] }, address)).toBe(true);
    expect(echoProblems(accounts, { address: { country: 'AA', post_office_box_number: null } }, { id: '1', address: { country: 'AA' } })).toEqual([]);
    expect(shows({ locality: '' }, { country: null, locality: '' }, address)).toBe(false);
    expect(shows({ country: 'AA' }, { country: 'AA', locality: 'x' }, address)).toBe(false);
    expect(shows({ country: 'AA' }, { country: 'AA', lines: ['x'] }, address)).toBe(false);
  });
});

describe("a create's answer typed otherwise than the record (D721)", () => {
  const charges = resource({ id: { type: 'integer' }, approved: { type: 'boolean' }, message_id: { type: 'integer' }, note: { type: 'string' } }, ['id']);

  test('a value the record admits is its member; one it refuses (a receipt code 0 for a boolean) is not', () => {
    expect(recordHolds(charges, 'approved', true)).toBe(true);
    expect(recordHolds(charges, 'approved', 0)).toBe(false);
    expect(recordHolds(charges, 'message_id', 'string')).toBe(false);
    expect(recordHolds(charges, 'other', 'anything')).toBe(true);
  });
});

describe('a list sent with items of another type than the record holds (D727)', () => {
  const fields = resource({ id: { type: 'string' }, people: { type: 'array', items: { type: 'object', properties: { gid: { type: 'string' } } } }, tags: { type: 'array', items: { type: 'string' } }, scores: { type: 'array', items: { type: 'number' } } }, ['id']);

  test('ids sent where the record lists objects are the server to turn into its own items; a list of its own type is echoed', () => {
    expect(keptAsSent(fields, 'people', ['12345'])).toBe(false);
    expect(echoProblems(fields, { people: ['12345'] }, { id: '1' })).toEqual([]);
    expect(keptAsSent(fields, 'people', [{ gid: '12345' }])).toBe(true);
    expect(keptAsSent(fields, 'tags', ['a'])).toBe(true);
    expect(keptAsSent(fields, 'scores', [1, 2.5])).toBe(true);
    expect(echoProblems(fields, { tags: ['a'] }, { id: '1' }).map((problem) => problem.name)).toEqual(['tags']);
  });
});
