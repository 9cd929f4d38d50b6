import { createServer } from 'node:http';
import { Pool } from 'undici';

/**
 * The floor any validating proxy is measured against (bench/proxy-overhead.ts): node:http in front, an undici pool behind,
 * one `JSON.parse` per answer and nothing else: no judging, no logging. argv: `<upstream base URL>`.
 * IPC: sends `{ port }` once listening.
 */
const upstream = new URL(process.argv[2]!);
const base = upstream.pathname.replace(/\/+$/, '');
const pool = new Pool(upstream.origin, { connections: 64, pipelining: 1 });
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'host', 'te', 'trailer', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate']);

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_BY_HOP.has(name) && name !== 'content-length') headers[name] = value;
    const path = `${base}${(req.url ?? '/').replace(/^\/v1/, '')}`;
    pool
      .request({ path, method: (req.method ?? 'GET') as 'GET', headers, body: chunks.length === 0 ? null : Buffer.concat(chunks) })
      .then(async (answer) => {
        const bytes = Buffer.from(await answer.body.arrayBuffer());
        if (bytes.length > 0) JSON.parse(bytes.toString('utf8'));
        const out: string[] = [];
        for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) for (const item of Array.isArray(value) ? value : [value]) out.push(name, item);
        res.writeHead(answer.statusCode, out);
        res.end(bytes);
      })
      .catch(() => {
        res.writeHead(502);
        res.end();
      });
  });
});
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as { port: number }).port }));
process.on('disconnect', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
