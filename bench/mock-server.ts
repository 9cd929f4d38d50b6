import { DEFAULT_API_KEY, startMock, type PetRecord, type PetStatus } from '../mock/index.js';

/**
 * The mock under test, run as a child process through its public API (`startMock`, port 0).
 * argv: `<storedPets>` (default 1000), the number of generated pets loaded at start; statuses cycle
 * available → pending → sold, ids 1..n, so a filtered page exists at any size.
 * IPC: sends `{ port }` once listening; answers `'rss'` with `{ rss }` in bytes after a forced GC
 * (run with `--expose-gc`).
 */
const STATUSES: PetStatus[] = ['available', 'pending', 'sold'];
const storedPets = Number(process.argv[2] ?? 1000);

function generate(count: number): PetRecord[] {
  return Array.from({ length: count }, (_, i) => ({ id: BigInt(i + 1), name: `pet-${i + 1}`, categoryId: BigInt(i % 50), status: STATUSES[i % 3]! }));
}

const mock = await startMock({ port: 0, pets: generate(storedPets), maxPets: 20_000_000, apiKeys: [DEFAULT_API_KEY] });
process.send?.({ port: new URL(mock.origin).port, size: mock.store.size });
process.on('message', (message) => {
  if (message !== 'rss') return;
  (globalThis as { gc?: () => void }).gc?.();
  process.send?.({ rss: process.memoryUsage.rss() });
});
process.on('disconnect', () => process.exit(0));
