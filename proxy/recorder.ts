import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Exchange } from '../judge/verdict.js';
import { idText } from '../judge/exchange.js';
import { listedRecords } from '../judge/record-rules.js';
import { toHar } from '../judge/har.js';
import { exactJson, toView } from '../model/json.js';
import type { ApiModel, OperationModel } from '../model/model.js';
import { recordIn } from '../model/resources.js';
import { ADMIN_KEY_HEADER, COMMANDS, LEGACY } from '../cli/product.js';

/** The HAR file `--record DIR` writes. */
export const HAR_FILE = 'traffic.har';
/** The data file `--record DIR` writes: what `--data` reads (`{"<resource>": [records]}`). */
export const DATA_FILE = 'data.json';
/** Most exchanges kept in the HAR file: beyond, the oldest are dropped (a HAR stays loadable in devtools). */
const HAR_CAP = 10_000;
/** Request and response headers whose values never reach a recording (seed, Authentication: keys are secrets). */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', ADMIN_KEY_HEADER, LEGACY.adminKeyHeader]);
const REDACTED = '[redacted]';

/**
 * Records what passes through the proxy into a folder (README › Proxy › Record then replay):
 * - `traffic.har`: every exchange as HAR 1.2 (the suite's writer, conformance/report/har.ts), credentials
 *   redacted (secret headers, and API keys sent in the query), each entry commented with who answered and the
 *   violations found;
 * - `data.json`: the records seen in the upstream's valid answers (lists, reads, creates, replaces), by resource,
 *   the last seen per id, each valid against its resource's schema; a record the upstream deleted is dropped.
 * Files are rewritten at most every `flushMs` (default 500 ms) and by {@link Recorder.flush}, each by a rename
 * (a reader never sees half a file). Errors: the constructor throws when the folder cannot be created.
 */
export class Recorder {
  private readonly entries: { exchange: Exchange; comment?: string }[] = [];
  private readonly records = new Map<string, Map<string, unknown>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly dir: string,
    private readonly model: ApiModel,
    private readonly version: string,
    private readonly flushMs = 500,
  ) {
    mkdirSync(dir, { recursive: true });
    for (const resource of model.resources) this.records.set(resource.name, new Map());
  }

  /**
   * Adds one exchange. `body` is the response body read exactly when it was JSON and broke no schema rule
   * (`undefined` otherwise: nothing of it becomes data); `pathValues` the path parameters of `op`.
   */
  add(exchange: Exchange, comment: string, op: OperationModel | undefined, fromUpstream: boolean, body: unknown, pathValues: Record<string, string>): void {
    this.entries.push({ exchange: redact(exchange, this.model, op), comment });
    if (this.entries.length > HAR_CAP) this.entries.shift();
    if (fromUpstream && op?.resource !== undefined && exchange.response.status < 300) this.learn(op, body, pathValues);
    this.timer ??= setTimeout(() => this.flush(), this.flushMs);
  }

  private learn(op: OperationModel, body: unknown, pathValues: Record<string, string>): void {
    const resource = op.resource!;
    const held = this.records.get(resource.name)!;
    if (op.role === 'delete') {
      const id = resource.idParameter === undefined ? undefined : pathValues[resource.idParameter];
      if (id !== undefined) held.delete(id);
      return;
    }
    if (body === undefined) return;
    const candidates = op.role === 'list' ? listedRecords(resource, body) : op.role === 'read' || op.role === 'create' || op.role === 'replace' || op.role === 'update' ? [recordIn(body, op.answerEnvelope)] : [];
    for (const record of candidates) {
      if (record === null || typeof record !== 'object' || Array.isArray(record)) continue;
      const id = (record as Record<string, unknown>)[resource.idProperty];
      if (id === undefined || !resource.validateRecord(toView(record))) continue;
      held.set(idText(id), record);
    }
  }

  /** Writes both files now. */
  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const har = toHar(this.entries, '', this.version);
    har.log.creator.name = COMMANDS.proxy;
    writeAtomically(join(this.dir, HAR_FILE), `${JSON.stringify(har, null, 2)}\n`);
    const data = `{${[...this.records].map(([name, held]) => `${JSON.stringify(name)}:[${[...held.values()].map((record) => exactJson(record)).join(',')}]`).join(',')}}`;
    writeAtomically(join(this.dir, DATA_FILE), `${data}\n`);
  }
}

function writeAtomically(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

/** The exchange with its credentials replaced by `[redacted]`: secret headers, and API keys the spec reads from the query. */
function redact(exchange: Exchange, model: ApiModel, op: OperationModel | undefined): Exchange {
  const hide = (headers: Record<string, string>): Record<string, string> => Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, SECRET_HEADERS.has(name) ? REDACTED : value]));
  const schemes = (op === undefined ? model.operations.flatMap((candidate) => candidate.security) : op.security).filter((scheme) => scheme.kind === 'apiKey');
  const headerKeys = new Set(schemes.flatMap((scheme) => (scheme.kind === 'apiKey' && scheme.in === 'header' ? [scheme.parameter.toLowerCase()] : [])));
  const queryKeys = schemes.flatMap((scheme) => (scheme.kind === 'apiKey' && scheme.in === 'query' ? [scheme.parameter] : []));
  const requestHeaders = Object.fromEntries(Object.entries(hide(exchange.request.headers)).map(([name, value]) => [name, headerKeys.has(name) ? REDACTED : value]));
  let url = exchange.request.url;
  let path = exchange.request.path;
  if (queryKeys.length > 0) {
    const parsed = new URL(url);
    for (const name of queryKeys) if (parsed.searchParams.has(name)) parsed.searchParams.set(name, REDACTED);
    url = parsed.toString();
    path = `${parsed.pathname}${parsed.search}`;
  }
  return { ...exchange, request: { ...exchange.request, url, path, headers: requestHeaders }, response: { ...exchange.response, headers: hide(exchange.response.headers) } };
}
