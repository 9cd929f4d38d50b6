import { describe, expect, test } from 'vitest';
import { expectChecksPass, specMock } from './spec-mock.js';

/**
 * A create that names things by their text where the record lists the objects they name (`repositories: [string]`
 * sent, `repositories: [Repository]` answered; spec/DECISIONS.md › D626): our mock answers a list its own schema
 * takes, never the names as sent, and the suite expects no echo of them.
 */
const SPEC = `openapi: 3.0.3
info: { title: Moves, version: '1' }
paths:
  /user/migrations:
    get:
      operationId: listMigrations
      parameters:
        - { name: per_page, in: query, schema: { type: integer, minimum: 1, maximum: 100, default: 30 } }
        - { name: page, in: query, schema: { type: integer, minimum: 1, default: 1 } }
      responses:
        '200': { description: All., content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Migration' } } } } }
    post:
      operationId: startMigration
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [repositories]
              properties:
                lock_repositories: { type: boolean }
                repositories: { type: array, items: { type: string, maxLength: 30 } }
      responses:
        '201': { description: Started., content: { application/json: { schema: { $ref: '#/components/schemas/Migration' } } } }
  /user/migrations/{migration_id}:
    get:
      operationId: getMigration
      parameters: [{ name: migration_id, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: One., content: { application/json: { schema: { $ref: '#/components/schemas/Migration' } } } }
        '404': { description: None. }
components:
  schemas:
    Migration:
      type: object
      required: [id, lock_repositories, repositories]
      properties:
        id: { type: integer }
        lock_repositories: { type: boolean }
        repositories:
          type: array
          items:
            type: object
            required: [id, name, full_name]
            properties:
              id: { type: integer }
              name: { type: string }
              full_name: { type: string }
`;

const started = specMock('names-for-objects', SPEC, ['k']);

describe('names sent where the record lists objects (D626)', () => {
  test("the mock answers the list in the record's form", async () => {
    const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };
    const made = await fetch(`${started.mock.baseUrl}/user/migrations`, { method: 'POST', headers, body: JSON.stringify({ repositories: ['octo', 'cat'], lock_repositories: true }) });
    expect(made.status).toBe(201);
    const body = (await made.json()) as { id: number; repositories: unknown[]; lock_repositories: boolean };
    expect(body.lock_repositories).toBe(true);
    expect(body.repositories.every((item) => item !== null && typeof item === 'object')).toBe(true);
    const listed = (await (await fetch(`${started.mock.baseUrl}/user/migrations`, { headers })).json()) as { repositories: unknown[] }[];
    expect(listed.every((one) => one.repositories.every((item) => item !== null && typeof item === 'object'))).toBe(true);
  });

  test("the suite's checks pass on our mock", async () => {
    await expectChecksPass(started, (id) => !id.startsWith('auth.'), ['startMigration.echo', 'getMigration.found', 'listMigrations.invalid-query', 'listMigrations.pages']);
  }, 90_000);
});
