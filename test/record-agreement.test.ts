import { describe, expect, test } from 'vitest';
import { modelOf } from '../conformance/contract.js';
import { runSuite } from '../conformance/run-suite.js';
import { specMock } from './spec-mock.js';

/**
 * Shapes of a large public description where the mock answered what its own schema refuses, or a record read
 * otherwise than it was listed (spec/DECISIONS.md › D230-D232, D235-D237, D239), written small: a list of names beside the
 * records they name, a list whose items ask an account to be a user and an organisation at once, an update sending
 * a machine's name where the record holds a machine object, and a create sending a homepage the record's `uri`
 * refuses; and a record addressed by its owner's login beside its own key (`/repos/{owner}/{repo}`, D236), which
 * the suite reads under the owner its record shows. The mock answers each as documented, and the suite at its
 * defaults finds no failure against it and leaves no check not run.
 */
const SPEC = `openapi: 3.0.3
info: { title: Records that agree, version: '1' }
paths:
  /templates:
    get:
      operationId: listTemplates
      responses:
        '200':
          description: the names of the templates
          content:
            application/json:
              schema: { type: array, items: { type: string } }
              example: [C, Go]
  /templates/{name}:
    get:
      operationId: getTemplate
      parameters: [{ name: name, in: path, required: true, schema: { type: string } }]
      responses:
        '200':
          description: one template
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Template' }
              examples:
                c: { value: { name: C, source: '*.o' } }
                go: { value: { name: Go, source: '*.exe' } }
        '404': { description: not found, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
  /installs:
    get:
      operationId: listInstalls
      responses:
        '200':
          description: the installs, each account described as a user and an organisation at once
          content:
            application/json:
              schema:
                type: array
                items:
                  type: object
                  required: [id, account]
                  properties:
                    id: { type: integer }
                    account: { allOf: [{ $ref: '#/components/schemas/User' }, { $ref: '#/components/schemas/Org' }] }
              example: [{ id: 1, account: { login: octo, id: 7 } }]
  /installs/{installId}:
    get:
      operationId: getInstall
      parameters: [{ name: installId, in: path, required: true, schema: { type: integer } }]
      responses:
        '200':
          description: one install
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Install' }
              example: { id: 1, account: { login: octo, id: 7 } }
        '404': { description: not found, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
  /user/repos:
    post:
      operationId: createRepo
      requestBody:
        required: true
        content: { application/json: { schema: { type: object, required: [name], properties: { name: { type: string } } } } }
      responses:
        '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Repo' } } } }
  /repos/{owner}/{repo}:
    get:
      operationId: getRepo
      parameters:
        - { name: owner, in: path, required: true, schema: { type: string }, description: The account owner of the repository. }
        - { name: repo, in: path, required: true, schema: { type: string }, description: The name of the repository. }
      responses:
        '200': { description: one repository, content: { application/json: { schema: { $ref: '#/components/schemas/Repo' } } } }
        '404': { description: not found, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
  /boxes:
    get:
      operationId: listBoxes
      parameters:
        - { name: label, in: query, required: false, description: Only the boxes with this label., schema: { type: string, default: none } }
      responses:
        '200': { description: the boxes, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Box' } } } } }
    post:
      operationId: createBox
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [label]
              properties:
                label: { type: string }
                homepage: { type: string }
                machine: { type: string }
      responses:
        '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Box' } } } }
  /boxes/{boxId}:
    get:
      operationId: getBox
      parameters: [{ name: boxId, in: path, required: true, schema: { type: integer } }]
      responses:
        '200': { description: one box, content: { application/json: { schema: { $ref: '#/components/schemas/Box' } } } }
        '404': { description: not found, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
    patch:
      operationId: updateBox
      parameters: [{ name: boxId, in: path, required: true, schema: { type: integer } }]
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              properties:
                label: { type: string }
                note: { type: string, nullable: true }
                machine: { type: string, description: the name of a machine to move the box to }
      responses:
        '200': { description: updated, content: { application/json: { schema: { $ref: '#/components/schemas/Box' } } } }
        '404': { description: not found, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
components:
  schemas:
    Error:
      type: object
      properties: { message: { type: string } }
    Template:
      type: object
      required: [name, source]
      properties:
        name: { type: string }
        source: { type: string }
    User:
      type: object
      required: [login, id]
      properties:
        login: { type: string }
        id: { type: integer }
    Org:
      type: object
      required: [slug, id]
      properties:
        slug: { type: string, example: octo-org }
        id: { type: integer }
    Install:
      type: object
      required: [id, account]
      properties:
        id: { type: integer }
        account: { anyOf: [{ $ref: '#/components/schemas/User' }, { $ref: '#/components/schemas/Org' }] }
    Repo:
      type: object
      required: [id, name, owner]
      properties:
        id: { type: integer, readOnly: true }
        name: { type: string }
        owner: { $ref: '#/components/schemas/User' }
    Box:
      type: object
      required: [id, label, note, link]
      properties:
        id: { type: integer, readOnly: true }
        label: { type: string }
        note: { type: string, nullable: true }
        link: { type: string, format: uri, default: '' }
        homepage: { type: string, format: uri }
        machine:
          type: object
          nullable: true
          properties: { name: { type: string } }
`;

