import { startProxy } from '../proxy/proxy.js';
import { loadModel } from '../model/loader.js';

/**
 * The validating proxy under test (bench/proxy-overhead.ts), through its public API, with no log (as a quiet
 * `--log-level warn` proxy in front of a correct upstream). argv: `<upstream base URL>`. IPC: sends `{ port }`.
 */
const proxy = await startProxy({ model: await loadModel(), upstream: process.argv[2]!, port: 0, mock: { admin: false, journalSize: 100 } });
process.send?.({ port: new URL(proxy.origin).port });
process.on('disconnect', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
