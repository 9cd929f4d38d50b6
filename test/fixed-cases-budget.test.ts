import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCheck } from '../conformance/run-suite.js';
import { DEFAULT_API_KEY, startMock, type StartedMock } from '../mock/index.js';

// spec/DECISIONS.md › D910: a check's fixed cases (the invalid bodies of `createPet.invalid-body`) stop at the time
// budget as a property's runs do. Every answer of the mock here waits 5 ms, so a budget of 1 ms is spent by the time
// the first case is answered, on any machine: the boundary is asked, not raced.
const INVALID_BODIES = /the time budget \(1 ms\) was spent after 1 of the (\d+) invalid bodies; the rest were not sent/;

describe('the fixed cases of a check under a time budget', () => {
  let mock: StartedMock;
  let broken: Server;
  beforeAll(async () => {
    mock = await startMock({ port: 0, latency: { min: 5, max: 5 } });
    // Accepts every create, whatever its body: the fault `createPet.invalid-body` exists for.
    broken = createServer((request, response) => {
      request.resume();
      if (request.method !== 'POST') return void response.writeHead(404, { 'content-type': 'application/json' }).end('{"code":"NOT_FOUND","message":"no"}');
      response.writeHead(201, { 'content-type': 'application/json' }).end('{"id":1,"name":"Rex","categoryId":1}');
    });
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await mock.close();
    await new Promise((resolve) => broken.close(resolve));
  });

  test('stop once the budget is spent, after the first, and say how many of how many were sent', async () => {
    const outcome = await runCheck('createPet.invalid-body', { baseUrl: mock.baseUrl, apiKey: DEFAULT_API_KEY, seed: 1, runs: 2, timeBudgetMs: 1 });
    expect(outcome.ok).toBe(true);
    const advice = outcome.ok ? outcome.advice : [];
    const cut = advice.map((note) => INVALID_BODIES.exec(note)).find((match) => match !== null);
    expect(cut, advice.join('\n')).toBeDefined();
    expect(Number(cut![1])).toBeGreaterThan(10);
  }, 60_000);

  test('are all sent without a budget', async () => {
    const outcome = await runCheck('createPet.invalid-body', { baseUrl: mock.baseUrl, apiKey: DEFAULT_API_KEY, seed: 1, runs: 2 });
    expect(outcome.ok).toBe(true);
    expect((outcome.ok ? outcome.advice : []).filter((note) => note.includes('time budget'))).toEqual([]);
  }, 60_000);

  test('still judge what was sent: a server that creates from an invalid body fails within the budget', async () => {
    const outcome = await runCheck('createPet.invalid-body', { baseUrl: `http://127.0.0.1:${(broken.address() as AddressInfo).port}/v1`, apiKey: DEFAULT_API_KEY, seed: 1, runs: 2, timeBudgetMs: 1 });
    expect(outcome.ok).toBe(false);
    expect(outcome.ok ? '' : outcome.report).toMatch(/expected status 400, got 201|got 201/);
  }, 60_000);
});
