import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, createServer as createHttpServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { isSafeNumber, parse, stringify } from 'lossless-json';

/**
 * Servers that put a correct (or a broken) Pet Store where a staging lives: behind a rate-limiting gateway,
 * far away, on read replicas, behind TLS with a private CA, behind a path prefix, compressing. Each is a
 * front door forwarding to an upstream mock on 127.0.0.1, so the mock itself is never modified.
 */
export interface FrontDoorOptions {
  /** Origin of the upstream mock, e.g. `http://127.0.0.1:4010`. */
  upstream: string;
  /** Path prefix of a gateway in front of `/v1`, e.g. `/api/petstore`; stripped before forwarding. */
  prefix?: string;
  /** Added latency per answer, in ms: `[min, max]`. */
  latencyMs?: [number, number];
  /**
   * Gateway quota: at most `perSecond` requests per second window, then `429` with `Retry-After` and an Error body.
   * `spentAtStart`: the first window opens with its quota already spent (a quota shared with other clients), so the
   * first request is refused however fast or slow the client is.
   */
  rateLimit?: { perSecond: number; retryAfter?: string; status?: 429 | 503; spentAtStart?: boolean };
  /** Compress answers with this coding when the request accepts it. */
  compress?: 'gzip' | 'deflate' | 'br';
  /** Read replicas: a pet created here stays invisible to getPet (404) and to lists for this long (ms) after its 201. */
  readLagMs?: number;
  /** Broken: the key is not checked (a missing or wrong key is replaced by the valid one before forwarding). */
  skipAuthWithKey?: string;
  /** Broken: requests for which this holds (method, URL below the front door) are answered 500 in plain text. */
  crashWhen?: (method: string, url: string) => boolean;
  /** Flaky network: every `n`-th request of these methods gets its connection closed, without an answer. */
  dropEvery?: { n: number; methods: readonly string[] };
  /** Answer every request with `Connection: close`. */
  connectionClose?: boolean;
  /** Serve HTTPS with this key and certificate (PEM); `clientCa` asks for and verifies a client certificate. */
  tls?: { key: string; cert: string; clientCa?: string };
}

/** A running front door: its origin, the base URL the suite gets, how many requests it saw and refused. */
export interface FrontDoor {
  origin: string;
  baseUrl: string;
  counts: { requests: number; refused: number; dropped?: number; seenForDrop?: number };
  close(): Promise<void>;
}

const upstreamAgent = new Agent({ keepAlive: true, maxSockets: 64 });

