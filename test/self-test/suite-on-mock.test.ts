import { afterAll } from 'vitest';
import { defineConformanceSuite } from '../../conformance/suite.js';
import { startMock } from '../../mock/index.js';

// The whole suite, as `npm run conformance` runs it, against a fresh mock of the seed's spec on an ephemeral port.
const mock = await startMock({ port: 0, apiKeys: ['conformance-key'] });
afterAll(() => mock.close());

defineConformanceSuite({ baseUrl: mock.baseUrl, apiKey: 'conformance-key' });
