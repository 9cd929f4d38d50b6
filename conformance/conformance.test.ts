import { describe, it } from 'vitest';
import { defineConformanceSuite } from './suite.js';
import { targetFromEnv } from './target.js';

// The target comes from the environment (`npm run conformance -- --base-url URL --api-key KEY` sets it). The
// suite never starts a server of its own: it is independent of the mock (test/self-test/ runs it on the mock).
const fromEnv = targetFromEnv();
if (fromEnv === undefined) {
  describe('conformance suite', () => {
    it.skip('no target: set PETSTORE_BASE_URL and PETSTORE_API_KEY, or run `npm run conformance -- --base-url URL --api-key KEY`', () => {});
  });
} else {
  defineConformanceSuite(fromEnv);
}
