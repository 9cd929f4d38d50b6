import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../mock/index.js';
import type { JournalEntry, ShadowDifference } from '../mock/journal.js';
import { loadModel } from '../model/loader.js';
import type { ApiModel } from '../model/model.js';
import { ensureBuilt, startCli } from '../test/built-cli.js';
import { startProxy, type StartedProxy } from './proxy.js';
import { Shadow } from './shadow.js';

/**
 * `proxy --shadow` (DECISIONS D470-D473) in front of a small upstream written here from the shipped description
 * (`spec/openapi.yaml`: create, list with its `status` filter, read, the documented 400 and 404), with ids of its own
 * that are not the mock's. Correct, the shadow reports nothing; with one deliberate difference, that difference.
 */

const KEY = 'petstore-dev-key';
const ADMIN = 'admin-token';

/** The upstream's one deliberate difference from the description, or none. */
type Fault = 'none' | 'status' | 'member' | 'written';

interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status?: string;
  [member: string]: unknown;
}

/** The upstream: newest first like any list, ids from 500 so that no id is the mock's. */
async function startUpstream(fault: Fault): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const pets: Pet[] = [];
  let next = 500;
  const send = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const error = (res: ServerResponse, status: number, code: string, message: string): void => send(res, status, { code, message, status });
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://upstream');
      if (req.headers.authorization !== `Bearer ${KEY}`) return error(res, 401, 'UNAUTHORIZED', 'Missing or invalid API key.');
      if (req.method === 'POST' && url.pathname === '/v1/pets') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') as Record<string, unknown> | null;
        if (typeof body?.['name'] !== 'string' || typeof body['categoryId'] !== 'number') return error(res, 400, 'VALIDATION_ERROR', 'name and categoryId are required.');
        const pet: Pet = { id: next++, name: body['name'], categoryId: body['categoryId'], ...(typeof body['status'] === 'string' ? { status: body['status'] } : {}) };
        if (fault === 'member') pet['createdAt'] = new Date().toISOString();
        if (fault === 'written' && typeof body['nickname'] === 'string') pet['nickname'] = body['nickname'];
        pets.unshift(pet);
        return send(res, fault === 'status' ? 200 : 201, pet);
      }
      if (req.method === 'GET' && url.pathname === '/v1/pets') {
        const status = url.searchParams.get('status');
        return send(res, 200, pets.filter((pet) => status === null || pet.status === status).slice(0, Number(url.searchParams.get('limit') ?? 20)));
      }
      const item = /^\/v1\/pets\/(\d+)$/.exec(url.pathname);
      if (req.method === 'GET' && item !== null) {
        const pet = pets.find((candidate) => candidate.id === Number(item[1]));
        return pet === undefined ? error(res, 404, 'NOT_FOUND', `No animal ${item[1]}.`) : send(res, 200, pet);
      }
      error(res, 404, 'NOT_FOUND', 'No such route.');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

let model: ApiModel;
let running: { close(): Promise<void> }[] = [];
beforeAll(async () => {
  model = await loadModel();
});
afterEach(async () => {
  await Promise.all(running.map((server) => server.close()));
  running = [];
});

async function setUp(fault: Fault): Promise<{ proxy: StartedProxy; lines: string[] }> {
  const upstream = await startUpstream(fault);
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const proxy = await startProxy({ model, upstream: upstream.baseUrl, port: 0, shadow: true, logger: createLogger({ format: 'json', level: 'warn', destination }), mock: { adminToken: ADMIN, data: new Map() } });
  running.push(proxy, upstream);
  return { proxy, lines };
}

