import { join } from 'node:path';
import { test } from 'vitest';
import { listCheckIds, runCheck } from '../../../conformance/suite.js';
import { PACKAGE_ROOT } from '../../../spec/model.js';
import { startFerryServer } from './server.js';
import type { FerryFault } from './faults.js';

test('scratch', async () => {
  const spec = join(PACKAGE_ROOT, 'spec', 'wild', 'ferry-travel-3.1.yaml');
  const fault = process.env['FAULT'] as FerryFault | undefined;
  const server = await startFerryServer({ tokens: ['k'], ...(fault ? { fault } : {}) });
  const target = { baseUrl: server.baseUrl, apiKey: 'k', spec, runs: 10 };
  for (const id of await listCheckIds(target)) {
    if (process.env['ONLY'] && !id.includes(process.env['ONLY'])) continue;
    const t = performance.now();
    const o = await runCheck(id, target);
    console.log(id, o.ok ? (o.skipped ? 'SKIP ' + o.skipped : 'ok') : 'FAIL\n' + o.report.slice(0, 2500), Math.round(performance.now() - t), 'ms', o.ok ? o.advice.join(' | ').slice(0, 300) : '');
  }
  await server.close();
}, 300_000);
