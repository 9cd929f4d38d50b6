import { connect } from 'node:net';

/** One HTTP/1.1 response read off a raw socket: status, lower-case headers and the body as text. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What came back for raw bytes: a response, or the socket closed (or timed out) before a whole one arrived. */
export type RawOutcome = { kind: 'response'; response: RawResponse } | { kind: 'closed'; received: string } | { kind: 'timeout'; received: string };

/** How {@link sendRaw} sends: `halfClose` ends the write side after the bytes; `timeoutMs` bounds the wait (default 5,000). */
export interface RawOptions {
  halfClose?: boolean;
  timeoutMs?: number;
  /** The request was a HEAD: the response has a `content-length` but no body. */
  head?: boolean;
}

/**
 * Sends bytes exactly as given to `127.0.0.1:port` over `node:net` (no client library to tidy them up) and
 * reads the first response. Loopback only. Never rejects: socket errors after a response are ignored, and a
 * socket that closes first is `{ kind: 'closed' }`.
 */
export function sendRaw(port: number, bytes: string | Buffer, options: RawOptions = {}): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let received = Buffer.alloc(0);
    let settled = false;
    const finish = (outcome: RawOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ kind: 'timeout', received: received.toString('latin1') }), options.timeoutMs ?? 5_000);
    socket.on('error', () => finish({ kind: 'closed', received: received.toString('latin1') }));
    socket.on('close', () => finish({ kind: 'closed', received: received.toString('latin1') }));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const response = parseResponse(received, options.head === true);
      if (response !== undefined) finish({ kind: 'response', response });
    });
    socket.write(bytes, () => {
      if (options.halfClose === true) socket.end();
    });
  });
}

/** The first whole response in `bytes` (framed by `content-length`), or `undefined` while incomplete. */
export function parseResponse(bytes: Buffer, head = false): RawResponse | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const [statusLine = '', ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  // Skip interim answers (`100 Continue` to `Expect: 100-continue`): the final response follows.
  if (/^HTTP\/1\.[01] 1\d\d /.test(statusLine)) return parseResponse(bytes.subarray(end + 4), head);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = head ? 0 : Number(headers['content-length'] ?? 0);
  const body = bytes.subarray(end + 4);
  if (body.length < length) return undefined;
  return { status: Number(statusLine.split(' ')[1]), headers, body: body.subarray(0, length).toString('utf8') };
}

/** The request as a `curl` command, for failure messages, so a failure can be replayed by hand. */
export function asCurl(origin: string, method: string, url: string, headers: Record<string, string>, body?: string): string {
  const quote = (text: string): string => `'${text.replaceAll("'", "'\\''")}'`;
  const parts = ['curl', '-i', '-X', method, ...Object.entries(headers).flatMap(([name, value]) => ['-H', quote(`${name}: ${value}`)])];
  if (body !== undefined && body !== '') parts.push('--data-binary', quote(body));
  parts.push(quote(`${origin}${url}`));
  return parts.join(' ');
}
