import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHARED_CORPUS } from '../shared-corpus.js';
import { startRealServer, type RealServer } from './server.js';

/** Debian's `prometheus-alertmanager` (0.25): the server and its official client. */
export const ALERTMANAGER_BIN = '/usr/bin/prometheus-alertmanager';
/** Debian's `amtool`, Alertmanager's command-line client. */
export const AMTOOL_BIN = '/usr/bin/amtool';
/** The description Alertmanager publishes (Swagger 2.0, base path `/api/v2/`). */
export const ALERTMANAGER_SPEC = join(SHARED_CORPUS, 'alertmanager', 'openapi.yaml');

/** Whether the server, its client and its description are all on this machine (tests skip and say so when not). */
export function alertmanagerInstalled(): boolean {
  return existsSync(ALERTMANAGER_BIN) && existsSync(AMTOOL_BIN) && existsSync(ALERTMANAGER_SPEC);
}

/** One route to one receiver that sends nothing: the smallest configuration Alertmanager accepts. */
const CONFIG = `route:
  receiver: team-null
receivers:
  - name: team-null
`;

/** A running Alertmanager: its origin and API base (`<origin>/api/v2`). */
export interface RunningAlertmanager extends RealServer {
  /** `http://127.0.0.1:<port>/api/v2`, the description's base path on the server. */
  apiBase: string;
}

/**
 * Starts the real Alertmanager on a free loopback port with gossip off (`--cluster.listen-address=` empty, so no
 * second port and no peers), a fresh temporary storage directory and the minimal configuration above, and waits
 * for `/-/ready`. `stop()` ends it and removes its directory. Errors: as {@link startRealServer}.
 */
export async function startAlertmanager(): Promise<RunningAlertmanager> {
  const dir = await mkdtemp(join(tmpdir(), 'alertmanager-'));
  const config = join(dir, 'alertmanager.yml');
  await writeFile(config, CONFIG);
  try {
    const server = await startRealServer({
      command: ALERTMANAGER_BIN,
      args: (port) => [`--config.file=${config}`, `--storage.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--cluster.listen-address=', '--log.level=warn'],
      readyPath: '/-/ready',
    });
    return {
      ...server,
      apiBase: `${server.origin}/api/v2`,
      async stop() {
        await server.stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
