import { createRequire } from 'node:module';
import type { Octokit } from '@octokit/rest';
import { describe, expect, it } from 'vitest';
import { LIFE, runLife } from '../bench/octokit-life.js';

/**
 * The scoring of bench/octokit-life.ts, without a socket: `@octokit/rest` is handed a `fetch` that plays a server,
 * and the life must give no credit the server did not earn. A server that answers one fixed record to every call
 * (as a static mock does) passes none of the steps that read back what was written, nor any 404 or 422 step; a
 * server that refuses every call passes none at all. Where `@octokit/rest` is absent the tests skip and say so.
 */
let CLIENT: string | undefined;
try {
  CLIENT = createRequire(import.meta.url).resolve('@octokit/rest');
} catch {
  CLIENT = undefined;
}

/** One fixed record, shaped loosely like each of the life's resources, with values the life never sends. */
const RECORD = { id: 7, number: 7, login: 'octocat', name: 'Hello-World', title: 'Found a bug', body: 'Me too', description: 'An example', state: 'open', content: '+1', color: 'ffffff', owner: { login: 'octocat' } };
/** Paths whose last segment names a collection: a static server answers them with a list of the one record. */
const LIST = /\/(repos|issues|comments|labels|milestones|pulls|gists|reactions)$/;

/** A `fetch` that answers every request as `answer` says, without a network. */
function playing(answer: (method: string, path: string) => { status: number; body?: unknown }): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const { status, body } = answer(init?.method ?? 'GET', url.pathname);
    return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
}

async function client(fetchImpl: typeof fetch): Promise<Octokit> {
  const { Octokit: Client } = (await import('@octokit/rest')) as { Octokit: typeof Octokit };
  const quiet = (): void => {};
  return new Client({ auth: 'token', baseUrl: 'http://server.test', request: { fetch: fetchImpl }, log: { debug: quiet, info: quiet, warn: quiet, error: quiet } });
}

describe.skipIf(CLIENT === undefined)(`the Octokit life's scoring${CLIENT === undefined ? ' (skipped: @octokit/rest is not installed)' : ''}`, () => {
  it('gives a server that answers one fixed record no read-back, 404 or 422 step', async () => {
    const octokit = await client(
      playing((method, path) => {
        if (method === 'DELETE') return { status: 204 };
        if (method === 'POST') return { status: 201, body: path.endsWith('/labels') && path.includes('/issues/') ? [RECORD] : RECORD };
        return { status: 200, body: method === 'GET' && LIST.test(path) ? [RECORD] : RECORD };
      }),
    );
    const outcomes = await runLife(octokit, 'life');
    expect(outcomes.map((outcome) => outcome.name)).toEqual(LIFE.map((step) => step.name));
    const passed = outcomes.filter((outcome) => outcome.ok).map((outcome) => outcome.name);
    expect(passed).toContain('GET /user answers 200 with a login');
    const unearned = passed.filter((name) => /reads? back|404|422|lists it|as sent|sent/.test(name));
    expect(unearned).toEqual([]);
    expect(outcomes.find((outcome) => outcome.name === 'an issue without its required title is 422')?.detail).toBe('got 201, expected 422');
  });

  it('gives a server that refuses every call (406) no step, each saying why', async () => {
    const octokit = await client(playing(() => ({ status: 406, body: { message: 'Not Acceptable' } })));
    const outcomes = await runLife(octokit, 'life');
    expect(outcomes.filter((outcome) => outcome.ok)).toEqual([]);
    expect(outcomes[0]).toEqual({ name: LIFE[0]!.name, ok: false, detail: 'HTTP 406' });
    for (const outcome of outcomes) expect(outcome.detail).toMatch(/HTTP 406|got 406|from an earlier step/);
  });
});
