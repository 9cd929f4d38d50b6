import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModel, PACKAGE_ROOT } from '../model/loader.js';
import { createMock, startupNotes, type Mock } from './index.js';
import { ExampleData, settleSoon } from './starting-records.js';

/**
 * A description's example records are found resource by resource when a store first needs them (spec/DECISIONS.md
 * › D640): nothing is found before the first request, and the records and the start-up note are the same whichever
 * resource is asked first, and the same as when every resource is found at once.
 */
const DESCRIPTIONS = [
  ...readdirSync(join(PACKAGE_ROOT, 'spec', 'wild'))
    .filter((name) => name.endsWith('.yaml'))
    .map((name) => join(PACKAGE_ROOT, 'spec', 'wild', name)),
  ...['example-records.openapi.yaml', 'catalogue.openapi.yaml', 'identity.openapi.yaml', 'numbered.openapi.yaml', 'list-item-fit.openapi.yaml', 'shop.openapi.json'].map((name) => join(PACKAGE_ROOT, 'mock', 'fixtures', name)),
];

/** Every store's records as JSON texts, by resource, in the spec's order of resources. */
function records(mock: Mock): Record<string, readonly string[]> {
  return Object.fromEntries(mock.model.resources.map((resource) => [resource.name, mock.stores.sharedData.get(resource.name)!.all()]));
}

describe('the records a description\'s examples show', () => {
  it('are found for no resource before a store is used, and for one resource when its store is', async () => {
    const model = await loadModel(join(PACKAGE_ROOT, 'mock', 'fixtures', 'example-records.openapi.yaml'));
    expect(model.resources.length).toBeGreaterThan(1);
    const mock = await createMock({ model });
    const starting = mock.stores.starting;
    expect(starting).toBeInstanceOf(ExampleData);
    const lazy = starting as ExampleData;
    // One store used: that resource's examples are looked at, no other's.
    expect(mock.stores.sharedData.get(model.resources[1]!.name)!.size).toBeGreaterThanOrEqual(0);
    let left = 0;
    while (lazy.settleOne()) left++;
    // settleOne looks at one resource per call and says whether any remain: the resources left were all but the one used.
    expect(left + 1).toBe(model.resources.length - 1);
  });

  it.each(DESCRIPTIONS)('%s: are the same whichever store is used first, and the same as all found at once', async (spec) => {
    const model = await loadModel(spec);
    const forward = await createMock({ model });
    const backward = await createMock({ model: await loadModel(spec) });
    // Found all at once, in the spec's order of resources (as the start-up note asks for them)...
    const forwardNotes = [...forward.summary];
    // ...and one store at a time, the last resource first.
    for (const resource of [...backward.model.resources].reverse()) backward.stores.sharedData.get(resource.name)!.all();
    expect(records(backward)).toEqual(records(forward));
    // The fixture made for this test starts with records in each of its resources, ids shared among them.
    if (spec.endsWith('example-records.openapi.yaml')) expect(Object.values(records(forward)).every((texts) => texts.length > 0)).toBe(true);
    expect(backward.summary).toEqual(forwardNotes);
    expect(backward.notes).toEqual(forward.notes);
  });

  it('are all found, one resource per turn of the event loop, before settleSoon calls back', async () => {
    const model = await loadModel(join(PACKAGE_ROOT, 'mock', 'fixtures', 'example-records.openapi.yaml'));
    const mock = await createMock({ model });
    const lazy = mock.stores.starting as ExampleData;
    expect(model.resources.length).toBeGreaterThan(1);
    let done = false;
    const finished = new Promise<void>((resolve) =>
      settleSoon(lazy, () => {
        done = true;
        resolve();
      }),
    );
    // The first resource is looked at at once, the next one on a later turn.
    expect(done).toBe(false);
    await finished;
    expect(lazy.settleOne()).toBe(false);
  });

  it('are named in start-up notes put together when first read, from the description the mock started with (D644)', async () => {
    const started = await loadModel(join(PACKAGE_ROOT, 'mock', 'fixtures', 'example-records.openapi.yaml'));
    const mock = await createMock({ model: started });
    // A reload before anyone read the notes: they still say what the start said.
    mock.reload(await loadModel(join(PACKAGE_ROOT, 'mock', 'fixtures', 'catalogue.openapi.yaml')));
    const expected = startupNotes(started);
    expect(mock.notes.slice(0, expected.length)).toEqual(expected);
    expect(mock.notes.at(-1)).toMatch(/^starting with the records the spec's examples show: 4 authors, 3 books, 1 reviews; one record .*: plans$/);
  });
});
