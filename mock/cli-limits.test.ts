import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, startCli } from '../test/built-cli.js';
import { sendRaw } from '../test/raw-http.js';
import { DEFAULT_API_KEY } from './index.js';

/**
 * Limits set from the command line: `--headers-timeout`, `--request-timeout`, `--max-body-bytes` and
 * `--max-pets` reach the server of the built CLI, and each answers with its `Error` row (408, 413, 409).
 */

const AUTH = `Bearer ${DEFAULT_API_KEY}`;

beforeAll(() => {
  try {
    ensureBuilt();
  } catch {
    // tsc exits non-zero on a type error anywhere in the tree, yet still emits dist/.
  }
}, 120_000);

describe('limits of the CLI', () => {
  it('--headers-timeout, --request-timeout, --max-body-bytes and --max-pets', async () => {
    const cli = await startCli(['--empty', '--log-level', 'silent', '--headers-timeout', '300', '--request-timeout', '500', '--max-body-bytes', '200', '--max-pets', '2']);
    try {
      const port = Number(new URL(cli.baseUrl).port);
      const post = (body: string, length = Buffer.byteLength(body)): string =>
        `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n${body}`;
      const status = async (bytes: string): Promise<unknown> => {
        const outcome = await sendRaw(port, bytes, { timeoutMs: 3_000 });
        return outcome.kind === 'response' ? [outcome.response.status, (JSON.parse(outcome.response.body) as { code?: string }).code] : outcome.kind;
      };

      let started = performance.now();
      expect(await status('GET /v1/pets HTTP/1.1\r\nHost: x\r\n')).toEqual([408, 'REQUEST_TIMEOUT']);
      expect(performance.now() - started).toBeLessThan(2_000);
      started = performance.now();
      expect(await status(post('{"name":"Re', 50))).toEqual([408, 'REQUEST_TIMEOUT']);
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(await status(post(`{"name":"${'x'.repeat(300)}","categoryId":1}`))).toEqual([413, 'PAYLOAD_TOO_LARGE']);
      expect(await status(post('{"name":"A","categoryId":1}'))).toEqual([201, undefined]);
      expect(await status(post('{"name":"B","categoryId":1}'))).toEqual([201, undefined]);
      expect(await status(post('{"name":"C","categoryId":1}'))).toEqual([409, 'STORE_FULL']);
      const list = await fetch(`${cli.baseUrl}/pets`, { headers: { authorization: AUTH } });
      expect(((await list.json()) as { name: string }[]).map((pet) => pet.name)).toEqual(['B', 'A']);
    } finally {
      expect(await cli.stop()).toBe(0);
    }
  });
});
