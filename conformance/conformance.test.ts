import { defineConformanceSuite } from './suite.js';
import { targetFromEnv } from './target.js';

// The entry the CLI hands vitest (`npm run conformance -- --base-url URL --api-key KEY` sets the target in the
// environment). The suite never starts a server of its own: it is independent of the mock, which
// test/self-test/ runs it against. Run without a target, it says so instead of passing on nothing.
const fromEnv = targetFromEnv();
if (fromEnv === undefined) {
  throw new Error('no conformance target: run `npm run conformance -- --base-url URL --api-key KEY` (or set PETSTORE_BASE_URL and PETSTORE_API_KEY)');
}
defineConformanceSuite(fromEnv);
