import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { loadModel, SPEC_PATH } from '../model/loader.js';
import { readHar, toHar } from './har.js';
import { judgeTraffic } from './traffic.js';
import type { Exchange } from './verdict.js';

const model = await loadModel(SPEC_PATH);
const json = { 'content-type': 'application/json' };

// A create answered 1.5 ms after it was sent, and a read sent 0.1 ms after that answer (both starts truncated to
// the same whole millisecond by HAR's timestamps): the read must still be judged after the create.
it('a HAR keeps a read sent after a create\'s answer after it, so --from-har judges it against the create', () => {
  const create: Exchange = {
    request: { method: 'POST', path: '/pets', url: 'http://127.0.0.1:1/v1/pets', headers: json, body: '{"name":"Rex","categoryId":9007199254740993}' },
    response: { status: 201, headers: json, text: '{"id":7,"name":"Rex","categoryId":9007199254740993}' },
    timing: { startedDateTime: '2026-11-26T10:00:00.100Z', totalMs: 1.5 },
  };
  const read: Exchange = {
    request: { method: 'GET', path: '/pets/7', url: 'http://127.0.0.1:1/v1/pets/7', headers: {} },
    response: { status: 200, headers: json, text: '{"id":7,"name":"Rex","categoryId":9007199254740992}' },
    timing: { startedDateTime: '2026-11-26T10:00:00.101Z', totalMs: 0.3 },
  };
  const dir = mkdtempSync(join(tmpdir(), 'har-order-'));
  try {
    writeFileSync(join(dir, 'run.har'), JSON.stringify(toHar([{ exchange: create }, { exchange: read }], '', 'test')));
    const { exchanges } = readHar(join(dir, 'run.har'), model);
    const sequence = judgeTraffic(model, exchanges).flatMap((judged) => judged.sequence.map((violation) => `${violation.operationId} ${violation.rule} ${violation.pointer}`));
    expect(sequence).toEqual(['getPet sequence.read-after-create /body/categoryId']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
