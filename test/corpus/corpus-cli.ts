import { spawn } from 'node:child_process';
import { CLI_PATH, ensureBuilt } from '../built-cli.js';
import { corpusSpec } from './corpus.js';
import { CORPUS_KEY, type CorpusServer } from './harness.js';

/**
 * Starts the built CLI as a user would, `node dist/mock/cli.js --spec FILE --port 0 --api-key KEY --empty`
 * (building `dist/` first when it is stale), and reads the base URL from its banner (`serving <url>`), so that
 * the base path comes from the spec and not from the test. Rejects when no banner comes within 10 s.
 */
export async function startCorpusCli(name: string): Promise<CorpusServer> {
  ensureBuilt();
  const child = spawn(process.execPath, [CLI_PATH, '--spec', corpusSpec(name), '--port', '0', '--api-key', CORPUS_KEY, '--empty', '--log-level', 'warn'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within 10 s: ${output}`)), 10_000);
    const look = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const match = /serving (http:\/\/\S+)/.exec(output);
      if (match === null) return;
      clearTimeout(timer);
      resolve(match[1]!);
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the CLI exited with ${code} before its banner: ${output}`));
    });
  });
  return {
    baseUrl,
    close: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