/** Starts a front door on 127.0.0.1, port 0. */
export async function frontDoor(options: FrontDoorOptions): Promise<FrontDoor> {
  const counts: FrontDoor['counts'] = { requests: 0, refused: 0 };
  const prefix = options.prefix ?? '';
  const hidden = new Map<string, number>(); // pet id → when it becomes visible
  let window = { start: 0, count: 0 };
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    void (async () => {
      counts.requests += 1;
      const body = await readAll(req);
      if (options.rateLimit !== undefined) {
        const now = Date.now();
        if (now - window.start >= 1000) window = { start: now, count: window.start === 0 && options.rateLimit.spentAtStart === true ? options.rateLimit.perSecond : 0 };
        window.count += 1;
        if (window.count > options.rateLimit.perSecond) {
          counts.refused += 1;
          const status = options.rateLimit.status ?? 429;
          const headers: Record<string, string> = { 'content-type': 'application/json' };
          if (options.rateLimit.retryAfter !== undefined) headers['retry-after'] = options.rateLimit.retryAfter;
          res.writeHead(status, headers).end(JSON.stringify({ code: 'RATE_LIMITED', message: 'Too many requests.', status }));
          return;
        }
      }
      if (options.dropEvery !== undefined && options.dropEvery.methods.includes(req.method ?? 'GET')) {
        counts.seenForDrop = (counts.seenForDrop ?? 0) + 1;
        if (counts.seenForDrop % options.dropEvery.n === 0) {
          counts.dropped = (counts.dropped ?? 0) + 1;
          req.socket.destroy();
          return;
        }
      }
      if (options.crashWhen?.(req.method ?? 'GET', req.url ?? '/') === true) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
        return;
      }
      let url = req.url ?? '/';
      if (prefix !== '') {
        if (!url.startsWith(`${prefix}/`)) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('no such route on this gateway');
          return;
        }
        url = url.slice(prefix.length);
      }
      const headers = { ...req.headers };
      delete headers['accept-encoding'];
      delete headers['host'];
      if (options.skipAuthWithKey !== undefined) headers['authorization'] = `Bearer ${options.skipAuthWithKey}`;
      let answer = await forward(options.upstream, req.method ?? 'GET', url, headers, body);
      if (options.readLagMs !== undefined) answer = await lag(answer, options, req.method ?? 'GET', url, headers, hidden);
      if (options.latencyMs !== undefined) {
        const [min, max] = options.latencyMs;
        await new Promise((resolve) => setTimeout(resolve, min + Math.random() * (max - min)));
      }
      const out: Record<string, string> = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value !== undefined && !['content-length', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)) out[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      let payload = answer.body;
      const accepts = String(req.headers['accept-encoding'] ?? '');
      if (options.compress !== undefined && accepts.includes(options.compress) && payload.length > 0) {
        payload = options.compress === 'gzip' ? gzipSync(payload) : options.compress === 'br' ? brotliCompressSync(payload) : deflateSync(payload);
        out['content-encoding'] = options.compress;
        out['vary'] = 'accept-encoding';
      }
      if (options.connectionClose === true) out['connection'] = 'close';
      out['content-length'] = String(payload.length);
      res.writeHead(answer.status, out).end(payload);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`front door: ${(error as Error).message}`);
    });
  };
  const server: Server =
    options.tls === undefined
      ? createHttpServer(handler)
      : createHttpsServer({ key: options.tls.key, cert: options.tls.cert, ...(options.tls.clientCa === undefined ? {} : { ca: options.tls.clientCa, requestCert: true, rejectUnauthorized: true }) }, handler);
  const port = await listen(server);
  const origin = `${options.tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}`;
  return { origin, baseUrl: `${origin}${prefix}/v1`, counts, close: () => close(server) };
}

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

