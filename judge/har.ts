import { readFileSync } from 'node:fs';
import type { ApiModel } from '../model/model.js';
import { pathBelowBase, type TrafficExchange } from './traffic.js';
import type { Exchange } from './verdict.js';
import { COMMANDS, KEY_PLACEHOLDER } from '../cli/product.js';

/** The subset of HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) the suite writes. */
export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    entries: HarEntry[];
  };
}

interface HarEntry {
  startedDateTime: string;
  time: number;
  comment?: string;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    headers: { name: string; value: string }[];
    queryString: { name: string; value: string }[];
    cookies: [];
    headersSize: -1;
    bodySize: number;
    postData?: { mimeType: string; text: string };
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    headers: { name: string; value: string }[];
    cookies: [];
    content: { size: number; mimeType: string; text: string };
    redirectURL: '';
    headersSize: -1;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
}

/**
 * A HAR 1.2 log of `exchanges` (each with an optional comment, e.g. the check it failed), for browser devtools
 * or any HAR viewer. The target's own key is written as `$OPENAPI_HARNESS_API_KEY`, as in the curl lines.
 */
export function toHar(exchanges: readonly { exchange: Exchange; comment?: string }[], apiKey: string, creatorVersion: string): Har {
  const mask = (value: string): string => (apiKey === '' ? value : value.replaceAll(apiKey, KEY_PLACEHOLDER));
  const entries = exchanges.map(({ exchange, comment }): HarEntry => {
    const { request, response, timing } = exchange;
    const url = new URL(request.url);
    // Whole milliseconds, rounded down: a start (whole milliseconds too) plus its duration must never pass the start
    // of a request sent after the answer, or --from-har would judge a read before the create it follows.
    const total = Math.max(0, Math.floor(timing?.totalMs ?? 0));
    return {
      startedDateTime: timing?.startedDateTime ?? new Date(0).toISOString(),
      time: total,
      ...(comment === undefined ? {} : { comment }),
      request: {
        method: request.method,
        url: request.url,
        httpVersion: 'HTTP/1.1',
        headers: Object.entries(request.headers).map(([name, value]) => ({ name, value: mask(value) })),
        queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
        cookies: [],
        headersSize: -1,
        bodySize: request.body === undefined ? 0 : Buffer.byteLength(request.body),
        ...(request.body === undefined ? {} : { postData: { mimeType: request.headers['content-type'] ?? '', text: request.body } }),
      },
      response: {
        status: response.status,
        statusText: '',
        httpVersion: 'HTTP/1.1',
        headers: Object.entries(response.headers).map(([name, value]) => ({ name, value })),
        cookies: [],
        content: { size: Buffer.byteLength(response.text), mimeType: response.headers['content-type'] ?? '', text: response.text },
        redirectURL: '',
        headersSize: -1,
        bodySize: -1,
      },
      cache: {},
      timings: { send: 0, wait: total, receive: 0 },
    };
  });
  return { log: { version: '1.2', creator: { name: COMMANDS.test, version: creatorVersion }, entries } };
}

/** A HAR file as far as `--from-har` reads it (HAR 1.2: browsers' devtools, the proxy's `--record`, any recorder). */
interface ReadHarFile {
  log?: { entries?: ReadHarEntry[] };
}
interface ReadHarEntry {
  startedDateTime?: string;
  time?: number;
  request?: { method?: string; url?: string; headers?: { name: string; value: string }[]; postData?: { text?: string; encoding?: string } };
  response?: { status?: number; headers?: { name: string; value: string }[]; content?: { text?: string; encoding?: string } };
}

/**
 * The exchanges of a HAR file, in the order they were started (file order among equal times). Bodies given in
 * base64 are decoded; header names lower-cased (a repeated one joined with `, `). Entries without a status (a
 * request that got no answer) are left out. Errors: throws a sentence naming the file when it cannot be read or
 * is not HAR.
 */
export function readHar(file: string, model: ApiModel): { exchanges: TrafficExchange[]; outside: string[] } {
  let har: ReadHarFile;
  try {
    har = JSON.parse(readFileSync(file, 'utf8')) as ReadHarFile;
  } catch (error) {
    throw new Error(`cannot read the HAR file ${file}: ${(error as Error).message}`);
  }
  const entries = har.log?.entries;
  if (!Array.isArray(entries)) throw new Error(`${file} is not a HAR file (no log.entries array)`);
  const ordered = entries.map((entry, index) => ({ entry, index, at: Date.parse(entry.startedDateTime ?? '') || 0 })).sort((a, b) => a.at - b.at || a.index - b.index);
  const exchanges: TrafficExchange[] = [];
  const outside: string[] = [];
  for (const { entry, index } of ordered) {
    const url = entry.request?.url;
    const status = entry.response?.status;
    if (typeof url !== 'string' || typeof status !== 'number' || status <= 0) continue;
    const method = (entry.request?.method ?? 'GET').toUpperCase();
    const path = pathBelowBase(model, url);
    if (path === undefined) {
      outside.push(`#${index + 1} ${method} ${url}`);
      continue;
    }
    const text = (content: { text?: string; encoding?: string } | undefined): string => (content?.text === undefined ? '' : content.encoding === 'base64' ? Buffer.from(content.text, 'base64').toString('utf8') : content.text);
    const body = text(entry.request?.postData);
    const sentAt = Date.parse(entry.startedDateTime ?? '') || index;
    exchanges.push({
      index: index + 1,
      url,
      sentAt,
      answeredAt: sentAt + Math.max(0, entry.time ?? 0),
      exchange: {
        request: { method, path, headers: headerMap(entry.request?.headers), ...(body === '' ? {} : { body }) },
        response: { status, headers: headerMap(entry.response?.headers), text: text(entry.response?.content), ...(bodyMissing(entry) ? { bodyMissing: true } : {}) },
      },
    });
  }
  return { exchanges, outside };
}

/**
 * Whether the recorder left the response's body out (devtools omit large or binary bodies, and some exports all
 * of them): no `content.text` at all, where an empty body is `""`.
 */
function bodyMissing(entry: ReadHarEntry): boolean {
  return entry.response?.content?.text === undefined;
}

function headerMap(headers: { name: string; value: string }[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { name, value } of headers ?? []) {
    const key = name.toLowerCase();
    // HTTP/2 pseudo-headers (`:authority`) are the URL's, not headers.
    if (key.startsWith(':')) continue;
    out[key] = out[key] === undefined ? value : `${out[key]}, ${value}`;
  }
  return out;
}
