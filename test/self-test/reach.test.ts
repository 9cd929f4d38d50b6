import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { colours } from '../../conformance/report/colours.js';
import { renderHtml } from '../../conformance/report/html.js';
import { renderJunit } from '../../conformance/report/junit.js';
import { reachOf } from '../../conformance/report/reach.js';
import { reachLines } from '../../conformance/report/text.js';
import { runSuite } from '../../conformance/run-suite.js';
import { loadModel, PACKAGE_ROOT } from '../../model/loader.js';

/**
 * The reach report end to end: the suite run in process (runSuite) against a small correct server of
 * test/suite-specs/reach.yaml, whose stickers are read by a code no operation gives. Every sticker read is a 404,
 * and every report says the operation was never reached with an existing id, while the things are reached in full.
 */
const SPEC = join(PACKAGE_ROOT, 'test', 'suite-specs', 'reach.yaml');
const THINGS = [
  { id: 1, name: 'kettle' },
  { id: 2, name: 'lamp' },
];

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

let server: Server;
let baseUrl: string;
beforeAll(async () => {
  server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0]!;
    const thing = /^\/v1\/things\/([^/]+)$/.exec(path);
    if (request.method !== 'GET') return send(response, 405, { code: 'METHOD', message: 'only GET' });
    if (path === '/v1/things') return send(response, 200, THINGS);
    const found = thing === null ? undefined : THINGS.find((candidate) => String(candidate.id) === thing[1]);
    if (found !== undefined) return send(response, 200, found);
    // No sticker is held: any code, well-formed or not, names none.
    return send(response, 404, { code: 'NOT_FOUND', message: `nothing at ${path}` });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('the reach of a run', () => {
  it('says which operation was never reached with an existing id, in the console, HTML and JUnit', async () => {
    const model = await loadModel(SPEC);
    const result = await runSuite(model, { baseUrl, apiKey: '', spec: SPEC, runs: 5 });
    expect(result.checks.filter((check) => check.state === 'failed').map((check) => check.report)).toEqual([]);
    const reach = reachOf(model, result.summary.statuses, result.checks);
    const sticker = reach.operations.find((operation) => operation.operationId === 'getSticker')!;
    expect(sticker.seen.map(([status]) => status)).toEqual([404]);
    expect(sticker.gaps).toEqual(['never reached with an existing id']);
    expect(sticker.unseen).toContainEqual({ status: '200', reason: 'never reached with an existing id', expected: false });
    const thing = reach.operations.find((operation) => operation.operationId === 'getThing')!;
    expect(thing.gaps).toEqual([]);
    expect(thing.seen.map(([status]) => status)).toEqual([200, 404]);

    const console = reachLines(reach, colours({ isTTY: false }, {}));
    expect(console).toMatch(/GET \/stickers\/\{stickerCode\} getSticker +seen 404×\d+ .*never seen: 200\n +! never reached with an existing id\n/);
    expect(console).not.toMatch(/getThing +seen/);
    const html = renderHtml({ baseUrl, finishedAt: 'now', checks: result.checks, summary: result.summary, operations: [], unmatched: new Map(), reach });
    expect(html).toMatch(/<tr id="operation-getSticker">.*never reached with an existing id/);
    expect(html).toMatch(/Conforms: \d+ checks passed \(1 not fully tested\)/);
    const junit = renderJunit('reach', result.checks, reach);
    expect(junit).toMatch(/<testsuite name="getSticker \(GET \/stickers\/\{stickerCode\}\)"[\s\S]*?<property name="reach" value="never reached with an existing id; /);
  });
});
