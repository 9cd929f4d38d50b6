import { test } from 'vitest';
import { independentTarget, INDEPENDENT_KEY, outcomes } from '../run-suite.js';
import { startGalleryServer, type GalleryFault } from './server.js';

const FAULTS: GalleryFault[] = ['start-date-ignored', 'end-date-exclusive', 'qr-as-json', 'bad-uuid-500'];
test('scratch', async () => {
  { const server = await startGalleryServer({ user: INDEPENDENT_KEY }); const results = await outcomes(independentTarget('gallery-3.1.yaml', server.baseUrl)); console.log('CORRECT', results.filter((r) => !r.ok).map((r) => (r.ok ? '' : r.report)).join('\n')); await server.close(); }
  for (const fault of FAULTS) {
    const server = await startGalleryServer({ user: INDEPENDENT_KEY, fault });
    const results = await outcomes(independentTarget('gallery-3.1.yaml', server.baseUrl));
    console.log(`FAULT ${fault}: ${results.filter((r) => !r.ok).map((r) => r.id).join(' ')}`);
    await server.close();
  }
}, 600_000);
