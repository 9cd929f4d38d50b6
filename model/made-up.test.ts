import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { sharedCorpusFile } from '../test/shared-corpus.js';
import { loadModel } from './loader.js';
import { serverMadeAnswer, serverMadeSample } from './made-up.js';
import { validAnswer, validatorOf } from './samples.js';
import type { Schema } from './schema.js';

/**
 * Samples of what the server makes hold no made-up state (DECISIONS D530): a list of placeholder items is empty, a
 * list whose items say something keeps its item, and the description's own example is answered as it is. Shown on
 * Alertmanager's description (the status, an alert's server-made `status`, the receivers) and on Jupyter Server's
 * (a kernel's spec file).
 */
const ALERTMANAGER = sharedCorpusFile('alertmanager/openapi.yaml');
const JUPYTER = '/usr/lib/python3/dist-packages/jupyter_server/services/api/api.yaml';

describe('serverMadeAnswer', () => {
  it.skipIf(ALERTMANAGER === undefined)("answers Alertmanager's status with no peer, an alert's status silenced by nothing, and no receiver", async () => {
    const model = await loadModel(ALERTMANAGER!);
    const content = (id: string): { schema: Schema; validate: ReturnType<typeof validatorOf> } => {
      const answer = model.operations.find((op) => op.operationId === id)!.responses.find((r) => r.status === '200')!.contents[0]!;
      return { schema: answer.schema!, validate: answer.validate };
    };
    const status = content('getStatus');
    // Before: one peer of placeholder texts; the cluster's other members, and the required texts, as sampled.
    expect((validAnswer(status.schema, status.validate).value as { cluster: { peers: unknown[] } }).cluster.peers).toEqual([{ name: 'string', address: 'string' }]);
    const lean = serverMadeAnswer(status.schema, status.validate);
    expect(lean.valid).toBe(true);
    expect(lean.value).toMatchObject({ cluster: { name: 'string', status: 'ready', peers: [] }, config: { original: 'string' } });
    const receivers = content('getReceivers');
    expect(serverMadeAnswer(receivers.schema, receivers.validate).value).toEqual([]);
    // An alert's `status`, which no write body names: its state from the enum, its lists of silences and inhibitions empty.
    const alert = model.resources.flatMap((resource) => Object.entries(resource.properties)).find(([name, schema]) => name === 'status' && JSON.stringify(schema).includes('silencedBy'))![1];
    expect(serverMadeSample(alert)).toEqual({ state: 'unprocessed', silencedBy: [], inhibitedBy: [] });
  });

  it.skipIf(!existsSync(JUPYTER))("answers Jupyter's kernel spec file with no argument, and keeps a help link, whose url has a format", () => {
    const definitions = (parse(readFileSync(JUPYTER, 'utf8')) as { definitions: Record<string, Schema> }).definitions;
    const file = definitions['KernelSpecFile']!;
    const value = serverMadeAnswer(file, validatorOf(file)).value as Record<string, unknown>;
    expect(value['argv']).toEqual([]);
    expect(value['language']).toBe('string');
    expect(value['help_links']).toHaveLength(1);
  });

  it("answers the description's own example as it is, and keeps the items a list's `minItems` asks for", () => {
    const list: Schema = { type: 'array', items: { type: 'string' } };
    expect(serverMadeAnswer(list, validatorOf(list), [['a', 'b']]).value).toEqual(['a', 'b']);
    expect(serverMadeAnswer({ ...list, example: ['x'] }, undefined).value).toEqual(['x']);
    const atLeastOne: Schema = { type: 'array', minItems: 1, items: { type: 'string' } };
    expect(serverMadeAnswer(atLeastOne, validatorOf(atLeastOne)).value).toEqual(['string']);
    const counted: Schema = { type: 'object', properties: { tags: list, sizes: { type: 'array', items: { type: 'integer' } }, kinds: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } } } };
    expect(serverMadeAnswer(counted, validatorOf(counted)).value).toEqual({ tags: [], sizes: [expect.any(Number)], kinds: ['a'] });
  });
});
