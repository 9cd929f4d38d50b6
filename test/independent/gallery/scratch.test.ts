import { test } from 'vitest';
import { failureText, independentTarget, INDEPENDENT_KEY, outcomes } from '../run-suite.js';
import { startGalleryServer } from './server.js';

test('scratch', async () => {
  const server = await startGalleryServer({ user: INDEPENDENT_KEY });
  const results = await outcomes(independentTarget('gallery-3.1.yaml', server.baseUrl));
  console.log(results.map((r) => `${r.id} ${r.ok ? (r.skipped ?? 'ok') : 'FAIL'}`).join('\n'));
  console.log(failureText(results));
  await server.close();
}, 300_000);
