import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listCheckIds, runCheck } from '../conformance/run-suite.js';
import type { ExplainedResource, Explanation } from '../mock/explain.js';
import { startMock, type StartedMock } from '../mock/index.js';
import { loadModel, PACKAGE_ROOT } from '../model/loader.js';
import type { ApiModel, OperationModel } from '../model/model.js';
import { validSample } from '../model/samples.js';
import { ensureBuilt } from './built-cli.js';
import { absentReason, sharedCorpusFile } from './shared-corpus.js';

/**
 * What `openapi-harness explain --json` prints for a real description (the Swagger Petstore 3,
 * ../shared/corpus/swagger-petstore/openapi.yaml: three resources, keys the client may choose, answers from
 * examples) is what the mock and the suite do with it:
 *
 * - each resource it lists with a create and a read keeps what the create sends: the record comes back from the
 *   read at its item path by the key it names, and after the delete it lists, the read answers 404;
 * - each operation it lists as answered from the description keeps nothing: the same call twice answers the same;
 * - the checks it lists are those a run of the suite against the mock lists (`listCheckIds`, which reads the
 *   description as a run does), and the suite's own checks of each resource's read and delete pass on the mock.
 */
const FILE = 'swagger-petstore/openapi.yaml';
const SPEC = sharedCorpusFile(FILE);
const KEY = 'agreement-key';

/** Runs the built `openapi-harness explain <spec> --json`; resolves with the document it printed. */
function explainJson(spec: string): Promise<Explanation> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [join(PACKAGE_ROOT, 'dist', 'cli', 'main.js'), 'explain', spec, '--json'], { timeout: 120_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error !== null) reject(new Error(`explain failed: ${stderr}`));
      else resolve(JSON.parse(stdout) as Explanation);
    });
  });
}

describe.skipIf(SPEC === undefined)(`explain --json against the mock and the suite, on the Swagger Petstore${SPEC === undefined ? ` (${absentReason(FILE)})` : ''}`, () => {
  let model: ApiModel;
  let explanation: Explanation;
  let mock: StartedMock;
  /** Sends one request with the credential the operation's first security scheme takes (any key is the mock's). */
  const call = async (op: OperationModel, path: string, body?: unknown): Promise<{ status: number; json: unknown }> => {
    const scheme = op.security[0];
    const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
    let query = '';
    if (scheme?.kind === 'apiKey' && scheme.in === 'header') headers[scheme.parameter.toLowerCase()] = KEY;
    else if (scheme?.kind === 'apiKey' && scheme.in === 'query') query = `?${scheme.parameter}=${KEY}`;
    else if (scheme?.kind === 'basic') headers['authorization'] = `Basic ${Buffer.from(`user:${KEY}`).toString('base64')}`;
    else if (scheme !== undefined) headers['authorization'] = `Bearer ${KEY}`;
    const response = await fetch(`${mock.baseUrl}${path}${query}`, { method: op.method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await response.text();
    return { status: response.status, json: text === '' ? undefined : (JSON.parse(text) as unknown) };
  };
  const operation = (operationId: string): OperationModel => model.operations.find((op) => op.operationId === operationId)!;
  const part = (resource: ExplainedResource, name: string): OperationModel | undefined => {
    const listed = resource.operations.find((op) => op.part === name);
    return listed === undefined ? undefined : operation(listed.operationId);
  };
  const itemPath = (op: OperationModel, key: unknown): string => op.path.replace(/\{[^}]+\}/, encodeURIComponent(String(key)));

  beforeAll(async () => {
    ensureBuilt();
    [explanation, model] = await Promise.all([explainJson(SPEC!), loadModel(SPEC!)]);
    mock = await startMock({ model, port: 0, apiKeys: [KEY] });
  }, 180_000);
  afterAll(async () => {
    await mock?.close();
  });

  test('each resource it lists with a create and a read keeps the record created, under the key it names, until its delete', async () => {
    const stateful = explanation.resources.filter((resource) => resource.parent === undefined && part(resource, 'create') !== undefined && part(resource, 'read') !== undefined);
    expect(stateful.map((resource) => resource.name).sort()).toEqual(['order', 'pet', 'user']);
    for (const resource of stateful) {
      const create = part(resource, 'create')!;
      const read = part(resource, 'read')!;
      const created = await call(create, create.path, validSample(create.body!.schema));
      expect(created.status, `${resource.name}: ${create.operationId}`).toBeLessThan(300);
      const key = (created.json as Record<string, unknown>)[resource.key.property];
      expect(key, `${resource.name}: the created record's ${resource.key.property}`).toBeDefined();
      const got = await call(read, itemPath(read, key));
      expect(got.status, `${resource.name}: ${read.operationId} of ${String(key)}`).toBe(200);
      expect((got.json as Record<string, unknown>)[resource.key.property]).toEqual(key);
      const remove = part(resource, 'delete');
      if (remove === undefined) continue;
      expect((await call(remove, itemPath(remove, key))).status, `${resource.name}: ${remove.operationId}`).toBeLessThan(300);
      expect((await call(read, itemPath(read, key))).status, `${resource.name}: ${read.operationId} after the delete`).toBe(404);
    }
  });

  test('a read of a key no create made answers 404 on each resource it lists, as a store would, not an example', async () => {
    for (const resource of explanation.resources.filter((one) => one.parent === undefined && part(one, 'read') !== undefined)) {
      const read = part(resource, 'read')!;
      const absent = resource.key.type === 'integer' ? 987_654_321 : 'never-created-987654321';
      expect((await call(read, itemPath(read, absent))).status, `${resource.name}: ${read.operationId}`).toBe(404);
    }
  });

  test('each operation it lists as answered from the description keeps nothing: two calls answer alike', async () => {
    const answered = explanation.answered.filter((one) => one.method === 'GET' && operation(one.operationId).pathParams.length === 0);
    expect(answered.length).toBeGreaterThan(0);
    for (const one of answered) {
      const op = operation(one.operationId);
      const first = await call(op, op.path);
      expect(first.status, one.operationId).toBe(one.status);
      expect(await call(op, op.path)).toEqual(first);
    }
  });

  test('the checks it lists are those a run of the suite lists, and the suite\'s checks of each read and delete it lists pass on the mock', async () => {
    const listed = explanation.checks!.flatMap((group) => group.checks.map((check) => check.id));
    const target = { baseUrl: mock.baseUrl, apiKey: KEY, spec: SPEC! };
    expect([...listed].sort()).toEqual((await listCheckIds(target)).sort());
    const byRole = explanation.resources.flatMap((resource) => resource.operations.filter((op) => op.part === 'read' || op.part === 'delete'));
    expect(byRole.length).toBeGreaterThanOrEqual(6);
    for (const op of byRole) {
      const id = `${op.operationId}.${op.part === 'read' ? 'found' : 'gone'}`;
      expect(listed, `explain lists ${id}`).toContain(id);
      const outcome = await runCheck(id, target);
      expect(outcome.ok ? outcome.skipped : outcome.report, id).toBeUndefined();
    }
  }, 120_000);
});
