import { describe, expect, test } from 'vitest';
import { loadModel } from '../model/loader.js';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * A register whose body and answer share a member name in two JSON kinds (spec/DECISIONS.md › D923), in the shape of
 * a game's API: the body's `faction` is the name of the faction chosen, the answer's `faction` is the faction itself
 * (an object), beside the issued `token`. The mock writes what was registered over the answer's user (D482) only where
 * the kinds agree, so its answer stays valid against its own schema, and the suite's checks of the register pass.
 */
const SPEC = `openapi: 3.0.3
info: { title: Fleet, version: '1' }
components:
  securitySchemes:
    AgentToken: { type: http, scheme: bearer }
security: [{ AgentToken: [] }]
paths:
  /register:
    post:
      operationId: register
      security: []
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [symbol, faction]
              properties:
                symbol: { type: string, minLength: 3, maxLength: 14 }
                faction: { enum: [NORTH, SOUTH] }
      responses:
        '201':
          description: Registered.
          content:
            application/json:
              schema:
                type: object
                required: [data]
                properties:
                  data:
                    type: object
                    required: [token, faction, symbol]
                    properties:
                      token: { type: string }
                      symbol: { type: string }
                      faction:
                        type: object
                        required: [symbol, name]
                        properties: { symbol: { type: string }, name: { type: string } }
  /my/agent:
    get:
      operationId: getMyAgent
      responses:
        '200': { description: Mine., content: { application/json: { schema: { type: object, properties: { data: { type: object, properties: { symbol: { type: string }, credits: { type: integer } } } } } } } }
`;

const started = specMock('register-shared-name', SPEC, ['k']);

describe('a register body and answer sharing a name in two kinds (D923)', () => {
  test("the answer keeps its own object, takes the registered text of the same kind, and is valid", async () => {
    const model = await loadModel(started.spec);
    const validate = model.operations.find((op) => op.operationId === 'register')!.responses.find((one) => one.status === '201')!.validate!;
    const made = await fetch(`${started.mock.baseUrl}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ symbol: 'BADGER', faction: 'NORTH' }) });
    expect(made.status).toBe(201);
    const body = (await made.json()) as { data: Record<string, unknown> };
    expect(validate(body), JSON.stringify(body)).toBe(true);
    expect(body.data['symbol']).toBe('BADGER');
    expect(typeof body.data['faction']).toBe('object');
  });

  test("the suite's checks of the register pass on our mock", async () => {
    await expectChecksPass(started, (id) => id.startsWith('register.') || id === 'responses.conformance', ['register.documented', 'responses.conformance']);
  }, 120_000);
});
