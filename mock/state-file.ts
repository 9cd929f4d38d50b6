import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { parse } from 'lossless-json';
import type { ApiModel } from '../model/model.js';
import { dataFromValue, type StartingData } from './data.js';
import type { Stores } from './isolation.js';
import { COMMANDS, LEGACY, STATE_FORMAT } from '../cli/product.js';

/** Marks the file as this mock's state, so that another JSON file given by mistake is refused. */
const FORMAT = STATE_FORMAT;
/** The same layout, written by the Pet Store harness. */
const FORMAT_2 = LEGACY.stateFormats.v2;
/** The format written before one collection per resource: `pets` is the first resource's records. */
const FORMAT_1 = LEGACY.stateFormats.v1;

/** What a state file holds: the shared data, and with `--isolate-by-key` each key's data by SHA-256 digest. */
export interface SavedState {
  data: StartingData;
  keys: Map<string, StartingData>;
}

/**
 * Reads a state file (README › State file):
 * `{"format":"openapi-harness-state/2","data":{"<resource>":[record…]},"keys":{"<sha256 of key>":{"<resource>":[record…]}}}`
 * (or `petstore-mock-state/2`, the same under its old name, or the older `petstore-mock-state/1`, whose `pets` and per-key arrays are the first resource's), every record validated
 * against its resource's schema as `--data` is. `undefined` when the file does not exist yet.
 * Errors: throws an `Error` naming the file and the bad entry (`state.json › pets: entry 2 is not a Pet: ...`).
 */
export function readStateFile(api: ApiModel, path: string): SavedState | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`${path}: cannot read the state file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let document: { format?: unknown; data?: unknown; pets?: unknown; keys?: unknown };
  try {
    document = parse(text) as typeof document;
  } catch (error) {
    throw new Error(`${path}: the state file is not valid JSON (${(error as Error).message})`);
  }
  if (document === null || typeof document !== 'object' || (document.format !== FORMAT && document.format !== FORMAT_2 && document.format !== FORMAT_1)) {
    throw new Error(`${path}: not a state file of this mock (expected "format": "${FORMAT}")`);
  }
  const keys = new Map<string, StartingData>();
  const entries = document.keys === undefined ? [] : Object.entries(document.keys as object);
  for (const [digest, data] of entries) keys.set(digest, dataFromValue(api, data, `${path} › keys › ${digest.slice(0, 12)}`));
  const data = document.format === FORMAT_1 ? dataFromValue(api, document.pets ?? [], `${path} › pets`) : dataFromValue(api, document.data ?? {}, path);
  return { data, keys };
}

/**
 * Keeps a state file in step with the stores. `changed()` is cheap (it arms one timer); the file is written
 * at most once every `debounceMs` (default 200 ms) and by `flush()`, which SIGINT/SIGTERM call. Each write
 * goes to a temporary file beside the target, is synced, then renamed over it: a reader or a crash never
 * sees half a file.
 */
export class StateFile {
  private timer: NodeJS.Timeout | undefined;
  private dirty = false;

  constructor(
    readonly path: string,
    /** The stores to write: a function, so that a spec reload (`--watch`) that rebuilds them is followed. */
    private readonly stores: () => Stores,
    private readonly debounceMs = 200,
    private readonly onError: (error: Error) => void = (error) => process.stderr.write(`${COMMANDS.mock}: ${error.message}\n`),
  ) {}

  /** Notes a change; the file is written within `debounceMs`. */
  changed(): void {
    this.dirty = true;
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      try {
        this.flush();
      } catch (error) {
        this.onError(error as Error);
      }
    }, this.debounceMs);
    this.timer.unref();
  }

  /** Writes the file now if anything changed since the last write. Errors: throws when the file cannot be written. */
  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.dirty) return;
    this.dirty = false;
    this.write();
  }

  /** Writes the whole state atomically (temporary file, fsync, rename). */
  write(): void {
    const keys: string[] = [];
    let shared = '{}';
    for (const [digest, data] of this.stores().all()) {
      const json = `{${[...data].map(([name, store]) => `${JSON.stringify(name)}:[${store.all().join(',')}]`).join(',')}}`;
      if (digest === '') shared = json;
      else keys.push(`${JSON.stringify(digest)}:${json}`);
    }
    const text = `{"format":"${FORMAT}","data":${shared},"keys":{${keys.join(',')}}}\n`;
    const temporary = `${this.path}.${process.pid}.tmp`;
    try {
      const fd = openSync(temporary, 'w');
      try {
        writeSync(fd, text);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, this.path);
    } catch (error) {
      throw new Error(`${this.path}: cannot write the state file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  }
}
