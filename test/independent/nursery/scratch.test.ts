import { test } from 'vitest';
import { independentTarget, INDEPENDENT_KEY, outcomes } from '../run-suite.js';
import { startNurseryServer, type NurseryFault } from './server.js';

const FAULTS: NurseryFault[] = [];
test('scratch', async () => {
  { const server = await startNurseryServer({ key: INDEPENDENT_KEY }); const results = await outcomes(independentTarget('nursery-3.0.yaml', server.baseUrl)); console.log(results.map((r) => `${r.id} ${r.ok ? (r.skipped ?? 'ok') : 'FAIL'}`).join('\n')); console.log('CORRECT', results.filter((r) => !r.ok).map((r) => (r.ok ? '' : r.report)).join('\n')); await server.close(); }
  for (const fault of FAULTS) {
    const server = await startNurseryServer({ key: INDEPENDENT_KEY, fault });
    const results = await outcomes(independentTarget('nursery-3.0.yaml', server.baseUrl));
    console.log(`FAULT ${fault}: ${results.filter((r) => !r.ok).map((r) => r.id).join(' ')}`);
    await server.close();
  }
}, 600_000);