function forward(upstream: string, method: string, path: string, headers: IncomingMessage['headers'], body: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${upstream}${path}`, { method, headers, agent: upstreamAgent }, (response) => {
      void readAll(response).then((data) => resolve({ status: response.statusCode ?? 502, headers: response.headers, body: data }), reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * Read replicas: a 201 hides its pet for `readLagMs`; getPet of a hidden pet is 404 (the shape the upstream uses
 * for an absent id), and lists leave hidden pets out, refilled from a larger upstream page so that a page is
 * still as full as the replica would make it.
 */
async function lag(answer: Answer, options: FrontDoorOptions, method: string, url: string, headers: IncomingMessage['headers'], hidden: Map<string, number>): Promise<Answer> {
  const now = Date.now();
  for (const [id, visibleAt] of hidden) if (visibleAt <= now) hidden.delete(id);
  const path = url.split('?')[0]!;
  if (method === 'POST' && answer.status === 201) {
    const id = /"id"\s*:\s*(-?\d+)/.exec(answer.body.toString('utf8'))?.[1];
    if (id !== undefined) hidden.set(id, now + options.readLagMs!);
    return answer;
  }
  if (method !== 'GET' || answer.status !== 200 || hidden.size === 0) return answer;
  const single = /\/pets\/(-?\d+)$/.exec(path);
  if (single !== null) {
    if (!hidden.has(single[1]!)) return answer;
    return { status: 404, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ code: 'PET_NOT_FOUND', message: `No pet has id ${single[1]}.`, status: 404 })) };
  }
  if (!path.endsWith('/pets')) return answer;
  const query = new URLSearchParams(url.split('?')[1] ?? '');
  const limit = Number(query.get('limit') ?? 20);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100 || query.getAll('limit').length > 1) return answer;
  query.set('limit', String(Math.min(100, limit + hidden.size)));
  const larger = await forward(options.upstream, 'GET', `${path}?${query}`, headers, Buffer.alloc(0));
  const pets = parse(larger.body.toString('utf8'), undefined, (value) => (isSafeNumber(value) ? Number(value) : value)) as { id: unknown }[];
  const visible = pets.filter((pet) => !hidden.has(String(pet.id))).slice(0, limit);
  return { ...larger, body: Buffer.from(stringify(visible) ?? '[]') };
}

function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * A forward proxy on 127.0.0.1 that alone knows `hosts` (name → `127.0.0.1`): absolute-URI requests
 * (`GET http://name:port/...`) are forwarded, `CONNECT name:port` is tunnelled; any other host is refused with
 * 502, so nothing leaves the machine. `counts` tells whether the suite really went through it.
 */
export async function forwardProxy(hosts: ReadonlySet<string>): Promise<{ url: string; counts: { forwarded: number; tunnels: number; refused: number }; close(): Promise<void> }> {
  const counts = { forwarded: 0, tunnels: 0, refused: 0 };
  const sockets = new Set<Socket>();
  const server = createHttpServer((req, res) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('absolute URI expected');
      return;
    }
    if (!hosts.has(target.hostname)) {
      counts.refused += 1;
      res.writeHead(502).end(`unknown host ${target.hostname}`);
      return;
    }
    counts.forwarded += 1;
    const headers: Record<string, string | string[] | undefined> = { ...req.headers, host: target.host };
    delete headers['proxy-connection'];
    const upstream = httpRequest({ host: '127.0.0.1', port: target.port, method: req.method, path: `${target.pathname}${target.search}`, headers, agent: upstreamAgent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const [host, port] = (req.url ?? '').split(':');
    if (host === undefined || !hosts.has(host)) {
      counts.refused += 1;
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      return;
    }
    counts.tunnels += 1;
    const upstream = connect(Number(port), '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream).add(client);
    const drop = (): void => {
      upstream.destroy();
      client.destroy();
    };
    upstream.on('error', drop);
    client.on('error', drop);
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return close(server);
    },
  };
}

/** PEM files of a throwaway PKI made with openssl: a CA, a server certificate, a client certificate, a stranger's CA. */
export interface Pki {
  dir: string;
  caCert: string;
  serverKey: string;
  serverCert: string;
  /** Signed by the CA but naming another host only. */
  wrongHostKey: string;
  wrongHostCert: string;
  clientKey: string;
  clientCert: string;
  /** Paths of the same PEM texts, for `--ca`, `--cert`, `--key`. */
  files: { caCert: string; clientCert: string; clientKey: string };
  remove(): void;
}

/**
 * Makes a throwaway CA (EC P-256, 1 day) and certificates signed by it: the server's for `localhost`,
 * `127.0.0.1` and `names`, one for another host only, and a client certificate. Needs the `openssl` command.
 */
export function makePki(names: readonly string[] = []): Pki {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-pki-'));
  const openssl = (...args: string[]): void => void execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const key = (name: string): void => openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', `${name}.key`);
  key('ca');
  openssl('req', '-x509', '-new', '-key', 'ca.key', '-subj', '/CN=Petstore Throwaway Test CA', '-days', '1', '-out', 'ca.crt', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  const sign = (name: string, subject: string, extensions: string): void => {
    writeFileSync(join(dir, `${name}.ext`), extensions);
    key(name);
    openssl('req', '-new', '-key', `${name}.key`, '-subj', subject, '-out', `${name}.csr`);
    openssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '1', '-out', `${name}.crt`, '-extfile', `${name}.ext`);
  };
  sign('server', '/CN=localhost', `subjectAltName=DNS:localhost,IP:127.0.0.1${names.map((name) => `,DNS:${name}`).join('')}\nextendedKeyUsage=serverAuth\n`);
  sign('wrong', '/CN=elsewhere.invalid', 'subjectAltName=DNS:elsewhere.invalid\nextendedKeyUsage=serverAuth\n');
  sign('client', '/CN=petstore-qa', 'extendedKeyUsage=clientAuth\n');
  const read = (name: string): string => readFileSync(join(dir, name), 'utf8');
  return {
    dir,
    caCert: read('ca.crt'),
    serverKey: read('server.key'),
    serverCert: read('server.crt'),
    wrongHostKey: read('wrong.key'),
    wrongHostCert: read('wrong.crt'),
    clientKey: read('client.key'),
    clientCert: read('client.crt'),
    files: { caCert: join(dir, 'ca.crt'), clientCert: join(dir, 'client.crt'), clientKey: join(dir, 'client.key') },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
