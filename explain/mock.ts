import { provideCheckCatalogue } from '../mock/explain.js';

/**
 * `openapi-harness mock`: the mock's own entry (mock/cli.ts), its console's Explain page listing the suite's checks
 * too. The mock never imports the suite; this entry stands on both and hands the catalogue over first. The
 * catalogue loads only when the page asks, so the mock starts no slower.
 */
provideCheckCatalogue(async (model) => (await import('../conformance/catalogue.js')).checksFor(model).map((check) => ({ id: check.id, rule: check.rule })));
await import('../mock/cli.js');