const KEY = 'agreement-key-0123456789';
const started = specMock('record-agreement', SPEC, [KEY]);

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${started.mock.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as unknown };
}

describe('records that agree with every answer documented for them', () => {
  test('a list of scalars answers the keys of the records it names (D231)', async () => {
    const listed = await call('GET', '/templates');
    expect(listed.status).toBe(200);
    expect([...(listed.json as string[])].sort()).toEqual(['C', 'Go']);
    expect((await call('GET', '/templates/Go')).json).toEqual({ name: 'Go', source: '*.exe' });
  });

  test("a record is read as its list shows it, nested members included, its example's values kept (D230)", async () => {
    const [listed] = (await call('GET', '/installs')).json as Record<string, unknown>[];
    const read = await call('GET', '/installs/1');
    expect(read.json).toEqual(listed);
    expect(read.json).toMatchObject({ id: 1, account: { login: 'octo', id: 7 } });
    expect(typeof (read.json as { account: { slug: unknown } }).account.slug).toBe('string');
  });

  test("an update sending a member in another type than the record's keeps the record's own value (D232)", async () => {
    const created = await call('POST', '/boxes', { label: 'a', machine: 'small' });
    expect(created.status).toBe(201);
    const id = (created.json as { id: number }).id;
    const updated = await call('PATCH', `/boxes/${id}`, { machine: 'large', label: 'b' });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({ id, label: 'b' });
    expect((updated.json as Record<string, unknown>)['machine'] ?? null).not.toBe('large');
    expect((await call('GET', `/boxes/${id}`)).json).toEqual(updated.json);
  });

  test("a create's value the record's member refuses is not kept (D235)", async () => {
    const created = await call('POST', '/boxes', { label: 'c', homepage: '' });
    expect(created.status).toBe(201);
    expect(created.json).not.toHaveProperty('homepage', '');
    const kept = await call('POST', '/boxes', { label: 'd', homepage: 'https://example.com/d' });
    expect(kept.json).toMatchObject({ homepage: 'https://example.com/d' });
  });

  test('a default its own schema refuses is not answered; a required nullable member patched with null is null (D237)', async () => {
    const created = await call('POST', '/boxes', { label: 'e' });
    expect(created.status).toBe(201);
    const box = created.json as { id: number; link: string };
    expect(box.link).toMatch(/^[a-z][a-z0-9+.-]*:/i);
    const cleared = await call('PATCH', `/boxes/${box.id}`, { note: null });
    expect(cleared.status).toBe(200);
    expect(cleared.json).toHaveProperty('note', null);
  });

  test("a free-text filter's default narrows nothing (D239)", async () => {
    const created = await call('POST', '/boxes', { label: 'listed' });
    const listed = (await call('GET', '/boxes')).json as { id: number }[];
    expect(listed.map((box) => box.id)).toContain((created.json as { id: number }).id);
    expect(((await call('GET', '/boxes?label=listed')).json as { label: string }[]).every((box) => box.label === 'listed')).toBe(true);
  });

  test('the suite finds no failure against the mock', async () => {
    const { checks } = await runSuite(await modelOf(started.spec), { baseUrl: started.mock.baseUrl, apiKey: KEY, spec: started.spec, runs: 10 });
    expect(checks.length).toBeGreaterThan(10);
    expect(checks.filter((check) => check.state === 'failed').map((check) => `${check.id}\n${check.report ?? ''}`).join('\n\n')).toBe('');
    expect(checks.filter((check) => check.state === 'skipped').map((check) => check.id)).toEqual([]);
  }, 120_000);
});
