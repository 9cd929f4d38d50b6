import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAiSpec } from '../bench/ai-spec.js';
import { ensureBuilt, startCli } from './built-cli.js';

/**
 * The mock on a spec in the shape of a large AI service (bench/ai-spec.ts, smaller than the benchmark's: 12
 * groups, the same forty-kind recursive `Item` union): it starts, says little at the default level (one screen,
 * each operation's details at debug), answers one operation of every kind (the model calls with `stream`
 * members and `text/event-stream` answers among them) with a status below 500, and is still up once its
 * background check of the answers has finished (spec/DECISIONS.md › D80-D84). Not timed: bench/startup.ts is.
 */
let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ai-spec-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY = 'petstore-dev-key';

describe('a large AI-shaped spec', () => {
  it('starts, logs one screen, answers every kind of operation and stays up after its background pass', async () => {
    const spec = writeAiSpec(join(dir, 'ai.yaml'), { groups: 12, fields: 12 });
    const cli = await startCli(['--spec', spec.file, '--log-format', 'json', '--log-level', 'debug']);
    try {
      const call = async (method: string, path: string, body?: unknown, accept?: string): Promise<{ status: number; text: string }> => {
        const answered = await request(`${cli.baseUrl}${path}`, {
          method: method as 'GET',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', ...(accept === undefined ? {} : { accept }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return { status: answered.statusCode, text: await answered.body.text() };
      };
      const chat = { model: 'model-large-1', messages: [{ role: 'user', content: 'hello' }], stream: true };
      const calls: [string, string, unknown?, string?][] = [
        ['POST', '/chat/completions', chat],
        ['POST', '/chat/completions', chat, 'text/event-stream'],
        ['POST', '/responses', { ...chat, input: [{ type: 'kind_0', id: 'a', children: [{ type: 'kind_1', id: 'b' }] }] }],
        ['POST', '/audio/speech', { input: 'hi', stream: true }],
        ['POST', '/embeddings', { input: 'hi', model: 'm' }],
        ['GET', '/models'],
        ['GET', '/models/m1'],
        ['GET', '/agents'],
        ['POST', '/agents', { label: 'one' }],
        ['GET', '/agents/agent_1'],
        ['POST', '/agents/agent_1', { label: 'two' }],
        ['POST', '/agents/agent_1/cancel'],
        ['GET', '/agents/agent_1/items'],
        ['DELETE', '/agents/agent_1'],
      ];
      for (const [method, path, body, accept] of calls) {
        const answer = await call(method, path, body, accept);
        expect(answer.status, `${method} ${path} ${accept ?? ''}: ${answer.text.slice(0, 300)}`).toBeLessThan(500);
      }
      // The background pass over every operation no resource holds ends with a debug line; the mock answers after it.
      for (let waited = 0; !cli.stdout().includes('answers checked') && waited < 60_000; waited += 100) await sleep(100);
      expect(cli.stdout()).toContain('answers checked');
      expect((await call('GET', '/models')).status).toBe(200);

      const lines = cli.stdout().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { level: number; msg: string; method?: string });
      const shown = lines.filter((line) => line.level >= 30 && line.method === undefined);
      expect(shown.length, shown.map((line) => line.msg).join('\n')).toBeLessThanOrEqual(12);
      expect(shown.some((line) => /operations do not document statuses the mock may answer .*--log-level debug/.test(line.msg))).toBe(true);
      expect(shown.some((line) => /documenting text\/event-stream answers/.test(line.msg))).toBe(true);
      // Each operation's line is still there for whoever asks (debug).
      expect(lines.some((line) => line.level === 20 && /^listAgents \(GET \/agents\) does not document/.test(line.msg))).toBe(true);
    } finally {
      await cli.stop();
    }
  }, 120_000);
});
