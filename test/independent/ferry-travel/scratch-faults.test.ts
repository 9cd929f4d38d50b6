import { join } from 'node:path';
import { test } from 'vitest';
import { forgetTarget, listCheckIds, runCheck } from '../../../conformance/suite.js';
import { PACKAGE_ROOT } from '../../../spec/model.js';
import { startFerryServer } from './server.js';
import { FERRY_FAULTS } from './faults.js';

test('scratch', async () => {
  const spec = join(PACKAGE_ROOT, 'spec', 'wild', 'ferry-travel-3.1.yaml');
  for (const { fault, killedBy } of FERRY_FAULTS) {
    const server = await startFerryServer({ tokens: ['k'], fault });
    const target = { baseUrl: server.baseUrl, apiKey: 'k', spec, runs: 10 };
    const failed: string[] = [];
    for (const id of await listCheckIds(target)) {
      const o = await runCheck(id, target);
      if (!o.ok) failed.push(id);
    }
    console.log(fault, '->', failed.includes(killedBy) ? 'KILLED' : 'MISSED', killedBy, '| failing:', failed.join(' '));
    await server.close();
    forgetTarget(server.baseUrl);
  }
}, 600_000);
