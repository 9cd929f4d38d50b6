import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { JSON_SCHEMA, load as loadYaml } from 'js-yaml';

/**
 * An overlay that cannot be applied: its message names the overlay file, the action (its index in `actions` and its
 * target) and the reason, `<file> › actions[2] (target "$.paths['/x'].get"): <reason>`. The commands exit 2 on it.
 */
export class OverlayError extends Error {
  override name = 'OverlayError';
}

/** What applying overlays left to say: actions whose target selected nothing (the OpenAPI Overlay says they change nothing). */
export interface OverlayOutcome {
  notes: string[];
}

/** Overlay versions read (OpenAPI Overlay 1.0 of 2024, 1.1 with `copy`, 1.2), any patch release. */
const VERSION = /^1\.[012]\.\d+$/;

/**
 * Applies the actions of each OpenAPI Overlay file in `files`, in order (files in the order given, actions in each
 * file's order), to `document`, and returns the document to read from then on (an update or copy at `$` yields a new
 * root; other actions change `document` in place). An action's `target` is a JSONPath (RFC 9535); `update` merges
 * into each node it selects (objects deeply, arrays appended, a scalar replaced), `remove: true` takes each node out,
 * and `copy` (Overlay 1.1) merges the one node its JSONPath selects into each target. The actions themselves run
 * in openapi-format's overlay engine (`openapiOverlay`, one action at a time so that each failure is its own).
 *
 * Overlays apply to the description as its author wrote it, before any `$ref` is followed, so that a target names
 * what the user reads in the file (a Swagger 2.0 description before its conversion, a multi-file one bundled into
 * one document). Errors: {@link OverlayError} for an overlay file that cannot be read or parsed, that is not an
 * Overlay document (no `overlay` version of 1.0 to 1.2, no `actions` list), or for an action that is malformed or
 * fails (a `copy` source selecting other than one node, an update whose type does not fit its target, a JSONPath
 * that does not parse). Loaded on first use: the engine costs about 0.1 s to import and most runs give no overlay.
 */
export async function applyOverlays(document: Record<string, unknown>, files: readonly string[]): Promise<{ document: Record<string, unknown>; outcome: OverlayOutcome }> {
  const { openapiOverlay } = await import('openapi-format');
  const notes: string[] = [];
  let root = document;
  for (const file of files) {
    const shown = display(file);
    const overlay = readOverlay(file, shown);
    for (const [index, action] of overlay.actions.entries()) {
      const where = `${shown} › actions[${index}]${isRecord(action) && typeof action['target'] === 'string' ? ` (target ${JSON.stringify(action['target'])})` : ''}`;
      const problem = malformed(action, overlay.version);
      if (problem !== undefined) throw new OverlayError(`${where}: ${problem}`);
      // The engine reports an action it could not apply on console.error and carries on; each is caught here and
      // becomes this action's error. The engine runs synchronously up to its promise, so nothing else writes meanwhile.
      const reported: string[] = [];
      const write = console.error;
      let pending: ReturnType<typeof openapiOverlay>;
      console.error = (...parts: unknown[]): void => void reported.push(parts.map(String).join(' '));
      try {
        // The engine knows 1.0 and 1.1; 1.2 changes none of the four actions' meaning, so it runs as 1.1.
        // `remove: false` is the Overlay's default; the engine takes only `true`.
        const given = { ...(action as { target: string; remove?: boolean }) };
        if (given.remove === false) delete given.remove;
        pending = openapiOverlay(root as never, { overlaySet: { overlay: overlay.version.startsWith('1.0') ? overlay.version : '1.1.0', actions: [given] } });
      } finally {
        console.error = write;
      }
      const result = await pending.catch((error: unknown) => {
        throw new OverlayError(`${where}: ${(error as Error).message}`);
      });
      if (reported.length > 0) throw new OverlayError(`${where}: ${reported[0]!.replace(/^Overlay action #\d+: /, '').replace(/\.$/, '')}`);
      root = result.data as unknown as Record<string, unknown>;
      const used = (result.resultData as { totalUsedActions?: number }).totalUsedActions ?? 0;
      if (used === 0) notes.push(`overlay ${where} selected nothing in the description: it changed nothing`);
    }
  }
  return { document: root, outcome: { notes } };
}

/** The overlay file parsed: its version and actions. Errors: {@link OverlayError} naming the file. */
function readOverlay(file: string, shown: string): { version: string; actions: unknown[] } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new OverlayError(`${shown}: cannot read the overlay (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let parsed: unknown;
  try {
    // YAML's JSON schema reads JSON too, and keeps `1.0` a string only when quoted: a bare number is read back below.
    parsed = loadYaml(text, { schema: JSON_SCHEMA, json: true });
  } catch (error) {
    throw new OverlayError(`${shown}: not YAML or JSON (${(error as Error).message.split('\n')[0]})`);
  }
  if (!isRecord(parsed)) throw new OverlayError(`${shown}: not an OpenAPI Overlay (an object with "overlay" and "actions" was expected)`);
  const version = typeof parsed['overlay'] === 'number' ? `${String(parsed['overlay'])}${Number.isInteger(parsed['overlay']) ? '.0.0' : '.0'}` : parsed['overlay'];
  if (typeof version !== 'string' || !VERSION.test(version)) {
    throw new OverlayError(`${shown}#/overlay: ${version === undefined ? 'missing: not an OpenAPI Overlay' : `version ${JSON.stringify(version)} is not supported`} (1.0.x, 1.1.x or 1.2.x expected)`);
  }
  if (!Array.isArray(parsed['actions'])) throw new OverlayError(`${shown}#/actions: must be a list of actions`);
  return { version, actions: parsed['actions'] as unknown[] };
}

/** Why an action cannot be applied as written (OpenAPI Overlay › Action Object), or `undefined` when it can. */
function malformed(action: unknown, version: string): string | undefined {
  if (!isRecord(action)) return 'an action must be an object';
  if (typeof action['target'] !== 'string' || !action['target'].startsWith('$')) return '"target" must be a JSONPath starting with "$"';
  const has = (key: string): boolean => Object.hasOwn(action, key);
  if (!has('update') && !has('remove') && !has('copy')) return 'an action needs "update", "remove" or "copy"';
  if (has('remove') && typeof action['remove'] !== 'boolean') return '"remove" must be true or false';
  if (has('copy')) {
    if (version.startsWith('1.0')) return '"copy" needs an overlay of version 1.1 or later (this one says 1.0)';
    if (typeof action['copy'] !== 'string' || !action['copy'].startsWith('$')) return '"copy" must be a JSONPath starting with "$"';
  }
  if (action['remove'] === true && action['target'] === '$') return 'the whole description cannot be removed';
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A file as the user knows it: relative to the working directory when below it, else absolute. */
function display(file: string): string {
  const rel = relative(process.cwd(), resolve(file));
  return rel === '' || rel.startsWith('..') ? resolve(file) : rel;
}
