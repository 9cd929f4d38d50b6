import type { Exchange } from '../client.js';

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
 * or any HAR viewer. The target's own key is written as `$PETSTORE_API_KEY`, as in the curl lines.
 */
export function toHar(exchanges: readonly { exchange: Exchange; comment?: string }[], apiKey: string, creatorVersion: string): Har {
  const mask = (value: string): string => (apiKey === '' ? value : value.replaceAll(apiKey, '$PETSTORE_API_KEY'));
  const entries = exchanges.map(({ exchange, comment }): HarEntry => {
    const { request, response, timing } = exchange;
    const url = new URL(request.url);
    const total = Math.max(0, Math.round(timing?.totalMs ?? 0));
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
  return { log: { version: '1.2', creator: { name: 'petstore-conformance', version: creatorVersion }, entries } };
}