async function call(proxy: StartedProxy, method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${proxy.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

/** A client's life on the description: two creates, the list, its filter, a read back, a refused create, a missing record. */
async function life(proxy: StartedProxy, extra: Record<string, unknown> = {}): Promise<{ created: { status: number; body: unknown } }> {
  const created = await call(proxy, 'POST', '/pets', { name: 'Rex', categoryId: 7, status: 'sold', ...extra });
  await call(proxy, 'POST', '/pets', { name: 'Tom', categoryId: 3 });
  await call(proxy, 'GET', '/pets');
  await call(proxy, 'GET', '/pets?status=sold');
  await call(proxy, 'GET', `/pets/${(created.body as { id: number }).id}`);
  await call(proxy, 'POST', '/pets', { name: 'No category' });
  await call(proxy, 'GET', '/pets/999999');
  return { created };
}

/** Every difference the journal holds, with its request. */
async function differences(proxy: StartedProxy): Promise<(ShadowDifference & { request: string })[]> {
  const response = await fetch(`${proxy.origin}/__admin/requests`, { headers: { authorization: `Bearer ${ADMIN}` } });
  const entries = (await response.json()) as JournalEntry[];
  expect(entries.every((entry) => entry.shadow !== undefined)).toBe(true);
  return entries.flatMap((entry) => entry.shadow!.differences.map((difference) => ({ ...difference, request: `${entry.method} ${entry.url}` })));
}

describe('proxy --shadow', () => {
  it('reports no difference in front of an upstream that behaves as the description says, and the client gets the upstream answer', async () => {
    const { proxy, lines } = await setUp('none');
    const { created } = await life(proxy);
    expect(created).toEqual({ status: 201, body: { id: 500, name: 'Rex', categoryId: 7, status: 'sold' } });
    expect(await differences(proxy)).toEqual([]);
    expect(lines.filter((line) => line.includes('"shadow"'))).toEqual([]);
  });

  it('reports a status the mock would not answer', async () => {
    const { proxy, lines } = await setUp('status');
    await life(proxy);
    const found = await differences(proxy);
    expect(found).toContainEqual({ kind: 'status', pointer: '', upstream: '200', mock: '201', request: 'POST /v1/pets' });
    expect(found.every((difference) => difference.kind === 'status')).toBe(true);
    // One log line per difference, with the request and both answers.
    const line = lines.find((text) => text.includes('shadow POST /v1/pets: status'));
    expect(line).toContain('upstream 200 {\\"id\\":500');
    expect(line).toContain('mock 201 {\\"id\\":1');
  });

  it('reports a member the upstream answers and the mock lacks, on the create, the list and the read', async () => {
    const { proxy } = await setUp('member');
    await life(proxy);
    const found = await differences(proxy);
    expect(found.map((difference) => `${difference.request} ${difference.kind} ${difference.pointer}`).sort()).toEqual(
      ['GET /v1/pets missing /0/createdAt', 'GET /v1/pets missing /1/createdAt', 'GET /v1/pets/500 missing /createdAt', 'GET /v1/pets?status=sold missing /0/createdAt', 'POST /v1/pets missing /createdAt', 'POST /v1/pets missing /createdAt'].sort(),
    );
  });

  it('reports a value the client wrote that the upstream gives back and the mock does not', async () => {
    const { proxy } = await setUp('written');
    await life(proxy, { nickname: 'Rexy' });
    const written = (await differences(proxy)).filter((difference) => difference.kind === 'written');
    expect(written).toContainEqual({ kind: 'written', pointer: '/nickname', upstream: '"Rexy"', mock: 'absent', request: 'POST /v1/pets' });
    expect(written).toContainEqual({ kind: 'written', pointer: '/nickname', upstream: '"Rexy"', mock: 'absent', request: 'GET /v1/pets/500' });
    expect(written.map((difference) => difference.request)).toContain('GET /v1/pets');
  });
});

describe('Shadow.compare', () => {
  it('compares the values the client wrote, wherever the upstream gives them back, and only those', () => {
    const shadow = new Shadow();
    const written = { name: 'Rex', categoryId: 7 };
    shadow.learn(undefined, written, { status: 201, body: { id: 9, ...written } }, { status: 201, body: { id: 1, ...written } });
    // Another server-made id is no difference; another written value is, in a list too.
    expect(shadow.compare({ status: 200, body: [{ id: 9, name: 'Rex', categoryId: 7 }] }, { status: 200, body: [{ id: 1, name: 'Rex', categoryId: 7 }] }, undefined)).toEqual([]);
    expect(shadow.compare({ status: 200, body: [{ id: 9, name: 'Rex', categoryId: 7 }] }, { status: 200, body: [{ id: 1, name: 'Rex', categoryId: 8 }] }, undefined)).toEqual([
      { kind: 'written', pointer: '/0/categoryId', upstream: '7', mock: '8' },
    ]);
  });

  it('pairs items of lists in another order, and reports a list the mock lacks an item of', () => {
    const shadow = new Shadow();
    shadow.learn(undefined, [{ name: 'a', status: 'sold' }, { name: 'b' }], { status: 200, body: undefined }, { status: 200, body: undefined });
    const upstream = [{ id: 9, name: 'a', status: 'sold' }, { id: 8, name: 'b' }];
    expect(shadow.compare({ status: 200, body: upstream }, { status: 200, body: [{ id: 2, name: 'b' }, { id: 1, name: 'a', status: 'sold' }] }, undefined)).toEqual([]);
    expect(shadow.compare({ status: 200, body: upstream }, { status: 200, body: [{ id: 2, name: 'b' }] }, undefined)).toEqual([
      { kind: 'items', pointer: '', upstream: '2 items', mock: '1 items' },
      { kind: 'written', pointer: '/name', upstream: '"a"', mock: 'absent' },
      { kind: 'written', pointer: '/status', upstream: '"sold"', mock: 'absent' },
    ]);
  });

  it("compares a list the server fills from its own state by its items' shape, not by how many it holds", () => {
    const shadow = new Shadow();
    shadow.learn(undefined, { labels: { alertname: 'Disk' } }, { status: 200, body: undefined }, { status: 200, body: undefined });
    const alert = (receivers: unknown[], silencedBy: unknown[]): unknown => [{ labels: { alertname: 'Disk' }, receivers, status: { silencedBy } }];
    // Another count of receivers or silences than the upstream's: that is its state, no difference.
    expect(shadow.compare({ status: 200, body: alert([{ name: 'team' }], []) }, { status: 200, body: alert([], ['x', 'y']) }, undefined)).toEqual([]);
    // An item of another shape is one; so is the list of written records short of one.
    expect(shadow.compare({ status: 200, body: alert([{ name: 'team' }], []) }, { status: 200, body: alert([{ title: 'team' }], []) }, undefined)).toEqual([
      { kind: 'missing', pointer: '/0/receivers/0/name', upstream: '"team"', mock: 'absent' },
      { kind: 'added', pointer: '/0/receivers/0/title', upstream: 'absent', mock: '"team"' },
    ]);
    expect(shadow.compare({ status: 200, body: alert([], []) }, { status: 200, body: [] }, undefined)).toEqual([
      { kind: 'items', pointer: '', upstream: '1 items', mock: '0 items' },
      { kind: 'written', pointer: '/labels/alertname', upstream: '"Disk"', mock: 'absent' },
    ]);
  });

  it('takes a member the mock adds that the answer documents as optional for the upstream state, unless required, undocumented or written', () => {
    const shadow = new Shadow();
    const schema = { type: 'object', required: ['status'], properties: { status: { type: 'string' }, name: { type: 'string' }, note: { type: 'string' } } };
    expect(shadow.compare({ status: 200, body: { status: 'ok' } }, { status: 200, body: { status: 'ok', name: 'string' } }, undefined, schema)).toEqual([]);
    expect(shadow.compare({ status: 200, body: { name: 'a' } }, { status: 200, body: { status: 'ok', name: 'b', extra: 1 } }, undefined, schema)).toEqual([
      { kind: 'added', pointer: '/status', upstream: 'absent', mock: '"ok"' },
      { kind: 'added', pointer: '/extra', upstream: 'absent', mock: '1' },
    ]);
    expect(shadow.compare({ status: 200, body: { status: 'ok' } }, { status: 200, body: { status: 'ok', note: 'hello' } }, { note: 'hello' }, schema)).toEqual([
      { kind: 'added', pointer: '/note', upstream: 'absent', mock: '"hello"' },
    ]);
    // Without the schema, as before: every member one side lacks.
    expect(shadow.compare({ status: 200, body: { status: 'ok' } }, { status: 200, body: { status: 'ok', name: 'string' } }, undefined)).toEqual([{ kind: 'added', pointer: '/name', upstream: 'absent', mock: '"string"' }]);
  });

  it('compares two values the server made by type and date-time form, never by what they hold', () => {
    const shadow = new Shadow();
    const status = (uptime: unknown, name: unknown): unknown => ({ uptime, cluster: { name } });
    expect(shadow.compare({ status: 200, body: status('2026-11-29T02:54:05.885Z', 'alpha') }, { status: 200, body: status('2024-01-01T00:00:00Z', 'string') }, undefined)).toEqual([]);
    expect(shadow.compare({ status: 200, body: status('2026-11-29T02:54:05.885Z', null) }, { status: 200, body: status('2024-01-01T00:00:00Z', 'string') }, undefined)).toEqual([]);
    expect(shadow.compare({ status: 200, body: status('2026-11-29T02:54:05.885Z', 'alpha') }, { status: 200, body: status('string', 7) }, undefined)).toEqual([
      { kind: 'type', pointer: '/uptime', upstream: '"2026-11-29T02:54:05.885Z"', mock: '"string"' },
      { kind: 'type', pointer: '/cluster/name', upstream: '"alpha"', mock: '7' },
    ]);
  });

  it("sends the mock's id where the client names the upstream's, in the path, the query and the body", () => {
    const shadow = new Shadow();
    const op = model.operations.find((candidate) => candidate.operationId === 'createPet')!;
    shadow.learn(op, { name: 'Rex' }, { status: 201, body: { id: 500, name: 'Rex' } }, { status: 201, body: { id: 1, name: 'Rex' } });
    const asked = shadow.toMock({ method: 'POST', url: '/v1/pets/500?of=500&x=5', headers: {}, body: Buffer.from('{"parent":"500","n":500}') });
    expect(asked.url).toBe('/v1/pets/1?of=1&x=5');
    expect(asked.body?.toString()).toBe('{"parent":"1","n":500}');
  });
});

describe('--shadow as users set it: the flag, OPENAPI_HARNESS_SHADOW, the config file', () => {
  it('turns the shadow on from each, says so in the banner, and logs a difference', async () => {
    ensureBuilt();
    const upstream = await startUpstream('status');
    const dir = mkdtempSync(join(tmpdir(), 'shadow-config-'));
    const config = join(dir, 'openapi-harness.config.json');
    writeFileSync(config, JSON.stringify({ proxy: { shadow: true } }));
    try {
      const runs: [string[], NodeJS.ProcessEnv][] = [
        [['--proxy', upstream.baseUrl, '--shadow', '--log-format', 'json'], {}],
        [['--proxy', upstream.baseUrl, '--log-format', 'json'], { OPENAPI_HARNESS_SHADOW: '1' }],
        [['--proxy', upstream.baseUrl, '--log-format', 'json'], { OPENAPI_HARNESS_CONFIG: config }],
        [['--proxy', upstream.baseUrl, '--log-format', 'json'], {}],
      ];
      const banners: boolean[] = [];
      for (const [args, env] of runs) {
        const cli = await startCli(args, env);
        try {
          await (await fetch(`${cli.baseUrl}/pets`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":7}' })).text();
        } finally {
          expect(await cli.stop()).toBe(0);
        }
        const on = cli.stdout().includes('; shadow:');
        banners.push(on);
        expect(cli.stdout().includes('"msg":"shadow POST /v1/pets: status at (answer): upstream 200, mock 201')).toBe(on);
      }
      expect(banners).toEqual([true, true, true, false]);
    } finally {
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
