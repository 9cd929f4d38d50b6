import { afterAll } from 'vitest';
import { startMock } from '../mock/index.js';
import { defineConformanceSuite } from './suite.js';
import { targetFromEnv } from './target.js';

// The target comes from the environment (`npm run conformance -- --base-url URL --api-key KEY` sets it);
// without one, `npm test` points the suite at a fresh mock on an ephemeral port.
const fromEnv = targetFromEnv();
const mock = fromEnv === undefined ? await startMock({ port: 0, apiKeys: ['conformance-key'] }) : undefined;
if (mock !== undefined) afterAll(() => mock.close());

defineConformanceSuite(fromEnv ?? { baseUrl: mock!.baseUrl, apiKey: 'conformance-key' });
