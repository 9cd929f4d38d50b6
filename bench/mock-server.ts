import { DEFAULT_API_KEY, startMock } from '../mock/index.js';

/**
 * The mock under test, run as a child process through its public API (`startMock`, port 0).
 * argv: `<storedPets>` (default 1000): the mock starts empty and that many pets are added with
 * the first resource's `store.create` before it reports its port, as if a test run had posted them (statuses cycle
 * available → pending → sold, ids 1..n), so a filtered page exists at any size. Starting pets given as
 * `pets:` would also be kept as records for `POST /__admin/reset`, which is not what is measured here.
 * IPC: sends `{ port }` once listening; answers `'rss'` with `{ rss }` in bytes after two forced GCs
 * (run with `--expose-gc`).
 */
const STATUSES = ['available', 'pending', 'sold'] as const;
const storedPets = Number(process.argv[2] ?? 1000);

const mock = await startMock({ port: 0, pets: [], maxPets: 20_000_000, apiKeys: [DEFAULT_API_KEY] });
for (let i = 0; i < storedPets; i++) mock.store.create({ name: `pet-${i + 1}`, categoryId: BigInt(i % 50), status: STATUSES[i % 3] });
process.send?.({ port: new URL(mock.origin).port, size: mock.store.size });
process.on('message', (message) => {
  if (message !== 'rss') return;
  // Two full collections: the second frees what the first only finalised.
  (globalThis as { gc?: () => void }).gc?.();
  (globalThis as { gc?: () => void }).gc?.();
  process.send?.({ rss: process.memoryUsage.rss() });
});
process.on('disconnect', () => process.exit(0));
