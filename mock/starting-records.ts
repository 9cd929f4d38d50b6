import type { ApiModel, ResourceModel } from '../model/model.js';
import { DEMO_DATA_PATH, exampleRecordsOf, readDataFile, servedSampleOf, type StartingData } from './data.js';
import { SPEC_PATH } from './operations.js';
import type { RecordValue } from './store/record-store.js';

/**
 * The default starting data (README › Starting data, spec/DECISIONS.md › D55): for the shipped spec
 * (spec/openapi.yaml) the demo pets; for any other spec the records its own examples show ({@link ExampleData}),
 * or none. `note` says what was loaded, for the start-up log; it is a function because a spec's own records are
 * found resource by resource when first asked for (D640): calling it finds them all.
 */
export function demoData(api: ApiModel): { data: StartingData; note: () => string | undefined } {
  if (api.source === SPEC_PATH) {
    try {
      return { data: readDataFile(api, DEMO_DATA_PATH), note: () => undefined };
    } catch (error) {
      const note = `starting empty: the demo data does not fit this spec (${(error as Error).message})`;
      return { data: new Map(), note: () => note };
    }
  }
  const data = new ExampleData(api);
  return { data, note: () => data.note() };
}

/** What one resource's examples give: the records they show, else (none shown) the one record of its read's example id (D154). */
interface Found {
  shown: RecordValue[];
  served: RecordValue[] | undefined;
}

/**
 * The records a spec's own examples show, by resource name (D55, D154, D230), found for one resource when a store
 * first asks for that resource's records (spec/DECISIONS.md › D640). Finding them means checking each example
 * against its record schema, which compiles that schema's validator: on a description of a hundred resources with
 * examples that is most of a start, and the first request needs the records of one or two. What a resource's
 * records are depends on that resource alone ({@link exampleRecordsOf}, {@link servedSampleOf}), so the records are
 * the same whichever resource is asked first, and the same as when all are found at once.
 *
 * As a map it reads like the eager one it stands for: `get` and `has` find one resource; `size` and iteration find
 * every resource and list them in the eager order (resources whose examples show records, in the spec's order, then
 * those holding the one record of D154). Never throws.
 */
export class ExampleData implements ReadonlyMap<string, readonly RecordValue[]> {
  private readonly resources: ReadonlyMap<string, ResourceModel>;
  private readonly found = new Map<string, Found>();
  private whole: Map<string, RecordValue[]> | undefined;

  constructor(private readonly api: ApiModel) {
    this.resources = new Map(api.resources.map((resource) => [resource.name, resource]));
  }

  get(name: string): readonly RecordValue[] | undefined {
    const resource = this.resources.get(name);
    if (resource === undefined) return undefined;
    const found = this.of(resource);
    return found.shown.length > 0 ? found.shown : found.served;
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  get size(): number {
    return this.settled().size;
  }

  forEach(callback: (value: readonly RecordValue[], key: string, map: ReadonlyMap<string, readonly RecordValue[]>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.settled()) callback.call(thisArg, value, key, this);
  }

  entries(): MapIterator<[string, readonly RecordValue[]]> {
    return this.settled().entries();
  }

  keys(): MapIterator<string> {
    return this.settled().keys();
  }

  values(): MapIterator<readonly RecordValue[]> {
    return this.settled().values();
  }

  [Symbol.iterator](): MapIterator<[string, readonly RecordValue[]]> {
    return this.entries();
  }

  /**
   * Finds the records of the next resource not asked for yet, if any: one step of finding them all off the path of
   * a request (mock/cli.ts). Returns whether resources remain.
   */
  settleOne(): boolean {
    for (const resource of this.api.resources) {
      if (this.found.has(resource.name)) continue;
      this.of(resource);
      return this.found.size < this.resources.size;
    }
    return false;
  }

  /** The start-up log's line on what the examples gave (every resource found first). */
  note(): string {
    const counts: string[] = [];
    const served: string[] = [];
    for (const resource of this.api.resources) {
      const found = this.of(resource);
      if (found.shown.length > 0) counts.push(`${found.shown.length} ${resource.name}`);
      else if (found.served !== undefined) served.push(resource.name);
    }
    const samples = served.length === 0 ? '' : `; one record with the id its read's example shows, for each collection no request can add to: ${served.join(', ')}`;
    return counts.length === 0 ? `starting empty: no example of the spec is a whole record of a resource${samples}` : `starting with the records the spec's examples show: ${counts.join(', ')}${samples}`;
  }

  private of(resource: ResourceModel): Found {
    let found = this.found.get(resource.name);
    if (found === undefined) {
      const shown = exampleRecordsOf(resource);
      found = { shown, served: shown.length > 0 ? undefined : servedSampleOf(resource) };
      this.found.set(resource.name, found);
    }
    return found;
  }

  /** Every resource's records, as the eager map held them. */
  private settled(): Map<string, RecordValue[]> {
    if (this.whole === undefined) {
      const whole = new Map<string, RecordValue[]>();
      for (const resource of this.api.resources) {
        const found = this.of(resource);
        if (found.shown.length > 0) whole.set(resource.name, found.shown);
      }
      for (const resource of this.api.resources) {
        const found = this.of(resource);
        if (found.shown.length === 0 && found.served !== undefined) whole.set(resource.name, found.served);
      }
      this.whole = whole;
    }
    return this.whole;
  }
}

/**
 * Finds every resource's records of `starting` one resource per turn of the event loop, so that requests are
 * answered in between, then calls `done`; at once when `starting` is not an {@link ExampleData} (a `--data` file,
 * the demo pets) or holds nothing left to find.
 */
export function settleSoon(starting: StartingData, done: () => void): void {
  if (!(starting instanceof ExampleData)) {
    done();
    return;
  }
  const step = (): void => {
    if (starting.settleOne()) setImmediate(step);
    else done();
  };
  step();
}
